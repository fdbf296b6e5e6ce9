/**
 * From a request to parameters, options and a document, without engines:
 * readParams behind a real Koa server on port 0, the option choice, the
 * check of known parameters and the choice of input.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';
import Koa from 'koa';

import { makeDocument, tokenOf } from '../../src/documents/document.js';
import { ServiceError } from '../../src/errors.js';
import { checkKnown, resolveDocument, tokenText } from '../../src/http/input.js';
import { parseUrlencoded, readParams } from '../../src/http/params.js';
import { choose, OPTIONS } from '../../src/options.js';
import { FolderStore } from '../../src/store/folder-store.js';
import { loadCatalogue } from '../../src/styles.js';
import { paths } from '../../src/paths.js';
import { hashDeletionKey, makeDeletionKey } from '../../src/store/deletion-key.js';
import { rejectionCode, thrownCode } from './support/codes.js';

describe('urlencoded parameters', () => {
  it('decodes percent-escapes and + as UTF-8, keeping empty values and order', () => {
    expect(parseUrlencoded(Buffer.from('rst=%C3%BCber+alles&style=&flag', 'latin1'), 'q')).to.deep.equal([
      ['rst', 'über alles'],
      ['style', ''],
      ['flag', ''],
    ]);
  });

  it('refuses a malformed escape (bad_request) and bytes that are not UTF-8 (invalid_utf8)', () => {
    expect(thrownCode(() => parseUrlencoded(Buffer.from('rst=100%zz'), 'q'))).to.equal('bad_request');
    expect(thrownCode(() => parseUrlencoded(Buffer.from('rst=%FF'), 'q'))).to.equal('invalid_utf8');
  });
});

describe('readParams over HTTP', () => {
  let server: http.Server;
  let base: string;

  before(async () => {
    const app = new Koa();
    app.use(async (ctx) => {
      try {
        ctx.body = { params: Object.fromEntries(await readParams(ctx, 1024)) };
      } catch (err) {
        if (!(err instanceof ServiceError)) throw err;
        ctx.body = { code: err.code };
      }
    });
    server = http.createServer(app.callback());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  async function read(target: string, init?: RequestInit): Promise<{ params?: Record<string, string>; code?: string }> {
    return (await (await fetch(`${base}${target}`, init)).json()) as { params?: Record<string, string>; code?: string };
  }

  it('reads a query, an urlencoded body, a multipart form with a file, and a raw body', async () => {
    expect(await read('/?rst=a&style=b')).to.deep.equal({ params: { rst: 'a', style: 'b' } });
    expect(await read('/?style=b', { method: 'POST', body: new URLSearchParams({ rst: 'ü' }) })).to.deep.equal({ params: { style: 'b', rst: 'ü' } });
    const form = new FormData();
    form.append('style', 'modern');
    form.append('rst', new Blob(['from a file']), 'doc.rst');
    expect(await read('/', { method: 'POST', body: form })).to.deep.equal({ params: { style: 'modern', rst: 'from a file' } });
    expect(await read('/?class=report', { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: 'raw *text*' })).to.deep.equal({ params: { class: 'report', rst: 'raw *text*' } });
  });

  it('takes an empty POST for no parameters', async () => {
    expect(await read('/', { method: 'POST' })).to.deep.equal({ params: {} });
  });

  it('refuses a parameter given twice, even across query and body', async () => {
    expect(await read('/?rst=a&rst=b')).to.deep.equal({ code: 'duplicate_parameter' });
    expect(await read('/?rst=a', { method: 'POST', body: new URLSearchParams({ rst: 'b' }) })).to.deep.equal({ code: 'duplicate_parameter' });
  });

  it('refuses bodies over the limit, other media types and other charsets', async () => {
    expect(await read('/', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: 'x'.repeat(1025) })).to.deep.equal({ code: 'body_too_large' });
    expect(await read('/', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: '{}' })).to.deep.equal({ code: 'unsupported_media_type' });
    expect(await read('/', { method: 'POST', headers: { 'Content-Type': 'text/plain; charset=latin1' }, body: 'x' })).to.deep.equal({ code: 'unsupported_charset' });
    expect(await read('/', { method: 'POST', headers: { 'Content-Type': 'text/plain' }, body: Buffer.from([0x66, 0xff]) })).to.deep.equal({ code: 'invalid_utf8' });
  });

  it('refuses multipart data it cannot parse', async () => {
    const body = '--zzz\r\nContent-Disposition: form-data; name="rst"\r\n\r\nunfinished';
    expect(await read('/', { method: 'POST', headers: { 'Content-Type': 'multipart/form-data; boundary=zzz' }, body })).to.deep.equal({ code: 'bad_multipart' });
  });
});

describe('options and known parameters', () => {
  const catalogue = loadCatalogue(paths.styles);

  it('chooses the default for a missing or empty value, and the value when it is listed', () => {
    expect(choose(OPTIONS.LatexClass, undefined, catalogue)).to.equal('article');
    expect(choose(OPTIONS.LatexClass, '', catalogue)).to.equal('article');
    expect(choose(OPTIONS.LatexClass, 'scrbook', catalogue)).to.equal('scrbook');
    expect(choose(OPTIONS.UseLatexToc, 'yes', catalogue)).to.equal('yes');
  });

  it('refuses an unlisted value with the option\'s code, the value (cut to 100 characters) and the valid ones', () => {
    try {
      choose(OPTIONS.HtmlStyle, 'x'.repeat(300), catalogue);
      expect.fail('should refuse');
    } catch (err) {
      expect(err).to.be.instanceOf(ServiceError);
      const e = err as ServiceError;
      expect(e.code).to.equal('unknown_style');
      expect(e.details).to.deep.equal({ style: 'x'.repeat(100), valid: catalogue.htmlStyles });
      expect(e.message).to.include('default');
    }
    expect(thrownCode(() => choose(OPTIONS.UseLatexToc, 'maybe', catalogue))).to.equal('unknown_use_latex_toc');
  });

  it('refuses a parameter the operation does not know, naming those it does', () => {
    checkKnown(new Map([['rst', 'x']]), ['rst', 'style']);
    try {
      checkKnown(new Map([['colour', 'red']]), ['rst', 'style']);
      expect.fail('should refuse');
    } catch (err) {
      expect(err).to.include({ code: 'unknown_parameter' });
      expect((err as ServiceError).details).to.deep.equal({ parameter: 'colour', accepted: ['rst', 'style'] });
    }
  });
});

describe('the input document', () => {
  let dir: string;
  let store: FolderStore;
  const policy = { maxBytes: 1000, timeoutMs: 1000, maxRedirects: 0, allowPrivate: false };

  before(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-unit-'));
    store = await new FolderStore(dir).init();
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is exactly one of the sources', async () => {
    const deps = { store, fetchPolicy: policy };
    const { document, source } = await resolveDocument(new Map([['rst', 'Hi']]), ['rst', 'uri', 'token'], deps);
    expect(source).to.equal('rst');
    expect(document).to.deep.equal(makeDocument('Hi'));
    expect(await rejectionCode(resolveDocument(new Map(), ['rst', 'uri'], deps))).to.equal('input_missing');
    expect(await rejectionCode(resolveDocument(new Map([['rst', 'a'], ['uri', 'b']]), ['rst', 'uri'], deps))).to.equal('input_ambiguous');
    // Refused before any connection: a literal loopback address.
    expect(await rejectionCode(resolveDocument(new Map([['uri', 'http://127.0.0.1:9/a.rst']]), ['uri'], deps))).to.equal('uri_forbidden_address');
  });

  it('reads a token from the store: malformed is token_invalid, unknown is token_not_found', async () => {
    const doc = makeDocument('Stored\n======\n');
    await store.save(tokenOf(doc), doc.text, hashDeletionKey(makeDeletionKey()));
    const { document, source } = await resolveDocument(new Map([['token', tokenOf(doc)]]), ['token'], { store, fetchPolicy: policy });
    expect(source).to.equal('token');
    expect(document.text).to.equal(doc.text);
    expect(await rejectionCode(tokenText(store, 'NOT-A-TOKEN'))).to.equal('token_invalid');
    expect(await rejectionCode(tokenText(store, '0'.repeat(32)))).to.equal('token_not_found');
  });

  it('answers store_unavailable when the store cannot be read', async () => {
    const broken = { save: async () => {}, load: async () => Promise.reject(new Error('disk gone')), remove: async () => false, ping: async () => {}, close: async () => {} };
    expect(await rejectionCode(tokenText(broken, 'a'.repeat(32)))).to.equal('store_unavailable');
  });
});
