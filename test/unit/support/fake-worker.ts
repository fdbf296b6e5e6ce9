/**
 * A worker thread that speaks the pool's protocol (worker-pool.ts) and
 * renders nothing: each job says what to do (answer, wait, fail, crash,
 * spin, report a heap size), so the pool's handling of every case can be
 * seen in milliseconds.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';

import type { WorkerMessage } from '../../../src/engines/worker-messages.js';
import { Code, type ErrorCode } from '../../../src/errors.js';

export interface FakeWorkerData {
  /** How the worker starts: ready, reports a failure, or exits. */
  start: 'ready' | 'fail' | 'exit';
  /** How long the boot takes before the worker says it is ready (or failed). */
  bootMs?: number;
  /** The pool sets its first Int32 to ask a spinning job to stop. */
  interrupt?: SharedArrayBuffer;
  /** The counter the pool's stall watch reads; `tick` jobs move it. */
  progress?: Int32Array;
}

export type FakeJob =
  | { do: 'echo'; value: unknown }
  | { do: 'sleep'; ms: number; value: unknown }
  | { do: 'fail'; code: ErrorCode; message: string; detail?: string }
  | { do: 'exit' }
  | { do: 'throw' }
  /** Busy until interrupted (then answers render_timeout), or for ever without an interrupt: no progress. */
  | { do: 'spin' }
  /** Busy for `ms`, moving the progress counter every `every` ms, then answers `value`. */
  | { do: 'tick'; ms: number; every: number; value: unknown }
  /** Answers which thread ran it, after `workMs`, reporting a heap of `heapBytes` (and, with `broken`, that the job damaged it). */
  | { do: 'report'; heapBytes: number; workMs?: number; broken?: boolean };

/** What a `report` job answers. */
export interface FakeAnswer {
  threadId: number;
}

const data = workerData as FakeWorkerData;
const port = parentPort!;
const interrupt = data.interrupt ? new Int32Array(data.interrupt) : undefined;

function reply(msg: WorkerMessage): void {
  port.postMessage(msg);
}

function serve(): void {
  port.on('message', (msg: { type: 'job'; id: number; payload: FakeJob }) => {
    const { id, payload: job } = msg;
    switch (job.do) {
      case 'echo':
        return reply({ type: 'done', id, ok: true, value: job.value });
      case 'sleep':
        setTimeout(() => reply({ type: 'done', id, ok: true, value: job.value }), job.ms);
        return;
      case 'fail':
        return reply({ type: 'done', id, ok: false, error: { code: job.code, message: job.message, detail: job.detail } });
      case 'exit':
        process.exit(1);
        return;
      case 'throw':
        throw new Error('the fake worker threw');
      case 'spin': {
        if (interrupt) Atomics.store(interrupt, 0, 0);
        while (!interrupt || Atomics.load(interrupt, 0) === 0) {
          // A render stuck in C would look like this to the pool.
        }
        return reply({ type: 'done', id, ok: false, error: { code: Code.render_timeout, message: 'interrupted' } });
      }
      case 'tick': {
        const end = Date.now() + job.ms;
        let next = Date.now();
        while (Date.now() < end) {
          if (Date.now() >= next && data.progress) {
            Atomics.add(data.progress, 0, 1);
            next += job.every;
          }
        }
        return reply({ type: 'done', id, ok: true, value: job.value });
      }
      case 'report': {
        const answer = () => reply({ type: 'done', id, ok: true, value: { threadId } satisfies FakeAnswer, heapBytes: job.heapBytes, ...(job.broken ? { broken: true } : {}) });
        if (job.workMs) setTimeout(answer, job.workMs);
        else answer();
        return;
      }
    }
  });
  reply({ type: 'ready' });
}

function boot(): void {
  if (data.start === 'exit') process.exit(3);
  if (data.start === 'fail') reply({ type: 'failed', message: 'the fake worker cannot start' });
  else serve();
}

if (data.bootMs) setTimeout(boot, data.bootMs);
else boot();
