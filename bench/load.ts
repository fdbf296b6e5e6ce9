/**
 * Load benchmark: one real instance (2 Pyodide workers, 1 pdfTeX worker) on
 * loopback under a mixed workload from autocannon, then two side-by-side
 * comparisons:
 *  (a) cached HTML against a bare Koa endpoint returning a fixed string of the
 *      same size (what Koa and Node cost on their own; target ratio ≥ 0.5);
 *  (b) uncached HTML over HTTP against the same workers called directly
 *      (what HTTP, parsing and the cache add; target ≤ 1.2× slower).
 * The mixed run talks to an instance in its own process, so its memory is
 * the instance's alone (read from /proc). For (a) and (b) the server runs in
 * this process, next to the load generator, so both sides of each comparison
 * share the same handicap.
 *
 * usage: npm run bench:load -- [--duration 60] [--connections 32] [--target-duration 10] [--tex-workers 1]
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import autocannon from 'autocannon';
import Koa from 'koa';

import type { RunningServer } from '../src/server.js';
import { smallDocument } from './documents.js';
import { benchArgs, benchConfig, specificationText, startInProcess } from './support.js';
import { startInstance } from './instance-process.js';
import { lostTokens, operationTable, runMixedLoad, summarise, unexpected5xx, waitIdle } from './load-lib.js';

const args = benchArgs({ numbers: ['duration', 'connections', 'target-duration', 'tex-workers'] });
const positive = { min: Number.MIN_VALUE };
const duration = args.number('duration', 60, positive);
const connections = args.number('connections', 32, positive);
const targetDuration = args.number('target-duration', Math.min(10, duration), positive);
const texWorkers = args.number('tex-workers', 1, positive);
const RST = { 'content-type': 'text/x-rst; charset=utf-8' };

/** A Koa app that only answers a fixed body: the ceiling for any Koa endpoint here. */
async function bareKoa(body: string): Promise<{ url: string; close(): Promise<void> }> {
  const app = new Koa();
  app.use((ctx) => {
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = body;
  });
  const server = http.createServer(app.callback());
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Requests per second the engine's workers manage alone, `concurrency` callers, `seconds` long. */
async function engineThroughput(s: RunningServer, doc: string, concurrency: number, seconds: number): Promise<number> {
  let done = 0;
  let n = 0;
  const until = performance.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (performance.now() < until) {
        await s.python.renderHtml(`${doc}\nMarker engine-${n++}.\n`, 'default');
        done++;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const settings = { RST2_TEX_WORKERS: String(texWorkers), RST2_LOG_LEVEL: 'error' };
  const config = benchConfig(settings);
  const failures: string[] = [];
  // The mixed run: one instance in its own process, 2 Pyodide workers.
  const instance = await startInstance({
    RST2_WORKERS: '2',
    RST2_TEX_WORKERS: String(texWorkers),
    RST2_DATA_DIR: fs.mkdtempSync(path.join(config.dataDir, 'instance-')),
  });
  const withPdf = (await fetch(`${instance.url}/1.0/rst2/pdf?rst=x`)).status === 200;
  console.log(
    `rst2 load: ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg()[0]!.toFixed(2)}; ` +
      `2 Pyodide workers, ${texWorkers} pdfTeX worker(s), queue limit ${config.queueLimit}; ` +
      `mixed run ${duration} s at ${connections} connections, comparisons ${targetDuration} s each`,
  );
  try {
    const ready = instance.memory();
    let sampledPeak = ready.rssMb;
    const sampler = setInterval(() => (sampledPeak = Math.max(sampledPeak, instance.memory().rssMb)), 200);
    // docutils' specification, as in the HTML benchmark: a real 117 KB document.
    const spec = specificationText();
    const large = { name: `specification, ${(spec.length / 1000).toFixed(0)} KB`, text: spec };
    const mixed = await runMixedLoad({ url: instance.url, durationSec: duration, connections, pdf: withPdf, large });
    await instance.waitIdle();
    const lost = await lostTokens(instance.url, mixed.tokens);
    clearInterval(sampler);
    const end = instance.memory();
    const bad5xx = unexpected5xx(mixed.operations);
    const hung = mixed.operations.reduce((a, o) => a + o.timeouts + o.errors, 0);
    console.log(`\nMixed load (${duration} s, ${connections} connections):\n\n${operationTable(mixed.operations)}\n`);
    console.log(`total requests: ${mixed.operations.reduce((a, o) => a + o.requests, 0)}, ${mixed.operations.reduce((a, o) => a + o.rps, 0).toFixed(1)} req/s`);
    console.log(`5xx other than 503: ${bad5xx} (must be 0)`);
    console.log(`timeouts and socket errors: ${hung} (must be 0)`);
    console.log(`tokens created: ${mixed.tokens.size}, lost: ${lost.length} (must be 0)`);
    console.log(
      `RSS of the instance process (main thread + all workers, not the load generator): ${ready.rssMb.toFixed(0)} MB when ready, ` +
        `peak ${Math.max(end.peakMb, sampledPeak).toFixed(0)} MB, after the run ${end.rssMb.toFixed(0)} MB ` +
        `(target < 600 MB after the run: ${end.rssMb < 600 ? 'met' : 'NOT met'})`,
    );
    if (bad5xx) failures.push(`${bad5xx} unexpected 5xx`);
    if (hung) failures.push(`${hung} timeouts/socket errors`);
    if (lost.length) failures.push(`${lost.length} lost tokens`);
  } finally {
    await instance.stop();
  }

  const server = await startInProcess(settings);
  try {
    // (a) Cached HTML against a bare Koa endpoint with a body of the same size.
    const small = smallDocument();
    const cachedBody = await (await fetch(`${server.url}/1.0/rst2/html`, { method: 'POST', headers: RST, body: small })).text();
    await waitIdle(server);
    const koa = await bareKoa(cachedBody);
    const bare = summarise('bare Koa, fixed string', await autocannon({ url: koa.url, connections, duration: targetDuration }));
    await koa.close();
    const cached = summarise(
      'html small, cached',
      await autocannon({ url: `${server.url}/1.0/rst2/html`, method: 'POST', headers: RST, body: small, connections, duration: targetDuration }),
    );

    // (b) Uncached small documents over HTTP against the same workers called directly.
    let n = 0;
    const uncached = summarise(
      'html small, uncached, HTTP',
      await autocannon({
        url: server.url,
        connections,
        duration: targetDuration,
        timeout: 60,
        requests: [{ method: 'POST', path: '/1.0/rst2/html', headers: RST, setupRequest: (req) => ({ ...req, body: `${small}\nMarker http-${n++}.\n` }) }],
      }),
    );
    await waitIdle(server);
    const engineRps = await engineThroughput(server, small, connections, targetDuration);
    const ratioA = cached.rps / bare.rps;
    const ratioB = engineRps / uncached.rps;
    console.log(`\nComparisons (${targetDuration} s each, ${connections} connections / callers):\n`);
    console.log(operationTable([bare, cached, uncached]));
    console.log(`\n(a) cached HTML ${cached.rps.toFixed(0)} req/s vs bare Koa ${bare.rps.toFixed(0)} req/s: ratio ${ratioA.toFixed(2)} (target ≥ 0.5: ${ratioA >= 0.5 ? 'met' : 'NOT met'})`);
    console.log(
      `(b) uncached small HTML: HTTP ${uncached.rps.toFixed(1)} req/s vs workers alone ${engineRps.toFixed(1)} req/s: HTTP ${ratioB.toFixed(2)}× slower (target ≤ 1.2×: ${ratioB <= 1.2 ? 'met' : 'NOT met'})`,
    );
    for (const op of [cached, uncached]) {
      const bad = unexpected5xx([op]) + op.timeouts + op.errors;
      if (bad) failures.push(`${bad} failures in ${op.name}`);
    }
    console.log(`\nRSS at end: ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
  } finally {
    await server.close();
    fs.rmSync(config.dataDir, { recursive: true, force: true });
  }
  if (failures.length) {
    console.log(`\nFAILED: ${failures.join('; ')}`);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
