/**
 * `rst2 check` on a project, run for real: a folder tree in a temporary
 * folder with a pyproject.toml, a nested rst2.toml, a Sphinx conf.py,
 * .gitignore files, build and hidden folders; each output format read back
 * by what reads it (SARIF against its JSON schema with ajv, GitHub's
 * workflow commands by their grammar, JUnit as XML); configuration
 * mistakes, --version and --help. The engines start once per format: one
 * run checks every file of the tree.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';

import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { xml2js, type Element } from 'xml-js';

import { RULES } from '../src/rules.js';
import { rst2, stderrLines } from './support/cli-run.js';

const PYPROJECT = `[project]
name = "spam"

[tool.rst2]
extensions = [".rst", ".txt"]
exclude = ["docs/legacy"]
roles = ["gh"]
directives = ["availability"]
literal-directives = ["grammar"]
substitutions = ["product"]

[[tool.rst2.overrides]]
paths = ["README.rst"]
dialect = "pypi"
`;

// extlinks gives :issue:; rst_epilog cannot be read without running conf.py: one note, however many pages.
const CONF_PY = `extensions = ["sphinx.ext.extlinks"]
extlinks = {"issue": ("https://bugs.example.org/%s", "#%s")}
html_theme = pick_theme()
rst_epilog = make_epilog()
`;

/** Uses every kind of declared name, and Sphinx's :ref:, which a conf.py's project knows. */
const INDEX = `Index
=====

See :issue:\`12\`, :gh:\`34\` and :ref:\`install\`; |product| is ours.

.. availability:: Linux

.. grammar::

   stmt ::= \`expr\` *unclosed
`;

const BROKEN = 'Broken\n======\n\n.. nosuch:: x\n';
const SHORT_TITLE = 'Short title\n=====\n\nText and :ref:`x`.\n\n.. nosuch:: y\n';

const TREE: Record<string, string> = {
  'pyproject.toml': PYPROJECT,
  '.gitignore': 'generated/\n',
  '.git/info/exclude': 'scratch.rst\n',
  'README.rst': 'Spam\n====\n\nSee :ref:`x`.\n',
  'scratch.rst': BROKEN,
  'generated/api.rst': BROKEN,
  'docs/conf.py': CONF_PY,
  'docs/index.rst': INDEX,
  'docs/guide.txt': 'Guide\n=====\n\nAn *unclosed start.\n',
  'docs/notes.md': BROKEN,
  'docs/legacy/old.rst': BROKEN,
  'docs/_build/html.rst': BROKEN,
  'docs/.drafts/draft.rst': BROKEN,
  'docs/sub/.gitignore': 'ignored.rst\n',
  'docs/sub/ignored.rst': BROKEN,
  'docs/sub/page.rst': 'Page\n====\n\nFixed in :issue:`7`.\n\n.. nosuch:: z\n',
  'node_modules/pkg/readme.rst': BROKEN,
  'other/rst2.toml': 'select = ["title"]\n',
  'other/page.rst': SHORT_TITLE,
};

/** What the whole tree's check prints in the text format, sorted by path. */
const EXPECTED_TEXT = [
  'README.rst:4:6: error: Unknown interpreted text role "ref". [unknown-role]',
  'docs/guide.txt:4:4: warning: Inline emphasis start-string without end-string. [inline-start-without-end] (fixable)',
  'docs/sub/page.rst:6:4: error: Unknown directive type "nosuch". [unknown-directive]',
  'other/page.rst:2:1: warning: Title underline too short. [title-underline-too-short] (fixable)',
];

const EPILOG_NOTE = 'rst2: docs/conf.py:4: rst_epilog is not a literal rst2 can read without running conf.py; the names it gives are unknown to check.';

function makeTree(root: string, tree: Record<string, string>): void {
  for (const [name, text] of Object.entries(tree)) {
    fs.mkdirSync(path.dirname(path.join(root, name)), { recursive: true });
    fs.writeFileSync(path.join(root, name), text);
  }
}

/** SARIF 2.1.0's schema as @microsoft/jest-sarif ships it (draft-04), read by ajv's draft-07 validator: the two differ only in the root's `id`. */
function sarifValidator() {
  const require = createRequire(import.meta.url);
  const file = path.join(path.dirname(require.resolve('@microsoft/jest-sarif/package.json')), 'lib', 'schemas', 'sarif-2.1.0-rtm.5.json');
  const schema = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
  const { $schema: _draft, id, ...rest } = schema;
  // Its patterns are ECMAScript's without the u flag (one has a lone `]`).
  const ajv = new Ajv({ strict: false, allErrors: true, unicodeRegExp: false });
  addFormats.default(ajv);
  return ajv.compile({ ...rest, $id: String(id) });
}

/** A workflow command as GitHub's runner reads it: `::name key=value,key=value::message`, values unescaped. */
function parseCommand(line: string): { name: string; props: Record<string, string>; message: string } {
  const m = /^::([a-z]+) ([^:]*)::(.*)$/.exec(line);
  expect(m, line).to.not.equal(null);
  const unescape = (s: string) => s.replace(/%0D/g, '\r').replace(/%0A/g, '\n').replace(/%3A/g, ':').replace(/%2C/g, ',').replace(/%25/g, '%');
  const props = Object.fromEntries(m![2]!.split(',').map((kv) => [kv.slice(0, kv.indexOf('=')), unescape(kv.slice(kv.indexOf('=') + 1))]));
  return { name: m![1]!, props, message: unescape(m![3]!) };
}

/** Each config file of `cases` in `bad` in turn: exit 2, the message shown, nothing checked. */
function mistakes(bad: string, cases: readonly [string, string, string][]): void {
  fs.writeFileSync(path.join(bad, 'doc.rst'), 'Doc\n===\n');
  for (const [name, text, message] of cases) {
    fs.writeFileSync(path.join(bad, name), text);
    const r = rst2(['check', '.'], { cwd: bad });
    expect(r.status, text).to.equal(2);
    expect(r.stderr.toString(), text).to.satisfy((s: string) => s.startsWith(message));
    expect(r.stdout.toString()).to.equal('');
    fs.rmSync(path.join(bad, name));
  }
  // Standard input is checked with the current folder's config.
  fs.writeFileSync(path.join(bad, 'rst2.toml'), 'dialect = "markdown"\n');
  const stdin = rst2(['check', '-'], { cwd: bad, input: 'Doc\n===\n' });
  expect(stdin.status).to.equal(2);
  expect(stdin.stderr.toString()).to.equal('rst2: rst2.toml: dialect: expected one of docutils, sphinx, pypi, github, got the string "markdown"\n');
  fs.rmSync(path.join(bad, 'rst2.toml'));
  const docsUrl = rst2(['check', '--format', 'sarif', '--docs-url', 'docs/', 'doc.rst'], { cwd: bad });
  expect(docsUrl.status).to.equal(2);
  expect(docsUrl.stderr.toString()).to.match(/^rst2: --docs-url takes an http\(s\) URL/);
  const missing = rst2(['check', '--config', 'nowhere.toml', 'doc.rst'], { cwd: bad });
  expect(missing.status).to.equal(2);
  expect(missing.stderr.toString()).to.equal('rst2: nowhere.toml: no such configuration file\n');
  const flag = rst2(['check', '--select', 'nosuch', 'doc.rst'], { cwd: bad });
  expect(flag.status).to.equal(2);
  expect(flag.stderr.toString()).to.include('unknown rule "nosuch"');
  // A pyproject.toml of another tool's, broken or not, is not rst2's business.
  fs.writeFileSync(path.join(bad, 'pyproject.toml'), '[tool.black]\nline-length = \n');
  const empty = rst2(['check', fs.mkdtempSync(path.join(bad, 'empty-'))], { cwd: bad });
  expect(empty.status, empty.stderr.toString()).to.equal(0);
  expect(empty.stderr.toString()).to.match(/^rst2: no files to check in /);
}

describe('rst2 check on a project: folders, config, conf.py, formats', function () {
  let dir: string;

  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-project-'));
    makeTree(dir, TREE);
  });

  after(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('walks the folder: the configured extensions, skipping what git ignores (nested .gitignore, info/exclude), excluded, hidden, _build and node_modules; names each conf.py note once', function () {
    const r = rst2(['check', '.'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(1);
    expect(r.stdout.toString()).to.equal(EXPECTED_TEXT.join('\n') + '\n');
    // Two pages under docs/ share the conf.py: its note is printed once.
    expect(stderrLines(r)).to.deep.equal([EPILOG_NOTE]);
  });

  it('checks a file named on the command line whatever ignores or excludes it; a declared name and conf.py clear a page', function () {
    const r = rst2(['check', 'docs/index.rst', 'scratch.rst', 'docs/legacy/old.rst', 'docs/_build/html.rst'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(1);
    expect(r.stdout.toString()).to.equal(
      [
        'docs/_build/html.rst:4:4: error: Unknown directive type "nosuch". [unknown-directive]',
        'docs/legacy/old.rst:4:4: error: Unknown directive type "nosuch". [unknown-directive]',
        'scratch.rst:4:4: error: Unknown directive type "nosuch". [unknown-directive]',
        '',
      ].join('\n'),
    );
    const clean = rst2(['check', 'docs/index.rst'], { cwd: dir });
    expect(clean.status, clean.stdout.toString() + clean.stderr.toString()).to.equal(0);
    expect(clean.stdout.toString()).to.equal('');
  });

  it('--isolated reads no config and no conf.py; flags choose the rules and the dialect', function () {
    const r = rst2(['check', '--isolated', '--ignore', 'unknown-directive', 'docs/index.rst'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(1);
    const rules = r.stdout.toString().trimEnd().split('\n').map((l) => /\[([a-z-]+)\]/.exec(l)![1]);
    expect(rules).to.include('unknown-role').and.include('undefined-substitution').and.not.include('unknown-directive');
    expect(stderrLines(r)).to.deep.equal([]);
  });

  it('--format sarif is a valid SARIF 2.1.0 log: every rule, each result with its rule, level, region and fixes', function () {
    const r = rst2(['check', '--format', 'sarif', '--docs-url', 'https://rst2.example.org/docs', '.'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(1);
    const log = JSON.parse(r.stdout.toString()) as {
      version: string;
      runs: { tool: { driver: { rules: { id: string; helpUri: string }[] } }; results: { ruleId: string; level: string; locations: { physicalLocation: { artifactLocation: { uri: string }; region: Record<string, number> } }[]; fixes?: unknown[] }[] }[];
    };
    const validate = sarifValidator();
    expect(validate(log), JSON.stringify(validate.errors, null, 1)).to.equal(true);
    const run = log.runs[0]!;
    expect(run.tool.driver.rules.map((rule) => rule.id)).to.deep.equal(RULES.map((rule) => rule.code));
    expect(run.tool.driver.rules[0]!.helpUri).to.equal('https://rst2.example.org/docs/rules.html#title-underline-too-short');
    expect(run.results.map((x) => `${x.locations[0]!.physicalLocation.artifactLocation.uri}:${x.ruleId}:${x.level}`)).to.deep.equal([
      'README.rst:unknown-role:error',
      'docs/guide.txt:inline-start-without-end:warning',
      'docs/sub/page.rst:unknown-directive:error',
      'other/page.rst:title-underline-too-short:warning',
    ]);
    // The unknown role's region spans its name; the short underline's fix replaces it.
    expect(run.results[0]!.locations[0]!.physicalLocation.region).to.deep.equal({ startLine: 4, startColumn: 6, endLine: 4, endColumn: 9 });
    expect(run.results[3]!.fixes).to.deep.equal([
      {
        description: { text: "Lengthen the underline to the title's width" },
        artifactChanges: [{ artifactLocation: { uri: 'other/page.rst' }, replacements: [{ deletedRegion: { startLine: 2, startColumn: 1, endLine: 2, endColumn: 6 }, insertedContent: { text: '===========' } }] }],
      },
    ]);
  });

  it('--format github prints a workflow command per problem that GitHub reads back', function () {
    // A comma and a colon in a name are escaped in the properties.
    fs.writeFileSync(path.join(dir, 'a,b:c.rst'), 'Title\n=====\n\n:nope:`x`\n');
    try {
      const r = rst2(['check', '--format', 'github', 'a,b:c.rst', 'docs', 'other'], { cwd: dir });
      expect(r.status, r.stderr.toString()).to.equal(1);
      const commands = r.stdout.toString().trimEnd().split('\n').map(parseCommand);
      expect(commands.map((c) => [c.name, c.props.file, c.props.line, c.props.col, c.props.title])).to.deep.equal([
        ['error', 'a,b:c.rst', '4', '2', 'unknown-role'],
        ['warning', 'docs/guide.txt', '4', '4', 'inline-start-without-end'],
        ['error', 'docs/sub/page.rst', '6', '4', 'unknown-directive'],
        ['warning', 'other/page.rst', '2', '1', 'title-underline-too-short'],
      ]);
      expect(commands[0]!.props).to.include({ endLine: '4', endColumn: '6' });
      expect(commands[0]!.message).to.equal('Unknown interpreted text role "nope".');
    } finally {
      fs.rmSync(path.join(dir, 'a,b:c.rst'));
    }
  });

  it('--format junit is well-formed XML: a testsuite per file, a failing testcase per problem, a passing one for a clean file', function () {
    const r = rst2(['check', '--format', 'junit', 'docs', 'other'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(1);
    const root = (xml2js(r.stdout.toString()) as Element).elements!.find((e) => e.name === 'testsuites')!;
    expect(root.attributes).to.include({ name: 'rst2', tests: '4', failures: '3' });
    const suites = root.elements!.filter((e) => e.name === 'testsuite');
    expect(suites.map((s) => [s.attributes!.name, s.attributes!.failures])).to.deep.equal([
      ['docs/guide.txt', '1'],
      ['docs/index.rst', '0'],
      ['docs/sub/page.rst', '1'],
      ['other/page.rst', '1'],
    ]);
    const failure = suites[0]!.elements![0]!.elements![0]!;
    expect(failure.name).to.equal('failure');
    expect(failure.attributes).to.include({ type: 'inline-start-without-end', message: 'Inline emphasis start-string without end-string.' });
    expect(suites[1]!.elements![0]!.elements).to.equal(undefined);
  });

  it('a configuration mistake is exit 2 naming the file, the key and what was expected, before any check', function () {
    const cases: [string, string, string][] = [
      ['rst2.toml', 'selekt = ["title"]\n', 'rst2: rst2.toml: selekt: unknown key; expected one of '],
      ['rst2.toml', 'roles = "issue"\n', 'rst2: rst2.toml: roles: expected a list of names without spaces, got the string "issue"'],
      ['rst2.toml', 'ignore = ["titel"]\n', 'rst2: rst2.toml: ignore: unknown rule "titel": expected a rule code'],
      ['rst2.toml', '[[overrides]]\npaths = ["x.rst"]\ndialect = "markdown"\n', 'rst2: rst2.toml: overrides[1].dialect: expected one of docutils, sphinx, pypi, github, got the string "markdown"'],
      ['rst2.toml', '[[overrides]]\ndialect = "pypi"\n', 'rst2: rst2.toml: overrides[1].paths: missing'],
      ['rst2.toml', 'dialect = \n', 'rst2: rst2.toml:1:'],
      ['pyproject.toml', '[tool.rst2]\nextend-select = "ALL"\n', 'rst2: pyproject.toml: tool.rst2.extend-select: expected a list of rule names'],
    ];
    const bad = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-config-'));
    try {
      mistakes(bad, cases);
    } finally {
      fs.rmSync(bad, { recursive: true, force: true });
    }
  });

  it('--version names rst2 and docutils; COMMAND --help prints its usage and exits 0', function () {
    const version = rst2(['--version'], { cwd: dir });
    expect(version.status).to.equal(0);
    const pkg = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(version.stdout.toString()).to.match(new RegExp(`^rst2 ${pkg.version.replace(/\./g, '\\.')} \\(docutils 0\\.\\d+\\)\\n$`));
    for (const command of ['check', 'html', 'pdf', 'serve', 'lsp']) {
      const help = rst2([command, '--help'], { cwd: dir });
      expect(help.status, command).to.equal(0);
      expect(help.stdout.toString(), command).to.match(new RegExp(`^usage: rst2 ${command}\\b`));
    }
    expect(rst2(['check', '-h'], { cwd: dir }).stdout.toString()).to.include('--extend-select').and.include('--isolated').and.include('junit');
  });
});
