/**
 * Names of preamble formats. A format is only good for the exact engine,
 * texmf tree and pdflatex.fmt it was dumped with and for the exact preamble
 * text, so its name hashes both: the build's key (manifest.json, which
 * scripts/build-tex.sh derives from every input of the build) and the
 * preamble. A changed style, class or engine thus never finds an old format.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

export const FORMAT_SUFFIX = '.fmt';
/** Formats made at `npm install` for the default class and style (scripts/setup.mjs). */
export const BUILTIN_FORMATS_DIR = 'formats';

export function engineKey(texDir: string): string {
  const manifest = JSON.parse(fs.readFileSync(path.join(texDir, 'manifest.json'), 'utf8')) as { key?: unknown };
  if (typeof manifest.key !== 'string' || manifest.key === '') throw new Error(`no build key in ${texDir}/manifest.json`);
  return manifest.key;
}

export function formatName(key: string, preamble: string): string {
  return `rst2-${createHash('sha256').update(`${key}\n${preamble}`).digest('hex').slice(0, 24)}`;
}
