/**
 * What the engine is asked with for one file: its dialect, and its
 * project's choices (the rules, the names declared in the config and by its
 * Sphinx conf.py), each list only when non-empty so that a file without a
 * project is checked exactly as it always was. The command line and the
 * language server both ask here.
 */
import { DEFAULT_DIALECT, type Dialect } from '../dialects.js';
import type { ProjectChoice } from '../engines/python/engine.js';
import { stackRules, type RuleLayer } from './rule-layers.js';
import type { FileSettings } from './settings.js';
import type { SphinxNames } from './sphinx-conf.js';

export interface FileChoice {
  dialect: Dialect;
  project: ProjectChoice;
}

/**
 * `dialect`: one the caller was told (a command-line flag, an editor's
 * setting), which wins; else the config's for the file; else `sphinx` in a
 * Sphinx project (a conf.py means one); else docutils. `sphinx`: the names
 * of the file's conf.py, if it has one. `rules`: the caller's own layer of
 * choices, on top of the config's; `lineLength`, the caller's, over the config's.
 */
export function fileChoice(settings: FileSettings, sphinx: SphinxNames | undefined, dialect?: Dialect, rules?: RuleLayer, lineLength?: number): FileChoice {
  const unique = (...lists: (readonly string[] | undefined)[]): string[] => [...new Set(lists.flatMap((l) => l ?? []))];
  const project: ProjectChoice = { rules: stackRules(rules === undefined ? settings.ruleLayers : [...settings.ruleLayers, rules]) };
  const length = lineLength ?? settings.lineLength;
  if (length !== undefined) project.line_length = length;
  const names = settings.names;
  const lists = {
    roles: unique(names.roles, sphinx?.roles),
    directives: unique(names.directives, sphinx?.directives),
    literal_directives: unique(names.literalDirectives),
    substitutions: unique(names.substitutions, sphinx?.substitutions),
  };
  for (const [key, list] of Object.entries(lists) as [keyof typeof lists, string[]][]) if (list.length > 0) project[key] = list;
  return { dialect: dialect ?? settings.dialect ?? (sphinx !== undefined ? 'sphinx' : DEFAULT_DIALECT), project };
}
