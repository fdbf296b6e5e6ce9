/**
 * The error catalogue (src/errors.ts) against everything that repeats its
 * codes: the API reference's table (docs/api.rst), the OpenAPI description's error answers, the
 * Python side, and the rest of the source (where a code is `Code.x`, never a
 * string of its own).
 */
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { GENERATED_FILE } from '../../src/engines/python/contract-gen.js';
import { Code, documentErrorCode, ERRORS, exitStatus, httpCodes, httpStatus, isErrorCode, type ErrorCode } from '../../src/errors.js';
import { buildOpenApi } from '../../src/http/openapi.js';
import type { OpenApiDocument, Response } from '../../src/http/openapi-types.js';
import { paths, projectRoot } from '../../src/paths.js';
import { loadCatalogue } from '../../src/styles.js';

const ALL = Object.keys(ERRORS) as ErrorCode[];

// The catalogue, and the worker contract's types generated from its schema
// (which test/unit/contract.test.ts checks against the catalogue).
const SPELLS_CODES = [path.join('src', 'errors.ts'), GENERATED_FILE];

/** Every .py file under `dir`, at any depth. */
function pythonFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '__pycache__' ? [] : pythonFiles(full);
    return entry.name.endsWith('.py') ? [full] : [];
  });
}

/** A page of the manual (docs/NAME.rst), or its section under `title` (up to the next title of any level). */
function docsSection(page: string, title?: string): string {
  const text = fs.readFileSync(path.join(projectRoot, 'docs', `${page}.rst`), 'utf8');
  if (title === undefined) return text;
  const heading = new RegExp(`^${title.replace(/[^\w ]/g, '\\$&')}\\n([-=~^])\\1+\\n`, 'm');
  const found = heading.exec(text);
  expect(found, `docs/${page}.rst has no section "${title}"`).to.not.equal(null);
  const start = found!.index + found![0].length;
  const next = /^[^\n]+\n([-=~^])\1{3,}$/m.exec(text.slice(start));
  return text.slice(start, next ? start + next.index : undefined);
}

/** The catalogue's one-line Markdown (`code`) as reStructuredText (``code``). */
const rst = (markdown: string): string => markdown.replace(/`([^`]+)`/g, '``$1``');

/** The API reference's error table (a list-table) as the catalogue would write it, row by row. */
function expectedRow(code: ErrorCode): string {
  const e = ERRORS[code];
  const status = `${e.status}${e.retryAfter !== undefined ? `, \`\`Retry-After: ${e.retryAfter}\`\`` : ''}`;
  const details = (e.details ?? []).map((d) => `\`\`${d}\`\``).join(', ');
  return [`   * - \`\`${code}\`\``, `     - ${status}`, `     -${details ? ` ${details}` : ''}`, `     - ${rst(e.meaning)}`].join('\n');
}

function openApi(): OpenApiDocument {
  return buildOpenApi({ version: '0.0.0-test', catalogue: loadCatalogue(paths.styles), maxBodyBytes: 1000, uriMaxBytes: 1000 });
}

/** Every error answer of the description, with where it is and its status. */
function errorAnswers(doc: OpenApiDocument): Array<{ at: string; status: number; codes: string[]; response: Response }> {
  const out: Array<{ at: string; status: number; codes: string[]; response: Response }> = [];
  const codesOf = (response: Response): string[] | undefined => {
    const schema = response.content?.['application/json']?.schema;
    const narrowed = schema?.allOf?.[1]?.properties?.error?.properties?.code?.enum;
    return narrowed?.map(String);
  };
  for (const [p, item] of Object.entries(doc.paths)) {
    for (const [method, op] of Object.entries(item)) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      for (const [status, response] of Object.entries(op.responses)) {
        if ('$ref' in response) continue;
        const codes = codesOf(response);
        if (codes) out.push({ at: `${method} ${p} ${status}`, status: Number(status), codes, response });
      }
    }
  }
  for (const [name, response] of Object.entries(doc.components.responses)) {
    const codes = codesOf(response);
    if (codes) out.push({ at: `components.responses.${name}`, status: httpStatus(codes[0] as ErrorCode), codes, response });
  }
  return out;
}

describe('the error catalogue', () => {
  it('has snake_case codes, HTTP statuses of errors, and Retry-After only on 503s', () => {
    for (const code of ALL) {
      expect(code).to.match(/^[a-z][a-z0-9_]*$/);
      const { status, retryAfter } = ERRORS[code];
      if (status !== null) expect(status, code).to.be.within(400, 599);
      if (retryAfter !== undefined) expect(status, code).to.equal(503);
      if (status === 503) expect(retryAfter, `${code} needs a Retry-After`).to.be.a('number');
    }
  });

  it('names every code by itself in Code, and knows its own codes only', () => {
    for (const code of ALL) expect(Code[code]).to.equal(code);
    expect(isErrorCode('overloaded')).to.equal(true);
    expect(isErrorCode('toString')).to.equal(false);
    expect(isErrorCode('no_such_code')).to.equal(false);
  });

  it('maps codes to statuses for the HTTP edge and to exit statuses for the command line', () => {
    expect(httpStatus(Code.unknown_style)).to.equal(400);
    expect(httpStatus(Code.overloaded)).to.equal(503);
    // A command-line code reaching HTTP would be a bug.
    expect(httpStatus(Code.unreadable)).to.equal(500);
    expect(exitStatus(Code.unknown_style)).to.equal(2);
    expect(exitStatus(Code.unknown_format)).to.equal(2);
    expect(exitStatus(Code.unreadable)).to.equal(1);
    expect(exitStatus(Code.latex_failed)).to.equal(1);
  });

  it('takes from a worker only the codes the catalogue marks as faults of the document, each answered 422', () => {
    for (const code of ALL) {
      expect(documentErrorCode(code), code).to.equal(ERRORS[code].document ? code : undefined);
      if (ERRORS[code].document) expect(ERRORS[code].status, code).to.equal(422);
    }
    expect(documentErrorCode('pypi_refused')).to.equal('pypi_refused');
    // Retired when images came to PDF (issue 11): no longer a code at all.
    expect(documentErrorCode('images_unsupported')).to.equal(undefined);
    expect(documentErrorCode('render_timeout')).to.equal('render_timeout');
    expect(documentErrorCode('internal')).to.equal(undefined);
    expect(documentErrorCode('overloaded')).to.equal(undefined);
    expect(documentErrorCode('made_up')).to.equal(undefined);
  });

  it("is the API reference's error table (docs/api.rst), row for row: no code missing, none invented", () => {
    const section = docsSection('api', 'Errors');
    const rows = [...section.matchAll(/^ {3}\* - ``[a-z_0-9]+``\n(?: {5}-.*\n?){3}/gm)].map((m) => m[0].replace(/\n$/, ''));
    const listed = rows.map((row) => row.slice(9, row.indexOf('`', 9)));
    expect(listed.filter((c) => !isErrorCode(c)), 'codes in the docs that the catalogue lacks').to.deep.equal([]);
    expect(httpCodes().filter((c) => !listed.includes(c)), 'codes missing from the docs').to.deep.equal([]);
    expect(rows, `the table in docs/api.rst should read:\n${httpCodes().map(expectedRow).join('\n')}\n`).to.deep.equal(httpCodes().map(expectedRow));
  });

  it("names the command line's own codes in the docs' command-line page (docs/cli.rst)", () => {
    const page = docsSection('cli');
    for (const code of ALL.filter((c) => ERRORS[c].status === null)) expect(page, code).to.include(`\`\`${code}\`\``);
  });

  it('is what the OpenAPI description answers with: every code, none invented, each under its own status', () => {
    const answers = errorAnswers(openApi());
    const described = new Set(answers.flatMap((a) => a.codes));
    expect([...described].filter((c) => !isErrorCode(c)), 'codes the description invents').to.deep.equal([]);
    expect(httpCodes().filter((c) => !described.has(c)), 'codes the description misses').to.deep.equal([]);
    for (const { at, status, codes, response } of answers) {
      for (const code of codes) expect(httpStatus(code as ErrorCode), `${code} at ${at}`).to.equal(status);
      const retry = codes.some((c) => ERRORS[c as ErrorCode].retryAfter !== undefined);
      expect(Object.hasOwn(response.headers ?? {}, 'Retry-After'), `Retry-After at ${at}`).to.equal(retry);
    }
  });

  it("describes every details field of the catalogue in the description's Error schema", () => {
    const fields = openApi().components.schemas.Error!.properties!.error!.properties!;
    for (const code of httpCodes()) for (const field of ERRORS[code].details ?? []) expect(fields, `${code}: ${field}`).to.have.property(field);
  });

  it('holds every code the Python side reports, in any file of python/, as a document error (or internal, a bug)', () => {
    const found = new Set<string>();
    const files = pythonFiles(path.join(projectRoot, 'python'));
    expect(files.some((f) => f.includes(`${path.sep}dialects${path.sep}`)), 'python/rst2/dialects is scanned').to.equal(true);
    for (const file of files) {
      const text = fs.readFileSync(file, 'utf8');
      for (const m of text.matchAll(/(?:DocumentError|_failure)\(\s*"([a-z_0-9]+)"/g)) found.add(m[1]!);
    }
    // pypi_refused is raised in python/rst2/dialects/pypi/.
    expect([...found], 'codes found in python/').to.include.members(['pypi_refused', 'docutils_failed', 'internal']);
    for (const code of found) {
      if (code === 'internal') continue;
      expect(documentErrorCode(code), code).to.equal(code);
    }
  });

  it('is the only file of src/ and web/ that spells a code as a string', () => {
    const codes = new Set<string>(ALL);
    const offenders: string[] = [];
    const walk = (dir: string): void => {
      for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, entry.name);
        if (entry.isDirectory()) walk(full);
        else if (/\.c?ts$/.test(entry.name) && !SPELLS_CODES.includes(path.relative(projectRoot, full))) {
          for (const m of fs.readFileSync(full, 'utf8').matchAll(/(['"])([a-z][a-z0-9_]*)\1/g)) {
            if (codes.has(m[2]!)) offenders.push(`${path.relative(projectRoot, full)}: ${m[0]}`);
          }
        }
      }
    };
    walk(path.join(projectRoot, 'src'));
    walk(path.join(projectRoot, 'web', 'src'));
    expect(offenders).to.deep.equal([]);
  });
});
