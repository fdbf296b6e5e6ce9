/**
 * Image conversion off the main thread: SVG drawing, GIF/WebP decoding and
 * the PDF check (which parses and inflates the file's object streams) run
 * in a worker (convert-worker.ts) with a deadline, so that an image built
 * to be slow costs its own placeholder, never the service's event loop.
 * PNG and JPEG need no decoding and are prepared right here.
 */
import { Worker } from 'node:worker_threads';

import { WorkerPool, type PoolStats } from '../engines/worker-pool.js';
import { Code, ServiceError } from '../errors.js';
import type { Logger } from '../log.js';
import { prepareImage, type ConvertOptions, type Prepared } from './convert.js';
import type { ConvertJob, ConvertReply } from './convert-worker.js';
import { ImageRefused } from './problems.js';
import type { Sniffed } from './sniff.js';

const OFF_THREAD: ReadonlySet<Sniffed['format']> = new Set(['svg', 'gif', 'webp', 'pdf']);

export interface ConvertPoolOptions {
  /** Bound on one conversion; the worker is replaced after one that passes it. */
  timeoutMs: number;
  /** Conversions that may wait for the worker; beyond: the image is a placeholder. */
  queueLimit: number;
  /** The worker is replaced after a job that left its memory past this; 0: never. */
  heapBudgetBytes: number;
  log: Logger;
}

export class ConvertPool {
  private readonly pool: WorkerPool;

  constructor(private readonly opts: ConvertPoolOptions) {
    this.pool = new WorkerPool({
      name: 'image',
      size: 1,
      queueLimit: opts.queueLimit,
      timeoutMs: opts.timeoutMs,
      graceMs: 0,
      heapBudgetBytes: opts.heapBudgetBytes,
      log: opts.log,
      timeoutError: () => new ServiceError(Code.render_timeout, `Converting the image took longer than ${opts.timeoutMs} ms.`),
      spawn: () => ({ worker: new Worker(new URL('./convert-worker.js', import.meta.url), { stdout: false, stderr: false }) }),
    });
  }

  start(): Promise<void> {
    return this.pool.start();
  }

  stats(): PoolStats {
    return this.pool.stats();
  }

  /**
   * The file for pdfTeX, or ImageRefused (a conversion past its deadline
   * included). `budget`: the document's time for its images; when it ends,
   * the conversion leaves the queue or its worker is replaced.
   */
  async prepare(bytes: Uint8Array, sniffed: Sniffed, options: ConvertOptions, budget?: AbortSignal): Promise<Prepared> {
    if (!OFF_THREAD.has(sniffed.format)) return prepareImage(bytes, sniffed, options);
    let reply: ConvertReply;
    try {
      reply = await this.pool.run<ConvertReply>({ bytes, sniffed, options } satisfies ConvertJob, [], budget);
    } catch (error) {
      if (budget?.aborted) throw new ImageRefused('the document\'s images took longer than their time budget', true);
      if (error instanceof ServiceError && error.code === Code.render_timeout) {
        throw new ImageRefused(`drawing the image took longer than ${this.opts.timeoutMs} ms`);
      }
      if (error instanceof ServiceError) throw new ImageRefused(`the image could not be converted (${error.message})`, error.code === Code.overloaded);
      throw error;
    }
    if ('refused' in reply) throw new ImageRefused(reply.refused);
    return reply.prepared;
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
