/**
 * The rst2 command, run for real: `node dist/src/cli.js ...` in a child
 * process with a temporary folder, checking its output files, streams and
 * exit status.
 */
import { expect } from 'chai';
import type { SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { CheckItem } from '../src/engines/python/protocol.js';
import { findActiveContent } from '../src/pdf/safety.js';
import { paths } from '../src/paths.js';
import { applyPatch, PATCH_TOOL } from './support/apply-patch.js';
import { rst2, stderrLines } from './support/cli-run.js';
import { GOOD } from './support/fixtures.js';
import { activeContentSeenByPdfjs, pdfjsView, pdfPages } from './support/pdf.js';
import { itTex } from './support/tex.js';

const BAD = `Title
=====

.. nosuch:: x

See Missing_.
`;

/** Two safe fixes (the underline, the blank line after the list) and one suggested (the directive's name). */
const MISTAKES = 'Getting started\n=======\n\n* one\nAfter the list.\n\n.. notte:: Mind the gap.\n';
const SAFELY_FIXED = 'Getting started\n===============\n\n* one\n\nAfter the list.\n\n.. notte:: Mind the gap.\n';
const ALL_FIXED = SAFELY_FIXED.replace('notte', 'note');
/** Only safe fixes to make. */
const SAFE_ONLY = 'Installation\n=====\n\nUse *args here.\n\n- a\n- b\nAfter.\n';
const SAFE_ONLY_FIXED = 'Installation\n============\n\nUse \\*args here.\n\n- a\n- b\n\nAfter.\n';

/** The summary lines (`FILE: N fixes applied, M problems left`) of a run's stderr, without the progress line. */
function summaries(r: SpawnSyncReturns<Buffer>): string[] {
  return stderrLines(r);
}

describe('the rst2 command', function () {
  let dir: string;

  before(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-cli-'));
    fs.writeFileSync(path.join(dir, 'good.rst'), GOOD);
    fs.writeFileSync(path.join(dir, 'bad.rst'), BAD);
  });

  after(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('html writes the document to -o with the chosen style', function () {
    const r = rst2(['html', 'good.rst', '--style', 'modern', '-o', 'out.html'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(0);
    expect(r.stdout.length).to.equal(0);
    const html = fs.readFileSync(path.join(dir, 'out.html'), 'utf8');
    expect(html).to.include('<title>Quarterly Note</title>');
    expect(html).to.include('<em>quietly</em>');
    // A rule of the modern style that the default style lacks is embedded in the page.
    const rules = (name: string) => fs.readFileSync(path.join(paths.styles, 'html', `${name}.css`), 'utf8').split('\n').filter((l) => l.includes('{')).map((l) => l.trim());
    const defaults = new Set(rules('default'));
    const firstRule = rules('modern').find((l) => !defaults.has(l))!;
    expect(firstRule).to.be.a('string');
    expect(html).to.include(firstRule);
    const plain = rst2(['html', 'good.rst'], { cwd: dir });
    expect(plain.status).to.equal(0);
    expect(plain.stdout.toString()).to.include('<title>Quarterly Note</title>');
    expect(plain.stdout.toString()).to.not.include(firstRule);
  });

  it("html --parts writes publish_parts() names as JSON, --fragment the bare body; not both", function () {
    const parts = rst2(['html', 'good.rst', '--parts'], { cwd: dir });
    expect(parts.status, parts.stderr.toString()).to.equal(0);
    const json = JSON.parse(parts.stdout.toString()) as Record<string, unknown>;
    expect(Object.keys(json).sort()).to.deep.equal(['body', 'docinfo', 'fragment', 'html_body', 'messages', 'meta', 'stylesheet', 'subtitle', 'title']);
    expect(json['title']).to.equal('Quarterly Note');
    expect(json['fragment']).to.include('<em>quietly</em>').and.not.include('<h1');
    const fragment = rst2(['html', 'good.rst', '--fragment'], { cwd: dir });
    expect(fragment.status, fragment.stderr.toString()).to.equal(0);
    expect(fragment.stdout.toString()).to.equal(json['fragment']);
    const both = rst2(['html', 'good.rst', '--parts', '--fragment'], { cwd: dir });
    expect(both.status).to.equal(2);
    expect(both.stderr.toString()).to.include('--parts and --fragment: one of them');
  });

  it('reads the document from standard input when FILE is -', function () {
    const r = rst2(['html', '-'], { cwd: dir, input: GOOD });
    expect(r.status, r.stderr.toString()).to.equal(0);
    expect(r.stdout.toString()).to.include('<title>Quarterly Note</title>');
  });

  it('check prints FILE:LINE:COL: type: message [rule] and exits 1 when it finds something', function () {
    const r = rst2(['check', 'bad.rst'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(1);
    const lines = r.stdout.toString().trimEnd().split('\n');
    expect(lines).to.include('bad.rst:4:4: error: Unknown directive type "nosuch". [unknown-directive]');
    expect(lines).to.include('bad.rst:6:5: error: Unknown target name: "missing". [unknown-target]');
  });

  it('check exits 0 and prints nothing for a clean document', function () {
    const r = rst2(['check', 'good.rst'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(0);
    expect(r.stdout.toString()).to.equal('');
  });

  it('check --format json prints the JSON array, each problem with its file, exit 1 with items and 0 without', function () {
    const bad = rst2(['check', '--format', 'json', '-'], { cwd: dir, input: BAD });
    expect(bad.status, bad.stderr.toString()).to.equal(1);
    const items = JSON.parse(bad.stdout.toString()) as (CheckItem & { file: string })[];
    expect(items).to.deep.include({ file: '<stdin>', message: 'Unknown directive type "nosuch".', type: 'error', line: 4, column: 4, context: '.. nosuch:: x', rule: 'unknown-directive' });
    const good = rst2(['check', 'good.rst', '--format=json'], { cwd: dir });
    expect(good.status, good.stderr.toString()).to.equal(0);
    expect(JSON.parse(good.stdout.toString())).to.deep.equal([]);
  });

  itTex('pdf writes a PDF to -o', function () {
    const r = rst2(['pdf', 'good.rst', '--class', 'report', '--toc', '-o', 'out.pdf'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(0);
    expect(r.stdout.length).to.equal(0);
    expect(fs.readFileSync(path.join(dir, 'out.pdf')).subarray(0, 5).toString('latin1')).to.equal('%PDF-');
  });

  it('--dialect checks and renders as Sphinx or PyPI would; an unknown dialect exits 2', function () {
    const sphinx = 'Sphinx\n======\n\nSee :ref:`install` and :func:`spam.make`.\n\n.. versionadded:: 3.2\n';
    fs.writeFileSync(path.join(dir, 'sphinx.rst'), sphinx);
    expect(rst2(['check', 'sphinx.rst'], { cwd: dir }).stdout.toString()).to.include('Unknown interpreted text role "ref".');
    const checked = rst2(['check', '--dialect', 'sphinx', 'sphinx.rst'], { cwd: dir });
    expect(checked.status, checked.stdout.toString() + checked.stderr.toString()).to.equal(0);
    const html = rst2(['html', '--dialect=sphinx', 'sphinx.rst'], { cwd: dir });
    expect(html.status, html.stderr.toString()).to.equal(0);
    expect(html.stdout.toString()).to.include('Added in version 3.2.');

    // PyPI refuses a description over a single warning; plain docutils does not.
    const pypi = rst2(['check', '--dialect', 'pypi', '-'], { cwd: dir, input: 'Spam package\n=======\n\nText.\n' });
    expect(pypi.status).to.equal(1);
    expect(pypi.stdout.toString()).to.equal('<stdin>:2:1: warning: Title underline too short. [title-underline-too-short] (fixable)\n');
    const refused = rst2(['html', '--dialect', 'pypi', '-'], { cwd: dir, input: 'Spam package\n=======\n\nText.\n' });
    expect(refused.status).to.equal(1);
    expect(refused.stderr.toString()).to.match(/^rst2: PyPI would refuse this description/m);

    const unknown = rst2(['check', '--dialect', 'markdown', 'sphinx.rst'], { cwd: dir });
    expect(unknown.status).to.equal(2);
    expect(unknown.stderr.toString()).to.include('unknown dialect "markdown"; choose one of docutils, sphinx, pypi, github');
  });

  itTex('pdf applies the same PDF safety as the service', async function () {
    const attack = 'T\n=\n\n:math:`\\pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}` `run <run:calc.exe>`_\n';
    const r = rst2(['pdf', '-', '-o', 'attack.pdf'], { cwd: dir, input: attack });
    expect(r.status, r.stderr.toString()).to.equal(0);
    const bytes = new Uint8Array(fs.readFileSync(path.join(dir, 'attack.pdf')));
    expect(findActiveContent(bytes)).to.deep.equal([]);
    expect(activeContentSeenByPdfjs(await pdfjsView(bytes))).to.deep.equal([]);
    expect((await pdfPages(bytes)).join(' ')).to.include('Math not typeset');
  });

  it('an unknown style exits 2 and lists the valid names, before rendering', function () {
    const r = rst2(['html', 'good.rst', '--style', 'nosuch', '-o', 'never.html'], { cwd: dir });
    expect(r.status).to.equal(2);
    expect(r.stderr.toString()).to.include('unknown style "nosuch"').and.include('default').and.include('modern');
    expect(fs.existsSync(path.join(dir, 'never.html'))).to.equal(false);
    const pdf = rst2(['pdf', 'good.rst', '--class', 'letter', '-o', 'never.pdf'], { cwd: dir });
    expect(pdf.status).to.equal(2);
    expect(pdf.stderr.toString()).to.include('unknown class "letter"').and.include('scrartcl');
  });

  it('usage mistakes exit 2 with the usage', function () {
    for (const args of [['html'], ['html', 'a.rst', 'b.rst'], ['check', 'good.rst', '--nosuch'], ['frobnicate']]) {
      const r = rst2(args, { cwd: dir });
      expect(r.status, args.join(' ')).to.equal(2);
      expect(r.stderr.toString(), args.join(' ')).to.match(/^rst2: /).and.include('usage: rst2');
    }
  });

  it('a document the engines refuse is reported as rst2: message, exit 1, with no output file', function () {
    const r = rst2(['pdf', '-', '-o', 'refused.pdf'], { cwd: dir, input: 'Title\n=====\n\nMaths: :math:`x^{2}^{3}`\n' });
    expect(r.status).to.equal(1);
    expect(r.stderr.toString()).to.match(/^rst2: LaTeX could not typeset this document/m);
    expect(fs.existsSync(path.join(dir, 'refused.pdf'))).to.equal(false);
  });

  it('pdf prints each image it cannot have on stderr and still writes the PDF (a file has no base for relative paths)', function () {
    fs.writeFileSync(path.join(dir, 'x.png'), 'next to the document, and still never read');
    const input = 'Title\n=====\n\n.. image:: x.png\n   :alt: the picture\n\n.. image:: /etc/passwd\n';
    const r = rst2(['pdf', '-', '-o', 'image.pdf'], { cwd: dir, input });
    expect(r.status, r.stderr.toString()).to.equal(0);
    const lines = r.stderr.toString().split('\n').filter((l) => l.startsWith('rst2: image '));
    expect(lines).to.have.length(2);
    expect(lines[0]).to.match(/^rst2: image x\.png: a relative path, and the document has no URL to resolve it against/);
    expect(lines[1]).to.match(/^rst2: image \/etc\/passwd: not an http\(s\) or data: URI/);
    expect(fs.readFileSync(path.join(dir, 'image.pdf')).subarray(0, 5).toString('latin1')).to.equal('%PDF-');
  });

  it('a missing file is a document error: rst2: message, exit 1', function () {
    const r = rst2(['html', 'absent.rst'], { cwd: dir });
    expect(r.status).to.equal(1);
    expect(r.stderr.toString()).to.equal('rst2: cannot read absent.rst: no such file\n');
  });
});

describe('rst2 check --fix and --diff', function () {
  let dir: string;

  beforeEach(function () {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-cli-fix-'));
  });

  afterEach(function () {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const write = (name: string, text: string | Buffer): string => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    // Long ago, so that any rewrite shows in the mtime.
    fs.utimesSync(file, new Date('2020-01-01T00:00:00Z'), new Date('2020-01-01T00:00:00Z'));
    return file;
  };
  const read = (name: string): string => fs.readFileSync(path.join(dir, name), 'utf8');

  it('--fix rewrites the file with its safe fixes and exits 0 when nothing is left; no temporary file stays', function () {
    write('doc.rst', SAFE_ONLY);
    const r = rst2(['check', '--fix', 'doc.rst'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(0);
    expect(read('doc.rst')).to.equal(SAFE_ONLY_FIXED);
    expect(r.stdout.toString()).to.equal('');
    expect(summaries(r)).to.deep.equal(['doc.rst: 3 fixes applied, 0 problems left']);
    expect(fs.readdirSync(dir)).to.deep.equal(['doc.rst']);
    // Fixing a fixed file changes nothing, and does not write it.
    const mtime = fs.statSync(path.join(dir, 'doc.rst')).mtimeMs;
    const again = rst2(['check', '--fix', 'doc.rst'], { cwd: dir });
    expect(again.status).to.equal(0);
    expect(summaries(again)).to.deep.equal(['doc.rst: 0 fixes applied, 0 problems left']);
    expect(fs.statSync(path.join(dir, 'doc.rst')).mtimeMs).to.equal(mtime);
  });

  it('--fix exits 1 when a problem with only a suggested fix is left, printing it as check does; --unsafe fixes it', function () {
    write('doc.rst', MISTAKES);
    const r = rst2(['check', '--fix', 'doc.rst'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(1);
    expect(read('doc.rst')).to.equal(SAFELY_FIXED);
    expect(r.stdout.toString()).to.equal('doc.rst:8:4: error: Unknown directive type "notte". [unknown-directive] (fixable with --unsafe)\n');
    expect(summaries(r)).to.deep.equal(['doc.rst: 2 fixes applied, 1 problem left (1 with a suggested fix: add --unsafe)']);

    const unsafe = rst2(['check', '--fix', '--unsafe', 'doc.rst'], { cwd: dir });
    expect(unsafe.status, unsafe.stderr.toString()).to.equal(0);
    expect(read('doc.rst')).to.equal(ALL_FIXED);
    expect(unsafe.stdout.toString()).to.equal('');
    expect(summaries(unsafe)).to.deep.equal(['doc.rst: 1 fix applied, 0 problems left']);
  });

  it('--diff prints a unified diff that patch applies to give what --fix writes, and leaves the file as it was', function () {
    write('mistakes.rst', MISTAKES);
    const before = fs.statSync(path.join(dir, 'mistakes.rst')).mtimeMs;
    const r = rst2(['check', '--diff', 'mistakes.rst'], { cwd: dir });
    // A problem would be left.
    expect(r.status, r.stderr.toString()).to.equal(1);
    const diff = r.stdout.toString();
    expect(diff).to.equal(
      ['--- mistakes.rst', '+++ mistakes.rst', '@@ -1,7 +1,8 @@', ' Getting started', '-=======', '+===============', ' ', ' * one', '+', ' After the list.', ' ', ' .. notte:: Mind the gap.', ''].join('\n'),
    );
    expect(summaries(r)).to.deep.equal([
      'mistakes.rst:8:4: error: Unknown directive type "notte". [unknown-directive] (fixable with --unsafe)',
      'mistakes.rst: 2 fixes to apply, 1 problem left after them (1 with a suggested fix: add --unsafe)',
    ]);
    // What the manual shows.
    const page = fs.readFileSync(path.join(paths.docs, 'cli.rst'), 'utf8');
    const shown = (language: string): string => {
      const block = new RegExp(`^\\.\\. code:: ${language}\\n\\n((?: {3}.*\\n|\\n)+?)\\n(?=\\S)`, 'm').exec(page);
      expect(block, `docs/cli.rst: the ${language} block`).to.not.equal(null);
      return block![1]!.replace(/^ {3}/gm, '');
    };
    expect(shown('diff')).to.equal(diff);
    expect(shown('text')).to.equal(summaries(r).join('\n') + '\n');
    expect(read('mistakes.rst')).to.equal(MISTAKES);
    expect(fs.statSync(path.join(dir, 'mistakes.rst')).mtimeMs).to.equal(before);

    const unsafe = rst2(['check', '--diff', '--unsafe', 'mistakes.rst'], { cwd: dir });
    expect(unsafe.status, unsafe.stderr.toString()).to.equal(0);
    expect(read('mistakes.rst')).to.equal(MISTAKES);

    if (PATCH_TOOL === undefined) {
      console.log('      (not applied: neither patch nor git is installed)');
      return;
    }
    for (const [d, fixArgs] of [[r, ['--fix']], [unsafe, ['--fix', '--unsafe']]] as const) {
      const copy = fs.mkdtempSync(path.join(dir, 'copy-'));
      fs.writeFileSync(path.join(copy, 'mistakes.rst'), MISTAKES);
      applyPatch(copy, d.stdout);
      const fixed = rst2(['check', ...fixArgs, 'mistakes.rst'], { cwd: dir });
      expect(fixed.status).to.equal(d.status);
      expect(fs.readFileSync(path.join(copy, 'mistakes.rst'), 'utf8')).to.equal(read('mistakes.rst'));
      write('mistakes.rst', MISTAKES);
    }
  });

  it('fixes several files in one run (the engines started once); a file that needs no fix is not rewritten', function () {
    write('a.rst', MISTAKES);
    write('b.rst', SAFE_ONLY);
    write('clean.rst', ALL_FIXED);
    const clean = fs.statSync(path.join(dir, 'clean.rst'));
    const r = rst2(['check', '--fix', 'a.rst', 'clean.rst', 'b.rst', './a.rst'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(1);
    expect(r.stderr.toString().split('rst2: starting engines...').length, 'one start').to.be.at.most(2);
    // In the order of the sorted paths, whatever the order given.
    expect(summaries(r)).to.deep.equal([
      'a.rst: 2 fixes applied, 1 problem left (1 with a suggested fix: add --unsafe)',
      'b.rst: 3 fixes applied, 0 problems left',
      'clean.rst: 0 fixes applied, 0 problems left',
    ]);
    expect(r.stdout.toString()).to.equal('a.rst:8:4: error: Unknown directive type "notte". [unknown-directive] (fixable with --unsafe)\n');
    expect(read('a.rst')).to.equal(SAFELY_FIXED);
    expect(read('b.rst')).to.equal(SAFE_ONLY_FIXED);
    const after = fs.statSync(path.join(dir, 'clean.rst'));
    expect([after.mtimeMs, after.ino]).to.deep.equal([clean.mtimeMs, clean.ino]);

    const diff = rst2(['check', '--diff', '--unsafe', 'a.rst', 'b.rst', 'clean.rst'], { cwd: dir });
    expect(diff.status, diff.stderr.toString()).to.equal(0);
    expect(diff.stdout.toString().split('\n').filter((l) => /^(---|\+\+\+) /.test(l))).to.deep.equal(['--- a.rst', '+++ a.rst']);
  });

  it("keeps the file's BOM, CRLF line endings, mode and symbolic link", function () {
    const bom = Buffer.from([0xef, 0xbb, 0xbf]);
    write('crlf.rst', Buffer.concat([bom, Buffer.from(SAFE_ONLY.replaceAll('\n', '\r\n'))]));
    fs.chmodSync(path.join(dir, 'crlf.rst'), 0o640);
    fs.symlinkSync('crlf.rst', path.join(dir, 'link.rst'));
    const r = rst2(['check', '--fix', 'link.rst'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(0);
    expect(fs.lstatSync(path.join(dir, 'link.rst')).isSymbolicLink()).to.equal(true);
    expect(fs.readFileSync(path.join(dir, 'crlf.rst')).equals(Buffer.concat([bom, Buffer.from(SAFE_ONLY_FIXED.replaceAll('\n', '\r\n'))]))).to.equal(true);
    expect(fs.statSync(path.join(dir, 'crlf.rst')).mode & 0o777).to.equal(0o640);
    expect(fs.readdirSync(dir).sort()).to.deep.equal(['crlf.rst', 'link.rst']);
  });

  it('--fix - reads standard input and writes the fixed text to standard output, the problems left to standard error', function () {
    const r = rst2(['check', '--fix', '-'], { cwd: dir, input: MISTAKES });
    expect(r.status).to.equal(1);
    expect(r.stdout.toString()).to.equal(SAFELY_FIXED);
    expect(summaries(r)).to.deep.equal([
      '<stdin>:8:4: error: Unknown directive type "notte". [unknown-directive] (fixable with --unsafe)',
      '<stdin>: 2 fixes applied, 1 problem left (1 with a suggested fix: add --unsafe)',
    ]);
    const all = rst2(['check', '--fix', '--unsafe', '-'], { cwd: dir, input: MISTAKES });
    expect(all.status).to.equal(0);
    expect(all.stdout.toString()).to.equal(ALL_FIXED);
  });

  it('plain check takes several files too, one exit status for all', function () {
    write('a.rst', MISTAKES);
    write('clean.rst', ALL_FIXED);
    const r = rst2(['check', 'clean.rst', 'a.rst'], { cwd: dir });
    expect(r.status).to.equal(1);
    expect(r.stdout.toString()).to.equal(
      [
        'a.rst:2:1: warning: Title underline too short. [title-underline-too-short] (fixable)',
        'a.rst:5:1: warning: Bullet list ends without a blank line; unexpected unindent. [blank-line-after-block] (fixable)',
        'a.rst:7:4: error: Unknown directive type "notte". [unknown-directive] (fixable with --unsafe)',
        '',
      ].join('\n'),
    );
    expect(rst2(['check', 'clean.rst', 'clean.rst'], { cwd: dir }).status).to.equal(0);
  });

  it('refuses wrong combinations (exit 2, nothing touched), and a FILE it cannot read before touching any', function () {
    write('doc.rst', MISTAKES);
    for (const args of [
      ['check', '--fix', '--diff', 'doc.rst'],
      ['check', '--unsafe', 'doc.rst'],
      ['check', '--fix', '--format', 'json', 'doc.rst'],
      ['check', '--config', 'rst2.toml', '--isolated', 'doc.rst'],
      ['check', '--fix', '-', 'doc.rst'],
      ['check', '--fix'],
    ]) {
      const r = rst2(args, { cwd: dir });
      expect(r.status, args.join(' ')).to.equal(2);
      expect(r.stderr.toString(), args.join(' ')).to.match(/^rst2: /).and.include('usage: rst2');
    }
    // check could not be made: 2, as every failure of check.
    const missing = rst2(['check', '--fix', 'doc.rst', 'absent.rst'], { cwd: dir });
    expect(missing.status).to.equal(2);
    expect(missing.stderr.toString()).to.equal('rst2: cannot read absent.rst: no such file or folder\n');
    expect(read('doc.rst')).to.equal(MISTAKES);
  });

  it('a file it may not write, or in a folder it may not write, is left as it was: rst2: cannot write FILE, exit 2, no temporary file', function () {
    // The superuser may write anything: it runs the command as nobody.
    const uid = process.getuid?.() === 0 ? 65534 : undefined;
    const own = (p: string): void => {
      if (uid !== undefined) fs.chownSync(p, uid, uid);
    };
    own(dir);
    own(write('doc.rst', MISTAKES));
    fs.chmodSync(path.join(dir, 'doc.rst'), 0o444);
    const r = rst2(['check', '--fix', 'doc.rst'], { cwd: dir, uid });
    expect(r.status, r.stderr.toString()).to.equal(2);
    expect(r.stderr.toString()).to.include('rst2: cannot write doc.rst: permission denied\n');
    expect(read('doc.rst')).to.equal(MISTAKES);
    expect(fs.readdirSync(dir)).to.deep.equal(['doc.rst']);

    fs.chmodSync(path.join(dir, 'doc.rst'), 0o644);
    fs.chmodSync(dir, 0o555);
    try {
      const folder = rst2(['check', '--fix', 'doc.rst'], { cwd: dir, uid });
      expect(folder.status, folder.stderr.toString()).to.equal(2);
      expect(folder.stderr.toString()).to.include('rst2: cannot write doc.rst: permission denied\n');
      expect(read('doc.rst')).to.equal(MISTAKES);
      expect(fs.readdirSync(dir)).to.deep.equal(['doc.rst']);
    } finally {
      fs.chmodSync(dir, 0o755);
    }
  });
});
