/**
 * Whether a pdfTeX job needs another run. The first run of a document
 * writes its .aux (labels), .toc and the like; only a document that reads
 * them back (a table of contents, references, citations, tables whose
 * column widths longtable keeps in the .aux) or whose log asks for it
 * needs a second run. bookmark writes the PDF outline in the first run, so
 * the bookmarks alone never need one. Later runs go on only while those
 * files still change.
 */
import path from 'node:path';

import type { FileMap } from './pdftex-instance.js';

/** The files LaTeX carries from one run to the next. */
export const RERUN_EXTENSIONS: ReadonlySet<string> = new Set(['.aux', '.toc', '.lof', '.lot', '.out']);

/** The contents that decide whether another run is needed; trivial files count as absent. */
export type RerunState = Map<string, string>;

export function rerunState(files: FileMap): RerunState {
  const state: RerunState = new Map();
  const dec = new TextDecoder('latin1');
  for (const [name, data] of files) {
    if (!RERUN_EXTENSIONS.has(path.posix.extname(name))) continue;
    let text = dec.decode(data);
    if (name.endsWith('.aux')) {
      text = text.split('\n').filter((l) => !/^\\relax\s*$|^\\gdef \\@abspage@last\{\d+\}\s*$/.test(l)).join('\n');
    }
    if (text.trim() !== '') state.set(name, text);
  }
  return state;
}

function sameState(a: RerunState, b: RerunState): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

// What in a LaTeX source reads back what an earlier run wrote: references
// to labels (docutils writes internal links as \hyperref[label]{...}),
// citations, LaTeX's lists of contents, figures and tables.
const READS_AUX = /\\(?:(?:ref|pageref|autoref|nameref|eqref|cite|nocite|tableofcontents|listoffigures|listoftables|faketableofcontents|minitoc|bibliography)(?![A-Za-z@])|hyperref\s*\[)/;

/**
 * LaTeX's "Label(s) may have changed" is written whenever a run defines
 * labels the previous one did not (so after every first run of a document
 * with sections); it matters only when something reads the labels, which
 * READS_AUX decides.
 */
const LABELS_CHANGED = 'Label(s) may have changed. Rerun to get cross-references right.';
// LaTeX's, longtable's, rerunfilecheck's and hyperref's requests (not the
// word alone: the list of loaded files names rerunfilecheck's "Rerun checks").
const LOG_ASKS = /Rerun to get|Rerun LaTeX|There were undefined (?:references|citations)|Table widths have changed/;

export function logAsksForRerun(log: string): boolean {
  // TeX breaks log lines at 79 characters, also inside words.
  const flat = log.replace(/\r?\n/g, '').split(LABELS_CHANGED).join('');
  return LOG_ASKS.test(flat);
}

export function readsAuxiliaryFiles(source: string): boolean {
  return READS_AUX.test(source);
}

export interface RunFacts {
  /** Runs made so far (>= 1). */
  runs: number;
  /** The main .tex file. */
  source: string;
  /** The TeX log of the last run. */
  log: string;
  before: RerunState;
  after: RerunState;
}

export function wantsAnotherRun(f: RunFacts): boolean {
  const changed = !sameState(f.before, f.after);
  if (f.runs === 1) return logAsksForRerun(f.log) || (changed && readsAuxiliaryFiles(f.source));
  return changed;
}
