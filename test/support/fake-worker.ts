/**
 * A stand-in engine worker for the pool's own tests: it speaks the pool's
 * protocol (ready, done with a heap report) without any engine behind it, so
 * the pool's bookkeeping can be exercised in milliseconds. A job's payload
 * says how large a heap to report and how long to take; the answer names the
 * thread that ran it.
 */
import { parentPort, threadId, workerData } from 'node:worker_threads';

import type { WorkerMessage } from '../../src/engines/worker-pool.js';

export interface FakeWorkerData {
  /** How long the fake boot takes before 'ready'. */
  bootMs: number;
  /** Report a failed start instead of 'ready'. */
  failStart?: boolean;
}

export interface FakeJob {
  heapBytes: number;
  workMs?: number;
}

export interface FakeAnswer {
  threadId: number;
}

const data = workerData as FakeWorkerData;
const port = parentPort!;

setTimeout(() => {
  if (data.failStart) {
    port.postMessage({ type: 'failed', message: 'fake start failure' } satisfies WorkerMessage);
    return;
  }
  port.on('message', (msg: { type: 'job'; id: number; payload: FakeJob }) => {
    const answer = () =>
      port.postMessage({ type: 'done', id: msg.id, ok: true, value: { threadId } satisfies FakeAnswer, heapBytes: msg.payload.heapBytes } satisfies WorkerMessage);
    if (msg.payload.workMs) setTimeout(answer, msg.payload.workMs);
    else answer();
  });
  port.postMessage({ type: 'ready' } satisfies WorkerMessage);
}, data.bootMs);
