#!/usr/bin/env node
// Makes sure the editors whose language server recipes docs/lsp.rst gives
// are on this machine, for test/editor-recipes.test.ts, which runs each
// recipe headless against `rst2 lsp`: Debian 12's `neovim` (0.7.2), and
// `emacs-nox` (28.2) with `elpa-eglot` (eglot 1.9; Emacs 29 and later have
// eglot built in). They are installed by name with Debian's apt-get, as
// redis-server is (scripts/setup-redis.mjs): no apt source is added.
// Measured on the 2-core development machine: neovim 6.0 MB to download,
// 27 MB installed, 25 s; emacs-nox and elpa-eglot 46 MB, 159 MB, 52 s.
//
// The service never needs them, so this step never fails the set-up: where
// it cannot install (not root, no apt-get, no network) it says why and goes
// on, and the recipe tests then fail naming the package to install.
//
// RST2_SKIP_EDITORS=1 skips this step (and makes those tests skip).
import { spawnSync } from 'node:child_process';

import { aptInstall } from './apt-install.mjs';

const log = (message) => process.stderr.write(`[setup-editors] ${message}\n`);

/** The first line of `command --version`, or undefined when it does not run. */
function version(command) {
  const run = spawnSync(command, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  return run.error || run.status !== 0 ? undefined : run.stdout.split('\n')[0].trim();
}

/** Whether Emacs can load eglot (built in from Emacs 29, else elpa-eglot). */
function emacsHasEglot() {
  const run = spawnSync('emacs', ['--batch', '--eval', '(kill-emacs (if (locate-library "eglot") 0 1))'], { encoding: 'utf8', timeout: 30_000 });
  return !run.error && run.status === 0;
}

/** The Debian packages still missing, by name. */
function missing() {
  const names = [];
  if (!version('nvim')) names.push('neovim');
  if (!version('emacs')) names.push('emacs-nox', 'elpa-eglot');
  else if (!emacsHasEglot()) names.push('elpa-eglot');
  return names;
}

function main() {
  if (process.env.RST2_SKIP_EDITORS === '1') return log('RST2_SKIP_EDITORS=1: not installing neovim, emacs-nox, elpa-eglot (the editor recipe tests will skip)');
  const needed = missing();
  if (needed.length === 0) return log(`found ${version('nvim')}; ${version('emacs')} with eglot`);
  const started = Date.now();
  if (!aptInstall(needed, log, 'to run the editor recipe tests')) return log('the editor recipe tests will fail, naming them');
  const left = missing();
  if (left.length > 0) return log(`apt-get succeeded but ${left.join(', ')} still missing; the editor recipe tests will fail, naming them`);
  log(`installed ${needed.join(', ')} in ${((Date.now() - started) / 1000).toFixed(0)} s: ${version('nvim')}; ${version('emacs')} with eglot`);
}

main();
