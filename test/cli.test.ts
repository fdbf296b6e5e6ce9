/**
 * The rst2 command, run for real: `node dist/src/cli.js ...` in a child
 * process with a temporary folder, checking its output files, streams and
 * exit status.
 */
import { expect } from 'chai';
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import type { CheckItem } from '../src/engines/python/protocol.js';
import { findActiveContent } from '../src/pdf/safety.js';
import { paths, projectRoot } from '../src/paths.js';
import { GOOD } from './support/fixtures.js';
import { activeContentSeenByPdfjs, pdfjsView, pdfPages } from './support/pdf.js';
import { itTex } from './support/tex.js';

const CLI = path.join(projectRoot, 'dist', 'src', 'cli.js');

const BAD = `Title
=====

.. nosuch:: x

See Missing_.
`;


function rst2(args: string[], opts: { cwd: string; input?: string }): SpawnSyncReturns<Buffer> {
  const env = { ...process.env };
  delete env.RST2_LOG_LEVEL;
  return spawnSync(process.execPath, [CLI, ...args], { cwd: opts.cwd, input: opts.input ?? '', env, timeout: 90_000 });
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

  it('reads the document from standard input when FILE is -', function () {
    const r = rst2(['html', '-'], { cwd: dir, input: GOOD });
    expect(r.status, r.stderr.toString()).to.equal(0);
    expect(r.stdout.toString()).to.include('<title>Quarterly Note</title>');
  });

  it('check prints FILE:LINE: type: message and exits 1 when it finds something', function () {
    const r = rst2(['check', 'bad.rst'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(1);
    const lines = r.stdout.toString().trimEnd().split('\n');
    expect(lines).to.include('bad.rst:4: error: Unknown directive type "nosuch".');
    expect(lines).to.include('bad.rst:6: error: Unknown target name: "missing".');
  });

  it('check exits 0 and prints nothing for a clean document', function () {
    const r = rst2(['check', 'good.rst'], { cwd: dir });
    expect(r.status, r.stderr.toString()).to.equal(0);
    expect(r.stdout.toString()).to.equal('');
  });

  it('check --format json prints the JSON array, exit 1 with items and 0 without', function () {
    const bad = rst2(['check', '--format', 'json', '-'], { cwd: dir, input: BAD });
    expect(bad.status, bad.stderr.toString()).to.equal(1);
    const items = JSON.parse(bad.stdout.toString()) as CheckItem[];
    expect(items).to.deep.include({ message: 'Unknown directive type "nosuch".', type: 'error', line: 4, context: '.. nosuch:: x' });
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
    expect(pypi.stdout.toString()).to.equal('<stdin>:2: warning: Title underline too short.\n');
    const refused = rst2(['html', '--dialect', 'pypi', '-'], { cwd: dir, input: 'Spam package\n=======\n\nText.\n' });
    expect(refused.status).to.equal(1);
    expect(refused.stderr.toString()).to.match(/^rst2: PyPI would refuse this description/m);

    const unknown = rst2(['check', '--dialect', 'markdown', 'sphinx.rst'], { cwd: dir });
    expect(unknown.status).to.equal(2);
    expect(unknown.stderr.toString()).to.include('unknown dialect "markdown"; choose one of docutils, sphinx, pypi');
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
