/**
 * A file's Sphinx project: the closest `conf.py` from the file's folder
 * upward, no higher than the folder of the config that governs the file
 * (else the repository's root, else the filesystem's root). Each conf.py
 * is read once, by the engine, with Python's ast and never run; what it
 * could not read statically is told once, through `note`.
 */
import fs from 'node:fs';
import path from 'node:path';

import type { ConfResult } from '../engines/python/contract.js';
import { gitRoot } from './gitignore.js';

/** The conf.py of the Sphinx project `dir` belongs to, if any; `ceiling` is the highest folder looked in. */
export function findSphinxConf(dir: string, ceiling: string | undefined): string | undefined {
  let at = path.resolve(dir);
  const top = ceiling === undefined ? gitRoot(at) : path.resolve(ceiling);
  for (;;) {
    const candidate = path.join(at, 'conf.py');
    if (fs.statSync(candidate, { throwIfNoEntry: false })?.isFile()) return candidate;
    const parent = path.dirname(at);
    if (at === top || parent === at) return undefined;
    // A ceiling the file is not under (--config elsewhere) stops nothing: the filesystem's root does.
    at = parent;
  }
}

/** What a conf.py gives check: the names it declares, and whether there was one. */
export interface SphinxNames {
  roles: string[];
  directives: string[];
  substitutions: string[];
}

export type ReadConf = (source: string) => Promise<ConfResult>;

/** Reads each conf.py once, telling its notes once. */
export class SphinxConfs {
  private readonly read = new Map<string, Promise<SphinxNames>>();

  constructor(
    private readonly readConf: ReadConf,
    private readonly note: (file: string, line: number | null, message: string) => void,
  ) {}

  names(confPy: string): Promise<SphinxNames> {
    let names = this.read.get(confPy);
    if (names === undefined) {
      names = this.load(confPy);
      this.read.set(confPy, names);
    }
    return names;
  }

  private async load(confPy: string): Promise<SphinxNames> {
    let source: string;
    try {
      source = await fs.promises.readFile(confPy, 'utf8');
    } catch (err) {
      this.note(confPy, null, `cannot read it (${(err as Error).message}); its names are unknown to check.`);
      return { roles: [], directives: [], substitutions: [] };
    }
    const result = await this.readConf(source);
    for (const n of result.notes) this.note(confPy, n.line, n.message);
    return { roles: result.roles, directives: result.directives, substitutions: result.substitutions };
  }
}
