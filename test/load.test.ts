/**
 * Short versions of the load, fault and fuzz benchmarks (bench/load.ts,
 * bench/faults.ts, bench/fuzz.ts), run against the shared test server.
 * The Pyodide worker kill and the full queue are in engine-faults.test.ts;
 * the pdfTeX worker kill is here.
 */
import path from 'node:path';

import { expect } from 'chai';

import { killMidJob } from '../bench/fault-cases.js';
import { fuzz } from '../bench/fuzz-lib.js';
import { loadSeeds } from '../bench/fuzz-seeds.js';
import { lostTokens, runMixedLoad, unexpected5xx, waitIdle } from '../bench/load-lib.js';
import { projectRoot } from '../src/paths.js';
import type { RunningServer } from '../src/server.js';
import { server } from './support/server.js';
import { requireTex } from './support/tex.js';

describe('load and faults: mixed load', function () {
  this.timeout(240_000);
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('5 s of mixed html, check, token and pdf traffic: only 200, 422 or 503, no hang, every token renders afterwards', async () => {
    const run = await runMixedLoad({ url: s.url, durationSec: 5, connections: 8, pdf: s.pdf.available });
    await waitIdle(s);
    expect(run.operations.reduce((a, o) => a + o.requests, 0)).to.be.greaterThan(0);
    expect(unexpected5xx(run.operations)).to.equal(0);
    for (const op of run.operations) {
      expect(op.timeouts + op.errors, `${op.name}: timeouts and socket errors`).to.equal(0);
      // 422 is a render past its deadline (the large document on a busy machine); 503 is back-pressure.
      expect(Object.keys(op.statuses).filter((c) => !['200', '422', '503'].includes(c)), `${op.name}: statuses`).to.deep.equal([]);
    }
    // Making a token only writes a file, so some are made even on a busy machine.
    expect(run.tokens.size).to.be.greaterThan(0);
    expect(await lostTokens(s.url, run.tokens)).to.deep.equal([]);
  });
});

describe('load and faults: engine faults', function () {
  this.timeout(120_000);
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('a pdfTeX worker killed mid-job fails only that request (503 Retry-After) and is replaced', async function () {
    requireTex(this);
    const o = await killMidJob(s, 'pdftex');
    expect(o.status).to.equal(503);
    expect(o.retryAfter).to.equal('1');
    expect(o.code).to.equal('engine_crashed');
    expect(o.restartsAfter).to.equal(o.restartsBefore + 1);
    expect(o.nextStatus).to.equal(200);
    expect(o.nextOk, 'the next PDF is a PDF').to.equal(true);
  });
});

describe('load and faults: fuzz', function () {
  this.timeout(600_000);
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('300 mutated docutils documents through html and check: every answer keeps the contract, the server stays healthy', async () => {
    const { seeds } = loadSeeds();
    expect(seeds.length).to.be.greaterThan(0);
    const report = await fuzz({
      url: s.url,
      seeds,
      count: 300,
      seed: 20261121,
      concurrency: 3,
      deadlineMs: 60_000,
      outDir: path.join(projectRoot, 'test-output', 'fuzz-test'),
    });
    expect(report.failures.map((f) => `#${f.index} ${f.op}: ${f.reason} (${f.file})`)).to.deep.equal([]);
    expect(Object.values(report.statuses).reduce((a, b) => a + b, 0)).to.equal(300);
    expect(report.statuses['200']).to.be.greaterThan(150);
    expect((await fetch(`${s.url}/health`)).status).to.equal(200);
  });
});
