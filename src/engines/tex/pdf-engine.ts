import type { PoolStats } from '../worker-pool.js';
import type { TexEngineName } from './pdftex-instance.js';

/** Counts since start, for /metrics. */
export interface TypesetStats {
  /** Jobs that started from a preamble format. */
  withFormat: number;
  /** Jobs that started from the plain pdflatex format. */
  plain: number;
  /** pdfTeX runs of all successful jobs (one per job when nothing is read back). */
  runs: number;
  /** Formats made at run time. */
  formatsMade: number;
  /** LuaHBTeX jobs whose first run was a pre-started instance's (prestart.ts). */
  prestarted: number;
}

export interface Typeset {
  pdf: Buffer;
  lostCharacters: number;
}

/** What the PDF pipeline needs from a TeX engine: LaTeX source in, PDF bytes out. */
export interface PdfEngine {
  /** False when no TeX engine is installed (PDF requests then answer 503). */
  readonly available: boolean;
  start(): Promise<void>;
  /**
   * `formatPreamble`: the part of `latex` before its format marker, when
   * python/rst2 wrote it so (LatexResult.formatPreamble). `files`: more
   * files for the job folder, next to the .tex (the document's images),
   * kept in memory only. `engine`: pdftex, or luahbtex for the scripts
   * that need shaping (LatexResult.engine).
   */
  compile(latex: string, formatPreamble?: string | null, files?: Readonly<Record<string, Uint8Array>>, engine?: TexEngineName): Promise<Buffer>;
  /** compile, and how many characters the fonts lacked (the engine dropped them: lost-characters.ts). */
  typeset(latex: string, formatPreamble?: string | null, files?: Readonly<Record<string, Uint8Array>>, engine?: TexEngineName): Promise<Typeset>;
  /** Undefined when there is no pool (no TeX engine installed). */
  stats(): PoolStats | undefined;
  typesetStats(): TypesetStats | undefined;
  /** Resolves when no format is being made (benchmarks and tests wait with it). */
  formatsIdle(): Promise<void>;
  close(): Promise<void>;
}
