/**
 * What the Python engine's worker is told and what it answers. What crosses
 * to Python is the worker contract (python/rst2/worker.schema.json), whose
 * types are generated into contract.ts; this file names them for the rest of
 * the service and adds what stays on this side of the thread.
 */
import type { CheckItem, CheckResult, HtmlResult, Job, LatexResult, Operation } from './contract.js';

export type { CheckItem, CheckResult, HtmlResult, LatexResult };
export type PythonOperation = Operation;
export type PythonJob = Job;

export interface PythonWorkerData {
  bundlePath: string;
  pythonSources: string;
  stylesDir: string;
  /** A memory snapshot to boot from (snapshot.ts), or null for a plain boot. */
  snapshotPath: string | null;
  /** One Int32 that the pool sets to 2 (SIGINT) to stop a runaway render. */
  interrupt: SharedArrayBuffer;
  limits: RenderLimits | undefined;
}

/** What one render may build (python/rst2/limits.py). */
export interface RenderLimits {
  maxOutputBytes: number;
  maxNestingDepth: number;
}
