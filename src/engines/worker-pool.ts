/**
 * A fixed set of warm worker threads with a bounded queue and a deadline per
 * job. Both engines (Pyodide and pdfTeX) run on it; they differ only in how a
 * worker is made and whether a running job can be interrupted softly.
 *
 * Workers are disposable: a worker that crashes, or does not stop after its
 * deadline, is terminated and replaced, and only the job it held fails. A
 * worker whose heap has grown past its budget (a wasm heap never shrinks) is
 * recycled: a replacement starts beside it, and it is retired once that one is
 * warm and it is idle, so no job waits for a boot. A worker that says its
 * job damaged it is replaced at once, after its answer is delivered.
 */
import { Worker } from 'node:worker_threads';

import { Code, ServiceError } from '../errors.js';
import { errorFields, type Logger } from '../log.js';
import type { WorkerMessage } from './worker-messages.js';

export interface WorkerHandle {
  worker: Worker;
  /** Asks the running job to stop (e.g. Python's interrupt buffer). */
  interrupt?: () => void;
  /** A counter (element 0) the worker moves while its job makes progress; see PoolOptions.stallMs. */
  progress?: Int32Array;
}

export interface PoolOptions {
  name: string;
  size: number;
  queueLimit: number;
  timeoutMs: number;
  /** After a soft interrupt, how long the job may take to stop before its worker is terminated. */
  graceMs: number;
  /** The first wait before restarting a worker that failed to start; it doubles each time (default 500 ms). */
  startBackoffMs?: number;
  /** A job whose worker's progress counter stays still this long is ended as at its deadline; 0 or unset: never. */
  stallMs?: number;
  spawn: () => WorkerHandle;
  /** The error a job gets when its worker had to be terminated at the deadline, or for want of progress. */
  timeoutError: (reason: 'deadline' | 'stalled') => ServiceError;
  /** A worker reporting a heap larger than this after a job is recycled; undefined or 0: never. */
  heapBudgetBytes?: number;
  log: Logger;
}

export interface PoolStats {
  size: number;
  ready: number;
  busy: number;
  starting: number;
  queued: number;
  /** Workers replaced after a crash, a deadline or a failed start. */
  restarts: number;
  /** Workers replaced because their heap passed the budget (not failures). */
  recycled: number;
}

interface Job {
  id: number;
  payload: unknown;
  transfer: readonly ArrayBuffer[];
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timers: NodeJS.Timeout[];
  settled: boolean;
  /** Undoes what run() hooked to the caller's signal. */
  release?: () => void;
}

interface Slot {
  handle: WorkerHandle;
  state: 'starting' | 'ready' | 'busy' | 'dead';
  job?: Job;
  startFailures: number;
  /** A worker starting in place of this one, which serves until that one is warm. */
  successor?: Slot;
  /** The over-budget worker this one is starting to replace. */
  predecessor?: Slot;
}

const shuttingDown = (): ServiceError => new ServiceError(Code.shutting_down, 'The service is shutting down.');

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private restarts = 0;
  private recycled = 0;
  private closed = false;
  /** Restarts waiting out their backoff: they keep the process alive (a command waiting for start() must not just end), and close() cancels them. */
  private readonly restartTimers = new Set<NodeJS.Timeout>();
  /** What start() answers: settled once the pool can serve, or cannot at all. */
  private readonly started: Promise<void>;
  private markStarted!: () => void;
  private failStart!: (err: Error) => void;
  /** How many times a worker became ready, replacements included. */
  private readyCount = 0;

  constructor(private readonly opts: PoolOptions) {
    this.started = new Promise((resolve, reject) => {
      this.markStarted = resolve;
      this.failStart = reject;
    });
  }

  /** Starts every worker; resolves once all are warm, rejects if one cannot start at all. */
  start(): Promise<void> {
    for (let i = 0; i < this.opts.size; i++) this.slots.push(this.spawnSlot({ startFailures: 0 }));
    return this.started;
  }

  stats(): PoolStats {
    const count = (state: Slot['state']) => this.slots.filter((s) => s.state === state).length;
    return {
      // A worker being recycled and its successor are one worker.
      size: this.slots.filter((s) => !s.successor).length,
      ready: count('ready'),
      busy: count('busy'),
      starting: count('starting'),
      queued: this.queue.length,
      restarts: this.restarts,
      recycled: this.recycled,
    };
  }

  /** The threads running a job now; lets fault tests kill one mid-job as a crash would. */
  busyThreads(): Worker[] {
    return this.slots.filter((s) => s.state === 'busy').map((s) => s.handle.worker);
  }

  /**
   * `signal`: the caller no longer wants the answer (its own deadline). A
   * queued job leaves the queue; a running one is ended as at its deadline,
   * so a caller's budget bounds the workers' time too, not just its wait.
   */
  run<T>(payload: unknown, transfer: readonly ArrayBuffer[] = [], signal?: AbortSignal): Promise<T> {
    if (this.closed) {
      return Promise.reject(shuttingDown());
    }
    if (signal?.aborted) return Promise.reject(this.opts.timeoutError('deadline'));
    const idle = this.slots.find((s) => s.state === 'ready');
    if (!idle && this.queue.length >= this.opts.queueLimit) {
      return Promise.reject(
        new ServiceError(Code.overloaded, `All ${this.opts.name} workers are busy and the queue is full; try again shortly.`),
      );
    }
    return new Promise<T>((resolve, reject) => {
      const job: Job = {
        id: this.nextId++,
        payload,
        transfer,
        resolve: resolve as (value: unknown) => void,
        reject,
        timers: [],
        settled: false,
      };
      if (signal) {
        const onAbort = (): void => this.abandon(job);
        signal.addEventListener('abort', onAbort, { once: true });
        job.release = () => signal.removeEventListener('abort', onAbort);
      }
      if (idle) this.dispatch(idle, job);
      else this.queue.push(job);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const timer of this.restartTimers) clearTimeout(timer);
    this.restartTimers.clear();
    for (const job of this.queue.splice(0)) {
      this.settle(job, shuttingDown());
    }
    await Promise.all(
      this.slots.map(async (slot) => {
        slot.state = 'dead';
        if (slot.job) this.settle(slot.job, shuttingDown());
        await slot.handle.worker.terminate();
      }),
    );
  }

  private spawnSlot(previous: { startFailures: number }): Slot {
    const slot: Slot = { handle: this.opts.spawn(), state: 'starting', startFailures: previous.startFailures };
    const { worker } = slot.handle;
    worker.on('message', (msg: WorkerMessage) => this.onMessage(slot, msg));
    worker.on('error', (err) => {
      if (slot.state === 'starting') return this.startFailed(slot, err.message);
      this.opts.log.error(`${this.opts.name} worker error`, errorFields(err));
      this.replace(slot, 'crashed');
    });
    worker.on('exit', (code) => {
      if (slot.state === 'starting') return this.startFailed(slot, `exited with code ${code} while starting`);
      if (slot.state !== 'dead') {
        this.opts.log.error(`${this.opts.name} worker exited`, { code });
        this.replace(slot, 'crashed');
      }
    });
    return slot;
  }

  private onMessage(slot: Slot, msg: WorkerMessage): void {
    if (slot.state === 'dead') return;
    switch (msg.type) {
      case 'ready': {
        slot.state = 'ready';
        slot.startFailures = 0;
        if (++this.readyCount >= this.opts.size) this.markStarted();
        const old = slot.predecessor;
        slot.predecessor = undefined;
        if (old?.state === 'ready') this.retire(old);
        this.pump(slot);
        return;
      }
      case 'failed':
        this.startFailed(slot, msg.message);
        return;
      case 'done': {
        const job = slot.job;
        if (!job || job.id !== msg.id) return;
        slot.job = undefined;
        slot.state = 'ready';
        if (msg.ok) this.settle(job, undefined, msg.value);
        else {
          if (msg.error.detail) this.opts.log.error(`${this.opts.name} job failed`, { code: msg.error.code, detail: msg.error.detail });
          this.settle(job, new ServiceError(msg.error.code, msg.error.message));
        }
        if (msg.broken) {
          this.opts.log.warn(`${this.opts.name} worker damaged by its job: replacing it`, { heapBytes: msg.heapBytes });
          this.replace(slot, 'crashed');
          return;
        }
        if (this.overBudget(msg.heapBytes)) this.recycle(slot, msg.heapBytes!);
        if (slot.successor && slot.successor.state !== 'starting') this.retire(slot);
        else this.pump(slot);
        return;
      }
    }
  }

  private overBudget(heapBytes: number | undefined): boolean {
    const budget = this.opts.heapBudgetBytes;
    return budget !== undefined && budget > 0 && heapBytes !== undefined && heapBytes > budget;
  }

  /**
   * Starts a successor for a worker whose heap passed the budget. The old
   * worker keeps serving until the successor is warm, so recycling never
   * makes a job wait for a boot; it is then retired as soon as it is idle.
   */
  private recycle(slot: Slot, heapBytes: number): void {
    if (slot.successor || this.closed) return;
    this.recycled++;
    this.opts.log.info(`${this.opts.name} worker heap past its budget: replacing it`, { heapBytes, budgetBytes: this.opts.heapBudgetBytes });
    const successor = this.spawnSlot({ startFailures: 0 });
    successor.predecessor = slot;
    slot.successor = successor;
    this.slots.push(successor);
  }

  private retire(slot: Slot): void {
    slot.state = 'dead';
    this.remove(slot);
    void slot.handle.worker.terminate();
  }

  private remove(slot: Slot): void {
    const index = this.slots.indexOf(slot);
    if (index >= 0) this.slots.splice(index, 1);
  }

  private startFailed(slot: Slot, message: string): void {
    if (slot.state === 'dead') return;
    this.opts.log.error(`${this.opts.name} worker failed to start`, { err: message.slice(0, 2000) });
    slot.startFailures++;
    if (slot.startFailures >= 2) {
      // Never leave start() hanging: with no warm worker at all the pool
      // cannot serve; with some, it serves while this one keeps retrying.
      if (this.readyCount === 0) this.failStart(new Error(`${this.opts.name} workers cannot start: ${message.slice(0, 500)}`));
      else this.markStarted();
    }
    this.replace(slot, 'failed-start');
  }

  private dispatch(slot: Slot, job: Job): void {
    slot.state = 'busy';
    slot.job = job;
    job.timers.push(setTimeout(() => this.onDeadline(slot, job, 'deadline'), this.opts.timeoutMs));
    this.watchProgress(slot, job);
    slot.handle.worker.postMessage({ type: 'job', id: job.id, payload: job.payload }, job.transfer as ArrayBuffer[]);
  }

  private pump(slot: Slot): void {
    if (slot.state !== 'ready') return;
    const job = this.queue.shift();
    if (job) this.dispatch(slot, job);
  }

  // A job stuck in a loop that prints nothing would otherwise hold its
  // worker until the deadline.
  private watchProgress(slot: Slot, job: Job): void {
    const counter = slot.handle.progress;
    const stallMs = this.opts.stallMs ?? 0;
    if (!counter || stallMs <= 0) return;
    let seen = Atomics.load(counter, 0);
    let since = Date.now();
    const watch = setInterval(() => {
      const now = Atomics.load(counter, 0);
      if (now !== seen) {
        seen = now;
        since = Date.now();
      } else if (Date.now() - since >= stallMs) {
        clearInterval(watch);
        this.onDeadline(slot, job, 'stalled');
      }
    }, Math.max(20, Math.floor(stallMs / 5)));
    job.timers.push(watch);
  }

  private onDeadline(slot: Slot, job: Job, reason: 'deadline' | 'stalled'): void {
    if (job.settled || slot.job !== job) return;
    const kill = () => {
      if (job.settled || slot.job !== job) return;
      const why = reason === 'stalled' ? `without progress for ${this.opts.stallMs} ms` : 'past its deadline';
      this.opts.log.warn(`${this.opts.name} job ${why}: terminating worker`, { timeoutMs: this.opts.timeoutMs, stallMs: this.opts.stallMs });
      this.settle(job, this.opts.timeoutError(reason));
      this.replace(slot, 'timeout');
    };
    if (slot.handle.interrupt) {
      slot.handle.interrupt();
      job.timers.push(setTimeout(kill, this.opts.graceMs));
    } else kill();
  }

  private replace(slot: Slot, reason: 'crashed' | 'timeout' | 'failed-start'): void {
    if (slot.state === 'dead') return;
    slot.state = 'dead';
    if (slot.job) {
      this.settle(
        slot.job,
        new ServiceError(Code.engine_crashed, `The ${this.opts.name} engine failed while rendering this document; it has been restarted, try again.`),
      );
      slot.job = undefined;
    }
    void slot.handle.worker.terminate();
    if (this.closed) return;
    this.restarts++;
    if (slot.successor) {
      // Being recycled: the successor already starting takes its place.
      slot.successor.predecessor = undefined;
      this.remove(slot);
      return;
    }
    // Back off when workers cannot even start, so a broken install does not spin.
    const delay = reason === 'failed-start' ? Math.min(30_000, (this.opts.startBackoffMs ?? 500) * 2 ** slot.startFailures) : 0;
    const timer = setTimeout(() => {
      this.restartTimers.delete(timer);
      if (this.closed) return;
      const index = this.slots.indexOf(slot);
      const fresh = this.spawnSlot(slot);
      // A successor that failed to start hands its task on.
      if (slot.predecessor?.successor === slot) {
        fresh.predecessor = slot.predecessor;
        slot.predecessor.successor = fresh;
      }
      if (index >= 0) this.slots[index] = fresh;
      else this.slots.push(fresh);
    }, delay);
    this.restartTimers.add(timer);
  }

  private abandon(job: Job): void {
    if (job.settled) return;
    const queued = this.queue.indexOf(job);
    if (queued >= 0) {
      this.queue.splice(queued, 1);
      this.settle(job, this.opts.timeoutError('deadline'));
      return;
    }
    const slot = this.slots.find((s) => s.job === job);
    if (slot) this.onDeadline(slot, job, 'deadline');
  }

  private settle(job: Job, error: Error | undefined, value?: unknown): void {
    if (job.settled) return;
    job.settled = true;
    job.release?.();
    for (const t of job.timers) clearTimeout(t);
    if (error) job.reject(error);
    else job.resolve(value);
  }
}
