/**
 * The TeX engine: our pdfTeX build (WebAssembly) in a pool of worker threads.
 * The module is compiled once here and shared; a job past its deadline gets
 * its worker terminated (TeX cannot be interrupted softly). A document whose
 * preamble a format holds (format-store.ts) starts from that format.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { Code, ServiceError } from '../../errors.js';
import type { Logger } from '../../log.js';
import { WorkerPool, type PoolStats } from '../worker-pool.js';
import { MARKER } from './format-dump.js';
import { FormatStore } from './format-store.js';
import type { PdfEngine, Typeset, TypesetStats } from './pdf-engine.js';
import { ENGINE_FILES, loadTexModule, type TexEngineName } from './pdftex-instance.js';
import type { TexJob, TexReply } from './worker.js';

export interface TexEngineOptions {
  workers: number;
  queueLimit: number;
  timeoutMs: number;
  /** A job whose pdfTeX prints nothing for this long is ended like one past its deadline; 0: never. */
  stallMs: number;
  texDir: string;
  /** Folder for formats made at run time (RST2_TEX_FORMAT_DIR); none: only the built-in ones are used. */
  formatDir?: string;
  /** Bound on that folder's bytes; 0 (the default): no formats are made at run time. */
  formatMaxBytes?: number;
  /** Dumps that may wait (RST2_TEX_FORMAT_QUEUE); beyond, a format is asked for again on its next use. */
  formatQueueLimit?: number;
  /** How long a pre-started LuaHBTeX instance waits for a job (RST2_LUATEX_SPARE_IDLE_MS); 0: none is made. Default 60 s. */
  luaSpareIdleMs?: number;
  log: Logger;
}

// As RST2_TEX_FORMAT_QUEUE's default, for engines made without a Config (tests, benchmarks).
const DEFAULT_FORMAT_QUEUE = 4;

// As RST2_LUATEX_SPARE_IDLE_MS's default.
const DEFAULT_LUA_SPARE_IDLE_MS = 60_000;

// Enough for cross-references and a LaTeX table of contents to settle.
const MAX_RUNS = 3;

export class TexEngine implements PdfEngine {
  readonly available = true;
  private pool?: WorkerPool;
  private formats?: FormatStore;
  private readonly counts = { withFormat: 0, plain: 0, runs: 0, prestarted: 0 };

  constructor(private readonly opts: TexEngineOptions) {}

  async start(): Promise<void> {
    const module = await loadTexModule(this.opts.texDir);
    // A tree built before LuaHBTeX joined it has only pdfTeX; Python then
    // sends every document there (python/rst2/scripts.py reads the tree's table).
    const luaModule = existsSync(path.join(this.opts.texDir, ENGINE_FILES.luahbtex.wasm))
      ? await loadTexModule(this.opts.texDir, 'luahbtex')
      : undefined;
    this.formats = new FormatStore({
      texDir: this.opts.texDir,
      module,
      dir: this.opts.formatDir,
      maxBytes: this.opts.formatMaxBytes ?? 0,
      queueLimit: this.opts.formatQueueLimit ?? DEFAULT_FORMAT_QUEUE,
      timeoutMs: this.opts.timeoutMs,
      log: this.opts.log,
    });
    this.pool = new WorkerPool({
      name: 'pdftex',
      size: this.opts.workers,
      queueLimit: this.opts.queueLimit,
      timeoutMs: this.opts.timeoutMs,
      stallMs: this.opts.stallMs,
      graceMs: 0,
      log: this.opts.log,
      timeoutError: (reason) =>
        new ServiceError(
          Code.render_timeout,
          reason === 'stalled'
            ? `The TeX engine made no progress on this document for ${this.opts.stallMs} ms (a loop in the LaTeX?), so typesetting was stopped.`
            : `The document took longer than ${this.opts.timeoutMs} ms to typeset.`,
        ),
      spawn: () => {
        // The worker counts pdfTeX's terminal output here; the pool watches it.
        const progress = new Int32Array(new SharedArrayBuffer(4));
        return {
          worker: new Worker(new URL('./worker.js', import.meta.url), {
            workerData: { texDir: this.opts.texDir, module, luaModule, maxRuns: MAX_RUNS, progress, luaSpareIdleMs: this.opts.luaSpareIdleMs ?? DEFAULT_LUA_SPARE_IDLE_MS },
            stdout: false,
            stderr: false,
          }),
          progress,
        };
      },
    });
    await this.pool.start();
  }

  stats(): PoolStats | undefined {
    return this.pool?.stats();
  }

  /** The threads typesetting now; lets fault tests kill one mid-job as a crash would. */
  busyThreads(): Worker[] {
    return this.pool?.busyThreads() ?? [];
  }

  async compile(latex: string, formatPreamble?: string | null, files?: Readonly<Record<string, Uint8Array>>, engine?: TexEngineName): Promise<Buffer> {
    return (await this.typeset(latex, formatPreamble, files, engine)).pdf;
  }

  async typeset(latex: string, formatPreamble?: string | null, files?: Readonly<Record<string, Uint8Array>>, engine: TexEngineName = 'pdftex'): Promise<Typeset> {
    if (!this.pool) throw new ServiceError(Code.pdf_unavailable, 'The PDF engine is not started.');
    // Preamble formats are pdfTeX's (format-store.ts); LuaHBTeX starts from lualatex.fmt.
    const fits = engine === 'pdftex' && formatPreamble && latex.startsWith(`${formatPreamble}${MARKER}\n`);
    const format = fits ? this.formats?.find(formatPreamble) : undefined;
    const job: TexJob = {
      latex,
      ...(engine !== 'pdftex' ? { engine } : {}),
      ...(format ? { format } : {}),
      ...(files && Object.keys(files).length ? { files } : {}),
    };
    const reply = await this.pool.run<TexReply>(job);
    if (format && reply.formatBroken) this.formats?.broken(format);
    if (format && !reply.formatBroken) this.counts.withFormat++;
    else this.counts.plain++;
    this.counts.runs += reply.runs;
    if (reply.prestarted) this.counts.prestarted++;
    if (reply.lost.count > 0) {
      this.opts.log.warn('pdfTeX lost characters its fonts lack (counted as replaced)', { count: reply.lost.count, samples: reply.lost.samples });
    }
    return { pdf: Buffer.from(reply.pdf), lostCharacters: reply.lost.count };
  }

  typesetStats(): TypesetStats | undefined {
    return this.formats ? { ...this.counts, formatsMade: this.formats.made } : undefined;
  }

  formatsIdle(): Promise<void> {
    return this.formats?.idle() ?? Promise.resolve();
  }

  async close(): Promise<void> {
    await this.formats?.close();
    await this.pool?.close();
  }
}
