/**
 * The Redis token store's fault case: a steady stream of mixed requests
 * while Redis is killed (SIGKILL, like a crash) and started again on the same
 * port and append-only files. Token operations must answer 503
 * store_unavailable with Retry-After, within the Redis timeout, while Redis
 * is down; rst renders must go on; after the restart token operations must
 * work again and every token made must still render.
 */
import type { RunningServer } from '../src/server.js';
import type { TestRedis } from '../test/support/redis.js';
import { lostTokens } from './load-lib.js';
import { fmt, median } from './support.js';

export type Operation = 'token POST' | 'html?token' | 'html rst';
export type Phase = 'before' | 'at the stop' | 'outage' | 'after';

export const OPERATIONS: readonly Operation[] = ['token POST', 'html?token', 'html rst'];
export const PHASES: readonly Phase[] = ['before', 'at the stop', 'outage', 'after'];

interface Answer {
  op: Operation;
  /** ms since the run began */
  start: number;
  end: number;
  status: number;
  code?: string;
  retryAfter: string | null;
  /** A 200 render carried its document's marker; a 200 token POST returned a token. */
  contentOk: boolean;
}

export interface RedisStopOptions {
  clients: number;
  /** Length of each phase: before the kill, Redis down, after the restart. */
  phaseMs: number;
  /** RST2_REDIS_TIMEOUT_MS of the server under test. */
  redisTimeoutMs: number;
}

export interface RedisStopOutcome {
  /** statuses[phase][operation] = { "200": n, "503 store_unavailable": n, ... } */
  statuses: Record<Phase, Record<Operation, Record<string, number>>>;
  /** Answer times (ms) per phase and operation, whatever the status. */
  latencies: Record<Phase, Record<Operation, number[]>>;
  /** Latency of the 503 answers to token operations while Redis was down. */
  outage503: { count: number; withRetryAfter: number; p50Ms: number; maxMs: number };
  /** From Redis accepting connections again to the first token operation answered 200. */
  recoverMs: number;
  /** Redis down (kill sent → restart ready). */
  downMs: number;
  tokensMade: number;
  lost: string[];
  /** Each broken promise, in words; empty when the case passed. */
  problems: string[];
}

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const RST = { 'content-type': 'text/x-rst; charset=utf-8' };
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function doc(kind: string, n: number): { text: string; marker: string } {
  // A unique title per document: every token is new and every rst render misses the caches.
  const marker = `${kind}${n}x${Date.now().toString(36)}`;
  return { text: `${marker}\n${'='.repeat(marker.length)}\n\nA paragraph with *emphasis* (${n}).\n`, marker };
}

/** One fresh value per phase and operation. */
function grid<T>(make: () => T): Record<Phase, Record<Operation, T>> {
  const row = () => Object.fromEntries(OPERATIONS.map((o) => [o, make()])) as Record<Operation, T>;
  return Object.fromEntries(PHASES.map((p) => [p, row()])) as Record<Phase, Record<Operation, T>>;
}

async function errorCode(res: Response): Promise<string | undefined> {
  try {
    return ((await res.json()) as { error?: { code?: string } }).error?.code;
  } catch {
    return undefined;
  }
}

/**
 * Runs the stream and the outage. Redis must be running (and the server
 * pointed at it) when called; it is running again when this returns.
 */
export async function stopRedisMidRun(server: RunningServer, redis: TestRedis, opts: RedisStopOptions): Promise<RedisStopOutcome> {
  const t0 = performance.now();
  const now = () => performance.now() - t0;
  const tokens = new Map<string, string>(); // token → marker, for every token answered 200
  const tokenList: string[] = [];
  const answers: Answer[] = [];
  let seq = 0;
  let stopping = false;

  const one = async (op: Operation): Promise<void> => {
    const n = seq++;
    const start = now();
    let res: Response;
    let contentOk = false;
    let code: string | undefined;
    if (op === 'token POST') {
      const d = doc('Token', n);
      res = await fetch(`${server.url}/1.0/rst2/token`, { method: 'POST', headers: FORM, body: new URLSearchParams({ rst: d.text }) });
      if (res.status === 200) {
        const token = (await res.text()).trim();
        contentOk = /^[0-9a-f]{32}$/.test(token);
        if (contentOk) {
          tokens.set(token, d.marker);
          tokenList.push(token);
        }
      } else code = await errorCode(res);
    } else if (op === 'html?token') {
      // The newest token first (never rendered yet: a real render), else an older one.
      const token = tokenList.length ? tokenList[tokenList.length - 1 - (n % Math.min(3, tokenList.length))]! : undefined;
      if (!token) return; // nothing made yet: skip this turn
      res = await fetch(`${server.url}/1.0/rst2/html?token=${token}`);
      if (res.status === 200) contentOk = (await res.text()).includes(`<title>${tokens.get(token)}</title>`);
      else code = await errorCode(res);
    } else {
      const d = doc('Render', n);
      res = await fetch(`${server.url}/1.0/rst2/html`, { method: 'POST', headers: RST, body: d.text });
      if (res.status === 200) contentOk = (await res.text()).includes(`<title>${d.marker}</title>`);
      else code = await errorCode(res);
    }
    answers.push({ op, start, end: now(), status: res.status, code, retryAfter: res.headers.get('retry-after'), contentOk });
  };

  const client = async (c: number): Promise<void> => {
    for (let i = c; !stopping; i++) {
      try {
        await one(OPERATIONS[i % OPERATIONS.length]!);
      } catch (err) {
        // A socket error is an answer too (status 0): it must not happen.
        answers.push({ op: OPERATIONS[i % OPERATIONS.length]!, start: now(), end: now(), status: 0, code: err instanceof Error ? err.message : String(err), retryAfter: null, contentOk: false });
      }
    }
  };

  const running = Array.from({ length: opts.clients }, (_, c) => client(c));
  await sleep(opts.phaseMs);
  const killAt = now();
  await redis.kill();
  const downAt = now();
  await sleep(opts.phaseMs);
  await redis.start();
  const upAt = now();
  await sleep(opts.phaseMs);
  stopping = true;
  await Promise.all(running);

  const phaseOf = (a: Answer): Phase => {
    if (a.start >= upAt) return 'after';
    if (a.start >= downAt) return 'outage';
    if (a.end > killAt) return 'at the stop';
    return 'before';
  };
  const statuses = grid((): Record<string, number> => ({}));
  const latencies = grid((): number[] => []);
  for (const a of answers) {
    latencies[phaseOf(a)][a.op].push(a.end - a.start);
    const key = a.code && a.status !== 200 ? `${a.status} ${a.code}` : String(a.status);
    const cell = statuses[phaseOf(a)][a.op];
    cell[key] = (cell[key] ?? 0) + 1;
  }

  const problems: string[] = [];
  const isTokenOp = (a: Answer) => a.op !== 'html rst';
  const storeRefusal = (a: Answer) => a.status === 503 && a.code === 'store_unavailable' && a.retryAfter !== null && /^\d+$/.test(a.retryAfter);
  const recovered = answers.filter((a) => isTokenOp(a) && a.start >= upAt && a.status === 200).sort((x, y) => x.end - y.end)[0];
  const recoverMs = recovered ? recovered.end - upAt : NaN;

  for (const a of answers) {
    const phase = phaseOf(a);
    const where = `${a.op} (${phase}, ${a.status}${a.code ? ` ${a.code}` : ''}, at ${(a.start / 1000).toFixed(2)} s)`;
    if (a.status === 200) {
      if (!a.contentOk) problems.push(`${where}: 200 with the wrong content`);
      continue;
    }
    if (!isTokenOp(a)) {
      problems.push(`${where}: an rst render must answer 200 whatever Redis does`);
      continue;
    }
    if (phase === 'before') problems.push(`${where}: Redis was up`);
    else if (!storeRefusal(a)) problems.push(`${where}: expected 503 store_unavailable with Retry-After`);
    else if (phase === 'after' && recovered && a.start > recovered.end) problems.push(`${where}: after the service had recovered`);
  }
  for (const op of ['token POST', 'html?token'] as const) {
    if (!statuses.outage[op]['503 store_unavailable']) problems.push(`${op}: no request saw the outage (phase too short?)`);
  }
  if (!recovered) problems.push('no token operation succeeded after Redis came back');

  const refused = answers.filter((a) => isTokenOp(a) && phaseOf(a) === 'outage' && a.status === 503);
  const refusedMs = refused.map((a) => a.end - a.start);
  const maxMs = refusedMs.length ? Math.max(...refusedMs) : NaN;
  if (maxMs > opts.redisTimeoutMs) problems.push(`a 503 took ${maxMs.toFixed(0)} ms, above RST2_REDIS_TIMEOUT_MS=${opts.redisTimeoutMs}`);

  const lost = await lostTokens(server.url, tokens);
  if (lost.length) problems.push(`${lost.length} of ${tokens.size} tokens lost`);

  return {
    statuses,
    latencies,
    outage503: { count: refused.length, withRetryAfter: refused.filter(storeRefusal).length, p50Ms: refusedMs.length ? median(refusedMs) : NaN, maxMs },
    recoverMs,
    downMs: upAt - killAt,
    tokensMade: tokens.size,
    lost,
    problems,
  };
}

/** The statuses as a Markdown table: one row per phase and operation. */
export function redisStopTable(o: RedisStopOutcome): string {
  const head = ['phase', 'operation', 'requests', 'p50 / max ms', 'statuses'];
  const rows: string[][] = [];
  for (const phase of PHASES) {
    for (const op of OPERATIONS) {
      const cell = o.statuses[phase][op];
      const total = Object.values(cell).reduce((s, n) => s + n, 0);
      if (!total) continue;
      const ms = o.latencies[phase][op];
      rows.push([phase, op, String(total), `${fmt(median(ms))} / ${fmt(Math.max(...ms))}`, Object.entries(cell).map(([k, n]) => `${k} ×${n}`).join(', ')]);
    }
  }
  return [head, ...rows].map((r, i) => `| ${r.join(' | ')} |${i === 0 ? `\n|${head.map(() => '---').join('|')}|` : ''}`).join('\n');
}
