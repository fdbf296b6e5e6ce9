/**
 * The formats for the default class and style, made at `npm install`
 * (scripts/setup.mjs) so that the commonest PDF never waits for one. They go
 * into <texDir>/formats, which format-store.ts reads, and are cached under
 * the set-up cache like every other built artefact: a second install copies
 * them.
 */
import fs from 'node:fs';
import path from 'node:path';

import { OPTIONS } from '../../options.js';
import type { LatexOptions, PythonEngine } from '../python/engine.js';
import { dumpFormat } from './format-dump.js';
import { BUILTIN_FORMATS_DIR, FORMAT_SUFFIX, engineKey, formatName } from './format-name.js';
import { loadTexModule } from './pdftex-instance.js';

const DEFAULT_CLASS_AND_STYLE = { documentClass: OPTIONS.LatexClass.default, style: OPTIONS.LatexStyle.default };

/**
 * The request defaults (class article, style default: options.ts), with and
 * without LaTeX's contents, and tagged (its preamble starts with
 * \DocumentMetadata: a format of its own).
 */
export const DEFAULT_FORMAT_OPTIONS: readonly LatexOptions[] = [
  { ...DEFAULT_CLASS_AND_STYLE, useLatexToc: false },
  { ...DEFAULT_CLASS_AND_STYLE, useLatexToc: true },
  { ...DEFAULT_CLASS_AND_STYLE, useLatexToc: false, tagged: true },
];

// Cached formats of earlier installs (other engines or styles) kept besides
// the current ones, so that switching between neighbouring checkouts is quick.
const KEEP_OTHERS = 4;

export interface DefaultFormatsOptions {
  python: PythonEngine;
  texDir: string;
  /** Cache folder of these formats (outside the checkout). */
  cacheDir: string;
  say: (line: string) => void;
}

export async function installDefaultFormats(opts: DefaultFormatsOptions): Promise<string[]> {
  const key = engineKey(opts.texDir);
  const preambles = new Map<string, string>();
  for (const options of DEFAULT_FORMAT_OPTIONS) {
    const preamble = (await opts.python.renderLatex('', options)).format_preamble;
    if (preamble === null) throw new Error(`python/rst2 wrote no format preamble for ${JSON.stringify(options)}`);
    preambles.set(formatName(key, preamble), preamble);
  }
  fs.mkdirSync(opts.cacheDir, { recursive: true });
  const into = path.join(opts.texDir, BUILTIN_FORMATS_DIR);
  fs.rmSync(into, { recursive: true, force: true });
  fs.mkdirSync(into);
  let module: WebAssembly.Module | undefined;
  for (const [name, preamble] of preambles) {
    const file = name + FORMAT_SUFFIX;
    const cached = path.join(opts.cacheDir, file);
    if (fs.existsSync(cached)) {
      opts.say(`${file} found in the cache`);
    } else {
      const started = Date.now();
      module ??= await loadTexModule(opts.texDir);
      const out = await dumpFormat({ module, texDir: opts.texDir, preamble, name });
      if (!out.format) throw new Error(`pdfTeX could not dump ${file}:\n${out.log.slice(-3000)}`);
      const tmp = `${cached}.${process.pid}.tmp`;
      fs.writeFileSync(tmp, out.format);
      fs.renameSync(tmp, cached);
      opts.say(`${file} made in ${Date.now() - started} ms (${out.format.length} bytes)`);
    }
    fs.copyFileSync(cached, path.join(into, file));
    fs.utimesSync(cached, new Date(), new Date());
  }
  pruneCache(opts.cacheDir, new Set(preambles.keys()));
  return [...preambles.keys()];
}

function pruneCache(dir: string, current: Set<string>): void {
  const others = fs.readdirSync(dir)
    .filter((f) => f.endsWith(FORMAT_SUFFIX) && !current.has(f.slice(0, -FORMAT_SUFFIX.length)))
    .map((f) => ({ f, at: fs.statSync(path.join(dir, f)).mtimeMs }))
    .sort((a, b) => b.at - a.at);
  for (const { f } of others.slice(KEEP_OTHERS)) fs.rmSync(path.join(dir, f), { force: true });
}
