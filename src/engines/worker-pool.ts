/**
 * A fixed set of warm worker threads with a bounded queue and a deadline per
 * job. Both engines (Pyodide and pdfTeX) run on it; they differ only in how a
 * worker is made and whether a running job can be interrupted softly.
 *
 * Workers are disposable: a worker that crashes, or does not stop after its
 * deadline, is terminated and replaced, and only the job it held fails.
 */
import { Worker } from 'node:worker_threads';

import { ServiceError } from '../http/errors.js';
import { errorFields, type Logger } from '../log.js';

/** What a worker posts back. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | { type: 'done'; id: number; ok: true; value: unknown }
  | { type: 'done'; id: number; ok: false; error: JobFailure };

/** A job's failure as a worker reports it: safe to show, plus a log-only detail. */
export interface JobFailure {
  status: number;
  code: string;
  message: string;
  detail?: string;
}

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
  /** A job whose worker's progress counter stays still this long is ended as at its deadline; 0 or unset: never. */
  stallMs?: number;
  spawn: () => WorkerHandle;
  /** The error a job gets when its worker had to be terminated at the deadline, or for want of progress. */
  timeoutError: (reason: 'deadline' | 'stalled') => ServiceError;
  log: Logger;
}

export interface PoolStats {
  size: number;
  ready: number;
  busy: number;
  starting: number;
  queued: number;
  restarts: number;
}

interface Job {
  id: number;
  payload: unknown;
  transfer: readonly ArrayBuffer[];
  resolve: (value: unknown) => void;
  reject: (error: Error) => void;
  timers: NodeJS.Timeout[];
  settled: boolean;
}

interface Slot {
  handle: WorkerHandle;
  state: 'starting' | 'ready' | 'busy' | 'dead';
  job?: Job;
  startFailures: number;
}

const RETRY_AFTER_SECONDS = '1';

export class WorkerPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private restarts = 0;
  private closed = false;
  private readonly firstReady: Promise<void>;
  private markFirstReady!: () => void;
  private failFirstReady!: (err: Error) => void;
  private everReady = 0;

  constructor(private readonly opts: PoolOptions) {
    this.firstReady = new Promise((resolve, reject) => {
      this.markFirstReady = resolve;
      this.failFirstReady = reject;
    });
  }

  /** Starts every worker; resolves once all are warm, rejects if one cannot start at all. */
  start(): Promise<void> {
    for (let i = 0; i < this.opts.size; i++) this.slots.push(this.spawnSlot({ startFailures: 0 }));
    return this.firstReady;
  }

  stats(): PoolStats {
    const count = (state: Slot['state']) => this.slots.filter((s) => s.state === state).length;
    return {
      size: this.slots.length,
      ready: count('ready'),
      busy: count('busy'),
      starting: count('starting'),
      queued: this.queue.length,
      restarts: this.restarts,
    };
  }

  /** The threads running a job now; lets fault tests kill one mid-job as a crash would. */
  busyThreads(): Worker[] {
    return this.slots.filter((s) => s.state === 'busy').map((s) => s.handle.worker);
  }

  run<T>(payload: unknown, transfer: readonly ArrayBuffer[] = []): Promise<T> {
    if (this.closed) {
      return Promise.reject(new ServiceError(503, 'shutting_down', 'The service is shutting down.', { headers: { 'Retry-After': RETRY_AFTER_SECONDS } }));
    }
    const idle = this.slots.find((s) => s.state === 'ready');
    if (!idle && this.queue.length >= this.opts.queueLimit) {
      return Promise.reject(
        new ServiceError(503, 'overloaded', `All ${this.opts.name} workers are busy and the queue is full; try again shortly.`, {
          headers: { 'Retry-After': RETRY_AFTER_SECONDS },
        }),
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
      if (idle) this.dispatch(idle, job);
      else this.queue.push(job);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) {
      this.settle(job, new ServiceError(503, 'shutting_down', 'The service is shutting down.', { headers: { 'Retry-After': RETRY_AFTER_SECONDS } }));
    }
    await Promise.all(
      this.slots.map(async (slot) => {
        slot.state = 'dead';
        if (slot.job) this.settle(slot.job, new ServiceError(503, 'shutting_down', 'The service is shutting down.', { headers: { 'Retry-After': RETRY_AFTER_SECONDS } }));
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
      case 'ready':
        slot.state = 'ready';
        slot.startFailures = 0;
        if (++this.everReady >= this.opts.size) this.markFirstReady();
        this.pump(slot);
        return;
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
          this.settle(job, new ServiceError(msg.error.status, msg.error.code, msg.error.message));
        }
        this.pump(slot);
        return;
      }
    }
  }

  private startFailed(slot: Slot, message: string): void {
    if (slot.state === 'dead') return;
    this.opts.log.error(`${this.opts.name} worker failed to start`, { err: message.slice(0, 2000) });
    slot.startFailures++;
    if (slot.startFailures >= 2) {
      // Never leave start() hanging: with no warm worker at all the pool
      // cannot serve; with some, it serves while this one keeps retrying.
      if (this.everReady === 0) this.failFirstReady(new Error(`${this.opts.name} workers cannot start: ${message.slice(0, 500)}`));
      else this.markFirstReady();
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
        new ServiceError(503, 'engine_crashed', `The ${this.opts.name} engine failed while rendering this document; it has been restarted, try again.`, {
          headers: { 'Retry-After': RETRY_AFTER_SECONDS },
        }),
      );
      slot.job = undefined;
    }
    void slot.handle.worker.terminate();
    if (this.closed) return;
    this.restarts++;
    // Back off when workers cannot even start, so a broken install does not spin.
    const delay = reason === 'failed-start' ? Math.min(30_000, 500 * 2 ** slot.startFailures) : 0;
    setTimeout(() => {
      if (this.closed) return;
      const index = this.slots.indexOf(slot);
      const fresh = this.spawnSlot(slot);
      if (index >= 0) this.slots[index] = fresh;
      else this.slots.push(fresh);
    }, delay).unref();
  }

  private settle(job: Job, error: Error | undefined, value?: unknown): void {
    if (job.settled) return;
    job.settled = true;
    for (const t of job.timers) clearTimeout(t);
    if (error) job.reject(error);
    else job.resolve(value);
  }
}
