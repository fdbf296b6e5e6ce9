#!/usr/bin/env node
// Writes styles/html/base/docutils.css, the rules every HTML style builds on,
// from docutils' own minimal.css and plain.css in the Python bundle
// (wasm/python/bundle.tar: Debian's docutils-common of the same revision as
// the python3-docutils the workers run), so the stylesheet and the writer are
// always of one docutils release:
//
//   node scripts/docutils-css.mjs           writes the file
//   node scripts/docutils-css.mjs --check   exits 1 when the file is not what the bundle makes
//
// scripts/move-docutils.mjs runs it after building a new bundle, and
// test/http-html.test.ts runs --check, so a bundle moved by hand cannot leave
// the CSS behind.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bundle = path.join(root, 'wasm', 'python', 'bundle.tar');
const manifest = path.join(root, 'wasm', 'python', 'manifest.json');
const target = path.join(root, 'styles', 'html', 'base', 'docutils.css');
const DIR = 'usr/share/docutils/writers/html5_polyglot';

function member(name) {
  const r = spawnSync('tar', ['-xOf', bundle, `${DIR}/${name}`], { encoding: 'utf8', maxBuffer: 1 << 24 });
  if (r.status !== 0) throw new Error(`${name} is not in ${bundle}: ${r.stderr.trim()} (build it with scripts/build-python.mjs)`);
  return r.stdout;
}

function banner(text) {
  return `/* ${'='.repeat(70)} */\n/* ${text.padEnd(70)} */\n/* ${'='.repeat(70)} */\n`;
}

export function composed() {
  const version = JSON.parse(fs.readFileSync(manifest, 'utf8')).packages.find((p) => p.name === 'docutils-common').version;
  const release = version.split('+')[0];
  const minimal = member('minimal.css');
  const plain = member('plain.css');
  // docutils' own typo: "bockquote" sets nothing; the margin was meant for block quotes.
  const fixed = plain.replace(/^bockquote \{/m, 'blockquote {');
  return (
    `/* Docutils ${release}'s minimal.css and plain.css (Debian's docutils-common ${version}),\n` +
    ` * verbatim but for one typo fix (bockquote). Written by scripts/docutils-css.mjs from\n` +
    ` * the Python bundle; rst2 embeds this file before the chosen style's own file\n` +
    ` * (python/rst2/render.py). 2-Clause BSD licence, see below. */\n\n` +
    banner(`Part 1: docutils ${release} minimal.css (verbatim)`) +
    '\n' +
    minimal +
    '\n' +
    banner(`Part 2: docutils ${release} plain.css (verbatim, "bockquote" typo fixed)`) +
    '\n' +
    fixed
  );
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = composed();
  if (process.argv.includes('--check')) {
    const same = fs.existsSync(target) && fs.readFileSync(target, 'utf8') === text;
    process.stderr.write(same ? `${path.relative(root, target)} is the bundle's\n` : `${path.relative(root, target)} differs from the bundle's: run node scripts/docutils-css.mjs\n`);
    process.exit(same ? 0 : 1);
  }
  fs.writeFileSync(target, text);
  process.stderr.write(`wrote ${path.relative(root, target)}\n`);
}
