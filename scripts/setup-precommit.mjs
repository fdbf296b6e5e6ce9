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

const log = (message) => process.stderr.write(`[setup-precommit] ${message}\n`);

function versionOf(command) {
  const run = spawnSync(command, ['--version'], { encoding: 'utf8' });
  return run.error || run.status !== 0 ? undefined : run.stdout.trim();
}

function aptGet(args) {
  const run = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return !run.error && run.status === 0;
}

function main() {
  if (process.env.RST2_SKIP_PRECOMMIT === '1') return log('RST2_SKIP_PRECOMMIT=1: not installing pre-commit (the pre-commit hook test will skip)');
  const missing = [['pre-commit', 'pre-commit'], ['git', 'git']].filter(([command]) => !versionOf(command)).map(([, pkg]) => pkg);
  if (missing.length === 0) return log(`found ${versionOf('pre-commit')}, ${versionOf('git')}`);
  if (process.platform !== 'linux' || spawnSync('apt-get', ['--version']).error) {
    return log(`${missing.join(' and ')} not installed and there is no apt-get here: install them yourself to run the pre-commit hook test`);
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    return log(`${missing.join(' and ')} not installed and installing needs root: run \`apt-get install ${missing.join(' ')}\` as root to run the pre-commit hook test`);
  }
  const install = ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=600', ...missing];
  log(`installing Debian's ${missing.join(' ')}`);
  let ok = aptGet(install);
  if (!ok) {
    // A fresh machine may have no package lists yet: update once, then retry.
    log('install failed; running apt-get update once and retrying');
    ok = aptGet(['update']) && aptGet(install);
  }
  if (!ok) return log(`could not install ${missing.join(' ')} (see apt-get's messages above); the pre-commit hook test will skip`);
  const installed = versionOf('pre-commit');
  log(installed ? `installed ${installed}` : 'apt-get succeeded but pre-commit is still not on PATH; the pre-commit hook test will skip');
}

main();
