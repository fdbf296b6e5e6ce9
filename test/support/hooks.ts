import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

import { CHROMIUM } from './chromium.js';
import { redisMissing } from './redis.js';
import { closeAll } from './server.js';
import { texMissing } from './tex.js';

/**
 * What `npm install` provides for the tests. Outside CI a missing one makes
 * its tests skip, saying why; in CI (CI=true, as .ci/in-room sets) the
 * install is what is under test, so a missing one fails the run at once.
 */
function missingTools(): string[] {
  const missing: string[] = [];
  for (const file of texMissing()) missing.push(`pdfTeX build: ${file}`);
  if (!fs.existsSync(CHROMIUM)) missing.push(`Chromium: ${CHROMIUM}`);
  const redis = redisMissing();
  if (redis) missing.push(redis);
  // The pre-commit hook test (packed-install.test.ts): Debian's pre-commit, and git (scripts/setup-precommit.mjs).
  for (const tool of ['pre-commit', 'git']) {
    if (spawnSync(tool, ['--version']).status !== 0) missing.push(`${tool}: not on PATH (scripts/setup-precommit.mjs installs it)`);
  }
  return missing;
}

export const mochaHooks = {
  beforeAll(this: Mocha.Context) {
    if (!process.env['CI']) return;
    const missing = missingTools();
    if (missing.length) throw new Error(`CI: npm install left out what the tests need:\n  ${missing.join('\n  ')}`);
  },
  async afterAll(this: Mocha.Context) {
    this.timeout(30000);
    await closeAll();
  },
};
