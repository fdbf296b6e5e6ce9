/**
 * rst2 installed as a tool (docs/cli.rst, "Installing rst2 as a tool"): the
 * tarball `npm pack` makes, installed with `npm install -g --prefix TMP
 * ./rst2-VERSION.tgz`, then run from TMP/bin; and the repository's pre-commit
 * hooks (.pre-commit-hooks.yaml) run by Debian's pre-commit against a small
 * git repository of rst files, with that installed rst2 on PATH.
 *
 * What the install may use is only Node.js and the npm registry. The test
 * cannot take the machine's apt sources away from inside `npm test` (the
 * suite runs as root in CI's clean room, where the development set-up needs
 * them), so it does the closest thing that still fails if the install
 * reaches for more: the install runs with a PATH whose first folder holds a
 * tripwire for every tool the development set-up calls (apt-get, apt, dpkg,
 * sudo, the compilers, make, curl, wget, python3, chromium, redis-server),
 * each recording its name and failing; and with RST2_CACHE_DIR pointing at
 * an empty folder, where every step of scripts/setup.mjs would leave its
 * downloads and builds. No tripwire may fire and the folder must stay empty.
 * The postinstall must have run (npm prints its line), and taken the packed
 * branch.
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { expect } from 'chai';
import { InitializedNotification } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

import { projectRoot } from '../src/paths.js';
import { GOOD } from './support/fixtures.js';
import { LspClient } from './support/lsp-client.js';

/** Two problems: an unknown directive (line 4) and a missing target (line 6). */
const BAD = 'Title\n=====\n\n.. nosuch:: x\n\nSee Missing_.\n';
/** Only a safe fix to make: the underline. */
const FIXABLE = 'Installation\n=====\n\nRun it.\n';
const FIXED = 'Installation\n============\n\nRun it.\n';

/** Tools the development set-up runs and a packed install must not. */
const TRIPWIRES = ['apt-get', 'apt', 'dpkg', 'sudo', 'cc', 'gcc', 'g++', 'clang', 'make', 'emcc', 'curl', 'wget', 'python3', 'python', 'chromium', 'redis-server'];

function run(command: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeout?: number }): SpawnSyncReturns<string> {
  const r = spawnSync(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, encoding: 'utf8', timeout: opts.timeout ?? 120_000, maxBuffer: 64 << 20 });
  if (r.error) throw r.error;
  return r;
}

const said = (r: SpawnSyncReturns<string>) => `exit ${r.status ?? r.signal}\n--- stdout\n${r.stdout.slice(-4000)}\n--- stderr\n${r.stderr.slice(-4000)}`;

const PRE_COMMIT = spawnSync('pre-commit', ['--version'], { encoding: 'utf8' }).status === 0;
const GIT = spawnSync('git', ['--version']).status === 0;

describe('rst2 installed as a tool: the npm pack tarball in a temporary prefix', function () {
  this.timeout(300_000);
  let work: string;
  let tarball: string;
  let prefix: string;
  let installed: string;
  let rst2: string;
  let env: NodeJS.ProcessEnv;
  let installOutput: SpawnSyncReturns<string>;
  let installSeconds: number;
  let packSeconds: number;
  let docs: string;

  before(function () {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-packed-'));
    // npm pack runs the prepack script (scripts/prepack.mjs): build, snapshot, formats, checks.
    const packStarted = Date.now();
    const packed = run('npm', ['pack', '--json', '--pack-destination', work], { cwd: projectRoot, timeout: 240_000 });
    expect(packed.status, said(packed)).to.equal(0);
    const [info] = JSON.parse(packed.stdout) as Array<{ filename: string; size: number; entryCount: number }>;
    tarball = path.join(work, info!.filename);
    packSeconds = (Date.now() - packStarted) / 1000;
    expect(fs.existsSync(tarball), tarball).to.equal(true);

    const trip = path.join(work, 'tripwires');
    fs.mkdirSync(trip);
    for (const name of TRIPWIRES) {
      fs.writeFileSync(path.join(trip, name), `#!/bin/sh\necho ${name} >> "${path.join(work, 'tripped')}"\nexit 1\n`, { mode: 0o755 });
    }
    prefix = path.join(work, 'prefix');
    const cache = path.join(work, 'rst2-cache');
    const started = Date.now();
    installOutput = run(
      'npm',
      ['install', '-g', '--prefix', prefix, tarball, '--foreground-scripts', '--prefer-offline', '--no-audit', '--no-fund', '--no-update-notifier'],
      // npm itself is found by its full path: the tripwires come first on PATH.
      { cwd: work, env: { ...process.env, PATH: `${trip}:${process.env.PATH}`, RST2_CACHE_DIR: cache }, timeout: 240_000 },
    );
    installSeconds = (Date.now() - started) / 1000;
    installed = path.join(prefix, 'lib', 'node_modules', 'rst2');
    rst2 = path.join(prefix, 'bin', 'rst2');
    env = { ...process.env, PATH: `${path.join(prefix, 'bin')}:${process.env.PATH}`, PRE_COMMIT_HOME: path.join(work, 'pre-commit-home') };
    delete env.RST2_LOG_LEVEL;
    docs = path.join(work, 'docs');
    fs.mkdirSync(docs);
    fs.writeFileSync(path.join(docs, 'good.rst'), GOOD);
    fs.writeFileSync(path.join(docs, 'bad.rst'), BAD);
  });

  after(function () {
    if (work) fs.rmSync(work, { recursive: true, force: true });
  });

  it('installs from the tarball with nothing but Node.js and the registry: no set-up step, only runtime packages', function () {
    expect(installOutput.status, said(installOutput)).to.equal(0);
    const output = installOutput.stdout + installOutput.stderr;
    // The postinstall ran, and found nothing to do.
    expect(output, said(installOutput)).to.include('[rst2] installed from the packed tarball');
    expect(output).to.not.include('[setup]');
    const tripped = path.join(work, 'tripped');
    expect(fs.existsSync(tripped) ? fs.readFileSync(tripped, 'utf8').trim().split('\n') : [], 'tools the install ran').to.deep.equal([]);
    expect(fs.existsSync(path.join(work, 'rst2-cache')), 'the set-up cache folder was made').to.equal(false);
    console.log(`      npm pack: ${(fs.statSync(tarball).size / 1e6).toFixed(1)} MB in ${packSeconds.toFixed(1)} s; npm install -g: ${installSeconds.toFixed(1)} s`);
    // The build came in the tarball; its sources and the development tree did not.
    for (const file of ['dist/src/cli.js', 'dist/web/index.html', 'wasm/python/bundle.tar', 'wasm/tex/pdftex.wasm', 'wasm/tex/texmf.cnf', 'python/rst2/__init__.py', 'docs/rules.rst']) {
      expect(fs.existsSync(path.join(installed, file)), file).to.equal(true);
    }
    for (const absent of ['src', 'tsconfig.json', 'test', 'dist/test', 'python/tests', 'wasm/tex/pdflatex.log', 'scripts/build-tex.sh']) {
      expect(fs.existsSync(path.join(installed, absent)), absent).to.equal(false);
    }
    // Only the runtime dependencies: none that the lock file marks dev-only.
    const lock = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.entries(lock.packages).filter(([where, entry]) => where.startsWith('node_modules/') && entry.dev).map(([where]) => where);
    expect(devOnly).to.include('node_modules/typescript');
    expect(devOnly.filter((where) => fs.existsSync(path.join(installed, where))), 'dev-only packages installed').to.deep.equal([]);
    expect(fs.existsSync(path.join(installed, 'node_modules', 'pyodide', 'package.json'))).to.equal(true);
  });

  it('ships the Pyodide snapshot of its own python/ and the default LaTeX formats, so nothing is made at first start', async function () {
    const { snapshotKey } = (await import(pathToFileURL(path.join(installed, 'dist/src/engines/python/snapshot.js')).href)) as typeof import('../src/engines/python/snapshot.js');
    const { paths } = (await import(pathToFileURL(path.join(installed, 'dist/src/paths.js')).href)) as typeof import('../src/paths.js');
    expect(paths.pythonBundle.startsWith(installed)).to.equal(true);
    const key = snapshotKey({ bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles });
    expect(fs.readdirSync(path.dirname(paths.pythonBundle))).to.include(`snapshot-${key}.bin`);
    expect(fs.readdirSync(path.join(paths.texDir, 'formats')).filter((f) => f.endsWith('.fmt'))).to.not.deep.equal([]);
  });

  it('rst2 --help, and rst2 check finds the planted problems and passes the clean file', function () {
    const help = run(rst2, ['--help'], { cwd: docs, env });
    expect(help.status, said(help)).to.equal(0);
    expect(help.stdout).to.include('rst2 check');

    const both = run(rst2, ['check', 'bad.rst', 'good.rst'], { cwd: docs, env });
    expect(both.status, said(both)).to.equal(1);
    expect(both.stdout).to.match(/^bad\.rst:4:.*Unknown directive type "nosuch"/m);
    expect(both.stdout).to.match(/^bad\.rst:6:.*"missing"/m);
    expect(both.stdout).to.not.include('good.rst');

    const clean = run(rst2, ['check', 'good.rst'], { cwd: docs, env });
    expect(clean.status, said(clean)).to.equal(0);
    expect(clean.stdout).to.equal('');
  });

  it('rst2 html and rst2 pdf render, and rst2 lsp answers with diagnostics', async function () {
    const html = run(rst2, ['html', 'good.rst', '-o', 'good.html'], { cwd: docs, env });
    expect(html.status, said(html)).to.equal(0);
    expect(fs.readFileSync(path.join(docs, 'good.html'), 'utf8')).to.include('<em>quietly</em>');
    const pdf = run(rst2, ['pdf', 'good.rst', '-o', 'good.pdf'], { cwd: docs, env });
    expect(pdf.status, said(pdf)).to.equal(0);
    expect(fs.readFileSync(path.join(docs, 'good.pdf')).subarray(0, 5).toString('latin1')).to.equal('%PDF-');

    const client = new LspClient([], { command: [rst2], env, cwd: docs });
    try {
      const init = await client.initialize({});
      expect(init.serverInfo?.name).to.equal('rst2');
      await client.connection.sendNotification(InitializedNotification.type, {});
      const doc = TextDocument.create(pathToFileURL(path.join(docs, 'bad.rst')).href, 'restructuredtext', 1, BAD);
      client.open(doc);
      const { diagnostics } = await client.diagnostics(doc.uri, 1);
      expect(diagnostics.map((d) => d.range.start.line + 1)).to.include(4);
      expect(await client.stop()).to.equal(0);
    } finally {
      if (client.child.exitCode === null) client.child.kill();
    }
  });

  it('the GitHub Actions example of docs/cli.rst: its two rst2 check lines, in a git repository', function () {
    if (!GIT) {
      if (process.env['CI']) throw new Error('CI: git is missing');
      this.skip();
    }
    const cli = fs.readFileSync(path.join(projectRoot, 'docs', 'cli.rst'), 'utf8');
    const block = /\.\. code:: yaml\n   :name: github-actions\n\n((?: {3}.*\n|\n)+)/.exec(cli);
    expect(block, 'docs/cli.rst: the github-actions block').to.not.equal(null);
    const lines = [...block![1]!.matchAll(/^\s*run: (rst2 check .*)$/gm)].map((m) => m[1]!);
    expect(lines).to.have.length(2);
    const ci = path.join(work, 'ci');
    fs.mkdirSync(path.join(ci, 'docs'), { recursive: true });
    fs.writeFileSync(path.join(ci, 'docs', 'bad.rst'), BAD);
    fs.writeFileSync(path.join(ci, 'good.rst'), GOOD);
    for (const args of [['init', '-q'], ['add', '.']]) expect(run('git', args, { cwd: ci, env }).status).to.equal(0);
    const [github, sarif] = lines.map((line) => run('bash', ['-c', line], { cwd: ci, env }));
    expect(github!.status, said(github!)).to.equal(1);
    expect(github!.stdout).to.match(/^::error file=docs\/bad\.rst,line=4[,:]/m);
    expect(github!.stdout).to.not.include('good.rst');
    expect(sarif!.status, said(sarif!)).to.equal(0);
    const log = JSON.parse(fs.readFileSync(path.join(ci, 'results.sarif'), 'utf8')) as { version: string; runs: Array<{ results: Array<{ ruleId?: string }> }> };
    expect(log.version).to.equal('2.1.0');
    expect(log.runs[0]!.results.map((r) => r.ruleId)).to.include('unknown-directive');
  });

  describe('the pre-commit hooks (.pre-commit-hooks.yaml), run by Debian\'s pre-commit', function () {
    let repo: string;

    before(function () {
      if (!PRE_COMMIT || !GIT) {
        const missing = `${PRE_COMMIT ? '' : 'pre-commit '}${GIT ? '' : 'git'}`.trim();
        if (process.env['CI']) throw new Error(`CI: ${missing} missing (npm install installs Debian's pre-commit and git: scripts/setup-precommit.mjs)`);
        console.log(`      skipped: ${missing} not installed (npm install installs them as root: scripts/setup-precommit.mjs)`);
        this.skip();
      }
      repo = path.join(work, 'repo');
      fs.mkdirSync(repo);
      for (const [name, text] of Object.entries({ 'good.rst': GOOD, 'bad.rst': BAD, 'fixable.rst': FIXABLE, 'notes.txt': 'Not *rst* at all\n===\n' })) {
        fs.writeFileSync(path.join(repo, name), text);
      }
      for (const args of [['init', '-q'], ['add', '.']]) {
        const g = run('git', args, { cwd: repo, env });
        expect(g.status, said(g)).to.equal(0);
      }
    });

    it('try-repo rst2: fails on the planted problems, passes the clean file, leaves non-rst files alone', function () {
      const all = run('pre-commit', ['try-repo', projectRoot, 'rst2', '--all-files'], { cwd: repo, env });
      expect(all.status, said(all)).to.equal(1);
      expect(all.stdout).to.match(/^rst2 check\.+Failed$/m);
      expect(all.stdout).to.match(/^bad\.rst:4:.*Unknown directive type "nosuch"/m);
      expect(all.stdout).to.match(/^fixable\.rst:2:/m);
      expect(all.stdout).to.not.include('good.rst').and.not.include('notes.txt');

      const clean = run('pre-commit', ['try-repo', projectRoot, 'rst2', '--files', 'good.rst', 'notes.txt'], { cwd: repo, env });
      expect(clean.status, said(clean)).to.equal(0);
      expect(clean.stdout).to.match(/^rst2 check\.+Passed$/m);
    });

    it('try-repo rst2-fix: applies the safe fix, and pre-commit fails the commit because the file changed', function () {
      const fix = run('pre-commit', ['try-repo', projectRoot, 'rst2-fix', '--files', 'fixable.rst'], { cwd: repo, env });
      expect(fix.status, said(fix)).to.equal(1);
      expect(fix.stdout).to.include('files were modified by this hook');
      expect(fs.readFileSync(path.join(repo, 'fixable.rst'), 'utf8')).to.equal(FIXED);
      fs.writeFileSync(path.join(repo, 'fixable.rst'), FIXABLE);
    });

    it('the configuration docs/cli.rst shows, with its repo and rev pointing at this repository\'s HEAD', function () {
      const cli = fs.readFileSync(path.join(projectRoot, 'docs', 'cli.rst'), 'utf8');
      const block = /\.\. code:: yaml\n   :name: pre-commit-config\n\n((?: {3}.*\n|\n)+)/.exec(cli);
      expect(block, 'docs/cli.rst: the pre-commit-config block').to.not.equal(null);
      const head = run('git', ['rev-parse', 'HEAD'], { cwd: projectRoot, env }).stdout.trim();
      const config = block![1]!
        .replace(/^ {3}/gm, '')
        .replace(/^(\s*- repo:) \S+/m, `$1 ${projectRoot}`)
        .replace(/^(\s*rev:) \S+/m, `$1 ${head}`);
      expect(config).to.include(`repo: ${projectRoot}`).and.include(`rev: ${head}`);
      fs.writeFileSync(path.join(repo, '.pre-commit-config.yaml'), config);
      const r = run('pre-commit', ['run', '--all-files'], { cwd: repo, env });
      expect(r.status, said(r)).to.equal(1);
      expect(r.stdout).to.match(/^bad\.rst:4:/m);
      expect(r.stdout).to.not.include('good.rst');
    });
  });
});
