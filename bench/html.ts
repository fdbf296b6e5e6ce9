/**
 * HTML benchmark: the service against baselines in the same run.
 *  - spawn: docutils' command line (`python3 -m docutils`) started per document
 *    (what a naive service does)
 *  - native: CPython docutils in-process with our exact code (rst2's checks
 *    and safety pass included)
 *  - plain docutils 0.23: CPython running docutils' html5 writer in-process
 *    with rst2's protections and nothing else of rst2 (bench/plain_render.py);
 *    the goals are stated against it
 *  - plain docutils 0.19: the same with Debian bookworm's docutils and
 *    Pygments, what rst2 ran before 0.23 (skipped when they cannot be downloaded)
 *  - plain docutils 0.23 inside Pyodide: the same script with the workers'
 *    bundle (collector frozen after warm-up, as theirs), on this thread:
 *    the floor for the service, which runs docutils there
 * The spawn, native and plain 0.23 baselines run Debian's CPython on the
 * bundle's own docutils and Pygments (nativeBundleEnv), the versions the
 * workers run.
 * Documents: the small one (bench/documents.ts), the first 5,000 characters
 * of docutils' specification, and the whole specification.
 * Prints a table of medians and ratios; nothing here is a pass/fail test.
 *
 * usage: npm run bench   (or node dist/bench/html.js [--quick])
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { loadPyodide } from 'pyodide';

import { layOutFiles } from '../src/engines/python/boot.js';
import { loadConfig } from '../src/config.js';
import { PythonEngine } from '../src/engines/python/engine.js';
import { createLogger } from '../src/log.js';
import { paths, projectRoot } from '../src/paths.js';
import { smallDocument } from './documents.js';
import { benchArgs, bookwormDocutilsEnv, fmt, median, nativeBundleEnv, percentile, specificationText, startInProcess, writeTemp } from './support.js';

const quick = benchArgs({ flags: ['quick'] }).has('quick');
const N = quick ? 20 : 100;
const log = createLogger('warn');

// The goals of issue 20, against plain docutils 0.23 in-process.
const SMALL_GOAL = 2.0;
const SPEC_GOAL = 1.5;

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

/** Plain docutils in-process under `env` (bench/plain_render.py): its version and the times. */
function plainBaseline(file: string, runs: number, env: NodeJS.ProcessEnv): { version: string; times: number[] } {
  const r = spawnSync('/usr/bin/python3', [path.join(projectRoot, 'bench/plain_render.py'), file, String(runs)], { encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`plain docutils baseline failed: ${r.stderr.slice(-500)}`);
  const out = JSON.parse(r.stdout) as { docutils: string; times: number[] };
  return { version: out.docutils, times: out.times };
}

/**
 * bench/plain_render.py inside Pyodide on this thread, for each document:
 * plain docutils where the service runs it, without rst2, a worker or HTTP.
 */
async function plainInPyodide(documents: Array<{ text: string; runs: number }>): Promise<number[][]> {
  // The workers' files, but none of rst2 imported (importing it registers its directives).
  const py = await loadPyodide({ stdout: () => {}, stderr: () => {} });
  layOutFiles(py, { bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles });
  py.FS.mkdirTree('/rst2/bench');
  py.FS.writeFile('/rst2/bench/plain_render.py', new Uint8Array(fs.readFileSync(path.join(projectRoot, 'bench/plain_render.py'))));
  // Collector frozen after a warm-up, as in a worker (src/engines/python/worker.ts).
  py.runPython(
    [
      'import gc, sys',
      "sys.path[:0] = ['/rst2/bench', '/rst2/python']",
      'import plain_render',
      "plain_render.render('Warm up\\n=======\\n\\n*ok*\\n')",
      'gc.collect()',
      'gc.freeze()',
    ].join('\n'),
  );
  const times = py.pyimport('plain_render').times as (source: string, runs: number) => { toJs(): number[]; destroy(): void };
  return documents.map(({ text, runs }) => {
    const proxy = times(text, runs);
    const measured = proxy.toJs();
    proxy.destroy();
    return measured;
  });
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

function ratio(a: number[], b: number[]): string {
  return `${(median(a) / median(b)).toFixed(2)}×`;
}

async function main(): Promise<void> {
  const small = smallDocument();
  const spec = specificationText();
  const opening = spec.slice(0, 5000);
  const smallFile = writeTemp('small.rst', small);
  const openingFile = writeTemp('spec-5000.rst', opening);
  const specFile = writeTemp('spec.rst', spec);
  const bookworm = bookwormDocutilsEnv([paths.pythonSources]);
  const rows: Array<[string, string, string]> = [];
  console.log(`documents: small ${small.length} bytes, specification ${spec.length} bytes (first 5,000 characters: its opening); ${N} runs each; node ${process.version}`);

  // Worker start-up and memory, measured on a bare engine; its renders are
  // bounded as the server's (config defaults), so that the difference to
  // HTTP is HTTP's.
  const defaults = loadConfig({});
  const rssBefore = process.memoryUsage().rss;
  let started = performance.now();
  const one = new PythonEngine({
    workers: 1,
    queueLimit: 8,
    timeoutMs: 60_000,
    bundlePath: paths.pythonBundle,
    pythonSources: paths.pythonSources,
    stylesDir: paths.styles,
    limits: { maxOutputBytes: defaults.maxOutputBytes, maxNestingDepth: defaults.maxNestingDepth },
    log,
  });
  await one.start();
  const readyMs = performance.now() - started;
  await one.renderHtml(spec, 'default');
  const rssPerWorker = (process.memoryUsage().rss - rssBefore) / 1e6;
  const engineSpec = await timed(() => one.renderHtml(`${spec}\n.. x ${Math.random()}\n`, 'default'), Math.min(N, 30));
  const engineOpening = await timed(() => one.renderHtml(`${opening}\n.. x ${Math.random()}\n`, 'default'), N);
  await one.close();
  rows.push(['worker ready (load Pyodide, bundle, warm-up render)', `${fmt(readyMs)} ms`, 'target < 2000 ms']);
  rows.push(['RSS per worker after a specification render', `${rssPerWorker.toFixed(0)} MB`, 'target < 150 MB']);

  // Plain docutils inside Pyodide, here: its interpreter then sits idle while the service is measured.
  const [pyodideSmall, pyodideOpening, pyodideSpec] = await plainInPyodide([
    { text: small, runs: N },
    { text: opening, runs: N },
    { text: spec, runs: Math.min(N, 30) },
  ]);

  started = performance.now();
  const server = await startInProcess({ RST2_LOG_LEVEL: 'warn', RST2_QUEUE_LIMIT: '1000' }, log);
  rows.push(['server ready with 2 workers', `${fmt(performance.now() - started)} ms`, '']);
  try {
    // Small document: latency uncached, cached, and throughput against spawn-per-request.
    let i = 0;
    const smallHttp = await timed(() => post(server.url, `${small}\n.. n ${i++}\n`), N);
    const cachedHttp = await timed(() => post(server.url, small), N);
    const nativeSmall = nativeBaseline(smallFile, N);
    const plainSmall = plainBaseline(smallFile, N, nativeBundleEnv(paths.pythonBundle, [paths.pythonSources]));
    const spawnSmall = spawnBaseline(smallFile, Math.min(N, 30));
    const serviceRps = await throughput(server.url, small, N * 2, 4);
    const spawnRps = 1000 / median(spawnSmall);
    rows.push(['small: HTTP uncached p50 / p99', `${fmt(median(smallHttp))} / ${fmt(percentile(smallHttp, 99))} ms`, `target p50 < 15 ms; ${ratio(smallHttp, plainSmall.times)} plain docutils ${plainSmall.version}`]);
    rows.push(['small: HTTP cached p50', `${fmt(median(cachedHttp))} ms`, 'target < 5 ms']);
    rows.push(['small: native CPython in-process p50 (our code)', `${fmt(median(nativeSmall))} ms`, `service/native ${ratio(smallHttp, nativeSmall)}`]);
    rows.push([`small: plain docutils ${plainSmall.version} in-process p50`, `${fmt(median(plainSmall.times))} ms`, '']);
    rows.push([`small: plain docutils ${plainSmall.version} inside Pyodide p50`, `${fmt(median(pyodideSmall))} ms`, `${ratio(pyodideSmall, plainSmall.times)} plain natively`]);
    if (bookworm) {
      const old = plainBaseline(smallFile, N, bookworm);
      rows.push([`small: plain docutils ${old.version} in-process p50`, `${fmt(median(old.times))} ms`, `${plainSmall.version}/${old.version} ${ratio(plainSmall.times, old.times)}`]);
    }
    rows.push(['small: spawn python3 -m docutils per document p50', `${fmt(median(spawnSmall))} ms`, '']);
    rows.push(['small: throughput, service (2 workers, 4 clients) vs spawn (1 process at a time)', `${serviceRps.toFixed(0)} vs ${spawnRps.toFixed(1)} req/s`, `${(serviceRps / spawnRps).toFixed(1)}× (target ≥ 10×)`]);

    // The specification's first 5,000 characters: the goal's small document.
    const openingHttp = await timed(() => post(server.url, `${opening}\n.. o ${i++}\n`), N);
    const nativeOpening = nativeBaseline(openingFile, N);
    const plainOpening = plainBaseline(openingFile, N, nativeBundleEnv(paths.pythonBundle, [paths.pythonSources]));
    const openingGoal = median(openingHttp) / median(plainOpening.times) <= SMALL_GOAL ? 'met' : '**not met**';
    rows.push([
      'spec, first 5,000 characters: HTTP uncached p50 / p99',
      `${fmt(median(openingHttp))} / ${fmt(percentile(openingHttp, 99))} ms`,
      `${ratio(openingHttp, plainOpening.times)} plain docutils ${plainOpening.version} (goal ≤ ${SMALL_GOAL.toFixed(1)}×: ${openingGoal})`,
    ]);
    rows.push(['spec, first 5,000 characters: engine alone (no HTTP) p50', `${fmt(median(engineOpening))} ms`, `${ratio(engineOpening, plainOpening.times)} plain`]);
    rows.push(['spec, first 5,000 characters: native CPython in-process p50 (our code)', `${fmt(median(nativeOpening))} ms`, `${ratio(nativeOpening, plainOpening.times)} plain`]);
    rows.push([`spec, first 5,000 characters: plain docutils ${plainOpening.version} in-process p50`, `${fmt(median(plainOpening.times))} ms`, '']);
    rows.push([`spec, first 5,000 characters: plain docutils ${plainOpening.version} inside Pyodide p50`, `${fmt(median(pyodideOpening))} ms`, `${ratio(pyodideOpening, plainOpening.times)} plain natively`]);
    if (bookworm) {
      const old = plainBaseline(openingFile, N, bookworm);
      rows.push([`spec, first 5,000 characters: plain docutils ${old.version} in-process p50`, `${fmt(median(old.times))} ms`, `${plainOpening.version}/${old.version} ${ratio(plainOpening.times, old.times)}`]);
    }

    // The specification: uncached, against native in-process.
    const specRuns = Math.min(N, 30);
    const specHttp = await timed(() => post(server.url, `${spec}\n.. s ${i++}\n`), specRuns);
    const nativeSpec = nativeBaseline(specFile, specRuns);
    const plainSpec = plainBaseline(specFile, specRuns, nativeBundleEnv(paths.pythonBundle, [paths.pythonSources]));
    const spawnSpec = spawnBaseline(specFile, Math.min(specRuns, 10));
    const specGoal = median(specHttp) / median(plainSpec.times) <= SPEC_GOAL ? 'met' : '**not met**';
    rows.push(['specification: HTTP uncached p50', `${fmt(median(specHttp))} ms`, `${ratio(specHttp, plainSpec.times)} plain docutils ${plainSpec.version} (goal ≤ ${SPEC_GOAL.toFixed(1)}×: ${specGoal}); ${ratio(specHttp, nativeSpec)} our code natively`]);
    rows.push(['specification: engine alone (no HTTP) p50', `${fmt(median(engineSpec))} ms`, `${ratio(engineSpec, plainSpec.times)} plain; ${ratio(engineSpec, nativeSpec)} our code natively`]);
    rows.push(['specification: native CPython in-process p50 (our code)', `${fmt(median(nativeSpec))} ms`, `${ratio(nativeSpec, plainSpec.times)} plain`]);
    rows.push([`specification: plain docutils ${plainSpec.version} in-process p50`, `${fmt(median(plainSpec.times))} ms`, '']);
    rows.push([`specification: plain docutils ${plainSpec.version} inside Pyodide p50`, `${fmt(median(pyodideSpec))} ms`, `${ratio(pyodideSpec, plainSpec.times)} plain natively`]);
    if (bookworm) {
      const old = plainBaseline(specFile, specRuns, bookworm);
      rows.push([`specification: plain docutils ${old.version} in-process p50`, `${fmt(median(old.times))} ms`, `${plainSpec.version}/${old.version} ${ratio(plainSpec.times, old.times)}`]);
    } else {
      rows.push(['plain docutils 0.19 (Debian bookworm)', 'skipped', 'its packages could not be downloaded (see stderr)']);
    }
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
