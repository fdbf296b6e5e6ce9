/**
 * Dumps a preamble into a pdfTeX format with mylatexformat (texlive-latex-extra),
 * with the same engine, tree and sandbox as every job: the preamble is the
 * only file of an in-memory job folder and the format comes back as bytes,
 * for the service to store. A run with that format skips the preamble of its
 * document up to the line with MARKER.
 */
import { gunzipSync } from 'node:zlib';

import { prepareInstance, runInstance } from './pdftex-instance.js';
import { FORMAT_NAME, jobFiles } from './pdftex-run.js';

/** Ends the part of a document that a format holds (python/rst2/latex_format.py). */
export const MARKER = '\\csname endofdump\\endcsname';

export interface DumpJob {
  module: WebAssembly.Module;
  texDir: string;
  /** The preamble to dump, up to (not including) MARKER. */
  preamble: string;
  /** The format's name (its file is `<name>.fmt`). */
  name: string;
}

export interface DumpResult {
  /** The format, or null when the dump failed (see `log`). */
  format: Uint8Array | null;
  log: string;
}

export async function dumpFormat(job: DumpJob): Promise<DumpResult> {
  if (!/^[\w-]+$/.test(job.name)) throw new Error(`dumpFormat: bad format name ${JSON.stringify(job.name)}`);
  const instance = await prepareInstance(job);
  const out = runInstance(instance, {
    files: jobFiles({ 'preamble.tex': `${job.preamble}${MARKER}\n` }),
    // "&pdflatex": start from the LaTeX format; mylatexformat.ltx then reads
    // preamble.tex (the next name on the line) and dumps at MARKER.
    args: ['-ini', '-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', `-progname=${FORMAT_NAME}`,
      `-jobname=${job.name}`, `&${FORMAT_NAME}`, 'mylatexformat.ltx', 'preamble.tex'],
  });
  const logBytes = out.files.get(`${job.name}.log`);
  const log = logBytes ? new TextDecoder('utf-8').decode(logBytes) : out.output;
  const format = out.files.get(`${job.name}.fmt`);
  return { format: out.exitCode === 0 && format && format.length > 0 ? uncompressed(format) : null, log };
}

/**
 * pdfTeX writes formats gzip-compressed and reads them through zlib, which
 * passes uncompressed data through as it is. Inflating a 7 MB format was most
 * of a short document's run in WebAssembly (about 60 ms); kept uncompressed
 * (about 19 MB) it is read in a few.
 */
export function uncompressed(format: Uint8Array): Uint8Array {
  return format[0] === 0x1f && format[1] === 0x8b ? new Uint8Array(gunzipSync(format)) : format;
}
