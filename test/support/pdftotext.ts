/**
 * The text of a PDF as poppler's pdftotext reads it: in logical order for
 * right-to-left and shaped scripts (its bidi step, and the fonts'
 * ToUnicode), as search and copy in a viewer see it. pdf.js, which the
 * other PDF tests read with, gives the glyphs in drawing order.
 *
 * pdftotext comes from Debian's poppler-utils (scripts/setup-pdftools.mjs).
 * Where it is missing, tests skip saying so; under CI they fail instead.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const probe = spawnSync('pdftotext', ['-v'], { encoding: 'utf8' });
export const havePdftotext = !probe.error && probe.status === 0;

/** For a before(): skips where pdftotext is missing; under CI, fails. */
export function requirePdftotext(ctx: Mocha.Context): void {
  if (havePdftotext) return;
  const why = 'pdftotext is not installed (Debian: poppler-utils; scripts/setup-pdftools.mjs installs it)';
  if (process.env['CI']) throw new Error(why);
  console.log(`      skipped: ${why}`);
  ctx.skip();
}

/** The PDF's text, UTF-8; its temporary file is removed on every path. */
export function pdfText(pdf: ArrayBuffer | Uint8Array): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-pdftotext-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    fs.writeFileSync(file, pdf instanceof Uint8Array ? pdf : new Uint8Array(pdf));
    const run = spawnSync('pdftotext', ['-enc', 'UTF-8', file, '-'], { encoding: 'utf8' });
    if (run.error || run.status !== 0) throw new Error(`pdftotext failed: ${run.error?.message ?? run.stderr}`);
    return run.stdout;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
