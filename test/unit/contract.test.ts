/**
 * The worker contract (python/rst2/worker.schema.json) on TypeScript's side,
 * and what of Python's side can be read without running it: TypeScript's
 * types are what the schema generates, the checker the worker runs on every
 * reply takes real-shaped replies and refuses broken copies, Python raises
 * only the contract's codes, the codes are the catalogue's document faults,
 * and no path inside Pyodide is spelled outside the contract. Python's own
 * run against the contract is contract-python.test.ts.
 *
 * Each check is shown failing on a deliberately broken copy (of the schema,
 * a reply, or a Python file), so that it cannot pass by checking nothing.
 */
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { DIALECTS } from '../../src/dialects.js';
import { replyProblems } from '../../src/engines/python/contract-check.js';
import { GENERATED_FILE, generateContract } from '../../src/engines/python/contract-gen.js';
import { CONTRACT_FILE, parseContract, readContract, type ContractDocument } from '../../src/engines/python/contract-schema.js';
import { DIALECT_VALUES, FAILURE_CODE_VALUES, type Operation, type Results } from '../../src/engines/python/contract.js';
import { ERRORS, isErrorCode } from '../../src/errors.js';
import { paths, projectRoot } from '../../src/paths.js';

const contractText = (): string => fs.readFileSync(path.join(paths.pythonSources, CONTRACT_FILE), 'utf8');
const contract = readContract(paths.pythonSources);
const copyOf = (doc: ContractDocument): ContractDocument => structuredClone(doc);

/** Replies of the shape Python sends (python/tests/test_contract.py checks Python's real ones); typed, so a change of the types shows here too. */
const REPLIES: { [Op in Operation]: { ok: true; result: Results[Op] } } = {
  html: { ok: true, result: { html: '<!DOCTYPE html>\n<html>…</html>\n', title: 'Title', removed: [] } },
  latex: {
    ok: true,
    result: {
      latex: '\\documentclass[a4paper]{article}\n…',
      title: 'Обзор',
      engine: 'pdftex',
      format_preamble: null,
      replaced_characters: 0,
      scripts: ['cjk-gbsn', 'cyrillic', 'emoji', 'greek'],
      images: [
        { uri: 'https://example.org/a.png', alt: 'A picture' },
        { uri: 'b.png', alt: null },
      ],
    },
  },
  check: { ok: true, result: { messages: [{ message: 'Unknown interpreted text role "nosuchrole".', type: 'error', line: 9, column: 2, context: ':nosuchrole:`x`', rule: 'unknown-role' }] } },
  conf: {
    ok: true,
    result: { extensions: ['sphinx.ext.extlinks'], roles: ['issue'], directives: [], substitutions: ['version'], primary_domain: null, default_role: 'any', notes: [{ line: 3, message: 'x' }] },
  },
  fix: {
    ok: true,
    result: {
      text: 'Title long\n==========\n',
      fixes: [{ description: "Lengthen the underline to the title's width", applicability: 'safe', rule: 'title-underline', edits: [{ line: 2, column: 1, endLine: 2, endColumn: 6, text: '==========' }] }],
      messages: [],
    },
  },
};

/** One field broken in a copy of a reply, and the start of the problem that must name it. */
const BREAKS: Array<{ op: Operation; what: string; damage: (reply: Record<string, unknown> & { result: Record<string, unknown> }) => void; expected: string }> = [
  { op: 'latex', what: 'format_preamble a number', damage: (r) => (r.result['format_preamble'] = 0), expected: '$.result.format_preamble: 0 is not string or null' },
  { op: 'latex', what: 'an image without alt', damage: (r) => delete (r.result['images'] as Array<Record<string, unknown>>)[1]!['alt'], expected: '$.result.images[1].alt: missing' },
  { op: 'latex', what: 'a script the contract lacks', damage: (r) => (r.result['scripts'] as string[]).push('klingon'), expected: '$.result.scripts[4]: "klingon" is not one of' },
  { op: 'latex', what: 'a field the contract lacks', damage: (r) => (r.result['pages'] = 3), expected: '$.result.pages: not in the contract' },
  { op: 'latex', what: 'a count that is not whole', damage: (r) => (r.result['replaced_characters'] = 1.5), expected: '$.result.replaced_characters: 1.5 is not integer' },
  { op: 'check', what: 'a message type docutils does not report', damage: (r) => ((r.result['messages'] as Array<Record<string, unknown>>)[0]!['type'] = 'notice'), expected: '$.result.messages[0].type' },
  { op: 'fix', what: 'an applicability of neither kind', damage: (r) => ((r.result['fixes'] as Array<Record<string, unknown>>)[0]!['applicability'] = 'maybe'), expected: '$.result.fixes[0].applicability' },
  { op: 'fix', what: 'an edit without its end', damage: (r) => delete ((r.result['fixes'] as Array<{ edits: Array<Record<string, unknown>> }>)[0]!.edits[0]!['endColumn']), expected: '$.result.fixes[0].edits[0].endColumn: missing' },
  { op: 'html', what: 'removed not a list', damage: (r) => (r.result['removed'] = 'script'), expected: '$.result.removed: "script" is not array' },
  { op: 'html', what: 'a failure without its code', damage: (r) => Object.assign(r, { ok: false, message: 'x', trace: null, result: undefined }), expected: '$.code: missing' },
];

describe('the worker contract, TypeScript side', () => {
  it('is what npm run contract generates from the schema (src/engines/python/contract.ts)', () => {
    const committed = fs.readFileSync(path.join(projectRoot, GENERATED_FILE), 'utf8');
    expect(generateContract(contract) === committed, `${GENERATED_FILE} is stale: run npm run contract`).to.equal(true);
    // A schema changed without regenerating: the generated text differs, so the check above fails.
    const broken = copyOf(contract);
    const latex = broken.$defs['LatexResult']!.properties!;
    latex['preamble'] = latex['format_preamble']!;
    delete latex['format_preamble'];
    broken.$defs['LatexResult']!.required = broken.$defs['LatexResult']!.required!.map((r) => (r === 'format_preamble' ? 'preamble' : r));
    const regenerated = generateContract(broken);
    expect(regenerated).to.not.equal(committed);
    expect(regenerated).to.include('  preamble: string | null;');
  });

  it('uses only keywords both checkers know, and refuses a copy with one they do not', () => {
    expect(() => parseContract(contractText())).to.not.throw();
    const broken = JSON.parse(contractText()) as { $defs: Record<string, { properties: Record<string, Record<string, unknown>> }> };
    broken.$defs['CheckItem']!.properties['line']!['minimum'] = 1;
    expect(() => parseContract(JSON.stringify(broken))).to.throw('$defs.CheckItem.properties.line: keyword minimum is not one both checkers know');
  });

  it('declares a result for every operation', () => {
    expect(Object.keys(contract.$defs['Results']!.properties!).sort()).to.deep.equal([...contract.$defs['Operation']!.enum!].sort());
  });

  it("takes a reply of each operation as Python sends it, and the failures Python's api.handle makes", () => {
    for (const [op, reply] of Object.entries(REPLIES)) expect(replyProblems(contract, op as Operation, reply), op).to.deep.equal([]);
    for (const code of FAILURE_CODE_VALUES) {
      const failure = { ok: false, code, message: 'x', trace: code === 'internal' ? 'Traceback …' : null };
      expect(replyProblems(contract, 'html', failure), code).to.deep.equal([]);
    }
  });

  for (const { op, what, damage, expected } of BREAKS) {
    it(`refuses a broken copy of a ${op} reply: ${what}`, () => {
      const broken = structuredClone(REPLIES[op]) as unknown as Record<string, unknown> & { result: Record<string, unknown> };
      damage(broken);
      const found = replyProblems(contract, op, JSON.parse(JSON.stringify(broken)));
      expect(found.some((p) => p.startsWith(expected)), `${expected}\nin: ${found.join('\n')}`).to.equal(true);
    });
  }

  it('refuses a failure with a code outside the contract, a catalogue code included', () => {
    for (const code of ['made_up', 'overloaded', 'latex_failed']) {
      const problems = replyProblems(contract, 'html', { ok: false, code, message: 'x', trace: null });
      expect(problems[0], code).to.match(/^\$\.code: ".*" is not one of/);
    }
  });
});

/** The codes a Python source raises by name (DocumentError("x", ...), _failure("x", ...)). */
const codesRaised = (text: string): string[] => [...text.matchAll(/(?:DocumentError|_failure)\(\s*"([a-z_0-9]+)"/g)].map((m) => m[1]!);

function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['__pycache__', 'node_modules'].includes(entry.name) ? [] : filesUnder(full, keep);
    return keep(entry.name) ? [full] : [];
  });
}

/** A path inside Pyodide spelled as a string: it belongs in the contract's PyodidePaths. */
const pyodidePathLiterals = (text: string): string[] => [...text.matchAll(/(['"`])(\/rst2\/(?:python|styles|tex)[^'"`]*)\1/g)].map((m) => m[2]!);
// This file spells such paths in its broken copies.
const THIS_FILE = path.join('test', 'unit', 'contract.test.ts');

describe("the worker contract against the Python side's declarations and the catalogue", () => {
  it('names as failure codes the catalogue codes of document faults, and internal, a bug', () => {
    for (const code of FAILURE_CODE_VALUES) {
      expect(isErrorCode(code), code).to.equal(true);
      if (code === 'internal') expect(ERRORS[code].document, code).to.equal(undefined);
      else expect(ERRORS[code].document, `${code} must be a document fault in src/errors.ts`).to.equal(true);
    }
    // A copy naming a code the catalogue lacks, or one that is not the document's fault, fails the same checks.
    expect(isErrorCode('images_unsupported')).to.equal(false);
    expect(ERRORS.overloaded.document).to.equal(undefined);
  });

  it('is every code the Python sources raise, in any file of python/rst2', () => {
    const files = filesUnder(path.join(paths.pythonSources, 'rst2'), (name) => name.endsWith('.py'));
    const raised = new Set(files.flatMap((f) => codesRaised(fs.readFileSync(f, 'utf8'))));
    expect([...raised]).to.include.members(['pypi_refused', 'document_too_deep', 'internal']);
    const known: readonly string[] = FAILURE_CODE_VALUES;
    expect([...raised].filter((c) => !known.includes(c)), 'codes raised that the contract lacks').to.deep.equal([]);
    // A broken copy of errors' user: the made-up code is found.
    const pypi = fs.readFileSync(path.join(paths.pythonSources, 'rst2', 'dialects', 'pypi', '__init__.py'), 'utf8');
    const broken = pypi.replace('"pypi_refused"', '"pypi_rejected"');
    expect(codesRaised(broken).filter((c) => !known.includes(c))).to.deep.equal(['pypi_rejected']);
  });

  it("lists the dialects the service offers (src/dialects.ts, Python's dialects read the same)", () => {
    expect([...DIALECTS]).to.deep.equal(contract.$defs['Dialect']!.enum);
    expect([...DIALECT_VALUES]).to.deep.equal(contract.$defs['Dialect']!.enum);
  });

  it('holds every path inside Pyodide: none is spelled in src/, test/ or python/rst2 outside it', () => {
    const files = [
      ...filesUnder(path.join(projectRoot, 'src'), (n) => n.endsWith('.ts')),
      ...filesUnder(path.join(projectRoot, 'test'), (n) => n.endsWith('.ts')),
      ...filesUnder(path.join(paths.pythonSources, 'rst2'), (n) => n.endsWith('.py')),
    ].filter((f) => ![GENERATED_FILE, THIS_FILE].includes(path.relative(projectRoot, f)));
    const spelled = files.flatMap((f) => pyodidePathLiterals(fs.readFileSync(f, 'utf8')).map((p) => `${path.relative(projectRoot, f)}: ${p}`));
    expect(spelled).to.deep.equal([]);
    // A broken copy of boot.ts that spells one again is found.
    const boot = fs.readFileSync(path.join(projectRoot, 'src', 'engines', 'python', 'boot.ts'), 'utf8');
    expect(pyodidePathLiterals(boot.replace('PYODIDE_PATHS.styles)', "'/rst2/styles')"))).to.deep.equal(['/rst2/styles']);
  });
});
