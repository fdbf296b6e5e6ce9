// Dump a LaTeX format with one of our WebAssembly engines (called by
// scripts/build-tex.sh).
//   node scripts/tex/dump-format.mjs <dir> [pdftex|luahbtex]
// <dir> holds the engine's .cjs and .wasm, texmf.cnf and texmf/; it is
// mounted at /tex as at run time, and pdflatex.fmt or lualatex.fmt (+ its
// .log) is written into it.  For LuaHBTeX a document that loads every font
// face a rst2 document can use then fills <dir>/texmf-var with luaotfload's
// caches (its font names and each face's tables), the engine's own byte
// code at the paths it will see at run time.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = path.resolve(process.argv[2] ?? 'wasm/tex');
const engine = process.argv[3] ?? 'pdftex';
const ENGINES = {
  pdftex: { format: 'pdflatex', args: ['-etex'] },
  luahbtex: { format: 'lualatex', args: [] },
};
const { format, args: engineArgs } = ENGINES[engine] ?? (() => { throw new Error(`unknown engine ${engine}`); })();
const require = createRequire(import.meta.url);
const createEngine = require(path.join(dir, `${engine}.cjs`));
const wasmModule = await WebAssembly.compile(fs.readFileSync(path.join(dir, `${engine}.wasm`)));
const jobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-fmt-'));
// Gone on every way out, the failures' process.exit(1) included.
process.on('exit', () => fs.rmSync(jobDir, { recursive: true, force: true }));
const cacheDir = path.join(dir, 'texmf-var');

// One engine instance per run (an instance runs once).
async function run(args) {
const output = [];
const M = await createEngine({
  thisProgram: `/bin/${engine}`,
  print: (s) => output.push(s),
  printErr: (s) => output.push(s),
  stdin: () => null,
  quit: (_status, toThrow) => { throw toThrow; },
  instantiateWasm(imports, receive) {
    WebAssembly.instantiate(wasmModule, imports).then((inst) => receive(inst, wasmModule));
    return {};
  },
  preRun: [(m) => {
    const FS = m.FS;
    FS.mkdir('/bin');
    FS.writeFile(`/bin/${engine}`, '');
    FS.mkdir('/tex');
    FS.mount(FS.filesystems.NODEFS, { root: dir }, '/tex');
    FS.mkdir('/job');
    FS.mount(FS.filesystems.NODEFS, { root: jobDir }, '/job');
    FS.chdir('/job');
    m.ENV.TEXMFCNF = '/tex';
    // Only at build time is the cache in the tree, and written.
    // (TEXMFSYSVAR too: LuaTeX's Lua writes no absolute path outside it, see texmf.cnf.)
    if (engine === 'luahbtex') m.ENV.TEXMFCACHE = m.ENV.TEXMFSYSVAR = '/tex/texmf-var';
  }],
});
let code;
try {
  code = M.callMain(args);
} catch (e) {
  console.error(output.join('\n'));
  throw e;
}
console.log(output.join('\n'));
return code;
}

const t0 = Date.now();
const code = await run(['-ini', ...engineArgs, '-interaction=nonstopmode', '-halt-on-error',
  `-progname=${format}`, `-jobname=${format}`, `${format}.ini`]);
const fmt = path.join(jobDir, `${format}.fmt`);
if (code !== 0 || !fs.existsSync(fmt)) {
  console.error(`[tex] format dump failed, exit code ${code}`);
  process.exit(1);
}
// Uncompressed: the engine reads it through zlib, which passes plain data
// through, and inflating the format was a good part of every run (see
// format-dump.ts).
fs.writeFileSync(path.join(dir, `${format}.fmt`), zlib.gunzipSync(fs.readFileSync(fmt)));
fs.copyFileSync(path.join(jobDir, `${format}.log`), path.join(dir, `${format}.log`));
console.log(`[tex] ${format}.fmt: ${fs.statSync(path.join(dir, `${format}.fmt`)).size} bytes in ${Date.now() - t0} ms`);

if (engine === 'luahbtex') {
  fs.rmSync(cacheDir, { recursive: true, force: true });
  fs.mkdirSync(cacheDir);
  fs.copyFileSync(path.join(path.dirname(new URL(import.meta.url).pathname), 'font-caches.tex'), path.join(jobDir, 'font-caches.tex'));
  const t1 = Date.now();
  const warm = await run(['-interaction=nonstopmode', '-halt-on-error', '-progname=lualatex', '-fmt=lualatex', 'font-caches.tex']);
  const log = fs.readFileSync(path.join(jobDir, 'font-caches.log'), 'utf8');
  if (warm !== 0 || /^! /m.test(log) || /Missing character/.test(log)) {
    console.error(log);
    console.error(`[tex] luaotfload's caches: the font document failed, exit code ${warm}`);
    process.exit(1);
  }
  console.log(`[tex] luaotfload's caches in texmf-var in ${Date.now() - t1} ms`);
}

