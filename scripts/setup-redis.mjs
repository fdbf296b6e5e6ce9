#!/usr/bin/env node
// Makes sure `redis-server` is on this machine, for the Redis tests (which
// start their own redis-server on a free port) and for trying REDIS_URL
// locally. The service itself never needs it: without REDIS_URL it keeps
// tokens in a folder. So this step never fails the set-up: where it cannot
// install (not root, no apt-get, no network) it says why and goes on, and the
// Redis tests then skip with that reason.
//
// Debian's package also brings a system service on port 6379; rst2 and its
// tests do not use it, so where systemd runs, the service this step installed
// is stopped and disabled (an open Redis nobody asked for is a risk). In
// containers without an init system it never starts anyway.
//
// RST2_SKIP_REDIS=1 skips this step.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

import { aptInstall } from './apt-install.mjs';

const log = (message) => process.stderr.write(`[setup-redis] ${message}\n`);

function redisVersion() {
  const run = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  return run.error || run.status !== 0 ? undefined : run.stdout.trim();
}

function main() {
  if (process.env.RST2_SKIP_REDIS === '1') return log('RST2_SKIP_REDIS=1: not installing redis-server (the Redis tests will skip)');
  const found = redisVersion();
  if (found) return log(`found ${found}`);
  if (!aptInstall(['redis-server'], log, 'to run the Redis tests')) return log('the Redis tests will skip');
  if (fs.existsSync('/run/systemd/system')) {
    const stopped = spawnSync('systemctl', ['disable', '--now', 'redis-server'], { encoding: 'utf8' });
    log(stopped.status === 0 ? 'stopped and disabled the redis-server system service (rst2 does not use it)' : 'could not disable the redis-server system service: stop it yourself if you do not want it');
  }
  const installed = redisVersion();
  log(installed ? `installed ${installed}` : 'apt-get succeeded but redis-server is still not on PATH; the Redis tests will skip');
}

main();
