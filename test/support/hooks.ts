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
