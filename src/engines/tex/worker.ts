/**
 * A TeX worker: each job gets fresh engine instances (no state carried
 * between documents) made from the module the parent compiled once. The
 * pdfTeX instance for the next job's first run is made while the worker
 * waits, so a job does not pay for it. LuaHBTeX, for the documents whose
 * scripts pdfTeX cannot set, gets its instances when a job asks: a waiting
 * one would hold 256 MiB in every worker for the few documents that need it.
 * Only once this worker has had such a job is one pre-started with that
 * job's preamble (prestart.ts), for the next job of that kind, and dropped
 * when none comes for RST2_LUATEX_SPARE_IDLE_MS.
 */
import v8 from 'node:v8';
import vm from 'node:vm';
import { parentPort, workerData } from 'node:worker_threads';

import { Code } from '../../errors.js';
import { findActiveContent, unsafePdf } from '../../pdf/safety.js';
import type { JobFailure, WorkerMessage } from '../worker-messages.js';
import type { FormatRef } from './format-store.js';
import { relevantLogLines } from './log-lines.js';
import { lostCharacters, type LostCharacters } from './lost-characters.js';
import { prepareInstance, type CacheFiles, type TexInstance } from './pdftex-instance.js';
import { loadCacheFiles, runPdftex, type PdftexResult, type TexEngineName } from './pdftex-run.js';
import { Spare, preloadFor, prestartPrefix } from './prestart.js';

interface TexWorkerData {
  texDir: string;
  module: WebAssembly.Module;
  /** LuaHBTeX's compiled module, when the tree has the engine. */
  luaModule?: WebAssembly.Module;
  maxRuns: number;
  /** Moved on every bit of pdfTeX output; the pool ends a job that leaves it still (see RST2_PDF_STALL_MS). */
  progress: Int32Array;
  /** How long a pre-started LuaHBTeX instance may wait for a job; 0: none is made. */
  luaSpareIdleMs: number;
}

/** A job as the engine sends it. */
export interface TexJob {
  latex: string;
  /** pdftex when absent. */
  engine?: TexEngineName;
  /** A preamble format `latex` fits (its preamble ends where the format's does). */
  format?: FormatRef;
  /** Files next to document.tex (images, `rst2img-N.<ext>`): in the engine's memory only, gone with it. */
  files?: Readonly<Record<string, Uint8Array>>;
}

/** What a job answers: the PDF, and whether its format had to be left out. */
export interface TexReply {
  pdf: ArrayBuffer;
  runs: number;
  formatBroken: boolean;
  /** Characters the fonts lacked (lost-characters.ts), from the last run's log. */
  lost: LostCharacters;
  /** The first run was a pre-started instance's. */
  prestarted: boolean;
}

const data = workerData as TexWorkerData;
const port = parentPort!;
const onProgress = (): void => {
  Atomics.add(data.progress, 0, 1);
};

let spare: Promise<TexInstance> | undefined;

function makeSpare(): void {
  spare ??= prepareInstance({ module: data.module, texDir: data.texDir });
  // Unhandled here; takeInstance sees the failure and makes another.
  spare.catch(() => {});
}

async function takeInstance(): Promise<TexInstance> {
  const made = spare;
  spare = undefined;
  if (made) {
    try {
      return await made;
    } catch { /* make one now, reporting its failure if it fails again */ }
  }
  return prepareInstance({ module: data.module, texDir: data.texDir });
}

// pdfTeX names the format when it cannot load one ("I can't find the format
// file", "Fatal format file error; I'm stymied", a format of another engine),
// and stops before it reads the document or opens its log; so a document
// cannot make its format look broken by printing those words.
const FORMAT_FAILURE = /format file|stymied/i;
const formatFailed = (result: PdftexResult): boolean =>
  result.exitCode !== 0 && !result.files.has('document.log') && FORMAT_FAILURE.test(result.output);

let luaCache: Promise<CacheFiles> | undefined;

const MAIN = 'document.tex';
// At most one, with the prefix of the last LuaHBTeX job that had one.
let luaSpare: { spare: Spare; timer: NodeJS.Timeout } | undefined;

function dropLuaSpare(): void {
  if (!luaSpare) return;
  clearTimeout(luaSpare.timer);
  void luaSpare.spare.drop();
  luaSpare = undefined;
}

/** The spare for this LaTeX, taken (it serves once), or undefined. */
function takeLuaSpare(latex: string): Spare | undefined {
  const held = luaSpare;
  if (!held) return undefined;
  if (!held.spare.usable || !latex.startsWith(held.spare.prefix)) {
    // Another preamble: dropped now, not after this job, so that it does
    // not run its preamble and preload beside this job's cold run.
    dropLuaSpare();
    return undefined;
  }
  clearTimeout(held.timer);
  luaSpare = undefined;
  return held.spare;
}

function preStartLua(latex: string, cache: CacheFiles): void {
  const prefix = data.luaSpareIdleMs > 0 && data.luaModule ? prestartPrefix(latex) : undefined;
  if (luaSpare?.spare.usable && luaSpare.spare.prefix === prefix) return;
  dropLuaSpare();
  if (!prefix || !data.luaModule) return;
  const spare = new Spare({ module: data.luaModule, cache, texDir: data.texDir, main: MAIN, prefix, preload: preloadFor(prefix), progress: data.progress });
  const timer = setTimeout(dropLuaSpare, data.luaSpareIdleMs);
  luaSpare = { spare, timer };
}

async function typeset(job: TexJob, format: FormatRef | undefined): Promise<PdftexResult> {
  if (job.engine === 'luahbtex') {
    if (!data.luaModule) throw new Error('this TeX tree has no LuaHBTeX');
    // Read once per worker; a failed read is tried again by the next job, not kept.
    luaCache ??= loadCacheFiles(data.texDir, 'luahbtex').catch((err: unknown) => {
      luaCache = undefined;
      throw err;
    });
    const cache = await luaCache;
    const spare = takeLuaSpare(job.latex);
    try {
      return await runPdftex({
        engine: 'luahbtex',
        module: data.luaModule,
        cache,
        texDir: data.texDir,
        files: { ...job.files, [MAIN]: job.latex },
        main: MAIN,
        maxRuns: data.maxRuns,
        onProgress,
        ...(spare ? { prestarted: spare } : {}),
      });
    } finally {
      // Not taken after all (runPdftex's own checks): its thread must not wait for ever.
      if (spare?.usable) void spare.drop();
      // The next job's spare starts once this job's runs are over, not
      // beside them: on two cores a preamble run beside a job's own made
      // back-to-back documents slower than cold ones. A document that comes
      // while the spare is still in its preamble takes it there, so it
      // waits for less than a cold run's preamble.
      preStartLua(job.latex, cache);
    }
  }
  return runPdftex({
    module: data.module,
    texDir: data.texDir,
    files: { ...job.files, 'document.tex': job.latex },
    main: 'document.tex',
    maxRuns: data.maxRuns,
    instance: await takeInstance(),
    onProgress,
    ...(format ? { format: { dir: format.dir, file: format.file } } : {}),
  });
}

async function compile(job: TexJob): Promise<{ ok: true; pdf: Uint8Array; runs: number; formatBroken: boolean; lost: LostCharacters; prestarted: boolean } | { ok: false; error: JobFailure }> {
  let result = await typeset(job, job.format);
  let formatBroken = false;
  if (job.format && formatFailed(result)) {
    // The same file typesets with the plain format (its marker is \relax there).
    formatBroken = true;
    result = await typeset(job, undefined);
  }
  if (result.pdf && result.exitCode === 0) {
    // The safety check (src/pdf/safety.ts, step 4 of src/pdf/pipeline.ts):
    // here, in the worker, so every PDF is checked (HTTP, CLI, /health) and
    // off the main thread.
    const found = findActiveContent(result.pdf);
    if (found.length === 0) return { ok: true, pdf: result.pdf, runs: result.runs, formatBroken, lost: lostCharacters(result.log), prestarted: result.prestarted };
    return { ok: false, error: unsafePdf(found) };
  }
  const excerpt = relevantLogLines(result.log);
  return {
    ok: false,
    error: {
      code: Code.latex_failed,
      message: `LaTeX could not typeset this document${excerpt ? `:\n${excerpt}` : ` (${job.engine === 'luahbtex' ? 'LuaHBTeX' : 'pdfTeX'} exit code ${result.exitCode}).`}`,
      detail: result.log.slice(-4000),
    },
  };
}

async function warmUp(): Promise<void> {
  const out = await compile({ latex: '\\documentclass{article}\\begin{document}warm\\end{document}\n' });
  if (!out.ok) throw new Error(`warm-up compile failed: ${out.error.detail ?? out.error.message}`);
}

// Each run leaves a dead pdfTeX instance with a 128 MiB memory behind. An
// idle worker never collects it on its own, so every TeX worker would hold
// that much between jobs; a full collection after the reply (a few ms, off
// the request's path) gives it back, and only then is the next job's
// instance made.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;
function afterJob(): void {
  setImmediate(() => {
    collectGarbage();
    makeSpare();
  });
}

try {
  await warmUp();
  collectGarbage();
  makeSpare();
  port.on('message', async (msg: { type: 'job'; id: number; payload: TexJob }) => {
    let reply: WorkerMessage;
    try {
      const out = await compile(msg.payload);
      if (out.ok) {
        const value: TexReply = { pdf: out.pdf.slice().buffer, runs: out.runs, formatBroken: out.formatBroken, lost: out.lost, prestarted: out.prestarted };
        port.postMessage({ type: 'done', id: msg.id, ok: true, value } satisfies WorkerMessage, [value.pdf]);
        afterJob();
        return;
      }
      reply = { type: 'done', id: msg.id, ok: false, error: out.error };
    } catch (err) {
      reply = {
        type: 'done',
        id: msg.id,
        ok: false,
        error: { code: Code.pdf_failed, message: 'The PDF engine failed on this document.', detail: err instanceof Error ? err.stack : String(err) },
      };
    }
    port.postMessage(reply);
    afterJob();
  });
  port.postMessage({ type: 'ready' } satisfies WorkerMessage);
} catch (err) {
  port.postMessage({ type: 'failed', message: err instanceof Error ? err.message.slice(0, 4000) : String(err) } satisfies WorkerMessage);
}
