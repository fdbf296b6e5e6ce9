/** What the Python engine's worker is told and what it answers. */
export type PythonOperation = 'html' | 'latex' | 'check';

export interface PythonJob {
  op: PythonOperation;
  source: string;
  options: Record<string, string | boolean>;
}

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

export interface HtmlResult {
  html: string;
  title: string;
  /** What the final safety pass (python/rst2/sanitize.py) took out of the page; normally empty. */
  removed: string[];
}
export interface LatexResult {
  latex: string;
  title: string;
  /** The part of `latex` a format can hold (python/rst2/latex_format.py); null: typeset it plainly. */
  format_preamble: string | null;
  /** Characters no shipped font has, shown as boxed code points (python/rst2/scripts.py). */
  replaced_characters: number;
  /** The script set beyond Latin the document uses (cyrillic, greek, cjk-gbsn, emoji, placeholders, ...). */
  scripts: string[];
  /** The images in document order: image N of the LaTeX is entry N-1 (python/rst2/latex_images.py). */
  images: { uri: string; alt: string | null }[];
}
/** One problem `check` reports (docutils' system messages of level warning and above); the editor page reads the same type. */
export interface CheckItem { message: string; type: 'warning' | 'error' | 'severe'; line: number | null; context: string }
export interface CheckResult { messages: CheckItem[] }
