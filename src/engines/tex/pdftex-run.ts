/**
 * Runs one TeX job in the current thread (pdfTeX, or LuaHBTeX for the
 * scripts that need shaping): the main .tex file typeset,
 * again only when the document needs it (rerun.ts), each run in a fresh
 * engine instance (pdftex-instance.ts) with the job folder carried over.
 */
import path from 'node:path';

import {
  ENGINE_FILES, envKey, mountedFormat, prepareInstance, runInstance,
  type CacheFiles, type FileMap, type RunOutcome, type TexEngineName, type TexInstance,
} from './pdftex-instance.js';
import { RERUN_EXTENSIONS, readsAuxiliaryFiles, rerunState, wantsAnotherRun } from './rerun.js';

export { GLUE_FILE, WASM_FILE, loadCacheFiles, loadTexModule, type TexEngineName } from './pdftex-instance.js';

export const FORMAT_NAME = ENGINE_FILES.pdftex.format;

export interface PdftexJob {
  /** pdftex (the default) or luahbtex, whose format is lualatex.fmt. */
  engine?: TexEngineName;
  /** Compiled .wasm of the engine (see loadTexModule); compiled once, shared by instances. */
  module: WebAssembly.Module;
  /** LuaHBTeX: luaotfload's caches (loadCacheFiles). */
  cache?: CacheFiles;
  /** Directory with pdftex.cjs, texmf.cnf, texmf/ and pdflatex.fmt (wasm/tex). */
  texDir: string;
  /** Files of the job folder, by relative path (no absolute paths, no `..`). */
  files: Record<string, string | Uint8Array>;
  /** The main .tex file, a key of `files`. */
  main: string;
  /** Most runs (>= 1). */
  maxRuns: number;
  /** A preamble format (see format-store.ts) instead of pdflatex.fmt: its folder and file name. */
  format?: { dir: string; file: string };
  /** Extra environment of the engine (e.g. SOURCE_DATE_EPOCH for reproducible PDFs). */
  env?: Readonly<Record<string, string>>;
  /** An instance made ahead (prepareInstance, same texDir and env) for the first run. */
  instance?: TexInstance;
  /** Called as pdfTeX writes to its terminal and when a run starts: signs of life for a stall watch. */
  onProgress?: () => void;
  /** An instance already past the start of `main` (prestart.ts), for the first run when `main` begins with its prefix. */
  prestarted?: PrestartedRun;
}

/**
 * An engine that has run `prefix` (the first lines of a document) with the
 * arguments `engineArgs` gives for its main file, and waits for the rest.
 * `run` hands it the job folder; it answers undefined when the instance
 * could not take the job (it failed or was dropped before), which then runs
 * in a fresh instance.
 */
export interface PrestartedRun {
  readonly engine: TexEngineName;
  readonly main: string;
  readonly prefix: string;
  run(files: FileMap): Promise<RunOutcome | undefined>;
}

export interface PdftexResult {
  /** The PDF of the last run, or null when pdfTeX failed (exitCode != 0) or wrote none. */
  pdf: Uint8Array | null;
  /** The TeX log (<jobname>.log) of the last run; the terminal output if there is no log file. */
  log: string;
  /** Number of runs made. */
  runs: number;
  /** Exit code of the last run: 0 ok, 1 TeX error, -1 engine crash (see `output`). */
  exitCode: number;
  /** What the engine printed on its terminal (stdout and stderr) in the last run. */
  output: string;
  /** The job folder after the last run (.aux, .toc, ...: the input of a further run). */
  files: ReadonlyMap<string, Uint8Array>;
  /** The first run was `job.prestarted`'s. */
  prestarted: boolean;
}

export function checkedJobPath(name: string): string {
  const n = name.replace(/\\/g, '/');
  if (!n || n.startsWith('/') || n.split('/').some((seg) => seg === '..' || seg === '.' || seg === '') || n.includes('\0')) {
    throw new Error(`runPdftex: bad job file name ${JSON.stringify(name)}`);
  }
  return n;
}

export function jobFiles(files: Record<string, string | Uint8Array>): FileMap {
  const enc = new TextEncoder();
  const map: FileMap = new Map();
  for (const [name, data] of Object.entries(files)) {
    map.set(checkedJobPath(name), typeof data === 'string' ? enc.encode(data) : data);
  }
  return map;
}

/**
 * What the next run starts from: the job's own files as given, and only the
 * files LaTeX carries between runs. Anything else a run wrote (a .tex or a
 * .sty of the same name as one it reads) is dropped, so a document that
 * gets hold of \openout cannot hand the next run code of its own.
 */
function nextRunFiles(inputs: FileMap, produced: FileMap): FileMap {
  const next = new Map(inputs);
  for (const [name, data] of produced) {
    if (!inputs.has(name) && RERUN_EXTENSIONS.has(path.posix.extname(name))) next.set(name, data);
  }
  return next;
}

// LuaTeX's socket library stays unloaded (there is no network in the engine anyway).
const ENGINE_ARGS: Readonly<Record<TexEngineName, readonly string[]>> = { pdftex: [], luahbtex: ['--nosocket'] };

/**
 * The engine's command line for `main`. A pre-started instance
 * (prestart.ts) runs in scrollmode, the mode nearest nonstopmode in which
 * TeX still reads its terminal, and switches to nonstopmode with the line
 * that brings the rest of the document.
 */
export function engineArgs(engine: TexEngineName, main: string, fmt: string = ENGINE_FILES[engine].format, interaction: 'nonstopmode' | 'scrollmode' = 'nonstopmode'): string[] {
  const jobname = path.posix.basename(main).replace(/\.tex$/i, '');
  return [`-interaction=${interaction}`, '-halt-on-error', '-no-shell-escape', ...ENGINE_ARGS[engine],
    `-progname=${ENGINE_FILES[engine].format}`, `-fmt=${fmt}`, `-jobname=${jobname}`, main];
}

/** The instance handed in when it fits the job, else a new one. */
async function firstInstance(job: PdftexJob): Promise<TexInstance> {
  const given = job.instance;
  if (given && !given.used && given.engine === (job.engine ?? 'pdftex') && given.texDir === job.texDir && given.env === envKey(job.env)) return given;
  return prepareInstance(job);
}

/**
 * Typesets `main` with pdfTeX and the pdflatex format (or `job.format`),
 * re-running while rerun.ts says the document needs it, at most
 * `maxRuns` times.
 */
export async function runPdftex(job: PdftexJob): Promise<PdftexResult> {
  const main = checkedJobPath(job.main);
  const jobname = path.posix.basename(main).replace(/\.tex$/i, '');
  const inputs = jobFiles(job.files);
  const sourceBytes = inputs.get(main);
  if (!sourceBytes) throw new Error(`runPdftex: main file ${main} is not among the files`);
  const source = new TextDecoder('utf-8').decode(sourceBytes);
  const maxRuns = Math.max(1, Math.floor(job.maxRuns));
  const engine = job.engine ?? 'pdftex';
  const fmt = job.format ? mountedFormat(job.format.file) : ENGINE_FILES[engine].format;
  const args = engineArgs(engine, main, fmt);
  const prestarted = job.prestarted;
  const fitsPrestarted = prestarted !== undefined && !job.format && prestarted.engine === engine && prestarted.main === main && source.startsWith(prestarted.prefix);
  // A document that reads back what its first run writes gets a second run
  // anyway, so the first need not write a PDF: -draftmode makes the same
  // .aux/.toc without embedding fonts or compressing pages (about a tenth
  // of the two runs' time; the final PDF is byte for byte the same).
  const draftFirst = maxRuns > 1 && readsAuxiliaryFiles(source);

  let files: FileMap = inputs;
  let runs = 0;
  let prestartedRun = false;
  let last: RunOutcome = { exitCode: -1, files, output: '' };
  while (runs < maxRuns) {
    const before = rerunState(files);
    // A pre-started first run is not a draft: its command line was fixed
    // before the job came. It writes the same .aux, .toc and .out.
    const early = runs === 0 && fitsPrestarted ? await prestarted.run(nextRunFiles(inputs, files)) : undefined;
    const draft = runs === 0 && draftFirst && !early;
    job.onProgress?.();
    if (early) {
      last = early;
      prestartedRun = true;
    } else {
      const instance = runs === 0 ? await firstInstance(job) : await prepareInstance(job);
      last = runInstance(instance, {
        files: nextRunFiles(inputs, files),
        args: draft ? ['-draftmode', ...args] : args,
        formatDir: job.format?.dir,
        onProgress: job.onProgress,
      });
    }
    runs++;
    files = last.files;
    if (last.exitCode !== 0) break;
    if (draft) continue;
    const log = new TextDecoder('utf-8').decode(files.get(`${jobname}.log`) ?? new Uint8Array());
    if (!wantsAnotherRun({ runs, source, log, before, after: rerunState(files) })) break;
  }

  const logBytes = files.get(`${jobname}.log`);
  const log = logBytes ? new TextDecoder('utf-8').decode(logBytes) : last.output;
  const pdfBytes = files.get(`${jobname}.pdf`);
  const pdf = last.exitCode === 0 && pdfBytes && pdfBytes.length > 0 ? pdfBytes : null;
  return { pdf, log, runs, exitCode: last.exitCode, output: last.output, files, prestarted: prestartedRun };
}
