// Dump pdflatex.fmt with our WebAssembly pdfTeX (called by scripts/build-tex.sh).
//   node scripts/tex/dump-format.mjs <dir>
// <dir> holds pdftex.cjs, pdftex.wasm, texmf.cnf and texmf/; it is mounted at
// /tex as at run time, and pdflatex.fmt (+ pdflatex.log) is written into it.
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

const dir = path.resolve(process.argv[2] ?? 'wasm/tex');
const require = createRequire(import.meta.url);
const createPdftex = require(path.join(dir, 'pdftex.cjs'));
const wasmModule = await WebAssembly.compile(fs.readFileSync(path.join(dir, 'pdftex.wasm')));
const jobDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-fmt-'));

const output = [];
const t0 = Date.now();
const M = await createPdftex({
  thisProgram: '/bin/pdftex',
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
    FS.writeFile('/bin/pdftex', '');
    FS.mkdir('/tex');
    FS.mount(FS.filesystems.NODEFS, { root: dir }, '/tex');
    FS.mkdir('/job');
    FS.mount(FS.filesystems.NODEFS, { root: jobDir }, '/job');
    FS.chdir('/job');
    m.ENV.TEXMFCNF = '/tex';
  }],
});
let code;
try {
  code = M.callMain(['-ini', '-etex', '-interaction=nonstopmode', '-halt-on-error',
    '-progname=pdflatex', '-jobname=pdflatex', 'pdflatex.ini']);
} catch (e) {
  console.error(output.join('\n'));
  throw e;
}
console.log(output.join('\n'));
const fmt = path.join(jobDir, 'pdflatex.fmt');
if (code !== 0 || !fs.existsSync(fmt)) {
  console.error(`[tex] format dump failed, exit code ${code}`);
  process.exit(1);
}
// Uncompressed: pdfTeX reads it through zlib, which passes plain data through,
// and inflating the format was a good part of every run (see format-dump.ts).
fs.writeFileSync(path.join(dir, 'pdflatex.fmt'), zlib.gunzipSync(fs.readFileSync(fmt)));
fs.copyFileSync(path.join(jobDir, 'pdflatex.log'), path.join(dir, 'pdflatex.log'));
fs.rmSync(jobDir, { recursive: true, force: true });
console.log(`[tex] pdflatex.fmt: ${fs.statSync(path.join(dir, 'pdflatex.fmt')).size} bytes in ${Date.now() - t0} ms`);
