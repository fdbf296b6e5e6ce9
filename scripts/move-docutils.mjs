#!/usr/bin/env node
// Moves the Pyodide bundle to another upstream series of docutils and/or
// Pygments, and runs the tests that exercise them:
//
//   node scripts/move-docutils.mjs --docutils 0.24 [--pygments 2.21] [--no-tests]
//
// 1. writes the series into scripts/python-bundle.json (the pin);
// 2. builds the bundle from Debian (scripts/build-python.mjs: the newest
//    revision of each series in the pinned suites); should Debian not have
//    a series, the pin is put back and the build's message says what it has;
// 3. writes styles/html/base/docutils.css from the new docutils-common
//    (scripts/docutils-css.mjs), compiles the TypeScript, makes the Pyodide snapshot and, where pdfTeX is
//    built, the default LaTeX formats (their preamble is docutils' output);
// 4. runs the conformance tests one file at a time (the Python tests inside
//    Pyodide first), and stops at the first file that fails.
//
// What changed in the output goes into docs/changelog.rst by hand: the tests say
// where, docutils' own release notes say why.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { DEFAULT_FORMATS, SNAPSHOT } from './engine-steps.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pinFile = path.join(root, 'scripts', 'python-bundle.json');
const say = (m) => process.stderr.write(`[move] ${m}\n`);

// The test files that run docutils (python/tests through python.test).
export const CONFORMANCE_TESTS = [
  'python', 'conformance', 'sphinx-cpython', 'http-html', 'http-check', 'http-dialects', 'html-injection', 'http-untrusted',
  'http-pdf', 'tex-format', 'http-pdf-formats', 'cli', 'openapi',
];

function usage(problem) {
  say(problem);
  say('usage: node scripts/move-docutils.mjs [--docutils X.Y] [--pygments X.Y] [--no-tests]');
  process.exit(2);
}

const args = process.argv.slice(2);
const want = {};
let tests = true;
for (let i = 0; i < args.length; i++) {
  const arg = args[i];
  if (arg === '--no-tests') tests = false;
  else if (arg === '--docutils' || arg === '--pygments') {
    const series = args[++i];
    if (!/^\d+\.\d+$/.test(series ?? '')) usage(`${arg} takes an upstream series such as 0.23 (got ${series ?? 'nothing'})`);
    want[arg.slice(2)] = series;
  } else usage(`unknown argument ${arg}`);
}

function run(name, command, argv) {
  say(`${name}...`);
  const r = spawnSync(command, argv, { cwd: root, stdio: 'inherit' });
  return r.status === 0;
}

const before = fs.readFileSync(pinFile, 'utf8');
const pin = JSON.parse(before);
pin.series = { ...pin.series, ...want };
fs.writeFileSync(pinFile, JSON.stringify(pin, null, 2) + '\n');
say(`series: docutils ${pin.series.docutils}.x, Pygments ${pin.series.pygments}.x (suites ${pin.suites.join(', ')})`);

if (!run('building the Python bundle', process.execPath, ['scripts/build-python.mjs'])) {
  fs.writeFileSync(pinFile, before);
  say(`${path.relative(root, pinFile)} put back as it was`);
  process.exit(1);
}
const steps = [
  // Every HTML style builds on the new release's minimal.css and plain.css.
  ['writing styles/html/base/docutils.css from the bundle', process.execPath, ['scripts/docutils-css.mjs']],
  ['compiling TypeScript', process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.json']],
  ['making the Pyodide memory snapshot', process.execPath, ['-e', SNAPSHOT]],
];
if (fs.existsSync(path.join(root, 'wasm/tex/manifest.json'))) {
  steps.push(['making the LaTeX formats of the default class and style', process.execPath, ['-e', DEFAULT_FORMATS]]);
}
for (const [name, command, argv] of steps) if (!run(name, command, argv)) process.exit(1);

if (!tests) process.exit(0);
const mocha = path.join(root, 'node_modules/mocha/bin/mocha.js');
for (const name of CONFORMANCE_TESTS) {
  // One file at a time, each run stopping at the first that fails.
  const ok = run(`tests: ${name}`, process.execPath, [mocha, '--no-config', '--require', 'dist/test/support/hooks.js', '--timeout', '120000', '--exit', `dist/test/${name}.test.js`]);
  if (!ok) {
    say(`${name} fails on the new series: fix python/ or, where the new output is what docutils itself writes, the expectation (and docs/changelog.rst)`);
    process.exit(1);
  }
}
say(`all ${CONFORMANCE_TESTS.length} test files pass on docutils ${pin.series.docutils}.x and Pygments ${pin.series.pygments}.x`);
