/**
 * A worker thread that decodes and draws images (SVG, GIF, WebP) for
 * convert-pool.ts: a drawing that takes too long is ended by terminating
 * this thread, and resvg's WebAssembly memory, which only grows, goes with
 * it, not with the service. Each answer says how much memory the thread
 * holds and whether a decoder failed in it, so that the pool replaces it
 * (worker-pool.ts) instead of keeping what the failure grew.
 */
import { parentPort } from 'node:worker_threads';

import { Code } from '../errors.js';
import type { WorkerMessage } from '../engines/worker-messages.js';
import { DecoderFailed, prepareImage, type ConvertOptions, type Prepared } from './convert.js';
import { ImageRefused } from './problems.js';
import type { Sniffed } from './sniff.js';

/** A job: the image's bytes and what sniff.ts made of them. */
export interface ConvertJob {
  bytes: Uint8Array;
  sniffed: Sniffed;
  options: ConvertOptions;
}

/** The file, or why the image cannot be used. */
export type ConvertReply = { prepared: Prepared } | { refused: string };

const port = parentPort!;

// This thread's memory: its JS heap, and its external memory, which holds
// the decoders' WebAssembly memories and the pixel buffers.
const heapBytes = (): number => {
  const { heapTotal, external } = process.memoryUsage();
  return heapTotal + external;
};

port.on('message', async (msg: { type: 'job'; id: number; payload: ConvertJob }) => {
  let reply: WorkerMessage;
  try {
    const { bytes, sniffed, options } = msg.payload;
    const value: ConvertReply = { prepared: await prepareImage(bytes, sniffed, options) };
    reply = { type: 'done', id: msg.id, ok: true, value, heapBytes: heapBytes() };
  } catch (error) {
    // A refusal decided before decoding leaves the thread as it was; a
    // decoder that failed may not have (worker-pool.ts replaces it).
    const broken = !(error instanceof ImageRefused) || error instanceof DecoderFailed;
    reply =
      error instanceof ImageRefused
        ? { type: 'done', id: msg.id, ok: true, value: { refused: error.reason } satisfies ConvertReply, heapBytes: heapBytes(), broken }
        : { type: 'done', id: msg.id, ok: false, error: { code: Code.internal, message: 'The image converter failed.', detail: error instanceof Error ? error.stack : String(error) }, heapBytes: heapBytes(), broken };
  }
  port.postMessage(reply);
});
port.postMessage({ type: 'ready' } satisfies WorkerMessage);
