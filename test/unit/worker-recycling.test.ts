/**
 * The pool's recycling of workers whose heap passed the budget, with the
 * fake worker (support/fake-worker.ts) reporting whatever heap a job asks
 * for: no engine, so each case takes milliseconds.
 */
import { Worker } from 'node:worker_threads';

import { expect } from 'chai';

import { WorkerPool, type PoolStats } from '../../src/engines/worker-pool.js';
import { Code, ServiceError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import type { FakeAnswer, FakeWorkerData } from './support/fake-worker.js';

const MiB = 1024 * 1024;
const BUDGET = 100 * MiB;
const OVER = 200 * MiB;
const UNDER = 10 * MiB;

interface Harness {
  pool: WorkerPool;
  /** Every worker thread the pool asked for, in order. */
  threads: Worker[];
  run(job: FakeJob): Promise<number>;
  stats(): PoolStats;
}

/** A job for the fake worker: report this heap after `workMs`. */
interface FakeJob {
  heapBytes: number;
  workMs?: number;
  broken?: boolean;
}

function harness(opts: { size?: number; budget?: number; boot?: (spawnIndex: number) => FakeWorkerData }): Harness {
  const threads: Worker[] = [];
  const pool = new WorkerPool({
    name: 'fake',
    size: opts.size ?? 1,
    queueLimit: 16,
    timeoutMs: 30_000,
    graceMs: 0,
    heapBudgetBytes: opts.budget,
    log: createLogger('silent'),
    // A successor that cannot start is retried soon: the case is about who serves meanwhile, not the back-off.
    startBackoffMs: 20,
    timeoutError: () => new ServiceError(Code.render_timeout, 'fake deadline'),
    spawn: () => {
      const workerData = opts.boot?.(threads.length) ?? { start: 'ready' };
      const worker = new Worker(new URL('./support/fake-worker.js', import.meta.url), { workerData });
      threads.push(worker);
      return { worker };
    },
  });
  return {
    pool,
    threads,
    run: async (job) => (await pool.run<FakeAnswer>({ do: 'report', ...job })).threadId,
    stats: () => pool.stats(),
  };
}

async function until(what: string, probe: () => boolean, maxMs = 20_000): Promise<void> {
  const end = Date.now() + maxMs;
  while (!probe()) {
    if (Date.now() > end) throw new Error(`${what}: not within ${maxMs} ms`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

const exited = (worker: Worker) => new Promise<void>((resolve) => worker.once('exit', () => resolve()));

describe('worker pool: recycling a worker whose heap passed its budget', () => {
  const open: WorkerPool[] = [];
  const start = async (h: Harness) => {
    open.push(h.pool);
    await h.pool.start();
    return h;
  };
  afterEach(async () => {
    await Promise.all(open.splice(0).map((p) => p.close()));
  });

  it('a worker that says its job damaged it is answered, then replaced at once (a restart); the job queued behind it runs on the replacement', async () => {
    const h = await start(harness({ budget: BUDGET }));
    const first = h.threads[0]!;
    const gone = exited(first);
    const damaging = h.run({ heapBytes: UNDER, broken: true, workMs: 50 });
    const queued = h.run({ heapBytes: UNDER });
    expect(await damaging).to.equal(first.threadId);
    expect(await queued).to.equal(h.threads[1]!.threadId);
    await gone;
    expect(h.stats()).to.include({ restarts: 1, recycled: 0, size: 1 });
  });

  it('answers the job normally, then replaces the worker, counted as recycled and not as a restart', async () => {
    const h = await start(harness({ budget: BUDGET }));
    const first = h.threads[0]!;
    const gone = exited(first);
    expect(await h.run({ heapBytes: OVER })).to.equal(first.threadId);
    expect(h.stats()).to.include({ recycled: 1, restarts: 0, size: 1 });
    await gone;
    await until('the successor warm', () => h.stats().ready === 1 && h.stats().starting === 0);
    expect(h.threads).to.have.length(2);
    expect(await h.run({ heapBytes: UNDER })).to.equal(h.threads[1]!.threadId);
    expect(h.stats()).to.include({ recycled: 1, restarts: 0, size: 1 });
  });

  it('keeps serving with the old worker while the successor boots, so no job waits for it', async () => {
    const h = await start(harness({ budget: BUDGET, boot: (n) => ({ start: 'ready', bootMs: n === 0 ? 0 : 1500 }) }));
    const old = h.threads[0]!.threadId;
    await h.run({ heapBytes: OVER });
    // Two more jobs while the successor is still booting: both on the old worker.
    for (let i = 0; i < 2; i++) {
      expect(await h.run({ heapBytes: OVER })).to.equal(old);
      expect(h.stats().starting, 'the successor was still booting when the job was answered').to.equal(1);
    }
    expect(h.threads, 'one successor, however many over-budget reports').to.have.length(2);
    await exited(h.threads[0]!);
    expect(await h.run({ heapBytes: UNDER })).to.equal(h.threads[1]!.threadId);
    expect(h.stats()).to.include({ recycled: 1, restarts: 0, size: 1, starting: 0 });
  });

  it('retires a busy old worker only once its job is answered', async () => {
    const h = await start(harness({ budget: BUDGET, boot: (n) => ({ start: 'ready', bootMs: n === 0 ? 0 : 100 }) }));
    const old = h.threads[0]!.threadId;
    await h.run({ heapBytes: OVER });
    const long = h.run({ heapBytes: UNDER, workMs: 1000 });
    await until('the successor warm', () => h.stats().starting === 0);
    expect(h.stats().busy, 'the old worker still holds its job').to.equal(1);
    expect(await long).to.equal(old);
    await exited(h.threads[0]!);
    expect(h.stats()).to.include({ size: 1, busy: 0, ready: 1 });
  });

  it('other workers keep serving while one is recycled', async () => {
    const h = await start(harness({ size: 2, budget: BUDGET, boot: (n) => ({ start: 'ready', bootMs: n < 2 ? 0 : 1500 }) }));
    const [a, b] = [h.threads[0]!.threadId, h.threads[1]!.threadId];
    const slow = h.run({ heapBytes: OVER, workMs: 300 });
    expect(await h.run({ heapBytes: UNDER })).to.equal(b);
    expect(await slow).to.equal(a);
    const answeredBy = await Promise.all([h.run({ heapBytes: UNDER, workMs: 100 }), h.run({ heapBytes: UNDER, workMs: 100 })]);
    expect(answeredBy.sort()).to.deep.equal([a, b].sort());
    expect(h.stats()).to.include({ size: 2, recycled: 1, starting: 1 });
  });

  it('never recycles without a budget, with a budget of 0, or under the budget', async () => {
    for (const budget of [undefined, 0, 2 * OVER]) {
      const h = await start(harness({ budget }));
      const only = h.threads[0]!.threadId;
      for (let i = 0; i < 3; i++) expect(await h.run({ heapBytes: OVER })).to.equal(only);
      expect(h.stats()).to.include({ recycled: 0, restarts: 0 });
      expect(h.threads).to.have.length(1);
    }
  });

  it('a successor that cannot start leaves the old worker serving until one does', async () => {
    const h = await start(harness({ budget: BUDGET, boot: (n) => ({ start: n === 1 ? 'fail' : 'ready' }) }));
    const old = h.threads[0]!.threadId;
    await h.run({ heapBytes: OVER });
    await until('the first successor failed', () => h.stats().restarts === 1);
    expect(await h.run({ heapBytes: UNDER })).to.equal(old);
    await until('a second successor warm', () => h.threads.length === 3 && h.stats().starting === 0, 30_000);
    await until('the old worker retired', () => h.stats().ready === 1);
    expect(await h.run({ heapBytes: UNDER })).to.equal(h.threads[2]!.threadId);
    expect(h.stats()).to.include({ size: 1, recycled: 1, restarts: 1 });
  });

  it('an old worker that crashes while its successor boots is not replaced twice', async () => {
    const h = await start(harness({ budget: BUDGET, boot: (n) => ({ start: 'ready', bootMs: n === 0 ? 0 : 500 }) }));
    await h.run({ heapBytes: OVER });
    await h.threads[0]!.terminate();
    await until('the crash seen', () => h.stats().restarts === 1);
    await until('the successor warm', () => h.stats().starting === 0 && h.stats().ready === 1);
    expect(h.threads, 'no third worker').to.have.length(2);
    expect(await h.run({ heapBytes: UNDER })).to.equal(h.threads[1]!.threadId);
    expect(h.stats()).to.include({ size: 1, recycled: 1, restarts: 1 });
  });
});
