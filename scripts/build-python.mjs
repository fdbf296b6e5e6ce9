#!/usr/bin/env node
// Packs Debian bookworm's docutils, roman and Pygments into one tar that every
// Pyodide worker unpacks into its in-memory filesystem. Debian is our source
// because the npm registry and Debian are the only registries reachable here,
// and Debian's docutils is the one we test against natively.
//
// Idempotent: the result is cached under $RST2_CACHE_DIR (default
// ~/.cache/rst2) by package versions, Pyodide version and this script's hash,
// then copied to wasm/python/.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const PACKAGES = ['python3-docutils', 'docutils-common', 'python3-roman', 'python3-pygments'];
const log = (msg) => process.stderr.write(`[python] ${msg}\n`);

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

// Debian's lists in our cache folder, never the machine's apt (scripts/apt-private).
const aptPrivate = path.join(root, 'scripts', 'apt-private');

// One apt-cache call for all packages: each call reads the whole lists.
function resolvePackages() {
  let out = '';
  try { out = sh(aptPrivate, ['apt-cache', 'show', '--no-all-versions', ...PACKAGES]); } catch { out = ''; }
  const infos = new Map();
  for (const record of out.split(/\n\n+/)) {
    const field = (f) => (record.match(new RegExp(`^${f}: (.*)$`, 'm')) ?? [])[1];
    const name = field('Package');
    if (name && field('Version')) infos.set(name, { name, version: field('Version'), sha256: field('SHA256'), filename: field('Filename') });
  }
  const missing = PACKAGES.filter((name) => !infos.has(name));
  if (missing.length) throw new Error(`Debian packages not found in bookworm's lists: ${missing.join(', ')}`);
  return PACKAGES.map((name) => infos.get(name));
}

// The CPython inside Pyodide decides where site-packages is (lib/python3.N).
function pyodidePython() {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/pyodide/pyodide-lock.json'), 'utf8'));
  const m = /^(\d+)\.(\d+)/.exec(lock.info?.python ?? '');
  if (!m) throw new Error('node_modules/pyodide/pyodide-lock.json names no Python version (info.python)');
  return `python${m[1]}.${m[2]}`;
}

async function main() {
  const pyodideVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/pyodide/package.json'), 'utf8')).version;
  const infos = resolvePackages();
  const scriptHash = createHash('sha256').update(fs.readFileSync(fileURLToPath(import.meta.url))).digest('hex');
  const key = createHash('sha256')
    .update(JSON.stringify({ infos, pyodideVersion, pyVer: pyodidePython(), scriptHash }))
    .digest('hex')
    .slice(0, 16);
  const cacheRoot = process.env.RST2_CACHE_DIR || path.join(os.homedir(), '.cache', 'rst2');
  const cacheDir = path.join(cacheRoot, 'python', key);
  const outDir = path.join(root, 'wasm', 'python');
  const manifestPath = path.join(outDir, 'manifest.json');

  if (fs.existsSync(manifestPath) && JSON.parse(fs.readFileSync(manifestPath, 'utf8')).key === key) {
    log(`bundle ${key} already in wasm/python`);
    return;
  }
  if (!fs.existsSync(path.join(cacheDir, 'manifest.json'))) {
    await build(infos, cacheDir, key, pyodideVersion);
  } else {
    log(`bundle ${key} found in cache ${cacheDir}`);
  }
  fs.mkdirSync(outDir, { recursive: true });
  for (const f of ['bundle.tar', 'manifest.json']) fs.copyFileSync(path.join(cacheDir, f), path.join(outDir, f));
  log(`installed bundle ${key} into wasm/python`);
}

async function build(infos, cacheDir, key, pyodideVersion) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-python-'));
  try {
    log(`downloading ${infos.map((i) => `${i.name}=${i.version}`).join(' ')}`);
    sh(aptPrivate, ['apt-get', 'download', ...infos.map((i) => `${i.name}=${i.version}`)], { cwd: work });
    const extracted = path.join(work, 'x');
    for (const info of infos) {
      const deb = fs.readdirSync(work).find((f) => f.startsWith(`${info.name}_`) && f.endsWith('.deb'));
      if (!deb) throw new Error(`apt-get download did not produce ${info.name}`);
      const digest = createHash('sha256').update(fs.readFileSync(path.join(work, deb))).digest('hex');
      if (info.sha256 && digest !== info.sha256) throw new Error(`SHA-256 mismatch for ${deb}: ${digest} != ${info.sha256}`);
      sh('dpkg', ['-x', path.join(work, deb), extracted]);
    }
    const stage = path.join(work, 'stage');
    const pyVer = pyodidePython();
    const site = path.join(stage, 'lib', pyVer, 'site-packages');
    fs.mkdirSync(site, { recursive: true });
    const dist = path.join(extracted, 'usr/lib/python3/dist-packages');
    for (const entry of ['docutils', 'pygments', 'roman.py']) {
      fs.cpSync(path.join(dist, entry), path.join(site, entry), { recursive: true, dereference: true });
    }
    // Debian patches docutils' _datadir() to look here for the writers' data.
    fs.cpSync(path.join(extracted, 'usr/share/docutils'), path.join(stage, 'usr/share/docutils'), { recursive: true, dereference: true });

    log('compiling .pyc inside Pyodide');
    await compileInPyodide(site);

    fs.mkdirSync(cacheDir, { recursive: true });
    const tarTmp = path.join(cacheDir, 'bundle.tar.tmp');
    sh('tar', ['--owner=0', '--group=0', '--numeric-owner', '--sort=name', '-cf', tarTmp, '-C', stage, 'lib', 'usr']);
    fs.renameSync(tarTmp, path.join(cacheDir, 'bundle.tar'));
    const manifest = {
      key,
      pyodide: pyodideVersion,
      packages: Object.fromEntries(infos.map((i) => [i.name, i.version])),
      bytes: fs.statSync(path.join(cacheDir, 'bundle.tar')).size,
    };
    fs.writeFileSync(path.join(cacheDir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n');
    log(`built bundle ${key} (${(manifest.bytes / 1e6).toFixed(1)} MB)`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

// .pyc files made by Pyodide's own CPython halve import time in the workers.
// UNCHECKED_HASH: the bundle is immutable, so the interpreter never needs to
// stat sources to validate them.
async function compileInPyodide(site) {
  const { loadPyodide } = await import(path.join(root, 'node_modules/pyodide/pyodide.mjs'));
  const py = await loadPyodide({ stdout: () => {}, stderr: () => {} });
  py.FS.mkdirTree('/stage');
  py.FS.mount(py.FS.filesystems.NODEFS, { root: site }, '/stage');
  const ok = py.runPython(`
import compileall, py_compile
compileall.compile_dir('/stage', quiet=2, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
`);
  py.FS.unmount('/stage');
  if (ok === false) throw new Error('compileall reported failures');
}

main().catch((err) => {
  log(`failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
