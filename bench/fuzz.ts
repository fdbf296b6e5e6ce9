/**
 * Fuzzes a real instance over HTTP with mutated docutils documents (see
 * fuzz-lib.ts) and prints what came back. Exit status 1 when any answer broke
 * the contract (a 500, a non-JSON error, a 503 without Retry-After, no answer
 * within the deadline) or the server is not healthy at the end; failing
 * inputs are saved to test-output/fuzz/.
 *
 * usage: npm run bench:fuzz -- [--count 10000] [--seed 1] [--concurrency 3] [--render-timeout 5000]
 *        node dist/bench/fuzz.js --fetch-seeds     (only fill the seed cache)
 *        node dist/bench/fuzz.js --show 1234 [--seed 1]   (print the input at that index)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { projectRoot } from '../src/paths.js';
import { fuzz, inputAt } from './fuzz-lib.js';
import { loadSeeds } from './fuzz-seeds.js';
import { benchArgs, fmt, startInProcess } from './support.js';

const args = benchArgs({ numbers: ['count', 'seed', 'concurrency', 'render-timeout', 'show'], flags: ['fetch-seeds'] });
const whole = { whole: true };
const count = args.number('count', 10_000, whole);
const seed = args.number('seed', 1, whole);
const concurrency = args.number('concurrency', 3, whole);
const renderTimeoutMs = args.number('render-timeout', 5000, whole);
const outDir = path.join(projectRoot, 'test-output', 'fuzz');

async function main(): Promise<void> {
  const { seeds, source } = loadSeeds((line) => console.error(line));
  if (args.has('fetch-seeds')) {
    console.log(`seeds: ${seeds.length} (${source})`);
    return;
  }
  if (args.has('show')) {
    process.stdout.write(inputAt(seed, args.number('show', 0, whole), seeds));
    return;
  }
  const server = await startInProcess({ RST2_TEX_WORKERS: '1', RST2_RENDER_TIMEOUT_MS: String(renderTimeoutMs) });
  // A job may wait for the one ahead of it (up to its deadline), then run to
  // its own, then its worker may need replacing: beyond that it is a hang.
  const deadlineMs = 3 * renderTimeoutMs + 15_000;
  console.log(
    `rst2 fuzz: ${new Date().toISOString().slice(0, 10)}, ${count} inputs, PRNG seed ${seed}, concurrency ${concurrency}, ` +
      `render timeout ${renderTimeoutMs} ms, request deadline ${deadlineMs} ms; seeds: ${seeds.length} (${source}); load average ${os.loadavg()[0]!.toFixed(2)}`,
  );
  fs.rmSync(outDir, { recursive: true, force: true });
  let healthy = false;
  try {
    const report = await fuzz({
      url: server.url,
      seeds,
      count,
      seed,
      concurrency,
      deadlineMs,
      outDir,
      onProgress: (done) => {
        if (done % 500 === 0) console.error(`[fuzz] ${done}/${count}`);
      },
    });
    const health = await fetch(`${server.url}/health`, { signal: AbortSignal.timeout(30_000) });
    healthy = health.status === 200;
    const seconds = report.elapsedMs / 1000;
    console.log(`\nstatuses: ${Object.entries(report.statuses).map(([s, n]) => `${s}×${n}`).join(', ')}`);
    console.log(`error codes: ${Object.entries(report.codes).sort((a, b) => b[1] - a[1]).map(([c, n]) => `${c}×${n}`).join(', ') || 'none'}`);
    console.log(`throughput: ${(count / seconds).toFixed(1)} inputs/s (${seconds.toFixed(0)} s, ${(report.bytes / count / 1000).toFixed(1)} KB per input on average)`);
    console.log(`python workers replaced: ${server.python.stats().restarts}`);
    console.log(`RSS at end: ${(process.memoryUsage().rss / 1e6).toFixed(0)} MB`);
    console.log(`health at end: ${health.status}`);
    console.log('\nslowest inputs (reproduce with --show INDEX --seed SEED):');
    for (const s of report.slowest) console.log(`  #${s.index} ${s.op} ${fmt(s.ms)} ms, ${s.bytes} bytes, status ${s.status}`);
    console.log(`\ncontract violations: ${report.failures.length}${report.failures.length ? ` (inputs saved in ${outDir})` : ''}`);
    for (const f of report.failures.slice(0, 20)) console.log(`  #${f.index} ${f.op}: ${f.reason} -> ${path.relative(projectRoot, f.file)}`);
    if (report.failures.length || !healthy) process.exitCode = 1;
  } finally {
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
