/**
 * Finding and reading a project's configuration file, as ruff finds its
 * own: from a folder upward, the closest folder holding `.rst2.toml`,
 * `rst2.toml`, or a `pyproject.toml` with a `[tool.rst2]` table (in that
 * order within one folder) wins, and the search stops there: configs are
 * not merged. A pyproject.toml without `[tool.rst2]` is not a config.
 */
import fs from 'node:fs';
import path from 'node:path';

import { parse, TomlError } from 'smol-toml';

import { Code, ServiceError } from '../errors.js';
import { isTable, readKeys, type ProjectConfig } from './config-keys.js';

/** Within one folder, the first of these that applies is the config. */
export const CONFIG_NAMES = ['.rst2.toml', 'rst2.toml', 'pyproject.toml'] as const;

/** The file as the user should see it: relative to the current folder when under it. */
export function shownPath(file: string): string {
  const rel = path.relative(process.cwd(), file);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

function parseToml(file: string, text: string): Record<string, unknown> {
  try {
    return parse(text) as Record<string, unknown>;
  } catch (err) {
    const where = err instanceof TomlError ? `${shownPath(file)}:${err.line}:${err.column}` : shownPath(file);
    const reason = (err as Error).message.split('\n')[0];
    throw new ServiceError(Code.config_invalid, `${where}: not valid TOML: ${reason}`, { details: { file: shownPath(file), expected: 'TOML' } });
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') return undefined;
    throw new ServiceError(Code.config_invalid, `${shownPath(file)}: cannot read: ${(err as Error).message}`, { details: { file: shownPath(file) } });
  }
}

/** `[tool.rst2]` of a pyproject.toml, undefined when it has none. */
function pyprojectTable(file: string, text: string): Record<string, unknown> | undefined {
  // Most pyproject.toml files say nothing about rst2: a broken one of another tool's is not ours to refuse.
  if (!text.includes('rst2')) return undefined;
  const tool = parseToml(file, text).tool;
  if (!isTable(tool) || tool.rst2 === undefined) return undefined;
  if (!isTable(tool.rst2)) {
    throw new ServiceError(Code.config_invalid, `${shownPath(file)}: tool.rst2: expected a table`, { details: { file: shownPath(file), key: 'tool.rst2', expected: 'a table' } });
  }
  return tool.rst2;
}

/** The configuration in `file` (any name: `--config` may name one), or undefined for a pyproject.toml without `[tool.rst2]`. */
export function readConfigFile(file: string, mustExist = false): ProjectConfig | undefined {
  const absolute = path.resolve(file);
  const text = readText(absolute);
  if (text === undefined) {
    if (mustExist) throw new ServiceError(Code.config_invalid, `${file}: no such configuration file`, { details: { file } });
    return undefined;
  }
  const shown = shownPath(absolute);
  if (path.basename(absolute) === 'pyproject.toml') {
    const table = pyprojectTable(absolute, text);
    if (table === undefined) {
      if (mustExist) throw new ServiceError(Code.config_invalid, `${shown}: has no [tool.rst2] table`, { details: { file: shown, key: 'tool.rst2', expected: 'a table' } });
      return undefined;
    }
    return readKeys(table, absolute, { shown, prefix: 'tool.rst2.' }, path.dirname(absolute));
  }
  return readKeys(parseToml(absolute, text), absolute, { shown, prefix: '' }, path.dirname(absolute));
}

/** The config of `dir`'s own files, found from it upward; each folder's answer is remembered. */
export class ConfigFinder {
  private readonly byDir = new Map<string, ProjectConfig | undefined>();
  private readonly byFile = new Map<string, ProjectConfig | undefined>();

  find(dir: string): ProjectConfig | undefined {
    const absolute = path.resolve(dir);
    if (this.byDir.has(absolute)) return this.byDir.get(absolute);
    let found: ProjectConfig | undefined;
    for (const name of CONFIG_NAMES) {
      found = this.read(path.join(absolute, name));
      if (found !== undefined) break;
    }
    const parent = path.dirname(absolute);
    if (found === undefined && parent !== absolute) found = this.find(parent);
    this.byDir.set(absolute, found);
    return found;
  }

  private read(file: string): ProjectConfig | undefined {
    if (!this.byFile.has(file)) this.byFile.set(file, readConfigFile(file));
    return this.byFile.get(file);
  }
}
