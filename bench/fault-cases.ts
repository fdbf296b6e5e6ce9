/**
 * Fault cases against a running instance: a worker killed mid-job (Pyodide
 * or pdfTeX) and a queue filled beyond its limit. Each returns what it saw so
 * bench/faults.ts can print it and test/load.test.ts can assert on it.
 */
import type { Worker } from 'node:worker_threads';

import { TexEngine } from '../src/engines/tex/engine.js';
import type { PoolStats } from '../src/engines/worker-pool.js';
import type { RunningServer } from '../src/server.js';
import { largeDocument, smallDocument } from './documents.js';
import { rssSampler } from './load-lib.js';
import { median } from './support.js';

const RST = { 'content-type': 'text/x-rst; charset=utf-8' };

/**
 * Substitutions that expand 3^depth times. Up to depth 9 (about 10 MiB by
 * the output bound's estimate) they pass the bound and run until the
 * deadline, docutils' bookkeeping being quadratic; deeper ones are refused at
 * once with output_too_large.
 */
export function substitutionBomb(depth: number): string {
  const defs = Array.from({ length: depth }, (_, i) => `.. |s${i}| replace:: |s${i + 1}| |s${i + 1}| |s${i + 1}|`);
  return `${defs.join('\n')}\n.. |s${depth}| replace:: boom\n\n|s0|\n`;
}

export type EngineName = 'python' | 'pdftex';

export interface KillOutcome {
  engine: EngineName;
  /** The killed request's answer. */
  status: number;
  retryAfter: string | null;
  code?: string;
  /** From the kill to the killed request's answer. */
  answerMs: number;
  /** From the kill until the pool is whole again (a fresh worker warm). */
  healMs: number;
  restartsBefore: number;
  restartsAfter: number;
  /** The next request, after healing. */
  nextStatus: number;
  nextOk: boolean;
}

function engineOf(server: RunningServer, engine: EngineName): { busy(): Worker[]; stats(): PoolStats } {
  if (engine === 'python') return { busy: () => server.python.busyThreads(), stats: () => server.python.stats() };
  const tex = server.pdf;
  if (!(tex instanceof TexEngine)) throw new Error('pdfTeX is not built: no TeX worker to kill');
  return { busy: () => tex.busyThreads(), stats: () => tex.stats()! };
}

async function until<T>(what: string, probe: () => T | undefined, maxMs: number, everyMs = 5): Promise<T> {
  const end = Date.now() + maxMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`${what}: not within ${maxMs} ms`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * Starts a job, terminates the worker running it (as a crash would), and
 * follows the request, the pool's healing and the next request. The PDF job
 * is a real document: docutils' LaTeX first, then pdfTeX, killed mid-typesetting.
 */
export async function killMidJob(server: RunningServer, engine: EngineName): Promise<KillOutcome> {
  const pool = engineOf(server, engine);
  const restartsBefore = pool.stats().restarts;
  const pending =
    engine === 'python'
      ? fetch(`${server.url}/1.0/rst2/html`, { method: 'POST', headers: RST, body: substitutionBomb(9) })
      : fetch(`${server.url}/1.0/rst2/pdf`, { method: 'POST', headers: RST, body: `${smallDocument()}\nKilled ${Date.now()}-${Math.random()}.\n` });
  const thread = await until(`a busy ${engine} worker`, () => pool.busy()[0], 60_000);
  const killedAt = performance.now();
  await thread.terminate();
  const res = await pending;
  const answerMs = performance.now() - killedAt;
  const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
  await until(
    `the ${engine} pool healing`,
    () => {
      const s = pool.stats();
      return s.restarts > restartsBefore && s.starting === 0 && s.ready + s.busy === s.size ? true : undefined;
    },
    60_000,
    10,
  );
  const healMs = performance.now() - killedAt;
  const marker = `Healed${Date.now()}`;
  const next =
    engine === 'python'
      ? await fetch(`${server.url}/1.0/rst2/html`, { method: 'POST', headers: RST, body: `${marker}\n${'='.repeat(marker.length)}\n\nyes\n` })
      : await fetch(`${server.url}/1.0/rst2/pdf`, { method: 'POST', headers: RST, body: `${marker}\n${'='.repeat(marker.length)}\n\nyes\n` });
  const nextBody = Buffer.from(await next.arrayBuffer());
  const nextOk = engine === 'python' ? nextBody.toString('utf8').includes(`<title>${marker}</title>`) : nextBody.subarray(0, 5).toString('latin1') === '%PDF-';
  return {
    engine,
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    code: body.error?.code,
    answerMs,
    healMs,
    restartsBefore,
    restartsAfter: pool.stats().restarts,
    nextStatus: next.status,
    nextOk,
  };
}

export interface QueueOutcome {
  requests: number;
  statuses: Record<string, number>;
  /** 503 overloaded answers that carried Retry-After. */
  overloadedWithRetryAfter: number;
  /** Anything but 200, 422 render_timeout, or 503 overloaded with Retry-After. */
  unexpected: number;
  ms: number;
  /** How fast a refused request is answered (median). */
  refusedP50Ms: number;
  rssBeforeMb: number;
  peakRssMb: number;
  nextStatus: number;
}

/**
 * Sends `requests` large documents (~100 KB, all different) at once: the pool
 * takes its workers' worth plus its queue limit, the rest must be refused at
 * once with 503 and Retry-After, and memory must stay bounded.
 */
export async function fillQueue(server: RunningServer, requests: number): Promise<QueueOutcome> {
  const large = largeDocument();
  const rssBeforeMb = process.memoryUsage().rss / 1e6;
  const rss = rssSampler(50);
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: requests }, async (_, i) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/1.0/rst2/html`, { method: 'POST', headers: RST, body: `${large}\nFlood ${Date.now()}-${i}.\n` });
      const text = await res.text();
      const ms = performance.now() - t0;
      let code: string | undefined;
      if (res.status !== 200) code = (JSON.parse(text) as { error: { code: string } }).error.code;
      return { status: res.status, code, retryAfter: res.headers.get('retry-after'), ms };
    }),
  );
  const ms = performance.now() - started;
  const { peakMb } = rss.stop();
  const statuses: Record<string, number> = {};
  for (const a of answers) statuses[a.status] = (statuses[a.status] ?? 0) + 1;
  const overloadedWithRetryAfter = answers.filter((a) => a.status === 503 && a.code === 'overloaded' && a.retryAfter).length;
  // A job that was admitted may still end at its deadline on a busy machine:
  // a clean 422 render_timeout is the service keeping its promise too.
  const clean = (a: (typeof answers)[number]) =>
    a.status === 200 || (a.status === 422 && a.code === 'render_timeout') || (a.status === 503 && a.code === 'overloaded' && a.retryAfter !== null);
  const unexpected = answers.filter((a) => !clean(a)).length;
  const refused = answers.filter((a) => a.status === 503).map((a) => a.ms);
  const refusedP50Ms = refused.length ? median(refused) : NaN;
  const next = await fetch(`${server.url}/1.0/rst2/html`, { method: 'POST', headers: RST, body: `After the flood ${Date.now()}\n` });
  await next.arrayBuffer();
  return { requests, statuses, overloadedWithRetryAfter, unexpected, ms, refusedP50Ms, rssBeforeMb, peakRssMb: peakMb, nextStatus: next.status };
}
