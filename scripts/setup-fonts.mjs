#!/usr/bin/env node
// Puts the font SVG images are drawn with (src/images/convert.ts) into
// wasm/fonts: DejaVu Sans, from Debian's fonts-dejavu-core package, so that
// the text of a badge is typeset the same on every machine and no font is
// ever fetched while the service runs. The .deb is downloaded once by apt
// (scripts/apt-private: our own package lists) into ~/.cache/rst2/fonts (RST2_CACHE_DIR) and unpacked with dpkg-deb.
//
// Never fails the set-up: without the font an SVG image still converts,
// only its text is left out (the script says so).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'wasm', 'fonts');
const cache = path.join(process.env.RST2_CACHE_DIR || path.join(os.homedir(), '.cache', 'rst2'), 'fonts');
const FILES = ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf'];
const log = (message) => process.stderr.write(`[setup-fonts] ${message}\n`);

const have = (dir) => FILES.every((name) => fs.existsSync(path.join(dir, name)));

function copyAll(from, to) {
  fs.mkdirSync(to, { recursive: true });
  for (const name of FILES) fs.copyFileSync(path.join(from, name), path.join(to, name));
}

function run(command, args, cwd) {
  const out = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return !out.error && out.status === 0;
}

function fromDebian() {
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-fonts-'));
  try {
    // Debian's lists in our cache folder, never the machine's apt (scripts/apt-private).
    const ok = run(path.join(root, 'scripts', 'apt-private'), ['apt-get', 'download', 'fonts-dejavu-core'], work);
    const deb = ok ? fs.readdirSync(work).find((name) => name.endsWith('.deb')) : undefined;
    if (!deb || !run('dpkg-deb', ['-x', deb, 'unpacked'], work)) return false;
    const dir = path.join(work, 'unpacked', 'usr', 'share', 'fonts', 'truetype', 'dejavu');
    if (!have(dir)) return false;
    copyAll(dir, cache);
    log(`unpacked ${deb} into ${cache}`);
    return true;
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

function main() {
  if (have(target)) return log(`found ${target}`);
  if (!have(cache) && !fromDebian()) {
    return log('could not get fonts-dejavu-core (apt-get download); SVG images will convert without their text');
  }
  copyAll(cache, target);
  log(`installed ${FILES.join(', ')} into ${target}`);
}

main();
