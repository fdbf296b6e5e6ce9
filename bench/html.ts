/**
 * HTML benchmark: the service against two baselines in the same run.
 *  - spawn: docutils' command line (`python3 -m docutils`) started per document
 *    (what a naive service does)
 *  - native: CPython docutils in-process with our exact code (the physical limit)
 * Both baselines run Debian's CPython on the bundle's own docutils and
 * Pygments (nativeBundleEnv), the versions the workers run.
 * Prints a table of medians and ratios; nothing here is a pass/fail test.
 *
 * usage: npm run bench   (or node dist/bench/html.js [--quick])
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

import { PythonEngine } from '../src/engines/python/engine.js';
import { createLogger } from '../src/log.js';
import { paths, projectRoot } from '../src/paths.js';
import { smallDocument } from './documents.js';
import { benchArgs, fmt, median, nativeBundleEnv, percentile, specificationText, startInProcess, writeTemp } from './support.js';

const quick = benchArgs({ flags: ['quick'] }).has('quick');
const N = quick ? 20 : 100;
const log = createLogger('warn');

function spawnBaseline(file: string, runs: number): number[] {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    const r = spawnSync('/usr/bin/python3', ['-m', 'docutils', '--writer=html5', '--quiet', '--no-file-insertion', '--no-raw', '--syntax-highlight=short', file], {
      encoding: 'utf8',
      env: nativeBundleEnv(paths.pythonBundle),
    });
    if (r.status !== 0) throw new Error(`python3 -m docutils failed: ${r.stderr.slice(0, 300)}`);
    times.push(performance.now() - started);
  }
  return times;
}

function nativeBaseline(file: string, runs: number): number[] {
  const r = spawnSync('/usr/bin/python3', [path.join(projectRoot, 'bench/native_render.py'), file, String(runs)], {
    encoding: 'utf8',
    env: { ...nativeBundleEnv(paths.pythonBundle, [paths.pythonSources]), RST2_STYLES_DIR: paths.styles },
  });
  if (r.status !== 0) throw new Error(`native baseline failed: ${r.stderr.slice(-500)}`);
  return JSON.parse(r.stdout) as number[];
}

async function timed(fn: () => Promise<unknown>, runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const started = performance.now();
    await fn();
    times.push(performance.now() - started);
  }
  return times;
}

async function post(url: string, rst: string): Promise<void> {
  const res = await fetch(`${url}/1.0/rst2/html`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: rst });
  if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 200)}`);
  await res.arrayBuffer();
}

/** Requests per second with `concurrency` clients for `count` distinct (uncached) documents. */
async function throughput(url: string, doc: string, count: number, concurrency: number): Promise<number> {
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) await post(url, `${doc}\n.. tp ${next++} ${Math.random()}\n`);
    }),
  );
  return count / ((performance.now() - started) / 1000);
}

async function main(): Promise<void> {
  const small = smallDocument();
  const spec = specificationText();
  const smallFile = writeTemp('small.rst', small);
  const specFile = writeTemp('spec.rst', spec);
  const rows: Array<[string, string, string]> = [];
  console.log(`documents: small ${small.length} bytes, specification ${spec.length} bytes; ${N} runs each; node ${process.version}`);

  // Worker start-up and memory, measured on a bare engine.
  const rssBefore = process.memoryUsage().rss;
  let started = performance.now();
  const one = new PythonEngine({ workers: 1, queueLimit: 8, timeoutMs: 60_000, bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles, log });
  await one.start();
  const readyMs = performance.now() - started;
  await one.renderHtml(spec, 'default');
  const rssPerWorker = (process.memoryUsage().rss - rssBefore) / 1e6;
  const engineSpec = await timed(() => one.renderHtml(`${spec}\n.. x ${Math.random()}\n`, 'default'), Math.min(N, 30));
  await one.close();
  rows.push(['worker ready (load Pyodide, bundle, warm-up render)', `${fmt(readyMs)} ms`, 'target < 2000 ms']);
  rows.push(['RSS per worker after a specification render', `${rssPerWorker.toFixed(0)} MB`, 'target < 150 MB']);

  started = performance.now();
  const server = await startInProcess({ RST2_LOG_LEVEL: 'warn', RST2_QUEUE_LIMIT: '1000' }, log);
  rows.push(['server ready with 2 workers', `${fmt(performance.now() - started)} ms`, '']);
  try {
    // Small document: latency uncached, cached, and throughput against spawn-per-request.
    let i = 0;
    const smallHttp = await timed(() => post(server.url, `${small}\n.. n ${i++}\n`), N);
    const cachedHttp = await timed(() => post(server.url, small), N);
    const nativeSmall = nativeBaseline(smallFile, N);
    const spawnSmall = spawnBaseline(smallFile, Math.min(N, 30));
    const serviceRps = await throughput(server.url, small, N * 2, 4);
    const spawnRps = 1000 / median(spawnSmall);
    rows.push(['small: HTTP uncached p50 / p99', `${fmt(median(smallHttp))} / ${fmt(percentile(smallHttp, 99))} ms`, 'target p50 < 15 ms']);
    rows.push(['small: HTTP cached p50', `${fmt(median(cachedHttp))} ms`, 'target < 5 ms']);
    rows.push(['small: native CPython in-process p50', `${fmt(median(nativeSmall))} ms`, `service/native ${(median(smallHttp) / median(nativeSmall)).toFixed(2)}×`]);
    rows.push(['small: spawn python3 -m docutils per document p50', `${fmt(median(spawnSmall))} ms`, '']);
    rows.push(['small: throughput, service (2 workers, 4 clients) vs spawn (1 process at a time)', `${serviceRps.toFixed(0)} vs ${spawnRps.toFixed(1)} req/s`, `${(serviceRps / spawnRps).toFixed(1)}× (target ≥ 10×)`]);

    // The specification: uncached, against native in-process.
    const specRuns = Math.min(N, 30);
    const specHttp = await timed(() => post(server.url, `${spec}\n.. s ${i++}\n`), specRuns);
    const nativeSpec = nativeBaseline(specFile, specRuns);
    const spawnSpec = spawnBaseline(specFile, Math.min(specRuns, 10));
    rows.push(['specification: HTTP uncached p50', `${fmt(median(specHttp))} ms`, `${(median(specHttp) / median(nativeSpec)).toFixed(2)}× native (target ≤ 2.0×)`]);
    rows.push(['specification: engine alone (no HTTP) p50', `${fmt(median(engineSpec))} ms`, `${(median(engineSpec) / median(nativeSpec)).toFixed(2)}× native`]);
    rows.push(['specification: native CPython in-process p50', `${fmt(median(nativeSpec))} ms`, '']);
    rows.push(['specification: spawn python3 -m docutils p50', `${fmt(median(spawnSpec))} ms`, '']);
  } finally {
    await server.close();
  }

  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\n| ${'measure'.padEnd(width)} | figure | note |\n|${'-'.repeat(width + 2)}|---|---|`);
  for (const [a, b, c] of rows) console.log(`| ${a.padEnd(width)} | ${b} | ${c} |`);
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
