import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import os from 'node:os';
import path from 'node:path';

import { ConfigError, loadConfig } from '../../src/config.js';
import { projectRoot } from '../../src/paths.js';

describe('configuration', () => {
  it('has the documented defaults', () => {
    const c = loadConfig({});
    expect(c).to.include({
      host: '0.0.0.0',
      port: 8080,
      queueLimit: 64,
      renderTimeoutMs: 10_000,
      pdfTimeoutMs: 30_000,
      pdfStallMs: 5_000,
      maxBodyBytes: 2 * 1024 * 1024,
      uriMaxBytes: 256_000,
      uriMaxRedirects: 5,
      allowPrivateUri: false,
      allowLinkLocalUri: false,
      maxOutputBytes: 32 * 1024 * 1024,
      maxNestingDepth: 32,
      workerHeapBudgetBytes: 160 * 1024 * 1024,
    });
    expect(c.workers).to.be.at.least(1);
    expect(c.texFormatBytes).to.equal(512 * 1024 * 1024);
    expect(c.texFormatDir).to.equal(path.join(os.homedir(), '.cache', 'rst2', 'tex-formats'));
    expect(loadConfig({ RST2_CACHE_DIR: '/var/cache/rst2' }).texFormatDir).to.equal('/var/cache/rst2/tex-formats');
    expect(loadConfig({ RST2_TEX_FORMAT_DIR: '/srv/fmt', RST2_TEX_FORMAT_BYTES: '0' })).to.include({ texFormatDir: '/srv/fmt', texFormatBytes: 0 });
    expect(c.luaSpareIdleMs).to.equal(60_000);
    expect(loadConfig({ RST2_LUATEX_SPARE_IDLE_MS: '0' }).luaSpareIdleMs).to.equal(0);
  });

  it('keeps link-local and cloud metadata addresses apart from private ones', () => {
    expect(loadConfig({ RST2_ALLOW_PRIVATE_URI: '1' })).to.include({ allowPrivateUri: true, allowLinkLocalUri: false });
    expect(loadConfig({ RST2_ALLOW_LINK_LOCAL_URI: 'yes' })).to.include({ allowPrivateUri: false, allowLinkLocalUri: true });
  });

  it('refuses bad values with a message naming the variable', () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ PORT: 'eighty' }, /PORT must be a whole number/],
      [{ PORT: '70000' }, /PORT must be between 0 and 65535/],
      [{ RST2_WORKERS: '0' }, /RST2_WORKERS must be between 1/],
      [{ RST2_ALLOW_PRIVATE_URI: 'maybe' }, /RST2_ALLOW_PRIVATE_URI must be/],
      [{ RST2_ALLOW_LINK_LOCAL_URI: 'sometimes' }, /RST2_ALLOW_LINK_LOCAL_URI must be/],
      [{ RST2_LOG_LEVEL: 'loud' }, /RST2_LOG_LEVEL must be one of/],
      [{ RST2_TEX_FORMAT_BYTES: '7MB' }, /RST2_TEX_FORMAT_BYTES must be a whole number/],
      [{ RST2_PDF_STALL_MS: '5s' }, /RST2_PDF_STALL_MS must be a whole number/],
      [{ RST2_PDF_STALL_MS: '700000' }, /RST2_PDF_STALL_MS must be between 0 and 600000/],
      [{ RST2_LUATEX_SPARE_IDLE_MS: 'off' }, /RST2_LUATEX_SPARE_IDLE_MS must be a whole number/],
      [{ RST2_LUATEX_SPARE_IDLE_MS: '100000000' }, /RST2_LUATEX_SPARE_IDLE_MS must be between 0 and 86400000/],
      [{ RST2_MAX_OUTPUT_BYTES: '100' }, /RST2_MAX_OUTPUT_BYTES must be between 1024/],
      [{ RST2_MAX_NESTING_DEPTH: '0' }, /RST2_MAX_NESTING_DEPTH must be between 1 and 100000/],
      [{ RST2_WORKER_HEAP_BUDGET_BYTES: '1.5e9' }, /RST2_WORKER_HEAP_BUDGET_BYTES must be a whole number/],
    ];
    for (const [env, message] of bad) {
      expect(() => loadConfig(env)).to.throw(ConfigError, message);
    }
  });

  it('the rst2 command exits 2 with that message on a bad value', () => {
    const r = spawnSync(process.execPath, [path.join(projectRoot, 'dist/src/cli.js'), 'serve'], {
      env: { ...process.env, RST2_QUEUE_LIMIT: '-1' },
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(r.status).to.equal(2);
    expect(r.stderr).to.include('RST2_QUEUE_LIMIT must be a whole number');
  });
});
