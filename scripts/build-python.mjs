#!/usr/bin/env node
// Packs Debian's docutils, roman-numerals and Pygments into one tar that every
// Pyodide worker unpacks into its in-memory filesystem. Debian is our source
// because the npm registry and Debian are the only registries reachable here,
// and Debian's docutils is the one we test against natively.
//
// The repository pins upstream series (scripts/python-bundle.json), not
// Debian revisions: sid keeps only its current upload, so an exact revision
// would not stay downloadable. The newest revision of each series in the
// pinned suites is taken; apt checks the .deb against the signed index, and
// the manifest records what was taken (version, suite, SHA-256).
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
const pinFile = path.join(root, 'scripts', 'python-bundle.json');
const pin = JSON.parse(fs.readFileSync(pinFile, 'utf8'));
// Each package with the pinned series it follows; roman-numerals follows
// whatever docutils' Depends accepts (it has no series of ours).
const PACKAGES = [
  { name: 'python3-docutils', series: 'docutils' },
  { name: 'docutils-common', series: 'docutils' },
  { name: 'python3-roman-numerals' },
  { name: 'python3-pygments', series: 'pygments' },
];
// Dependencies Pyodide already satisfies.
const PROVIDED = new Set(['python3', 'python3:any', 'sgml-base', 'xml-core']);
const log = (msg) => process.stderr.write(`[python] ${msg}\n`);

function sh(cmd, args, opts = {}) {
  return execFileSync(cmd, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], ...opts });
}

// Debian's lists in our cache folder, never the machine's apt (scripts/apt-private).
const aptPrivate = path.join(root, 'scripts', 'apt-private');
const suiteArgs = ['--suites', pin.suites.join(',')];
const apt = (tool, args, opts) => sh(aptPrivate, [...suiteArgs, tool, ...args], opts);

/** Debian's version without epoch and revision: "0.23+dfsg" of "0.23+dfsg-2". */
const upstreamOf = (version) => version.replace(/^\d+:/, '').replace(/-[^-]*$/, '');
/** 0.23, 0.23.1, 0.23+dfsg, 0.23.1+dfsg belong to series 0.23; 0.23~rc1 and 0.230 do not. */
function inSeries(version, series) {
  const up = upstreamOf(version);
  return up === series || up.startsWith(`${series}.`) || up.startsWith(`${series}+`);
}
function newer(a, b) {
  try {
    sh('dpkg', ['--compare-versions', a, 'gt', b]);
    return true;
  } catch {
    return false;
  }
}

/** What `series` wants changed when it is gone: the message names the file and the versions the suites do have. */
function seriesGone(missing, offered) {
  const lines = missing.map(({ name, want }) => `  ${name}: wants ${want}, the suites have ${(offered.get(name) ?? []).map((o) => `${o.version} (${o.suite})`).join(', ') || 'nothing'}`);
  return new Error(
    `the pinned series are in none of the suites ${pin.suites.join(', ')}:\n${lines.join('\n')}\n` +
      `Move the pin to a series Debian has: node scripts/move-docutils.mjs --docutils X.Y --pygments X.Y ` +
      `(it edits ${path.relative(root, pinFile)}, rebuilds the bundle and runs the conformance tests); ` +
      `or add a suite that still has the series to "suites" there.`,
  );
}

// Two apt-cache calls in all (each reads the whole lists): madison for every
// version in every suite, then show for the chosen ones (SHA-256, Depends).
function resolvePackages() {
  let madison = '';
  try { madison = apt('apt-cache', ['madison', ...PACKAGES.map((p) => p.name)]); } catch (err) { madison = String(err.stdout ?? ''); }
  const offered = new Map();
  for (const line of madison.split('\n')) {
    const [name, version, where] = line.split('|').map((f) => f?.trim());
    if (!name || !version || !where || !/ Packages$/.test(where)) continue;
    const suite = (where.split(' ')[1] ?? '').split('/')[0];
    const list = offered.get(name) ?? [];
    if (!list.some((o) => o.version === version)) list.push({ version, suite });
    offered.set(name, list);
  }
  const chosen = [];
  const missing = [];
  for (const pkg of PACKAGES) {
    const want = pkg.series ? pin.series[pkg.series] : undefined;
    if (pkg.series && !want) throw new Error(`${path.relative(root, pinFile)} names no series for ${pkg.series}`);
    let best;
    for (const o of offered.get(pkg.name) ?? []) {
      if (want && !inSeries(o.version, want)) continue;
      if (!best || newer(o.version, best.version)) best = o;
    }
    if (best) chosen.push({ name: pkg.name, series: want ?? null, ...best });
    else missing.push({ name: pkg.name, want: want ? `${pkg.series} ${want}.x` : 'any version' });
  }
  if (missing.length) throw seriesGone(missing, offered);

  const show = apt('apt-cache', ['show', ...chosen.map((c) => `${c.name}=${c.version}`)]);
  const infos = [];
  for (const c of chosen) {
    const record = show.split(/\n\n+/).find((r) => new RegExp(`^Package: ${c.name}$`, 'm').test(r) && new RegExp(`^Version: ${c.version.replace(/[.+]/g, '\\$&')}$`, 'm').test(r));
    const field = (f) => (record?.match(new RegExp(`^${f}: (.*)$`, 'm')) ?? [])[1];
    if (!record || !field('SHA256')) throw new Error(`apt-cache show gave no record with SHA256 for ${c.name}=${c.version}`);
    infos.push({ ...c, sha256: field('SHA256'), filename: field('Filename'), depends: field('Depends') ?? '' });
  }
  // A dependency we do not bundle would fail at import inside Pyodide: say so here.
  const names = new Set(infos.map((i) => i.name));
  for (const info of infos) {
    for (const alt of info.depends.split(',')) {
      const dep = alt.trim().split(/[\s(|]/)[0];
      if (dep && !names.has(dep) && !PROVIDED.has(dep)) {
        throw new Error(`${info.name} ${info.version} depends on ${dep}, which the bundle lacks: add it to PACKAGES in scripts/build-python.mjs`);
      }
    }
  }
  // docutils-common carries the writers' data of the same upload.
  const versionOf = (n) => infos.find((i) => i.name === n)?.version;
  if (versionOf('python3-docutils') !== versionOf('docutils-common')) {
    throw new Error(`python3-docutils ${versionOf('python3-docutils')} and docutils-common ${versionOf('docutils-common')} differ: the lists are mid-upload; try again later`);
  }
  return infos;
}

// The CPython inside Pyodide decides where site-packages is (lib/python3.N).
function pyodidePython() {
  const lock = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/pyodide/pyodide-lock.json'), 'utf8'));
  const m = /^(\d+)\.(\d+)/.exec(lock.info?.python ?? '');
  if (!m) throw new Error('node_modules/pyodide/pyodide-lock.json names no Python version (info.python)');
  return `python${m[1]}.${m[2]}`;
}

function say(manifest) {
  for (const p of manifest.packages) log(`  ${p.name} ${p.version} (${p.suite}) sha256 ${p.sha256}`);
}

async function main() {
  const pyodideVersion = JSON.parse(fs.readFileSync(path.join(root, 'node_modules/pyodide/package.json'), 'utf8')).version;
  const infos = resolvePackages();
  const scriptHash = createHash('sha256').update(fs.readFileSync(fileURLToPath(import.meta.url))).digest('hex');
  const key = createHash('sha256')
    .update(JSON.stringify({ infos: infos.map(({ name, version, sha256 }) => ({ name, version, sha256 })), pyodideVersion, pyVer: pyodidePython(), scriptHash }))
    .digest('hex')
    .slice(0, 16);
  const cacheRoot = process.env.RST2_CACHE_DIR || path.join(os.homedir(), '.cache', 'rst2');
  const cacheDir = path.join(cacheRoot, 'python', key);
  const outDir = path.join(root, 'wasm', 'python');
  const manifestPath = path.join(outDir, 'manifest.json');

  if (fs.existsSync(manifestPath) && JSON.parse(fs.readFileSync(manifestPath, 'utf8')).key === key) {
    log(`bundle ${key} already in wasm/python:`);
    say(JSON.parse(fs.readFileSync(manifestPath, 'utf8')));
    return;
  }
  if (!fs.existsSync(path.join(cacheDir, 'manifest.json'))) {
    await build(infos, cacheDir, key, pyodideVersion);
  } else {
    log(`bundle ${key} found in cache ${cacheDir}`);
  }
  fs.mkdirSync(outDir, { recursive: true });
  // Replace, never write through: wasm/ may be a hard-linked copy of another tree's.
  for (const f of ['bundle.tar', 'manifest.json']) {
    const tmp = path.join(outDir, `${f}.tmp`);
    fs.copyFileSync(path.join(cacheDir, f), tmp);
    fs.renameSync(tmp, path.join(outDir, f));
  }
  log(`installed bundle ${key} into wasm/python:`);
  say(JSON.parse(fs.readFileSync(manifestPath, 'utf8')));
}

async function build(infos, cacheDir, key, pyodideVersion) {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-python-'));
  try {
    log(`downloading ${infos.map((i) => `${i.name}=${i.version}`).join(' ')}`);
    apt('apt-get', ['download', ...infos.map((i) => `${i.name}=${i.version}`)], { cwd: work });
    const extracted = path.join(work, 'x');
    for (const info of infos) {
      const deb = fs.readdirSync(work).find((f) => f.startsWith(`${info.name}_`) && f.endsWith('.deb'));
      if (!deb) throw new Error(`apt-get download did not produce ${info.name}`);
      const digest = createHash('sha256').update(fs.readFileSync(path.join(work, deb))).digest('hex');
      if (digest !== info.sha256) throw new Error(`SHA-256 mismatch for ${deb}: ${digest} != ${info.sha256}`);
      sh('dpkg', ['-x', path.join(work, deb), extracted]);
    }
    const stage = path.join(work, 'stage');
    const pyVer = pyodidePython();
    const site = path.join(stage, 'lib', pyVer, 'site-packages');
    fs.mkdirSync(site, { recursive: true });
    const dist = path.join(extracted, 'usr/lib/python3/dist-packages');
    // The packages with their .dist-info (importlib.metadata reads versions there).
    for (const entry of fs.readdirSync(dist)) {
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
      series: pin.series,
      suites: pin.suites,
      packages: infos.map(({ name, version, suite, sha256, filename }) => ({ name, version, suite, sha256, filename })),
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
