#!/usr/bin/env node
// `npm pack` runs this first (package.json "prepack"): the tarball carries the
// build, not the means to make it, so the build must be here and current.
// It compiles the TypeScript and the editor page (seconds), makes sure the
// Pyodide snapshot and the default LaTeX formats match today's python/
// sources (quick when they do: both are cached), then checks that every file
// the installed tool needs at run time is there, and stops naming the first
// one that is not (the engines come from `npm install`: scripts/setup.mjs).
//
// The tarball installs with `npm install -g ./rst2-VERSION.tgz` on a machine
// with nothing but Node.js: its postinstall (scripts/setup.mjs) sees no
// TypeScript sources (no tsconfig.json, no src/) and does nothing. The
// `files` list of package.json says what goes in; docs/cli.rst, "Installing
// rst2 as a tool", says what it weighs.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

import { DEFAULT_FORMATS, SNAPSHOT } from './engine-steps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const say = (message) => process.stderr.write(`[prepack] ${message}\n`);
function fail(message) {
  say(`error: ${message}`);
  process.exit(1);
}

if (!fs.existsSync(path.join(root, 'node_modules', 'typescript', 'package.json'))) {
  fail('the build needs the dev dependencies (TypeScript, esbuild): pack from a checkout set up with `npm install`');
}

function step(name, args) {
  const result = spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' });
  if (result.status !== 0) fail(`${name} failed (exit ${result.status ?? result.signal})`);
}

/** The first of these files (relative to the root) that is missing, or undefined. */
function firstMissing(files) {
  return files.find((f) => !fs.existsSync(path.join(root, f)));
}

const ENGINES = [
  'wasm/python/bundle.tar',
  'wasm/python/manifest.json',
  'wasm/tex/manifest.json',
  'wasm/tex/pdftex.wasm',
  'wasm/tex/pdftex.cjs',
  'wasm/tex/pdflatex.fmt',
  'wasm/tex/texmf.cnf',
  'wasm/tex/texmf/ls-R',
  'wasm/fonts/DejaVuSans.ttf',
];
const missingEngine = firstMissing(ENGINES);
if (missingEngine) {
  fail(`${missingEngine} is missing: the engines are not built (run \`npm install\`, without RST2_SKIP_TEX=1: the tarball carries pdfTeX too)`);
}

step('compiling TypeScript', [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']);
step('building the editor page', ['scripts/build-web.mjs']);
step('making the Pyodide memory snapshot', ['-e', SNAPSHOT]);
step('making the LaTeX formats of the default class and style', ['-e', DEFAULT_FORMATS]);

const { snapshotKey } = await import(pathToFileURL(path.join(root, 'dist/src/engines/python/snapshot.js')).href);
const { paths } = await import(pathToFileURL(path.join(root, 'dist/src/paths.js')).href);
const snapshot = path.relative(root, path.join(path.dirname(paths.pythonBundle), `snapshot-${snapshotKey({ bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles })}.bin`));
const formats = fs.readdirSync(path.join(root, 'wasm/tex/formats')).filter((f) => f.endsWith('.fmt'));
if (formats.length === 0) fail('wasm/tex/formats/ holds no format: the default formats were not made');
const missing = firstMissing(['dist/src/cli.js', 'dist/web/index.html', 'python/rst2/__init__.py', 'styles', 'docs/index.rst', snapshot]);
if (missing) fail(`${missing} is missing after the build`);
say(`ready: dist/, the Python bundle and ${snapshot}, pdfTeX with ${formats.length} default format(s)`);
