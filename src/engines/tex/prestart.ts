/**
 * Pre-started LuaHBTeX (issue 31, notes §6). LuaTeX cannot keep its Lua
 * state in a format, so a cold run pays Lua's start-up, luaotfload,
 * fontspec and babel before the first line of a document's own. A spare
 * instance runs those first lines, the prefix, ahead of the job, in a
 * thread of its own (prestart-worker.ts: the engine blocks the thread it
 * waits in, and the TeX worker must stay free for pdfTeX jobs), and then
 * waits for the rest.
 *
 * A spare serves only a job whose LaTeX begins with exactly its prefix, so
 * its run reads the same text as a cold one; anything else runs cold. The
 * prefix is the preamble up to and including docutils' hyperref block:
 * what follows (\hypersetup with the title and author, the primitive lock,
 * the body) belongs to the document, and what precedes depends only on the
 * options, the scripts and the constructs the document uses, so documents
 * of one kind share it.
 */
import { MessageChannel, Worker, type MessagePort } from 'node:worker_threads';

import type { CacheFiles, FileMap, RunOutcome } from './pdftex-instance.js';
import type { PrestartedRun } from './pdftex-run.js';

// docutils' hyperref block, 0.23's form and 0.19's (as python/rst2/latex_format.py's _LINKING).
const LINKING = /\n% hyperlinks:\n(?:\\ifthenelse\{\\isundefined\{\\hypersetup\}\}\{\n[^]*?\n\}\{\}|\\ifdefined\\hypersetup\n\\else\n[^]*?\n\\fi)\n/;

// Each family, shape and size a docutils document is likely to use, the
// likeliest first: body, the title (\LARGE), headings (\Large, \large
// bold), emphasis, literals, footnotes.
const SELECTS = [String.raw`\rmfamily`, String.raw`\LARGE`, String.raw`\Large\bfseries`, String.raw`\large\bfseries`,
  String.raw`\bfseries`, String.raw`\itshape`, String.raw`\ttfamily`, String.raw`\footnotesize`, String.raw`\small`,
  String.raw`\bfseries\itshape`, String.raw`\sffamily`, String.raw`\sffamily\bfseries`, String.raw`\large`, String.raw`\Large`];

/**
 * What a spare runs after the prefix, a line at a time, while no job has
 * come: boxes, thrown away, that select the fonts and sizes the documents
 * of that preamble use, in each language babel was given and in Latin, so
 * that the job finds them loaded (the most of a short document's run). A
 * job that comes sooner takes the spare at once; what was not loaded
 * loads as in a cold run. Only selects, no characters: a glyph set here
 * would join the fonts' subsets in the PDF. The PDF is then the cold run's
 * but for the fonts' resource names (/F<n>, LuaTeX's font numbers, which
 * follow the order fonts are loaded in).
 */
export function preloadFor(prefix: string): string[] {
  const languages = [...prefix.matchAll(/\\babelprovide\s*(?:\[[^\]]*\])?\s*\{([A-Za-z-]+)\}/g)].map((m) => m[1]!);
  // Font loading is global: each line's group keeps nothing else.
  return SELECTS.flatMap((select) => [
    ...languages.map((l) => `\\begingroup\\setbox0\\hbox{\\foreignlanguage{${l}}{\\normalfont${select}}}\\endgroup`),
    `\\begingroup\\setbox0\\hbox{\\normalfont${select}}\\endgroup`,
  ]);
}

/** The part of a LuaLaTeX document a spare can run ahead, or undefined when it has none. */
export function prestartPrefix(latex: string): string | undefined {
  const m = LINKING.exec(latex);
  if (!m) return undefined;
  const prefix = latex.slice(0, m.index + m[0].length);
  // The block must be in the preamble, with the document's own lines after it.
  return /\\begin\s*\{document\}/.test(prefix) ? undefined : prefix;
}

// Between the TeX worker and a spare's thread.
export interface PrestartData {
  module: WebAssembly.Module;
  cache: CacheFiles;
  texDir: string;
  env?: Readonly<Record<string, string>>;
  /** Lines TeX is given at its prompt after the prefix while no job has come (preloadFor). */
  preload?: readonly string[];
  /** The main file (document.tex); the prefix is its whole text until the job comes. */
  main: string;
  prefix: string;
  /** The TeX worker's progress counter (the pool's stall watch), moved only once the job runs. */
  progress: Int32Array;
  /** Element CONTROL_STATE: IDLE until the TeX worker posts a job (JOB) or drops the spare (QUIT). */
  control: Int32Array;
  /** Where the job comes from (receiveMessageOnPort: this thread is blocked when it comes). */
  jobs: MessagePort;
}

export const CONTROL_STATE = 0;
export const IDLE = 0;
export const JOB = 1;
export const QUIT = 2;

/** What the TeX worker sends through `jobs`. */
export interface PrestartJob {
  files: FileMap;
  /** The TeX line that gives the job its own date, or '' (see clockLine). */
  clock: string;
}

/**
 * LuaTeX fixes its clock when it starts: \time, \day, \month, \year, the
 * PDF's dates (expl3's \c_sys_timestamp_str, read from it at the start,
 * and LuaTeX's own /CreationDate and /ModDate when hyperref gives none).
 * A spare started minutes before its job would date the job's PDF then
 * (and tell its client when the worker's previous document was made). The
 * line the job starts with sets them all to `nowMs`, UTC as the engine's
 * own (the sandbox has no time zone). Not when SOURCE_DATE_EPOCH fixes the
 * dates: the spare's are then a cold run's already.
 */
export function clockLine(nowMs: number): string {
  const d = new Date(nowMs);
  const pad = (n: number): string => String(n).padStart(2, '0');
  const stamp = `D:${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}${pad(d.getUTCHours())}${pad(d.getUTCMinutes())}${pad(d.getUTCSeconds())}Z`;
  // Read at the prompt after the preamble: @ is not a letter there.
  const define = (name: string, value: string): string => `\\expandafter\\xdef\\csname ${name}\\endcsname{\\detokenize{${value}}}`;
  return `\\time=${d.getUTCHours() * 60 + d.getUTCMinutes()} \\day=${d.getUTCDate()} \\month=${d.getUTCMonth() + 1} \\year=${d.getUTCFullYear()} `
    + define('c_sys_timestamp_str', stamp) + define('@pdfcreationdate', stamp) + define('@pdfmoddate', stamp);
}

/** What this thread posts: 'waiting' when TeX waits for the job (the prefix and the preload run), then the outcome (none: the job never reached the engine). */
export type PrestartMessage =
  | { type: 'waiting' }
  | { type: 'done'; outcome?: RunOutcome };


export interface SpareOptions {
  module: WebAssembly.Module;
  cache: CacheFiles;
  texDir: string;
  main: string;
  prefix: string;
  /** The TeX worker's progress counter, moved by the job's run only. */
  progress: Int32Array;
  /** Extra environment of the engine, as a cold run's (runPdftex's `env`). */
  env?: Readonly<Record<string, string>>;
  /** Lines TeX runs after the prefix while no job has come: what warms the engine without changing the document's run (preloadFor). */
  preload?: readonly string[];
  /** The job's time, for its PDF's dates (clockLine); Date.now by default. */
  clock?: () => number;
}

/** One pre-started instance in its thread; used once, or dropped. */
export class Spare implements PrestartedRun {
  readonly engine = 'luahbtex' as const;
  readonly main: string;
  readonly prefix: string;
  private readonly worker: Worker;
  private readonly control = new Int32Array(new SharedArrayBuffer(4));
  private readonly jobs: MessageChannel;
  private taken = false;
  private ended = false;
  private waitingNow = false;
  private readonly done: Promise<RunOutcome | undefined>;
  /** Settled when TeX waits for the job, or the thread has ended. */
  readonly ready: Promise<void>;
  private markReady!: () => void;

  private readonly env: Readonly<Record<string, string>> | undefined;
  private readonly clock: () => number;

  constructor(opts: SpareOptions) {
    this.env = opts.env;
    this.clock = opts.clock ?? Date.now;
    this.main = opts.main;
    this.prefix = opts.prefix;
    this.jobs = new MessageChannel();
    const workerData: PrestartData = {
      module: opts.module, cache: opts.cache, texDir: opts.texDir, ...(opts.env ? { env: opts.env } : {}), ...(opts.preload?.length ? { preload: opts.preload } : {}), main: opts.main, prefix: opts.prefix, progress: opts.progress, control: this.control, jobs: this.jobs.port2,
    };
    this.worker = new Worker(new URL('./prestart-worker.js', import.meta.url), {
      workerData, transferList: [this.jobs.port2], stdout: false, stderr: false,
    });
    this.ready = new Promise((resolve) => {
      this.markReady = resolve;
    });
    this.done = new Promise((resolve) => {
      this.worker.on('message', (msg: PrestartMessage) => {
        if (msg.type === 'waiting') this.waitingNow = true;
        else {
          this.ended = true;
          resolve(msg.outcome);
        }
        this.markReady();
      });
      // A crash, or termination (drop, shutdown): the job, if any, runs cold.
      const gone = (): void => {
        this.ended = true;
        this.markReady();
        resolve(undefined);
      };
      this.worker.on('error', gone);
      this.worker.on('exit', gone);
    });
  }

  /** Whether TeX has run the prefix and waits for the job. */
  get waiting(): boolean {
    return this.waitingNow && !this.ended;
  }

  /** Still able to take a job (running its prefix, or waiting). */
  get usable(): boolean {
    return !this.taken && !this.ended;
  }

  run(files: FileMap): Promise<RunOutcome | undefined> {
    if (!this.usable) return Promise.resolve(undefined);
    this.taken = true;
    const clock = this.env?.['SOURCE_DATE_EPOCH'] === undefined ? clockLine(this.clock()) : '';
    this.jobs.port1.postMessage({ files, clock } satisfies PrestartJob);
    Atomics.store(this.control, CONTROL_STATE, JOB);
    Atomics.notify(this.control, CONTROL_STATE);
    return this.done.finally(() => this.close());
  }

  /** Ends the thread (and frees the instance's memory); a run in progress ends with it. */
  drop(): Promise<void> {
    if (!this.taken) {
      Atomics.store(this.control, CONTROL_STATE, QUIT);
      Atomics.notify(this.control, CONTROL_STATE);
    }
    this.taken = true;
    return this.close();
  }

  private async close(): Promise<void> {
    this.jobs.port1.close();
    await this.worker.terminate();
  }
}
