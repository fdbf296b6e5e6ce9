/**
 * What git ignores, as a folder walk needs to know it: the .gitignore of
 * every folder from the repository's root down to the one being walked
 * (and the repository's .git/info/exclude), each read once, matched with
 * the `ignore` package. As in git, the deepest file that says anything
 * about a path decides, and an ignored folder is never entered, so a
 * file inside it cannot be brought back.
 */
import fs from 'node:fs';
import path from 'node:path';

import ignore, { type Ignore } from 'ignore';

import { relativeTo } from './globs.js';

interface Rules {
  /** The folder the patterns are relative to. */
  base: string;
  rules: Ignore;
}

function readRules(base: string, file: string): Rules | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return { base, rules: ignore().add(text) };
}

/** The repository's root: the closest folder from `dir` upward that holds `.git` (a folder, or a file for a worktree). */
export function gitRoot(dir: string): string | undefined {
  let at = path.resolve(dir);
  for (;;) {
    if (fs.existsSync(path.join(at, '.git'))) return at;
    const parent = path.dirname(at);
    if (parent === at) return undefined;
    at = parent;
  }
}

/** What git ignores under one walked folder: .gitignore files count from the repository's root down, or from the walked folder down outside a repository. */
export class GitIgnore {
  private readonly byDir = new Map<string, readonly Rules[]>();
  private readonly top: string;
  private readonly repository: string | undefined;

  constructor(walked: string) {
    this.repository = gitRoot(walked);
    this.top = this.repository ?? path.resolve(walked);
  }

  /** The rules in force in `dir`, shallowest first. */
  private rulesIn(dir: string): readonly Rules[] {
    const known = this.byDir.get(dir);
    if (known !== undefined) return known;
    let rules: readonly Rules[] = [];
    const parent = path.dirname(dir);
    const above = relativeTo(this.top, dir);
    if (dir === this.top || above.startsWith('..') || parent === dir) {
      const exclude = this.repository === undefined ? undefined : readRules(this.repository, path.join(this.repository, '.git', 'info', 'exclude'));
      if (exclude !== undefined && dir === this.top) rules = [exclude];
    } else {
      rules = this.rulesIn(parent);
    }
    const own = readRules(dir, path.join(dir, '.gitignore'));
    if (own !== undefined) rules = [...rules, own];
    this.byDir.set(dir, rules);
    return rules;
  }

  /** Whether git ignores `entry` (absolute), a folder when `isDir`. */
  ignores(entry: string, isDir: boolean): boolean {
    const rules = this.rulesIn(path.dirname(entry));
    for (let i = rules.length - 1; i >= 0; i--) {
      const { base, rules: ig } = rules[i]!;
      const rel = relativeTo(base, entry);
      if (rel === '' || rel.startsWith('..')) continue;
      const verdict = ig.test(isDir ? `${rel}/` : rel);
      if (verdict.ignored) return true;
      if (verdict.unignored) return false;
    }
    return false;
  }
}
