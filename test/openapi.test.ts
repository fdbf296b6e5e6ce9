import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { Validator } from '@seriousme/openapi-schema-validator';
import { xml2js, type Element } from 'xml-js';

import { substitutionExpansion } from '../bench/documents.js';
import type { OpenApiDocument, Parameter } from '../src/http/openapi-types.js';
import { paths } from '../src/paths.js';
import type { RunningServer } from '../src/server.js';
import { loadCatalogue } from '../src/styles.js';
import { DescriptionChecker, type Exchange, type SentRequest } from './support/openapi-check.js';
import { server } from './support/server.js';
import { waitFor } from './support/wait-for.js';

const API = '/1.0/rst2';
const DOC = 'Title\n=====\n\nSome *text* and a `link <https://example.org/>`_.\n';
const PDF_DOC = 'A PDF\n=====\n\nSome *text*.\n';

async function fetchDescription(s: RunningServer): Promise<OpenApiDocument> {
  const res = await fetch(`${s.url}/1.0/openapi.json`);
  expect(res.status).to.equal(200);
  return (await res.json()) as OpenApiDocument;
}

describe('openapi: the description is valid OpenAPI 3.1', () => {
  let s: RunningServer;
  let doc: OpenApiDocument;
  before(async () => {
    s = await server();
    doc = await fetchDescription(s);
  });

  it('passes the OpenAPI 3.1 schema (@seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator();
    // Exactly the bytes served, parsed afresh.
    const served = JSON.parse(await (await fetch(`${s.url}/1.0/openapi.json`)).text()) as Record<string, unknown>;
    const result = await validator.validate(served);
    expect(result.errors ?? [], JSON.stringify(result.errors ?? null).slice(0, 2000)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
    expect(validator.version).to.equal('3.1');
  });

  it('every schema in it compiles in ajv (JSON Schema 2020-12, strict) and every $ref resolves', () => {
    const checker = new DescriptionChecker(doc);
    const found: string[][] = [];
    const walk = (node: unknown, at: string[]): void => {
      if (node === null || typeof node !== 'object') return;
      for (const [key, value] of Object.entries(node)) {
        if (key === '$ref') expect(() => checker.resolve({ $ref: String(value) }), `${at.join('/')}`).to.not.throw();
        // `schema` holds a schema in parameters, headers and media types; components.schemas holds named ones.
        if (key === 'schema' || (at.length === 2 && at[0] === 'components' && at[1] === 'schemas')) found.push([...at, key]);
        else walk(value, [...at, key]);
      }
    };
    walk(doc, []);
    expect(found.length).to.be.greaterThan(50);
    for (const at of found) expect(() => checker.validatorAt(at), at.join('/')).to.not.throw();
  });

  it('operation ids are unique, and every operation has a 2xx answer and a summary', () => {
    const ops = new DescriptionChecker(doc).operations();
    const ids = ops.map((o) => o.operation.operationId);
    expect(new Set(ids).size).to.equal(ids.length);
    for (const { path, method, operation } of ops) {
      expect(Object.keys(operation.responses).some((status) => status.startsWith('2')), `${method} ${path}`).to.equal(true);
      expect(operation.summary, `${method} ${path}`).to.be.a('string').and.not.empty;
    }
  });

  it('the enums of styles and classes are the catalogue, as the list operations give it', async () => {
    const catalogue = loadCatalogue(paths.styles);
    const param = (name: string): Parameter => doc.components.parameters[name]!;
    const listed = async (path: string, item: string) => {
      const tree = xml2js(await (await fetch(`${s.url}${API}${path}`)).text(), { compact: false }) as Element;
      const root = tree.elements!.find((e) => e.type === 'element')!;
      return (root.elements ?? []).filter((e) => e.name === item).map((e) => String(e.attributes!.name));
    };
    expect(param('HtmlStyle').schema.enum).to.deep.equal(catalogue.htmlStyles).and.deep.equal(await listed('/html/styles', 'style'));
    expect(param('LatexStyle').schema.enum).to.deep.equal(catalogue.latexStyles).and.deep.equal(await listed('/pdf/styles', 'style'));
    expect(param('LatexClass').schema.enum).to.deep.equal(catalogue.latexClasses).and.deep.equal(await listed('/pdf/classes', 'class'));
    expect(catalogue.htmlStyles.length).to.be.greaterThan(1);
  });

  it('is served with CORS-friendly caching: ETag, Cache-Control, Access-Control-Allow-Origin, 304 on a match', async () => {
    const first = await fetch(`${s.url}/1.0/openapi.json`, { headers: { Origin: 'https://elsewhere.example' } });
    expect(first.headers.get('access-control-allow-origin')).to.equal('*');
    expect(first.headers.get('cache-control')).to.equal('public, max-age=300');
    const etag = first.headers.get('etag');
    expect(etag).to.match(/^"[0-9a-f]{32}"$/);
    const again = await fetch(`${s.url}/1.0/openapi.json`, { headers: { 'If-None-Match': etag! } });
    expect(again.status).to.equal(304);
    expect((await again.arrayBuffer()).byteLength).to.equal(0);
  });
});

/** One request of the table: what to send, on which server, and the answer the service must give. */
interface Row {
  name: string;
  on?: 'default' | 'open';
  status: number;
  code?: string;
  send: (c: TableContext) => Promise<Sent> | Sent;
}

interface Sent extends SentRequest {
  headers?: Record<string, string>;
  body?: BodyInit;
}

interface TableContext {
  upstream: string;
  closedPort: number;
  token: string;
  /** A new token of its own and its deletion key (the same while the table runs: one document). */
  createToken: () => Promise<{ token: string; key: string }>;
  etagOf: (target: string) => Promise<string>;
  lastHtmlStyle: string;
}

const get = (target: string, headers?: Record<string, string>): Sent => ({ method: 'GET', target, headers });
const deletion = (token: string, key?: string): Sent => ({ method: 'DELETE', target: `${API}/token/${token}`, headers: key === undefined ? {} : { 'X-Rst2-Deletion-Key': key } });
const q = (fields: Record<string, string>): string => `?${new URLSearchParams(fields).toString()}`;

function urlencoded(target: string, fields: Record<string, string>, headers: Record<string, string> = {}): Sent {
  return { method: 'POST', target, contentType: 'application/x-www-form-urlencoded', fields: Object.keys(fields), body: new URLSearchParams(fields), headers };
}

function multipart(target: string, fields: Record<string, string>, files: Record<string, string> = {}): Sent {
  const body = new FormData();
  for (const [name, value] of Object.entries(fields)) body.append(name, value);
  for (const [name, value] of Object.entries(files)) body.append(name, new Blob([value]), `${name}.rst`);
  return { method: 'POST', target, contentType: 'multipart/form-data', fields: [...Object.keys(fields), ...Object.keys(files)], body };
}

function raw(target: string, contentType: string, body: string, charset?: string): Sent {
  return { method: 'POST', target, contentType, charset, headers: { 'Content-Type': charset ? `${contentType}; charset=${charset}` : contentType }, body };
}

const BIG = 'x'.repeat(2 * 1024 * 1024 + 10);
const deepNesting = Array.from({ length: 200 }, (_, i) => `${'  '.repeat(i)}* level ${i}\n`).join('\n');
const substitutionBomb = substitutionExpansion();

const ROWS: Row[] = [
  // render HTML
  { name: 'GET html with rst', status: 200, send: () => get(`${API}/html${q({ rst: DOC })}`) },
  { name: 'GET html with an empty style (the default)', status: 200, send: () => get(`${API}/html${q({ rst: DOC, style: '' })}`) },
  { name: 'GET html with the last style of the catalogue', status: 200, send: (c) => get(`${API}/html${q({ rst: DOC, style: c.lastHtmlStyle })}`) },
  { name: 'POST html urlencoded with a style', status: 200, send: () => urlencoded(`${API}/html`, { rst: DOC, style: 'default' }) },
  { name: 'POST html with format=parts (JSON)', status: 200, send: () => urlencoded(`${API}/html`, { rst: DOC, format: 'parts' }) },
  { name: 'GET html with format=fragment', status: 200, send: () => get(`${API}/html${q({ rst: DOC, format: 'fragment' })}`) },
  { name: 'GET html with format=page (the default)', status: 200, send: () => get(`${API}/html${q({ rst: DOC, format: 'page' })}`) },
  { name: 'POST html multipart with an uploaded file', status: 200, send: () => multipart(`${API}/html`, { style: 'default' }, { rst: DOC }) },
  { name: 'POST html raw text/x-rst, options in the query', status: 200, send: () => raw(`${API}/html${q({ style: 'default' })}`, 'text/x-rst', DOC) },
  { name: 'POST html raw text/plain; charset=utf-8', status: 200, send: () => raw(`${API}/html`, 'text/plain', DOC, 'utf-8') },
  { name: 'GET html with a token', status: 200, send: (c) => get(`${API}/html${q({ token: c.token })}`) },
  { name: 'GET html If-None-Match', status: 304, send: async (c) => get(`${API}/html${q({ rst: DOC })}`, { 'If-None-Match': await c.etagOf(`${API}/html${q({ rst: DOC })}`) }) },
  {
    name: 'POST html If-None-Match',
    status: 304,
    send: async (c) => ({ ...urlencoded(`${API}/html`, { rst: DOC }), headers: { 'If-None-Match': await c.etagOf(`${API}/html${q({ rst: DOC })}`) } }),
  },
  { name: 'html without input', status: 400, code: 'input_missing', send: () => get(`${API}/html`) },
  { name: 'html with two inputs', status: 400, code: 'input_ambiguous', send: () => get(`${API}/html${q({ rst: DOC, uri: 'https://example.org/a.rst' })}`) },
  { name: 'html with an unknown parameter', status: 400, code: 'unknown_parameter', send: () => get(`${API}/html${q({ rst: DOC, colour: 'red' })}`) },
  { name: 'html with a parameter twice', status: 400, code: 'duplicate_parameter', send: () => get(`${API}/html?rst=a&rst=b`) },
  { name: 'html with an unknown style', status: 400, code: 'unknown_style', send: () => get(`${API}/html${q({ rst: DOC, style: 'no-such-style' })}`) },
  { name: 'html with a malformed token', status: 400, code: 'token_invalid', send: () => get(`${API}/html${q({ token: 'not-a-token' })}`) },
  { name: 'html with an unknown token', status: 404, code: 'token_not_found', send: () => get(`${API}/html${q({ token: '0'.repeat(32) })}`) },
  { name: 'html with bytes that are not UTF-8', status: 400, code: 'invalid_utf8', send: () => get(`${API}/html?rst=Hi%FF`) },
  { name: 'html with a malformed percent escape', status: 400, code: 'bad_request', send: () => get(`${API}/html?rst=100%zz`) },
  { name: 'html with a uri to loopback', status: 400, code: 'uri_forbidden_address', send: () => get(`${API}/html${q({ uri: 'http://127.0.0.1:9/doc.rst' })}`) },
  { name: 'html with a uri that is not http', status: 400, code: 'uri_invalid', send: () => get(`${API}/html${q({ uri: 'ftp://example.org/doc.rst' })}`) },
  { name: 'POST html raw body too large', status: 413, code: 'body_too_large', send: () => raw(`${API}/html`, 'text/plain', BIG) },
  { name: 'POST html JSON body', status: 415, code: 'unsupported_media_type', send: () => raw(`${API}/html`, 'application/json', JSON.stringify({ rst: DOC })) },
  { name: 'POST html body in latin1', status: 415, code: 'unsupported_charset', send: () => raw(`${API}/html`, 'text/x-rst', 'Caf\xe9', 'iso-8859-1') },
  {
    name: 'POST html broken multipart',
    status: 400,
    code: 'bad_multipart',
    send: () => ({
      method: 'POST',
      target: `${API}/html`,
      contentType: 'multipart/form-data',
      headers: { 'Content-Type': 'multipart/form-data; boundary=zzz' },
      body: '--zzz\r\nContent-Disposition: form-data; name="rst"\r\n\r\nunfinished',
    }),
  },
  {
    name: 'POST html multipart with more files than the limit',
    status: 400,
    code: 'bad_multipart',
    send: () => {
      // Five uploads of the one documented file field: the count is refused before any duplicate is.
      const body = new FormData();
      for (let i = 0; i < 5; i++) body.append('rst', new Blob([DOC]), `doc${i}.rst`);
      return { method: 'POST', target: `${API}/html`, contentType: 'multipart/form-data', fields: ['rst'], body };
    },
  },
  { name: 'html nested too deeply', status: 422, code: 'document_too_deep', send: () => urlencoded(`${API}/html`, { rst: deepNesting }) },
  { name: 'html whose output would be too large', status: 422, code: 'output_too_large', send: () => raw(`${API}/html`, 'text/x-rst', substitutionBomb) },
  { name: 'DELETE html', status: 405, code: 'method_not_allowed', send: () => ({ method: 'DELETE', target: `${API}/html` }) },
  { name: 'PROPFIND html', status: 501, code: 'not_implemented', send: () => ({ method: 'PROPFIND', target: `${API}/html` }) },

  // render PDF
  { name: 'GET pdf with rst', status: 200, send: () => get(`${API}/pdf${q({ rst: PDF_DOC })}`) },
  {
    name: 'POST pdf multipart with class, style and use-latex-toc',
    status: 200,
    send: () => multipart(`${API}/pdf`, { class: 'scrartcl', style: 'default', 'use-latex-toc': 'yes' }, { rst: PDF_DOC }),
  },
  { name: 'GET pdf If-None-Match', status: 304, send: async (c) => get(`${API}/pdf${q({ rst: PDF_DOC })}`, { 'If-None-Match': await c.etagOf(`${API}/pdf${q({ rst: PDF_DOC })}`) }) },
  { name: 'pdf with an unknown class', status: 400, code: 'unknown_class', send: () => urlencoded(`${API}/pdf`, { rst: PDF_DOC, class: 'letter' }) },
  { name: 'pdf with an unknown LaTeX style', status: 400, code: 'unknown_style', send: () => get(`${API}/pdf${q({ rst: PDF_DOC, style: 'no-such-style' })}`) },
  { name: 'pdf with use-latex-toc=maybe', status: 400, code: 'unknown_use_latex_toc', send: () => get(`${API}/pdf${q({ rst: PDF_DOC, 'use-latex-toc': 'maybe' })}`) },
  { name: 'pdf with an unknown token', status: 404, code: 'token_not_found', send: () => get(`${API}/pdf${q({ token: 'f'.repeat(32) })}`) },
  { name: 'pdf whose LaTeX would be too large', status: 422, code: 'output_too_large', send: () => raw(`${API}/pdf`, 'text/x-rst', substitutionBomb) },
  { name: 'pdf whose LaTeX fails', status: 422, code: 'latex_failed', send: () => get(`${API}/pdf${q({ rst: 'Maths: :math:`x^{2}^{3}`\n' })}`) },
  { name: 'POST pdf urlencoded too large', status: 413, code: 'body_too_large', send: () => urlencoded(`${API}/pdf`, { rst: BIG }) },
  { name: 'POST pdf XML body', status: 415, code: 'unsupported_media_type', send: () => raw(`${API}/pdf`, 'application/xml', '<rst/>') },
  { name: 'PUT pdf', status: 405, code: 'method_not_allowed', send: () => ({ method: 'PUT', target: `${API}/pdf`, body: 'x' }) },

  // check
  { name: 'GET check of a correct document', status: 200, send: () => get(`${API}/check${q({ rst: DOC })}`) },
  { name: 'POST check urlencoded with problems', status: 200, send: () => urlencoded(`${API}/check`, { rst: 'Bad\n==\n\n`unclosed\n\n.. unknown-directive::\n' }) },
  { name: 'POST check raw text/x-rst', status: 200, send: () => raw(`${API}/check`, 'text/x-rst', 'See target_.\n') },
  { name: 'POST check multipart text field', status: 200, send: () => multipart(`${API}/check`, { rst: DOC }) },
  { name: 'GET check with a token', status: 200, send: (c) => get(`${API}/check${q({ token: c.token })}`) },
  { name: 'GET check If-None-Match', status: 304, send: async (c) => get(`${API}/check${q({ rst: DOC })}`, { 'If-None-Match': await c.etagOf(`${API}/check${q({ rst: DOC })}`) }) },
  { name: 'html on which docutils itself raises', status: 422, code: 'docutils_failed', send: () => urlencoded(`${API}/html`, { rst: '|a|\n\n.. |a| replace:: |b| x\n.. |a| replace:: |b| x\n' }) },
  { name: 'check on which docutils itself raises', status: 422, code: 'docutils_failed', send: () => raw(`${API}/check`, 'text/x-rst', '|a|\n\n.. |a| replace:: |b| x\n.. |a| replace:: |b| x\n') },
  { name: 'check whose expansion would be too large', status: 422, code: 'output_too_large', send: () => raw(`${API}/check`, 'text/x-rst', substitutionBomb) },
  { name: 'check nested too deeply', status: 422, code: 'document_too_deep', send: () => raw(`${API}/check`, 'text/x-rst', deepNesting) },
  { name: 'check with an unknown token', status: 404, code: 'token_not_found', send: () => get(`${API}/check${q({ token: 'a'.repeat(32) })}`) },
  { name: 'check with a style', status: 400, code: 'unknown_parameter', send: () => get(`${API}/check${q({ rst: DOC, style: 'default' })}`) },
  { name: 'POST check multipart file too large', status: 413, code: 'body_too_large', send: () => multipart(`${API}/check`, {}, { rst: BIG }) },
  { name: 'POST check text/html body', status: 415, code: 'unsupported_media_type', send: () => raw(`${API}/check`, 'text/html', '<p>x</p>') },
  // fix
  { name: 'GET fix of a document with problems (the fixed text)', status: 200, send: () => get(`${API}/fix${q({ rst: 'Title long\n=====\n\n* a\nb\n' })}`) },
  { name: 'POST fix unsafe=1 format=json', status: 200, send: () => urlencoded(`${API}/fix`, { rst: '.. notte:: x\n', unsafe: '1', format: 'json' }) },
  { name: 'GET fix If-None-Match', status: 304, send: async (c) => get(`${API}/fix${q({ rst: DOC })}`, { 'If-None-Match': await c.etagOf(`${API}/fix${q({ rst: DOC })}`) }) },
  { name: 'POST fix If-None-Match', status: 304, send: async (c) => urlencoded(`${API}/fix`, { rst: DOC }, { 'If-None-Match': await c.etagOf(`${API}/fix${q({ rst: DOC })}`) }) },
  { name: 'GET fix with unsafe=yes', status: 400, code: 'unknown_unsafe', send: () => get(`${API}/fix${q({ rst: DOC, unsafe: 'yes' })}`) },
  { name: 'POST fix with format=xml', status: 400, code: 'unknown_fix_format', send: () => urlencoded(`${API}/fix`, { rst: DOC, format: 'xml' }) },
  { name: 'POST html with format=json', status: 400, code: 'unknown_html_format', send: () => urlencoded(`${API}/html`, { rst: DOC, format: 'json' }) },
  { name: 'GET fix with an unknown token', status: 404, code: 'token_not_found', send: () => get(`${API}/fix${q({ token: 'a'.repeat(32) })}`) },
  { name: 'POST fix with an unknown token', status: 404, code: 'token_not_found', send: () => urlencoded(`${API}/fix`, { token: 'a'.repeat(32) }) },
  { name: 'POST fix multipart file too large', status: 413, code: 'body_too_large', send: () => multipart(`${API}/fix`, {}, { rst: BIG }) },
  { name: 'POST fix text/html body', status: 415, code: 'unsupported_media_type', send: () => raw(`${API}/fix`, 'text/html', '<p>x</p>') },
  { name: 'GET fix on which docutils itself raises', status: 422, code: 'docutils_failed', send: () => get(`${API}/fix${q({ rst: '|a|\n\n.. |a| replace:: |b| x\n.. |a| replace:: |b| x\n' })}`) },
  { name: 'POST fix nested too deeply', status: 422, code: 'document_too_deep', send: () => raw(`${API}/fix`, 'text/x-rst', deepNesting) },

  // token
  { name: 'GET token with rst', status: 200, send: () => get(`${API}/token${q({ rst: DOC })}`) },
  { name: 'POST token urlencoded', status: 200, send: () => urlencoded(`${API}/token`, { rst: `${DOC}\nurlencoded\n` }) },
  { name: 'POST token multipart file', status: 200, send: () => multipart(`${API}/token`, {}, { rst: `${DOC}\nmultipart\n` }) },
  { name: 'POST token raw text/x-rst', status: 200, send: () => raw(`${API}/token`, 'text/x-rst', `${DOC}\nraw\n`) },
  { name: 'token without input', status: 400, code: 'input_missing', send: () => get(`${API}/token`) },
  { name: 'token given a token', status: 400, code: 'unknown_parameter', send: (c) => get(`${API}/token${q({ token: c.token })}`) },
  { name: 'token with a uri to loopback', status: 400, code: 'uri_forbidden_address', send: () => get(`${API}/token${q({ uri: 'http://localhost:9/doc.rst' })}`) },
  { name: 'POST token too large', status: 413, code: 'body_too_large', send: () => raw(`${API}/token`, 'text/x-rst', BIG) },
  { name: 'POST token JSON body', status: 415, code: 'unsupported_media_type', send: () => raw(`${API}/token`, 'application/json', '{}') },

  // lists, health, the description
  { name: 'GET html styles', status: 200, send: () => get(`${API}/html/styles`) },
  { name: 'GET pdf classes', status: 200, send: () => get(`${API}/pdf/classes`) },
  { name: 'GET pdf styles', status: 200, send: () => get(`${API}/pdf/styles`) },
  { name: 'POST html styles', status: 405, code: 'method_not_allowed', send: () => urlencoded(`${API}/html/styles`, {}) },
  { name: 'GET health', status: 200, send: () => get('/health') },
  { name: 'DELETE health', status: 405, code: 'method_not_allowed', send: () => ({ method: 'DELETE', target: '/health' }) },
  { name: 'GET a token source', status: 200, send: (c) => get(`${API}/token/${c.token}`) },
  { name: 'GET a token source If-None-Match', status: 304, send: (c) => get(`${API}/token/${c.token}`, { 'If-None-Match': `"${c.token}"` }) },
  { name: 'GET a malformed token source', status: 400, code: 'token_invalid', send: () => get(`${API}/token/NOT-A-TOKEN`) },
  { name: 'GET an unknown token source', status: 404, code: 'token_not_found', send: () => get(`${API}/token/${'a'.repeat(32)}`) },
  { name: 'POST a token source', status: 405, code: 'method_not_allowed', send: (c) => raw(`${API}/token/${c.token}`, 'text/plain', 'x') },
  { name: 'DELETE a token with its deletion key', status: 204, send: async (c) => deletion((await c.createToken()).token, (await c.createToken()).key) },
  { name: 'DELETE a token with a wrong deletion key', status: 404, code: 'deletion_key_unknown', send: (c) => deletion(c.token, 'A'.repeat(43)) },
  { name: 'DELETE a token without a deletion key', status: 400, code: 'deletion_key_invalid', send: (c) => deletion(c.token) },
  { name: 'DELETE a malformed token', status: 400, code: 'token_invalid', send: () => deletion('NOT-A-TOKEN', 'A'.repeat(43)) },
  { name: 'DELETE a token with the key in the query string', status: 400, code: 'unknown_parameter', send: (c) => ({ method: 'DELETE', target: `${API}/token/${c.token}${q({ key: 'A'.repeat(43) })}` }) },
  { name: 'GET the editor page', status: 200, send: () => get('/') },
  { name: "GET the manual's index", status: 200, send: () => get('/docs/') },
  { name: "GET the manual's index If-None-Match", status: 304, send: async (c) => get('/docs/', { 'If-None-Match': await c.etagOf('/docs/') }) },
  { name: 'GET a page of the manual', status: 200, send: () => get('/docs/api.html') },
  { name: 'GET a page of the manual If-None-Match', status: 304, send: async (c) => get('/docs/api.html', { 'If-None-Match': await c.etagOf('/docs/api.html') }) },
  { name: 'GET a page the manual does not have', status: 404, code: 'not_found', send: () => get('/docs/nope.html') },
  { name: 'GET ready', status: 200, send: () => get('/ready') },
  { name: 'GET metrics', status: 200, send: () => get('/metrics') },
  { name: 'POST metrics', status: 405, code: 'method_not_allowed', send: () => raw('/metrics', 'text/plain', 'x') },
  { name: 'GET openapi.json', status: 200, send: () => get('/1.0/openapi.json') },
  { name: 'GET openapi.json If-None-Match', status: 304, send: async (c) => get('/1.0/openapi.json', { 'If-None-Match': await c.etagOf('/1.0/openapi.json') }) },
  { name: 'POST openapi.json', status: 405, code: 'method_not_allowed', send: () => raw('/1.0/openapi.json', 'text/plain', 'x') },
  { name: 'an unknown path', status: 404, code: 'not_found', send: () => get(`${API}/docx${q({ rst: DOC })}`) },
  { name: 'an unknown version', status: 404, code: 'not_found', send: () => get('/2.0/rst2/html') },

  // uri, on a server that may fetch from this machine
  { name: 'GET html with a uri', on: 'open', status: 200, send: (c) => get(`${API}/html${q({ uri: `${c.upstream}/doc.rst` })}`) },
  { name: 'POST check with a uri', on: 'open', status: 200, send: (c) => urlencoded(`${API}/check`, { uri: `${c.upstream}/doc.rst` }) },
  { name: 'GET token with a uri', on: 'open', status: 200, send: (c) => get(`${API}/token${q({ uri: `${c.upstream}/doc.rst` })}`) },
  { name: 'pdf with a uri too large', on: 'open', status: 413, code: 'uri_too_large', send: (c) => get(`${API}/pdf${q({ uri: `${c.upstream}/big.rst` })}`) },
  { name: 'token with a uri too large', on: 'open', status: 413, code: 'uri_too_large', send: (c) => get(`${API}/token${q({ uri: `${c.upstream}/big.rst` })}`) },
  { name: 'check with a uri not UTF-8', on: 'open', status: 400, code: 'uri_not_utf8', send: (c) => get(`${API}/check${q({ uri: `${c.upstream}/latin1.rst` })}`) },
  { name: 'html with a uri answering 404', on: 'open', status: 502, code: 'uri_upstream_status', send: (c) => get(`${API}/html${q({ uri: `${c.upstream}/missing.rst` })}`) },
  { name: 'pdf with a uri redirecting too often', on: 'open', status: 502, code: 'uri_too_many_redirects', send: (c) => get(`${API}/pdf${q({ uri: `${c.upstream}/hop/9` })}`) },
  { name: 'token with a uri nobody listens on', on: 'open', status: 502, code: 'uri_unreachable', send: (c) => get(`${API}/token${q({ uri: `http://127.0.0.1:${c.closedPort}/doc.rst` })}`) },
  { name: 'fix with a uri too large', on: 'open', status: 413, code: 'uri_too_large', send: (c) => get(`${API}/fix${q({ uri: `${c.upstream}/big.rst` })}`) },
  { name: 'GET fix with a uri nobody listens on', on: 'open', status: 502, code: 'uri_unreachable', send: (c) => get(`${API}/fix${q({ uri: `http://127.0.0.1:${c.closedPort}/doc.rst` })}`) },
  { name: 'POST fix with a uri nobody listens on', on: 'open', status: 502, code: 'uri_unreachable', send: (c) => urlencoded(`${API}/fix`, { uri: `http://127.0.0.1:${c.closedPort}/doc.rst` }) },
  { name: 'check with a uri nobody listens on', on: 'open', status: 502, code: 'uri_unreachable', send: (c) => get(`${API}/check${q({ uri: `http://127.0.0.1:${c.closedPort}/doc.rst` })}`) },
];

async function exchange(s: RunningServer, sent: Sent): Promise<Exchange> {
  const res = await fetch(`${s.url}${sent.target}`, { method: sent.method, headers: sent.headers, body: sent.body });
  return { request: sent, status: res.status, headers: res.headers, body: Buffer.from(await res.arrayBuffer()) };
}

function errorCode(ex: Exchange): string | undefined {
  if (!(ex.headers.get('content-type') ?? '').startsWith('application/json')) return undefined;
  const body = JSON.parse(ex.body.toString('utf8')) as { error?: { code?: string } };
  return body.error?.code;
}

describe('openapi: real responses match the description', () => {
  let s: RunningServer;
  let open: RunningServer;
  let checker: DescriptionChecker;
  let upstream: http.Server;
  let context: TableContext;
  /** "get /path" → statuses seen, for the reverse check. */
  const exercised = new Map<string, Set<number>>();
  const unmatched = new Set<string>();

  function record(ex: Exchange, unknownParameterExpected = false): void {
    const match = checker.check(ex, { unknownParameterExpected });
    if (match.kind === 'unmatched') unmatched.add(match.response);
    else {
      const key = `${match.method} ${match.path}`;
      if (!exercised.has(key)) exercised.set(key, new Set());
      exercised.get(key)!.add(ex.status);
    }
  }

  before(async () => {
    upstream = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/doc.rst') res.writeHead(200, { 'Content-Type': 'text/x-rst' }).end(DOC);
      else if (url.pathname === '/big.rst') res.writeHead(200, { 'Content-Type': 'text/plain' }).end('x'.repeat(256_001));
      else if (url.pathname === '/latin1.rst') res.writeHead(200, { 'Content-Type': 'text/plain' }).end(Buffer.from('Caf\xe9\n', 'latin1'));
      else if (url.pathname.startsWith('/hop/')) res.writeHead(302, { Location: `/hop/${Number(url.pathname.slice(5)) - 1}` }).end();
      else res.writeHead(404).end('nope');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    // A port that was free a moment ago: nothing listens on it.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));

    // The same settings as the uri tests, so a whole run shares that server.
    [s, open] = await Promise.all([server(), server({ RST2_ALLOW_PRIVATE_URI: '1', RST2_WORKERS: '1' })]);
    checker = new DescriptionChecker(await fetchDescription(s));
    const tokenRes = await fetch(`${s.url}${API}/token`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: DOC });
    expect(tokenRes.status).to.equal(200);
    context = {
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      closedPort,
      lastHtmlStyle: loadCatalogue(paths.styles).htmlStyles.at(-1)!,
      token: await tokenRes.text(),
      createToken: (() => {
        let made: Promise<{ token: string; key: string }> | undefined;
        return () =>
          (made ??= fetch(`${s.url}${API}/token`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: `${DOC}\nto delete\n` }).then(async (res) => ({
            key: res.headers.get('X-Rst2-Deletion-Key') ?? '',
            token: await res.text(),
          })));
      })(),
      etagOf: async (target) => {
        const res = await fetch(`${s.url}${target}`);
        await res.arrayBuffer();
        const etag = res.headers.get('etag');
        expect(etag, `ETag of ${target}`).to.be.a('string');
        return etag!;
      },
    };
  });

  after(() => new Promise<void>((resolve) => upstream.close(() => resolve())));

  for (const row of ROWS) {
    it(`${row.name}: ${row.status}${row.code ? ` ${row.code}` : ''}, as described`, async () => {
      const ex = await exchange(row.on === 'open' ? open : s, await row.send(context));
      expect(ex.status, `${row.name}: ${ex.body.toString('utf8').slice(0, 300)}`).to.equal(row.status);
      if (row.code) expect(errorCode(ex)).to.equal(row.code);
      record(ex, row.code === 'unknown_parameter');
    });
  }

  it('HEAD, which the description mentions rather than lists, answers like GET without a body', async () => {
    const res = await fetch(`${s.url}${API}/pdf/classes`, { method: 'HEAD' });
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.match(/^application\/xml/);
    expect(res.headers.get('x-request-id')).to.be.a('string');
  });

  it('overload: 503 overloaded with Retry-After while the queue is full; the runaway is 422 render_timeout', async function () {
    this.timeout(60_000);
    // The same settings as the engine-fault tests, so a whole run shares that server.
    const tight = await server({ RST2_RENDER_TIMEOUT_MS: '3000', RST2_WORKERS: '1', RST2_QUEUE_LIMIT: '1' });
    // 3^9 substitutions: under the output bound, but half a minute of docutils' time.
    const bomb = Array.from({ length: 9 }, (_, i) => `.. |s${i}| replace:: |s${i + 1}| |s${i + 1}| |s${i + 1}|`).join('\n') + '\n.. |s9| replace:: boom\n\n|s0|\n';
    const running = exchange(tight, urlencoded(`${API}/html`, { rst: bomb }));
    await waitFor(() => tight.python.stats().busy === 1, { what: 'the bomb to occupy the only Python worker' });
    const queued = exchange(tight, urlencoded(`${API}/check`, { rst: `${DOC}\nqueued\n` }));
    await waitFor(() => tight.python.stats().queued === 1, { what: 'the check to take the only queue place' });
    const refused = await exchange(tight, get(`${API}/html${q({ rst: `${DOC}\nrefused\n` })}`));
    expect(refused.status).to.equal(503);
    expect(errorCode(refused)).to.equal('overloaded');
    record(refused);
    const [timedOut, served] = await Promise.all([running, queued]);
    expect(timedOut.status).to.equal(422);
    expect(errorCode(timedOut)).to.equal('render_timeout');
    record(timedOut);
    expect(served.status).to.equal(200);
    record(served);
  });

  it('the reverse: every documented operation answered, with a documented 2xx, in the table', () => {
    const missing: string[] = [];
    for (const { path, method } of checker.operations()) {
      const seen = exercised.get(`${method} ${path}`);
      if (!seen || ![...seen].some((status) => status >= 200 && status < 300)) missing.push(`${method.toUpperCase()} ${path}`);
    }
    expect(missing, 'operations never answered with success').to.deep.equal([]);
    expect([...unmatched].sort()).to.deep.equal(Object.keys(checker.doc.components.responses).sort());
  });

  it('and the table reaches every status listed for each path, except those only a failing engine or server gives', () => {
    // 500 (a bug), 503 other than overloaded (crash, shutdown, missing pdfTeX, store down) and 504 (a slow uri server)
    // cannot be caused by a request to a healthy server; everything else must be exercised somewhere.
    const unreachable = new Set([500, 504]);
    const missing: string[] = [];
    for (const { path, method, operation } of checker.operations()) {
      const seen = new Set<number>();
      for (const [key, statuses] of exercised) if (key.endsWith(` ${path}`)) for (const st of statuses) seen.add(st);
      for (const status of Object.keys(operation.responses).map(Number)) {
        if (unreachable.has(status) || (status === 503 && !path.endsWith('/html'))) continue;
        // `/` is 404 only on a server where the editor page was never built, `/docs/` where docs/ is missing.
        if ((path === '/' || path === '/docs/') && status === 404) continue;
        if (!seen.has(status)) missing.push(`${method.toUpperCase()} ${path} ${status}`);
      }
    }
    expect(missing).to.deep.equal([]);
  });
});
