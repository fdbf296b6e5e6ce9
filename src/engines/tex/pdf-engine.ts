import type { PoolStats } from '../worker-pool.js';

/** What the PDF pipeline needs from a TeX engine: LaTeX source in, PDF bytes out. */
export interface PdfEngine {
  /** False when no TeX engine is installed (PDF requests then answer 503). */
  readonly available: boolean;
  start(): Promise<void>;
  /**
   * `formatPreamble`: the part of `latex` before its format marker, when
   * python/rst2 wrote it so (LatexResult.formatPreamble).
   */
  compile(latex: string, formatPreamble?: string | null): Promise<Buffer>;
  /** Undefined when there is no pool (no TeX engine installed). */
  stats(): PoolStats | undefined;
  close(): Promise<void>;
}
