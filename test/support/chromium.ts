/** Debian's Chromium driven by playwright-core, as the browser tests use it. */
import fs from 'node:fs';
import path from 'node:path';

import { chromium, type Browser } from 'playwright-core';

import { projectRoot } from '../../src/paths.js';
import type { RunningServer } from '../../src/server.js';
import { server } from './server.js';

export const CHROMIUM = '/usr/bin/chromium';
export const SCREENSHOTS = path.join(projectRoot, 'test-output', 'screenshots');
/** For a suite's before(): skips the suite, saying why, where Chromium is not installed. */
export function skipWithoutChromium(suite: Mocha.Context): void {
  if (fs.existsSync(CHROMIUM)) return;
  console.log(`      skipped: no Chromium at ${CHROMIUM} (scripts/setup-chromium.mjs installs Debian's chromium as root)`);
  suite.skip();
}

/** A headless browser that talks to nothing but what a test opens; `extraArgs` for a test's own needs. */
export function launchChromium(extraArgs: readonly string[] = []): Promise<Browser> {
  fs.mkdirSync(SCREENSHOTS, { recursive: true });
  // playwright starts the browser on a fresh temporary profile of its own.
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-quic', ...extraArgs],
  });
}

/** What a browser suite's tests use, ready once its before() hook has run. */
export interface BrowserSuite {
  readonly server: RunningServer;
  readonly browser: Browser;
}

/**
 * Registers, in the calling describe(), the hooks every browser suite
 * needs: skip without Chromium, the shared test server, a browser (with
 * `extraArgs`) closed after the suite.
 */
export function browserSuite(extraArgs: readonly string[] = []): BrowserSuite {
  let running: RunningServer | undefined;
  let launched: Browser | undefined;
  before(async function () {
    skipWithoutChromium(this);
    running = await server();
    launched = await launchChromium(extraArgs);
  });
  after(async () => {
    await launched?.close();
  });
  return {
    get server(): RunningServer {
      if (!running) throw new Error('the browser suite has not started');
      return running;
    },
    get browser(): Browser {
      if (!launched) throw new Error('the browser suite has not started');
      return launched;
    },
  };
}
