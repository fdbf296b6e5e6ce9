/**
 * The worker pool with fake workers (real threads running
 * support/fake-worker.ts): the queue limit, the deadline (soft interrupt and
 * hard kill), a crash, the replacement, a failed start and the shutdown.
 */
import { spawnSync } from 'node:child_process';
import { Worker } from 'node:worker_threads';

import { expect } from 'chai';

import { WorkerPool, type PoolOptions, type PoolStats } from '../../src/engines/worker-pool.js';
import { Code, ServiceError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { rejectionCode } from './support/codes.js';
import type { FakeJob, FakeWorkerData } from './support/fake-worker.js';

const FAKE = new URL('./support/fake-worker.js', import.meta.url);

interface Made {
  pool: WorkerPool;
  log: Array<Record<string, unknown>>;
}

const open: WorkerPool[] = [];

function makePool(options: Partial<PoolOptions> & { start?: FakeWorkerData['start']; interruptible?: boolean; watched?: boolean } = {}): Made {
  const log: Array<Record<string, unknown>> = [];
  const { start = 'ready', interruptible = false, watched = false, ...rest } = options;
  const pool = new WorkerPool({
    name: 'fake',
    size: 1,
    queueLimit: 4,
    timeoutMs: 2000,
    graceMs: 200,
    startBackoffMs: 20,
    log: createLogger('debug', (line) => log.push(JSON.parse(line) as Record<string, unknown>)),
    timeoutError: (reason) => new ServiceError(Code.render_timeout, reason === 'stalled' ? 'no progress' : 'past the deadline'),
    spawn: () => {
      const interrupt = interruptible ? new SharedArrayBuffer(4) : undefined;
      const progress = watched ? new Int32Array(new SharedArrayBuffer(4)) : undefined;
      const workerData: FakeWorkerData = { start, interrupt, progress };
      const worker = new Worker(FAKE, { workerData });
      return { worker, progress, ...(interrupt ? { interrupt: () => Atomics.store(new Int32Array(interrupt), 0, 2) } : {}) };
    },
    ...rest,
  });
  open.push(pool);
  return { pool, log };
}

const run = (pool: WorkerPool, job: FakeJob): Promise<unknown> => pool.run(job);

async function until(what: string, test: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const warm = (stats: PoolStats, size: number) => stats.ready + stats.busy === size && stats.starting === 0;

describe('worker pool (fake workers)', function () {
  this.timeout(10_000);

  afterEach(async () => {
    await Promise.all(open.splice(0).map((p) => p.close()));
  });

  it('starts every worker and answers jobs with their values', async () => {
    const { pool } = makePool({ size: 2 });
    await pool.start();
    expect(pool.stats()).to.include({ size: 2, ready: 2, busy: 0, queued: 0, restarts: 0 });
    expect(await Promise.all([run(pool, { do: 'echo', value: 1 }), run(pool, { do: 'echo', value: { two: 2 } })])).to.deep.equal([1, { two: 2 }]);
  });

  it('passes a job failure on as a coded error, logging only its detail', async () => {
    const { pool, log } = makePool();
    await pool.start();
    const failed = run(pool, { do: 'fail', code: Code.latex_failed, message: 'LaTeX could not typeset', detail: 'the whole TeX log' });
    const err = await failed.catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ServiceError);
    expect(err).to.include({ code: 'latex_failed', message: 'LaTeX could not typeset' });
    expect(log.find((l) => l.msg === 'fake job failed')).to.include({ code: 'latex_failed', detail: 'the whole TeX log' });
    // The worker is fine and keeps serving.
    expect(await run(pool, { do: 'echo', value: 'next' })).to.equal('next');
    expect(pool.stats().restarts).to.equal(0);
  });

  it('queues up to the limit, refuses beyond it with overloaded, then serves the queue in order', async () => {
    const { pool } = makePool({ queueLimit: 2 });
    await pool.start();
    const busy = run(pool, { do: 'sleep', ms: 300, value: 'first' });
    const queued = [run(pool, { do: 'echo', value: 'second' }), run(pool, { do: 'echo', value: 'third' })];
    expect(pool.stats()).to.include({ busy: 1, queued: 2 });
    expect(await rejectionCode(run(pool, { do: 'echo', value: 'refused' }))).to.equal('overloaded');
    expect(await Promise.all([busy, ...queued])).to.deep.equal(['first', 'second', 'third']);
    expect(pool.stats().queued).to.equal(0);
  });

  it('with a queue limit of 0, refuses as soon as every worker is busy', async () => {
    const { pool } = makePool({ queueLimit: 0 });
    await pool.start();
    const busy = run(pool, { do: 'sleep', ms: 100, value: 'ok' });
    expect(await rejectionCode(run(pool, { do: 'echo', value: 'refused' }))).to.equal('overloaded');
    expect(await busy).to.equal('ok');
  });

  it('at the deadline, interrupts a job softly: the job fails, the worker stays', async () => {
    const { pool } = makePool({ timeoutMs: 100, graceMs: 5000, interruptible: true });
    await pool.start();
    expect(await rejectionCode(run(pool, { do: 'spin' }))).to.equal('render_timeout');
    expect(pool.stats()).to.include({ restarts: 0, ready: 1 });
    expect(await run(pool, { do: 'echo', value: 'still here' })).to.equal('still here');
  });

  it('kills a worker that does not stop at the deadline, fails its job with the timeout error, and replaces it', async () => {
    const { pool, log } = makePool({ timeoutMs: 100 });
    await pool.start();
    const started = Date.now();
    const err = await run(pool, { do: 'spin' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ServiceError).and.include({ code: 'render_timeout', message: 'past the deadline' });
    expect(Date.now() - started).to.be.below(3000);
    expect(log.some((l) => l.msg === 'fake job past its deadline: terminating worker')).to.equal(true);
    await until('the replacement is ready', () => warm(pool.stats(), 1));
    expect(pool.stats().restarts).to.equal(1);
    expect(await run(pool, { do: 'echo', value: 'fresh' })).to.equal('fresh');
  });

  it('ends a job whose worker makes no progress for stallMs, long before its deadline, and replaces the worker', async () => {
    const { pool, log } = makePool({ timeoutMs: 8000, stallMs: 150, watched: true });
    await pool.start();
    const started = Date.now();
    const err = await run(pool, { do: 'spin' }).catch((e: unknown) => e);
    expect(err).to.be.instanceOf(ServiceError).and.include({ code: 'render_timeout', message: 'no progress' });
    expect(Date.now() - started).to.be.below(4000);
    expect(log.some((l) => l.msg === 'fake job without progress for 150 ms: terminating worker')).to.equal(true);
    await until('the replacement is ready', () => warm(pool.stats(), 1));
    expect(pool.stats().restarts).to.equal(1);
  });

  it('lets a job that keeps making progress run past stallMs', async () => {
    const { pool } = makePool({ timeoutMs: 8000, stallMs: 150, watched: true });
    await pool.start();
    expect(await run(pool, { do: 'tick', ms: 600, every: 20, value: 'done' })).to.equal('done');
    expect(pool.stats().restarts).to.equal(0);
  });

  for (const how of ['exit', 'throw'] as const) {
    it(`answers engine_crashed when a worker dies mid-job (${how}), logs it, and replaces the worker`, async () => {
      const { pool, log } = makePool({ size: 2 });
      await pool.start();
      expect(await rejectionCode(run(pool, { do: how }))).to.equal('engine_crashed');
      expect(log.some((l) => l.level === 'error' && /fake worker (exited|error)/.test(String(l.msg)))).to.equal(true);
      await until('the pool is whole again', () => warm(pool.stats(), 2));
      expect(pool.stats()).to.include({ size: 2, restarts: 1 });
      expect(await Promise.all([run(pool, { do: 'echo', value: 'a' }), run(pool, { do: 'echo', value: 'b' })])).to.deep.equal(['a', 'b']);
    });
  }

  it('serves the queue with the replacement when the busy worker crashes', async () => {
    const { pool } = makePool();
    await pool.start();
    const crashed = run(pool, { do: 'exit' });
    const waiting = run(pool, { do: 'echo', value: 'served by the replacement' });
    expect(await rejectionCode(crashed)).to.equal('engine_crashed');
    expect(await waiting).to.equal('served by the replacement');
  });

  it('fails start() when no worker can start at all', async () => {
    const { pool } = makePool({ start: 'fail' });
    const err = await pool.start().catch((e: unknown) => e);
    expect(err).to.be.instanceOf(Error);
    expect((err as Error).message).to.include('fake workers cannot start').and.include('the fake worker cannot start');
  });

  it('keeps a process that waits for start() alive until start() fails (a command must not end as if it succeeded)', function () {
    // Nothing else keeps this child's event loop going: the restart after the
    // first failed start must, or the child would end with status 0 and no word.
    const child = `
      import { Worker } from 'node:worker_threads';
      import { WorkerPool } from ${JSON.stringify(new URL('../../src/engines/worker-pool.js', import.meta.url).href)};
      import { createLogger } from ${JSON.stringify(new URL('../../src/log.js', import.meta.url).href)};
      const pool = new WorkerPool({
        name: 'fake', size: 1, queueLimit: 1, timeoutMs: 2000, graceMs: 200, startBackoffMs: 20,
        log: createLogger('silent'), timeoutError: () => new Error('late'),
        spawn: () => ({ worker: new Worker(new URL(${JSON.stringify(FAKE.href)}), { workerData: { start: 'fail' } }) }),
      });
      pool.start().then(() => process.exit(0), (err) => { console.error('start failed: ' + err.message); process.exit(7); });
    `;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', child], { encoding: 'utf8', timeout: 60_000 });
    expect(r.status, r.stderr).to.equal(7);
    expect(r.stderr).to.include('start failed: fake workers cannot start');
  });

  it('counts a worker that exits while starting as a failed start', async () => {
    const { pool, log } = makePool({ start: 'exit' });
    const err = await pool.start().catch((e: unknown) => e);
    expect((err as Error).message).to.include('exited with code 3 while starting');
    expect(log.filter((l) => l.msg === 'fake worker failed to start').length).to.be.at.least(2);
  });

  it('on close, fails the running and the queued job with shutting_down, and refuses new ones', async () => {
    const { pool } = makePool({ queueLimit: 4 });
    await pool.start();
    const running = rejectionCode(run(pool, { do: 'sleep', ms: 5000, value: 'never' }));
    const queued = rejectionCode(run(pool, { do: 'echo', value: 'never' }));
    await pool.close();
    expect(await running).to.equal('shutting_down');
    expect(await queued).to.equal('shutting_down');
    expect(await rejectionCode(run(pool, { do: 'echo', value: 'late' }))).to.equal('shutting_down');
    expect(pool.stats()).to.include({ ready: 0, busy: 0, queued: 0 });
  });
});
