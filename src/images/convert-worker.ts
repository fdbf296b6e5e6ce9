/**
 * A worker thread that decodes and draws images (SVG, GIF, WebP) for
 * convert-pool.ts: a drawing that takes too long is ended by terminating
 * this thread, and resvg's WebAssembly memory, which only grows, goes with
 * it, not with the service.
 */
import { parentPort } from 'node:worker_threads';

import { Code } from '../errors.js';
import type { WorkerMessage } from '../engines/worker-pool.js';
import { prepareImage, type ConvertOptions, type Prepared } from './convert.js';
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

port.on('message', async (msg: { type: 'job'; id: number; payload: ConvertJob }) => {
  let reply: WorkerMessage;
  try {
    const { bytes, sniffed, options } = msg.payload;
    const value: ConvertReply = { prepared: await prepareImage(bytes, sniffed, options) };
    reply = { type: 'done', id: msg.id, ok: true, value };
  } catch (error) {
    reply =
      error instanceof ImageRefused
        ? { type: 'done', id: msg.id, ok: true, value: { refused: error.reason } satisfies ConvertReply }
        : { type: 'done', id: msg.id, ok: false, error: { code: Code.internal, message: 'The image converter failed.', detail: error instanceof Error ? error.stack : String(error) } };
  }
  port.postMessage(reply);
});
port.postMessage({ type: 'ready' } satisfies WorkerMessage);
