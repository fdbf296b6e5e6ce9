#!/usr/bin/env node
// Builds the editor page served at `/` (src/http/editor.ts): type-checks the
// browser code in web/, bundles it with CodeMirror and the stylesheet using
// esbuild, names the bundles by content hash (so the server can let browsers
// cache them for good) and writes dist/web/index.html pointing at them.
// Everything the page needs ends up in dist/web/: it loads nothing else.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import * as esbuild from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, 'dist', 'web');
const started = Date.now();

const typecheck = spawnSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'web/tsconfig.json'], { cwd: root, stdio: 'inherit' });
if (typecheck.status !== 0) {
  process.stderr.write('[web] type errors in web/src\n');
  process.exit(1);
}

// A clean folder, so bundles of earlier builds are not served any more.
fs.rmSync(out, { recursive: true, force: true });
const result = await esbuild.build({
  absWorkingDir: root,
  entryPoints: [
    { in: 'web/src/main.ts', out: 'editor' },
    { in: 'web/editor.css', out: 'editor' },
  ],
  entryNames: '[name]-[hash]',
  outdir: path.join(out, 'assets'),
  bundle: true,
  format: 'esm',
  target: ['es2022'],
  minify: true,
  sourcemap: 'linked',
  metafile: true,
  logLevel: 'warning',
});

const page = new Map();
for (const [file, info] of Object.entries(result.metafile.outputs)) {
  if (!info.entryPoint) continue;
  page.set(`/assets/editor${path.extname(file)}`, `/assets/${path.basename(file)}`);
}
let html = fs.readFileSync(path.join(root, 'web', 'index.html'), 'utf8');
for (const [name, hashed] of page) {
  if (!html.includes(`"${name}"`)) throw new Error(`web/index.html does not refer to ${name}`);
  html = html.replace(`"${name}"`, `"${hashed}"`);
}
fs.writeFileSync(path.join(out, 'index.html'), html);

const sizes = [...page.values()].map((p) => `${path.basename(p)} ${(fs.statSync(path.join(out, p)).size / 1024).toFixed(0)} KiB`);
process.stderr.write(`[web] dist/web in ${Date.now() - started} ms: ${sizes.join(', ')}\n`);
