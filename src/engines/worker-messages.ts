/**
 * What a worker of a WorkerPool (worker-pool.ts) posts back: that it is
 * ready or cannot start, and each job's answer or coded failure, with the
 * size of its heap. Every worker (Pyodide, pdfTeX, image conversion)
 * speaks this; the pool is the only one that reads it.
 */
import type { ErrorCode } from '../errors.js';

/** What a worker posts back. */
export type WorkerMessage =
  | { type: 'ready' }
  | { type: 'failed'; message: string }
  | ({ type: 'done'; id: number; ok: true; value: unknown } & HeapReport)
  | ({ type: 'done'; id: number; ok: false; error: JobFailure } & HeapReport);

/** A worker that can tell its heap size reports it with every answer. */
export interface HeapReport {
  heapBytes?: number;
  /**
   * The job left the worker's own state damaged (a WebAssembly trap, say):
   * it is replaced at once, its answer still delivered.
   */
  broken?: boolean;
}

/** A job's failure as a worker reports it: a catalogue code, a message safe to show, plus a log-only detail. */
export interface JobFailure {
  code: ErrorCode;
  message: string;
  detail?: string;
}
