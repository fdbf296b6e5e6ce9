#!/usr/bin/env node
// The browser tests (test/editor.test.ts) drive Debian's Chromium through
// playwright-core. Install it when missing; when that is impossible (not
// root, no apt-get, no network) say why and carry on: the service does not
// need it, and those tests skip with a reason.
//
// RST2_SKIP_CHROMIUM=1 skips this step (e.g. on a production machine).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

const CHROMIUM = '/usr/bin/chromium';

function say(message) {
  process.stderr.write(`[chromium] ${message}\n`);
}

function aptGet(args) {
  const result = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' });
  if (result.error) return { ok: false, why: result.error.message };
  return { ok: result.status === 0, why: (result.stderr ?? '').trim().split('\n').slice(-2).join(' ') };
}

function install() {
  const args = ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=600', 'chromium'];
  let result = aptGet(args);
  if (!result.ok) {
    // Usually a fresh machine without package lists: fetch them once and retry.
    say(`apt-get install failed (${result.why}); running apt-get update once`);
    const update = aptGet(['update', '-o', 'DPkg::Lock::Timeout=600']);
    if (!update.ok) return update;
    result = aptGet(args);
  }
  return result;
}

if (fs.existsSync(CHROMIUM)) {
  say(`${CHROMIUM} is there`);
} else if (process.env.RST2_SKIP_CHROMIUM === '1') {
  say('RST2_SKIP_CHROMIUM=1: not installing; the editor page tests will skip');
} else if (process.platform !== 'linux' || typeof process.getuid !== 'function' || process.getuid() !== 0) {
  say(`not installing Chromium (needs root on Debian: apt-get install chromium); the editor page tests will skip`);
} else {
  say('installing Debian\'s chromium package');
  const result = install();
  if (result.ok && fs.existsSync(CHROMIUM)) say(`installed ${CHROMIUM}`);
  else say(`could not install Chromium (${result.why || 'no binary after install'}); the editor page tests will skip`);
}
