#!/usr/bin/env node
// Makes sure Debian's `pre-commit` is on this machine, for the test that runs
// the repository's pre-commit hooks (.pre-commit-hooks.yaml) with
// `pre-commit try-repo` (test/packed-install.test.ts). rst2 itself never
// needs it. pre-commit runs git, which Debian's package does not depend on:
// where git is missing it is installed by name too. Like setup-redis.mjs,
// this step never fails the set-up: where it cannot install (not root, no
// apt-get, no network) it says why and goes on, and the test then skips with
// that reason (fails, in CI).
//
// RST2_SKIP_PRECOMMIT=1 skips this step.
import { spawnSync } from 'node:child_process';

import { aptInstall } from './apt-install.mjs';

const log = (message) => process.stderr.write(`[setup-precommit] ${message}\n`);

function versionOf(command) {
  const run = spawnSync(command, ['--version'], { encoding: 'utf8' });
  return run.error || run.status !== 0 ? undefined : run.stdout.trim();
}

function main() {
  if (process.env.RST2_SKIP_PRECOMMIT === '1') return log('RST2_SKIP_PRECOMMIT=1: not installing pre-commit (the pre-commit hook test will skip)');
  const missing = [['pre-commit', 'pre-commit'], ['git', 'git']].filter(([command]) => !versionOf(command)).map(([, pkg]) => pkg);
  if (missing.length === 0) return log(`found ${versionOf('pre-commit')}, ${versionOf('git')}`);
  if (!aptInstall(missing, log, 'to run the pre-commit hook test')) return log('the pre-commit hook test will skip');
  const installed = versionOf('pre-commit');
  log(installed ? `installed ${installed}` : 'apt-get succeeded but pre-commit is still not on PATH; the pre-commit hook test will skip');
}

main();
