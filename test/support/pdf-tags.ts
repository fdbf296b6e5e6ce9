/**
 * What a tagged PDF's structure says, read by pikepdf (test/support/pdf-tags.py),
 * and what poppler's pdfinfo says of it ("Tagged: yes").
 *
 * pikepdf is Debian's python3-pikepdf, importable by Debian's own
 * /usr/bin/python3 (scripts/setup-pdftools.mjs installs it). Where it
 * cannot be imported, tests skip saying so; under CI they fail instead.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { projectRoot } from '../../src/paths.js';

// Beside this file's source (tsc copies no .py into dist/).
const SCRIPT = path.join(projectRoot, 'test', 'support', 'pdf-tags.py');
const PYTHON = '/usr/bin/python3';

export interface PdfTags {
  structTreeRoot: boolean;
  parentTree: boolean;
  roleMap: Record<string, string>;
  /** Each structure element's own role, counted. */
  roles: Record<string, number>;
  /** The same, each mapped through the RoleMap to a standard role. */
  standardRoles: Record<string, number>;
  alts: { role: string; alt: string }[];
  elementLangs: string[];
  /** Blocks inside a paragraph, by "P>P" or "P>Div", counted (a nesting PDF/UA-1 does not allow). */
  blocksInParagraphs: Record<string, number>;
  lang: string | null;
  marked: boolean;
  displayDocTitle: boolean;
  xmpTitle: string | null;
  /** The document information dictionary's /Title. */
  infoTitle: string | null;
  pdfuaPart: number | null;
  /** The pages' fonts, "Subtype BaseFont" without the subset prefix ("Type1 LMRoman10-Regular"). */
  fonts: string[];
}

function pikepdfMissing(): string | undefined {
  const run = spawnSync(PYTHON, ['-c', 'import pikepdf'], { encoding: 'utf8' });
  if (run.error) return `${PYTHON} cannot be run (${run.error.message})`;
  return run.status === 0 ? undefined : `${PYTHON} cannot import pikepdf (Debian: python3-pikepdf; scripts/setup-pdftools.mjs installs it)`;
}

/** For a before(): skips where pikepdf is missing; under CI, fails. */
export function requirePikepdf(ctx: Mocha.Context): void {
  const why = pikepdfMissing();
  if (why === undefined) return;
  if (process.env['CI']) throw new Error(why);
  console.log(`      skipped: ${why}`);
  ctx.skip();
}

function withFile<T>(pdf: ArrayBuffer | Uint8Array, read: (file: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-pdftags-'));
  try {
    const file = path.join(dir, 'doc.pdf');
    fs.writeFileSync(file, pdf instanceof Uint8Array ? pdf : new Uint8Array(pdf));
    return read(file);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

export function pdfTags(pdf: ArrayBuffer | Uint8Array): PdfTags {
  return withFile(pdf, (file) => {
    const run = spawnSync(PYTHON, [SCRIPT, file], { encoding: 'utf8' });
    if (run.error || run.status !== 0) throw new Error(`pdf-tags.py failed: ${run.error?.message ?? run.stderr}`);
    return JSON.parse(run.stdout) as PdfTags;
  });
}

/** pdfinfo's "Tagged:" line: true for "yes" (poppler-utils, as pdftotext). */
export function pdfinfoTagged(pdf: ArrayBuffer | Uint8Array): boolean {
  return withFile(pdf, (file) => {
    const run = spawnSync('pdfinfo', [file], { encoding: 'utf8' });
    if (run.error || run.status !== 0) throw new Error(`pdfinfo failed: ${run.error?.message ?? run.stderr}`);
    const line = /^Tagged:\s*(\w+)/m.exec(run.stdout);
    if (!line) throw new Error(`pdfinfo printed no Tagged line:\n${run.stdout}`);
    return line[1] === 'yes';
  });
}
