/**
 * A mixed load against a running rst2 instance, one autocannon instance per
 * operation (running in parallel) so latency and throughput can be reported
 * per operation. Shared by bench/load.ts (the long run that prints figures)
 * and test/load.test.ts (a few seconds, asserting no unexpected 5xx and no
 * lost tokens).
 */
import autocannon from 'autocannon';

import type { RunningServer } from '../src/server.js';
import { largeDocument, smallDocument } from './documents.js';

export interface OperationResult {
  name: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: Record<string, number>;
  /** Socket errors and timeouts autocannon saw (a hang shows up here). */
  errors: number;
  timeouts: number;
}

export interface MixedLoadOptions {
  url: string;
  durationSec: number;
  connections: number;
  /** Seconds before autocannon gives up on one response. */
  timeoutSec?: number;
  /** Leave PDF out (e.g. when pdfTeX is not built). */
  pdf?: boolean;
  /** The large document (about 100 KB); default: documents.ts's generated one. */
  large?: { name: string; text: string };
}

export interface MixedLoadResult {
  operations: OperationResult[];
  /** Every token the run created, with the marker its document carries. */
  tokens: Map<string, string>;
}

interface Operation {
  name: string;
  weight: number;
  /** Requests per second per connection; unset: as fast as answers come. */
  rate?: number;
  requests: autocannon.Request[];
}

interface TokenContext {
  marker?: string;
  token?: string;
}

/**
 * Cached answers take well under a millisecond, so unpaced connections asking
 * for them would fire thousands per second and make the "mix" nearly all cache
 * hits (and take the main thread from everything else). The cache's own
 * ceiling is measured separately (bench/load.ts, comparison (a)).
 */
const CACHED_RATE = 25;

const RST = { 'content-type': 'text/x-rst; charset=utf-8' };

/** A counter shared by every operation, so no two uncached requests carry the same document. */
let counter = 0;
const unique = (prefix: string) => `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter++}`;

function post(path: string, body: () => string): autocannon.Request {
  return { method: 'POST', path, headers: RST, setupRequest: (req) => ({ ...req, body: body() }) };
}

function operations(withPdf: boolean, large: { name: string; text: string }, tokens: Map<string, string>): Operation[] {
  const small = smallDocument();
  const withProblems = `${small}\nA reference to \`nowhere\`_ and *unbalanced emphasis.\n`;
  const ops: Operation[] = [
    { name: 'html small, uncached', weight: 8, requests: [post('/1.0/rst2/html', () => `${small}\nMarker ${unique('small')}.\n`)] },
    // The same document every time: after the first request the cache answers.
    // Paced (see CACHED_RATE) so it stays a share of the mix instead of a flood.
    { name: 'html small, cached', weight: 4, rate: CACHED_RATE, requests: [{ method: 'POST', path: '/1.0/rst2/html', headers: RST, body: small }] },
    { name: `html large (${large.name}), uncached`, weight: 4, requests: [post('/1.0/rst2/html', () => `${large.text}\nMarker ${unique('large')}.\n`)] },
    { name: 'check, uncached', weight: 6, requests: [post('/1.0/rst2/check', () => `${withProblems}\nMarker ${unique('check')}.\n`)] },
    {
      name: 'token: POST token + GET html?token',
      weight: 6,
      requests: [
        {
          method: 'POST',
          path: '/1.0/rst2/token',
          headers: RST,
          setupRequest: (req, context) => {
            const ctx = context as TokenContext;
            ctx.marker = unique('token');
            ctx.token = undefined;
            return { ...req, body: `Shared ${ctx.marker}\n${'='.repeat(7 + ctx.marker.length)}\n\nMarker ${ctx.marker}.\n\n${small}` };
          },
          onResponse: (status, body, context) => {
            const ctx = context as TokenContext;
            if (status === 200 && ctx.marker) {
              ctx.token = body;
              tokens.set(body, ctx.marker);
            }
          },
        },
        {
          method: 'GET',
          // Falsy: no token was made (e.g. 503), so start over with a new document.
          setupRequest: (req, context) => {
            const { token } = context as TokenContext;
            return (token ? { ...req, path: `/1.0/rst2/html?token=${token}` } : undefined) as autocannon.Request;
          },
        },
      ],
    },
  ];
  if (withPdf) {
    ops.push({
      name: 'pdf short note, uncached',
      weight: 4,
      requests: [post('/1.0/rst2/pdf', () => `A short note\n============\n\nSome *emphasis* and a list:\n\n* one\n* two\n\nMarker ${unique('pdf')}.\n`)],
    });
  }
  return ops;
}

/** Splits the connections by weight (largest remainder), at least one each. */
export function splitConnections(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  const exact = weights.map((w) => (w / sum) * total);
  const out = exact.map((x) => Math.max(1, Math.floor(x)));
  let left = total - out.reduce((a, b) => a + b, 0);
  const order = exact.map((x, i) => [x - Math.floor(x), i] as const).sort((a, b) => b[0] - a[0]);
  for (let k = 0; left > 0; k = (k + 1) % order.length, left--) out[order[k]![1]]!++;
  return out;
}

export function summarise(name: string, r: autocannon.Result): OperationResult {
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0;
  const requests = Object.values(statuses).reduce((a, b) => a + b, 0);
  return {
    name,
    connections: r.connections,
    requests,
    rps: requests / r.duration,
    p50: r.latency.p50,
    p99: r.latency.p99,
    statuses,
    errors: r.errors,
    timeouts: r.timeouts,
  };
}

/** 5xx other than 503 (503 is back-pressure with Retry-After, by design). */
export function unexpected5xx(ops: OperationResult[]): number {
  let n = 0;
  for (const op of ops) for (const [code, count] of Object.entries(op.statuses)) if (Number(code) >= 500 && code !== '503') n += count;
  return n;
}

export async function runMixedLoad(opts: MixedLoadOptions): Promise<MixedLoadResult> {
  const tokens = new Map<string, string>();
  const large = opts.large ?? { name: `generated, ${(largeDocument().length / 1000).toFixed(0)} KB`, text: largeDocument() };
  const ops = operations(opts.pdf ?? true, large, tokens);
  // Prime the cached share, so it measures the cache from the first request.
  await fetch(`${opts.url}/1.0/rst2/html`, { method: 'POST', headers: RST, body: smallDocument() }).then((r) => r.arrayBuffer());
  const split = splitConnections(opts.connections, ops.map((o) => o.weight));
  const results = await Promise.all(
    ops.map((op, i) =>
      autocannon({
        url: opts.url,
        connections: split[i],
        duration: opts.durationSec,
        timeout: opts.timeoutSec ?? 60,
        requests: op.requests,
        title: op.name,
        ...(op.rate ? { connectionRate: op.rate } : {}),
      }),
    ),
  );
  return { operations: results.map((r, i) => summarise(ops[i]!.name, r)), tokens };
}

/** Renders every token made during the run; returns those that do not render with their marker. */
export async function lostTokens(url: string, tokens: Map<string, string>, concurrency = 4): Promise<string[]> {
  const all = [...tokens.entries()];
  const lost: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < all.length) {
        const [token, marker] = all[next++]!;
        for (let attempt = 0; ; attempt++) {
          const res = await fetch(`${url}/1.0/rst2/html?token=${token}`);
          const body = await res.text();
          // 503 is back-pressure: ask again rather than count the token as lost.
          if (res.status === 503 && attempt < 5) {
            await new Promise((r) => setTimeout(r, 1000));
            continue;
          }
          if (res.status !== 200 || !body.includes(marker)) lost.push(token);
          break;
        }
      }
    }),
  );
  return lost;
}

interface PoolLoad {
  busy: number;
  queued: number;
}

function isPoolLoad(stats: unknown): stats is PoolLoad {
  return typeof stats === 'object' && stats !== null && 'busy' in stats && 'queued' in stats;
}

/**
 * Waits until both engines have nothing running or queued: autocannon stops
 * counting at its deadline but the requests it left in flight still run, and
 * would otherwise be measured as part of whatever comes next.
 */
export async function waitIdle(server: RunningServer, maxMs = 120_000): Promise<void> {
  const until = Date.now() + maxMs;
  const idle = (stats: unknown) => !isPoolLoad(stats) || stats.busy + stats.queued === 0;
  while (Date.now() < until) {
    if (idle(server.python.stats()) && idle(server.pdf.stats())) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the engines were still busy after ${maxMs} ms`);
}

/** Samples the process's RSS (main thread and every worker thread) until stopped. */
export function rssSampler(intervalMs = 200): { stop(): { peakMb: number; lastMb: number } } {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, intervalMs);
  return {
    stop() {
      clearInterval(timer);
      const last = process.memoryUsage().rss;
      return { peakMb: Math.max(peak, last) / 1e6, lastMb: last / 1e6 };
    },
  };
}

export function operationTable(ops: OperationResult[]): string {
  const rows = ops.map((o) => [
    o.name,
    String(o.connections),
    String(o.requests),
    o.rps.toFixed(1),
    `${o.p50} / ${o.p99}`,
    Object.entries(o.statuses)
      .map(([c, n]) => `${c}×${n}`)
      .join(' ') + (o.errors || o.timeouts ? ` errors×${o.errors} timeouts×${o.timeouts}` : ''),
  ]);
  const head = ['operation', 'conns', 'requests', 'req/s', 'p50 / p99 ms', 'statuses'];
  return [head, ...rows].map((r, i) => `| ${r.join(' | ')} |${i === 0 ? `\n|${head.map(() => '---').join('|')}|` : ''}`).join('\n');
}
