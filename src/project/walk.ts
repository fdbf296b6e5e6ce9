/**
 * The files `rst2 check PATH…` checks. A file named on the command line is
 * always checked, whatever its name or the config says. A folder is walked:
 * it gives the files ending in one of its config's `extensions` (`.rst`
 * unless configured) that its config's `include` lets through and its
 * `exclude` does not, skipping hidden files and folders, `_build`,
 * `node_modules` and whatever git ignores. Symbolic links to files are
 * followed; links to folders are not (a link loop would never end). A
 * folder or link found while walking that cannot be read (no permission, a
 * link to itself) is skipped with a warning: one such entry must not stop
 * the check of a whole tree. A path named on the command line that cannot
 * be read is an error.
 */
import fs from 'node:fs';
import path from 'node:path';

import { Code, ServiceError } from '../errors.js';
import { GitIgnore } from './gitignore.js';
import type { ProjectSettings } from './settings.js';

/** Folders that hold builds or dependencies, never sources. */
const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['_build', 'node_modules']);

export interface FoundFile {
  /** As it is shown: the path given, or the walked folder as given joined with the path under it. */
  shown: string;
  absolute: string;
}

function statOf(p: string): fs.Stats {
  try {
    return fs.statSync(p);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    throw new ServiceError(Code.unreadable, `cannot read ${p}: ${code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file or folder' : (err as Error).message}`);
  }
}

/** Told of each entry skipped because it could not be read. */
export type SkipWarning = (message: string) => void;

interface Walk {
  settings: ProjectSettings;
  git: GitIgnore;
  out: FoundFile[];
  warn: SkipWarning;
}

function walkFolder(shown: string, absolute: string, walk: Walk, top: boolean): void {
  const { settings, git, out } = walk;
  const rules = settings.walkRules(absolute);
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(absolute, { withFileTypes: true });
  } catch (err) {
    const message = `cannot read ${shown}: ${(err as Error).message}`;
    if (top) throw new ServiceError(Code.unreadable, message);
    walk.warn(`${message} (skipped)`);
    return;
  }
  for (const entry of entries) {
    if (entry.name.startsWith('.')) continue;
    const entryAbsolute = path.join(absolute, entry.name);
    const entryShown = path.join(shown, entry.name);
    let isDir = entry.isDirectory();
    let isFile = entry.isFile();
    if (entry.isSymbolicLink()) {
      // A link to a file counts as the file; a broken link, or one to a folder, as nothing.
      let target: fs.Stats | undefined;
      try {
        target = fs.statSync(entryAbsolute, { throwIfNoEntry: false });
      } catch (err) {
        // A link to itself (ELOOP) or into a folder we may not enter (EACCES).
        walk.warn(`cannot read ${entryShown}: ${(err as Error).message} (skipped)`);
      }
      isFile = target?.isFile() ?? false;
      isDir = false;
    }
    if (isDir) {
      if (SKIPPED_FOLDERS.has(entry.name) || git.ignores(entryAbsolute, true) || rules.excluded(entryAbsolute, true)) continue;
      walkFolder(entryShown, entryAbsolute, walk, false);
    } else if (isFile && rules.extensions.some((e) => entry.name.endsWith(e)) && entry.name.length > 0) {
      if (git.ignores(entryAbsolute, false) || rules.excluded(entryAbsolute, false) || !rules.included(entryAbsolute)) continue;
      out.push({ shown: entryShown, absolute: entryAbsolute });
    }
  }
}

/** The files the PATHs stand for, each once, sorted by the path shown; `-` stays as it is. */
export function findFiles(paths: readonly string[], settings: ProjectSettings, warn: SkipWarning = () => undefined): FoundFile[] {
  const found: FoundFile[] = [];
  for (const given of paths) {
    if (given === '-') {
      found.push({ shown: '-', absolute: '-' });
      continue;
    }
    const absolute = path.resolve(given);
    if (statOf(given).isDirectory()) walkFolder(path.normalize(given), absolute, { settings, git: new GitIgnore(absolute), out: found, warn }, true);
    else found.push({ shown: given, absolute });
  }
  const seen = new Set<string>();
  return found
    .filter((f) => {
      if (seen.has(f.absolute)) return false;
      seen.add(f.absolute);
      return true;
    })
    .sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
}
