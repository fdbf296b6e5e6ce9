/**
 * The preamble formats pdfTeX jobs may start from (see format-dump.ts and
 * python/rst2/latex_format.py). Two folders hold them:
 *   - <texDir>/formats: made at `npm install` for the default class and
 *     style (default-formats.ts), read-only here;
 *   - the runtime folder (RST2_TEX_FORMAT_DIR): every other combination,
 *     dumped here in the background on its first use and kept within
 *     RST2_TEX_FORMAT_BYTES, least recently used first out.
 * A job whose format does not exist yet runs with the plain pdflatex format
 * and is not kept waiting. Only the service writes formats: a dump runs in
 * its own in-memory job folder with the preamble python/rst2 built from the
 * options alone, and the bytes are written here (temporary file, rename).
 * A preamble depends on class, style and the document's script set
 * (python/rst2/scripts.py), so documents can ask for thousands of formats,
 * each about a second of dumping and 19 MB written: at most `queueLimit`
 * dumps wait, and a format asked for while the queue is full is not queued
 * (its job runs without one, and the next use asks again).
 */
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import { errorFields, type Logger } from '../../log.js';
import { BUILTIN_FORMATS_DIR, FORMAT_SUFFIX, engineKey, formatName } from './format-name.js';
import type { FormatWorkerReply } from './format-worker.js';

export interface FormatRef {
  name: string;
  /** The folder holding `file`, mounted read-only for the run. */
  dir: string;
  file: string;
}

export interface FormatStoreOptions {
  texDir: string;
  module: WebAssembly.Module;
  /** Where formats made at run time live; undefined: none are made. */
  dir: string | undefined;
  /** Bound on the bytes of formats in `dir`; 0: none are made. */
  maxBytes: number;
  /** Dumps that may wait while one runs; more are not queued. */
  queueLimit: number;
  /** Deadline of one dump (the thread is terminated after it). */
  timeoutMs: number;
  log: Logger;
}

interface Entry { ref: FormatRef; builtin: boolean; usedAt: number }

// Marking a runtime format as used costs a utimes call; once a minute is
// precise enough for choosing what to remove.
const TOUCH_INTERVAL_MS = 60_000;

export class FormatStore {
  private readonly key: string;
  private readonly known = new Map<string, Entry>();
  private readonly failed = new Set<string>();
  private readonly queue: Array<{ name: string; preamble: string }> = [];
  private current?: { name: string; worker: Worker };
  private idleWaiters: Array<() => void> = [];
  private closed = false;
  /** Formats this store has made. */
  made = 0;
  /** Formats asked for while the queue of dumps was full (not queued). */
  skipped = 0;
  private readonly runtimeDir: string | undefined;

  constructor(private readonly opts: FormatStoreOptions) {
    this.key = engineKey(opts.texDir);
    this.runtimeDir = opts.dir && opts.maxBytes > 0 ? opts.dir : undefined;
    this.scan(path.join(opts.texDir, BUILTIN_FORMATS_DIR), true);
    if (this.runtimeDir) {
      try {
        fs.mkdirSync(this.runtimeDir, { recursive: true });
        this.scan(this.runtimeDir, false);
      } catch (err) {
        opts.log.warn('the folder for LaTeX formats cannot be used: only the built-in ones will be', { dir: this.runtimeDir, ...errorFields(err) });
        this.runtimeDir = undefined;
      }
    }
  }

  nameOf(preamble: string): string {
    return formatName(this.key, preamble);
  }

  /** The format for this preamble if there is one; otherwise asks for it to be made. */
  find(preamble: string): FormatRef | undefined {
    const name = this.nameOf(preamble);
    if (this.failed.has(name)) return undefined;
    let entry = this.known.get(name);
    if (!entry && this.runtimeDir && fs.existsSync(path.join(this.runtimeDir, name + FORMAT_SUFFIX))) {
      // made by another instance sharing the folder
      entry = this.add(this.runtimeDir, name, false);
    }
    if (!entry) {
      this.request(name, preamble);
      return undefined;
    }
    const now = Date.now();
    if (!entry.builtin && now - entry.usedAt > TOUCH_INTERVAL_MS) {
      const file = path.join(entry.ref.dir, entry.ref.file);
      fs.promises.utimes(file, new Date(now), new Date(now)).catch(() => { /* removed meanwhile: found missing on use */ });
    }
    entry.usedAt = now;
    return entry.ref;
  }

  /**
   * A job could not load this format: stop using it. A file that is gone
   * (removed for the bound, by this or another instance) is made again on
   * its next use; one that is there but broken is not, by this process.
   */
  broken(ref: FormatRef): void {
    const entry = this.known.get(ref.name);
    if (!entry) return;
    this.known.delete(ref.name);
    if (!fs.existsSync(path.join(ref.dir, ref.file))) return;
    this.failed.add(ref.name);
    this.opts.log.warn('a LaTeX format could not be loaded; jobs run without it', { format: ref.name, builtin: entry.builtin });
    if (!entry.builtin) fs.promises.rm(path.join(ref.dir, ref.file), { force: true }).catch(() => {});
  }

  /** Resolves when no dump is running or waiting (benchmarks and tests wait for formats with it). */
  idle(): Promise<void> {
    if (!this.current && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  async close(): Promise<void> {
    this.closed = true;
    this.queue.length = 0;
    await this.current?.worker.terminate();
  }

  // ------------------------------------------------------------ making formats

  private request(name: string, preamble: string): void {
    if (!this.runtimeDir || this.closed || this.failed.has(name)) return;
    if (this.current?.name === name || this.queue.some((q) => q.name === name)) return;
    if (this.current && this.queue.length >= this.opts.queueLimit) {
      this.skipped++;
      return;
    }
    this.queue.push({ name, preamble });
    if (!this.current) void this.next();
  }

  private async next(): Promise<void> {
    const item = this.queue.shift();
    if (!item || this.closed) {
      this.current = undefined;
      for (const w of this.idleWaiters.splice(0)) w();
      return;
    }
    const started = Date.now();
    try {
      const bytes = await this.dump(item.name, item.preamble);
      await this.save(item.name, bytes);
      this.made++;
      this.opts.log.info('made a LaTeX format', { format: item.name, bytes: bytes.length, ms: Date.now() - started });
    } catch (err) {
      this.failed.add(item.name);
      if (!this.closed) this.opts.log.warn('could not make a LaTeX format; its jobs run without one', { format: item.name, ...errorFields(err) });
    }
    await this.next();
  }

  private dump(name: string, preamble: string): Promise<Uint8Array> {
    const worker = new Worker(new URL('./format-worker.js', import.meta.url), {
      workerData: { module: this.opts.module, texDir: this.opts.texDir, preamble, name },
      stdout: false,
      stderr: false,
    });
    this.current = { name, worker };
    return new Promise<Uint8Array>((resolve, reject) => {
      const timer = setTimeout(() => {
        reject(new Error(`the dump took longer than ${this.opts.timeoutMs} ms`));
        void worker.terminate();
      }, this.opts.timeoutMs);
      worker.once('message', (reply: FormatWorkerReply) => {
        if (reply.ok) resolve(new Uint8Array(reply.format));
        else reject(new Error(`pdfTeX could not dump the format:\n${reply.log}`));
      });
      worker.once('error', reject);
      worker.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`the format thread exited (code ${code})`));
      });
    });
  }

  private async save(name: string, bytes: Uint8Array): Promise<void> {
    const dir = this.runtimeDir;
    if (!dir || this.closed) return;
    const file = name + FORMAT_SUFFIX;
    const tmp = path.join(dir, `.${file}.${process.pid}.tmp`);
    await fs.promises.writeFile(tmp, bytes);
    await fs.promises.rename(tmp, path.join(dir, file));
    this.add(dir, name, false);
    await this.bound(dir, name);
  }

  /** Removes the least recently used formats beyond the bound (never the one just made). */
  private async bound(dir: string, keep: string): Promise<void> {
    const files: Array<{ name: string; bytes: number; usedAt: number }> = [];
    for (const entry of await fs.promises.readdir(dir)) {
      if (!entry.endsWith(FORMAT_SUFFIX) || entry.startsWith('.')) continue;
      const st = await fs.promises.stat(path.join(dir, entry)).catch(() => undefined);
      if (st) files.push({ name: entry.slice(0, -FORMAT_SUFFIX.length), bytes: st.size, usedAt: st.mtimeMs });
    }
    let total = files.reduce((sum, f) => sum + f.bytes, 0);
    for (const f of files.sort((a, b) => a.usedAt - b.usedAt)) {
      if (total <= this.opts.maxBytes) break;
      if (f.name === keep) continue;
      await fs.promises.rm(path.join(dir, f.name + FORMAT_SUFFIX), { force: true });
      this.known.delete(f.name);
      total -= f.bytes;
    }
  }

  private scan(dir: string, builtin: boolean): void {
    let entries: string[];
    try {
      entries = fs.readdirSync(dir);
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.endsWith(FORMAT_SUFFIX) && !entry.startsWith('.')) this.add(dir, entry.slice(0, -FORMAT_SUFFIX.length), builtin);
    }
  }

  private add(dir: string, name: string, builtin: boolean): Entry {
    const entry: Entry = { ref: { name, dir, file: name + FORMAT_SUFFIX }, builtin, usedAt: Date.now() };
    if (!this.known.get(name)?.builtin) this.known.set(name, entry);
    return this.known.get(name)!;
  }
}
