/**
 * Fault cases on real instances, printed as a table:
 *  kill-python   a Pyodide worker terminated mid-job
 *  kill-pdftex   a pdfTeX worker terminated mid-job
 *  queue-full    many concurrent large documents beyond RST2_QUEUE_LIMIT
 *  redis-stop    Redis killed and restarted under a stream of token and rst requests
 * Exit status 1 when a case does not behave as the service promises.
 *
 * usage: npm run bench:faults -- [--only kill-python,kill-pdftex,queue-full,redis-stop] [--flood 200] [--queue-limit 8]
 *        [--redis-phase 4] [--redis-clients 4] [--redis-timeout 1000]
 */
import fs from 'node:fs';
import os from 'node:os';

import type { RunningServer } from '../src/server.js';
import { redisMissing, TestRedis } from '../test/support/redis.js';
import { fillQueue, killMidJob, type EngineName } from './fault-cases.js';
import { redisStopTable, stopRedisMidRun } from './redis-fault.js';
import { benchArgs, fmt, startInProcess } from './support.js';

const args = benchArgs({ strings: ['only'], numbers: ['flood', 'queue-limit', 'redis-phase', 'redis-clients', 'redis-timeout'] });
const CASES = ['kill-python', 'kill-pdftex', 'queue-full', 'redis-stop'] as const;
type Case = (typeof CASES)[number];
const only = new Set(args.string('only', CASES.join(',')).split(',') as Case[]);
const flood = args.number('flood', 200, { whole: true });
const queueLimit = args.number('queue-limit', 8, { whole: true });
/** Seconds of each redis-stop phase: before the kill, Redis down, after the restart. */
const redisPhaseS = args.number('redis-phase', 4);
const redisClients = args.number('redis-clients', 4, { min: 1, whole: true });
const redisTimeoutMs = args.number('redis-timeout', 1000, { min: 1 });

async function withServer<T>(env: Record<string, string>, fn: (s: RunningServer) => Promise<T>): Promise<T> {
  const server = await startInProcess({ RST2_TEX_WORKERS: '1', ...env });
  try {
    return await fn(server);
  } finally {
    await server.close();
  }
}

async function main(): Promise<void> {
  console.log(`rst2 faults: ${new Date().toISOString().slice(0, 10)}, node ${process.version}, load average ${os.loadavg()[0]!.toFixed(2)}`);
  const failures: string[] = [];

  const kills = (['python', 'pdftex'] as EngineName[]).filter((e) => only.has(`kill-${e}`));
  if (kills.length) {
    await withServer({}, async (server) => {
      for (const engine of kills) {
        if (engine === 'pdftex' && !server.pdf.available) {
          console.log('\nkill-pdftex: skipped, pdfTeX is not built');
          continue;
        }
        const o = await killMidJob(server, engine);
        const ok = o.status === 503 && o.retryAfter !== null && o.code === 'engine_crashed' && o.restartsAfter === o.restartsBefore + 1 && o.nextStatus === 200 && o.nextOk;
        console.log(
          `\nkill-${engine}: the request got ${o.status} ${o.code ?? ''} Retry-After ${o.retryAfter ?? 'missing'} ${fmt(o.answerMs)} ms after the kill; ` +
            `pool whole again after ${fmt(o.healMs)} ms (restarts ${o.restartsBefore} → ${o.restartsAfter}); next request ${o.nextStatus}${o.nextOk ? ' with the right content' : ' WRONG CONTENT'}: ${ok ? 'ok' : 'FAILED'}`,
        );
        if (!ok) failures.push(`kill-${engine}`);
      }
    });
  }

  if (only.has('queue-full')) {
    await withServer({ RST2_QUEUE_LIMIT: String(queueLimit) }, async (server) => {
      const o = await fillQueue(server, flood);
      const ok = o.unexpected === 0 && o.overloadedWithRetryAfter > 0 && o.nextStatus === 200;
      console.log(
        `\nqueue-full: ${o.requests} concurrent ~100 KB documents, 2 workers, RST2_QUEUE_LIMIT=${queueLimit}: ` +
          `${Object.entries(o.statuses).map(([s, n]) => `${s}×${n}`).join(', ')}; 503 overloaded with Retry-After: ${o.overloadedWithRetryAfter}; ` +
          `anything else: ${o.unexpected}; refusals answered in ${fmt(o.refusedP50Ms)} ms (median), all in ${fmt(o.ms)} ms; RSS ${o.rssBeforeMb.toFixed(0)} MB before, peak ${o.peakRssMb.toFixed(0)} MB; ` +
          `next request ${o.nextStatus}: ${ok ? 'ok' : 'FAILED'}`,
      );
      if (!ok) failures.push('queue-full');
    });
  }

  if (only.has('redis-stop')) {
    const missing = redisMissing();
    if (missing) console.log(`\nredis-stop: skipped, ${missing}`);
    else {
      const redis = await TestRedis.start();
      try {
        const env = { REDIS_URL: redis.url, RST2_REDIS_TIMEOUT_MS: String(redisTimeoutMs) };
        await withServer(env, async (server) => {
          const o = await stopRedisMidRun(server, redis, { clients: redisClients, phaseMs: redisPhaseS * 1000, redisTimeoutMs });
          const ok = o.problems.length === 0;
          console.log(
            `\nredis-stop: ${redisClients} clients (token POST, html?token, html rst) for ${redisPhaseS} s, Redis killed (SIGKILL) for ${fmt(o.downMs)} ms, ` +
              `restarted on the same port and append-only files (appendfsync always), ${redisPhaseS} s more; RST2_REDIS_TIMEOUT_MS=${redisTimeoutMs}:\n${redisStopTable(o)}\n` +
              `token 503s while down: ${o.outage503.count} (${o.outage503.withRetryAfter} store_unavailable with Retry-After), answered in ${fmt(o.outage503.p50Ms)} ms (median), ${fmt(o.outage503.maxMs)} ms at most; ` +
              `token calls answered 200 again ${fmt(o.recoverMs)} ms after Redis was back; tokens made ${o.tokensMade}, lost ${o.lost.length}: ${ok ? 'ok' : 'FAILED'}`,
          );
          for (const p of o.problems.slice(0, 20)) console.log(`  - ${p}`);
          if (!ok) failures.push('redis-stop');
        });
      } finally {
        await redis.stop();
        // TestRedis puts its files in a temporary folder the test hooks remove; here nobody else will.
        fs.rmSync(redis.dir, { recursive: true, force: true });
      }
    }
  }

  if (failures.length) {
    console.log(`\nFAILED: ${failures.join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
