/**
 * The queue of format dumps is bounded (RST2_TEX_FORMAT_QUEUE): script sets
 * let documents ask for thousands of different preambles, each a second of
 * dumping and 19 MB written, so a burst of them must not pile up dumps. Real
 * pdfTeX dumps in a fresh folder; the formats are asked for in one tick, so
 * what is queued does not depend on timing.
 */
import { expect } from 'chai';

import { FormatStore } from '../src/engines/tex/format-store.js';
import { loadTexModule } from '../src/engines/tex/pdftex-run.js';
import { createLogger } from '../src/log.js';
import { paths } from '../src/paths.js';
import { tempDir } from './support/server.js';

describe('LaTeX format dumps', () => {
  it('queue at most the limit; a format asked for beyond it is not queued, and its next use asks again', async () => {
    const store = new FormatStore({
      texDir: paths.texDir,
      module: await loadTexModule(paths.texDir),
      dir: tempDir('formats'),
      maxBytes: 1 << 30,
      queueLimit: 1,
      timeoutMs: 120_000,
      log: createLogger('silent'),
    });
    try {
      const preambles = [1, 2, 3, 4, 5].map((n) => `\\documentclass{article}\n\\newcommand\\rsttwotest{${n}}\n`);
      // One starts dumping, one waits, three are not queued.
      for (const preamble of preambles) expect(store.find(preamble)).to.equal(undefined);
      expect(store.skipped).to.equal(3);
      await store.idle();
      expect(store.made).to.equal(2);
      expect(store.find(preambles[0]!)).to.not.equal(undefined);
      expect(store.find(preambles[1]!)).to.not.equal(undefined);
      // A skipped one is asked for again on its next use, and made.
      expect(store.find(preambles[4]!)).to.equal(undefined);
      await store.idle();
      expect(store.made).to.equal(3);
      expect(store.find(preambles[4]!)).to.not.equal(undefined);
    } finally {
      await store.close();
    }
  });
});
