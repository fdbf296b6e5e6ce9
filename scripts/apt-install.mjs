// Installs Debian packages by name for a set-up step that must never fail
// the set-up (redis-server, pre-commit, the editors: each only for tests or
// trying things out). Where it cannot install (not Linux, no apt-get, not
// root, no network) it says why, naming the command that would, and answers
// false; the caller says what that leaves undone. No apt source is added:
// apt-get reads the system's own.
import { spawnSync } from 'node:child_process';

function aptGet(args) {
  const run = spawnSync('apt-get', args, { stdio: ['ignore', 'inherit', 'inherit'], env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
  return !run.error && run.status === 0;
}

/** Whether `packages` were installed; `log` is the step's, `forWhat` ends its sentences ("to run the Redis tests"). */
export function aptInstall(packages, log, forWhat) {
  const named = packages.join(' ');
  if (process.platform !== 'linux' || spawnSync('apt-get', ['--version']).error) {
    log(`${named} not installed and there is no apt-get here: install ${packages.length === 1 ? 'it' : 'them'} yourself ${forWhat}`);
    return false;
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    log(`${named} not installed and installing needs root: run \`apt-get install --no-install-recommends ${named}\` as root ${forWhat}`);
    return false;
  }
  const install = ['install', '-y', '--no-install-recommends', '-o', 'DPkg::Lock::Timeout=600', ...packages];
  log(`installing Debian's ${named}`);
  let ok = aptGet(install);
  if (!ok) {
    // A fresh machine may have no package lists yet: update once, then retry.
    log('install failed; running apt-get update once and retrying');
    ok = aptGet(['update']) && aptGet(install);
  }
  if (!ok) log(`could not install ${named} (see apt-get's messages above)`);
  return ok;
}
