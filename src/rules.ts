/**
 * The rule table (python/rst2/rules.json, the one the checker names its
 * problems by), read once, and the choice of rules a request or a project
 * makes: `select`, `ignore` and `extend-select`, as ruff takes them. A rule
 * is named by its code, by a prefix ending at a hyphen (`title` is every
 * `title-…` rule) or by `ALL`.
 */
import fs from 'node:fs';
import path from 'node:path';

import { Code, ServiceError } from './errors.js';
import { paths } from './paths.js';

/** What a rule reads (rules.json's comment): docutils' messages, rst2's suppression comments, or the source itself. */
export type RuleFamily = 'docutils' | 'rst2' | 'code' | 'markup' | 'whitespace';

export interface RuleInfo {
  code: string;
  family: RuleFamily;
  summary: string;
  /** On when no choice is made (over HTTP, only in the families of API_FAMILIES). */
  default: boolean;
  /** The code of the fix it offers, if any (docs/fixes.rst). */
  fix: string | null;
}

interface RuleFile {
  rules: (RuleInfo & { patterns: string[] })[];
}

function load(): readonly RuleInfo[] {
  const file = JSON.parse(fs.readFileSync(path.join(paths.pythonSources, 'rst2', 'rules.json'), 'utf8')) as RuleFile;
  return Object.freeze(file.rules.map(({ code, family, summary, default: on, fix }) => Object.freeze({ code, family, summary, default: on, fix })));
}

export const RULES: readonly RuleInfo[] = load();

const CODES = RULES.map((r) => r.code);

/**
 * The families whose default rules a request that chooses no rules gets
 * (the engine's own default, python/rst2/rules.py API_DEFAULTS): the answer
 * `check` gave before the rules that read the source existed.
 */
export const API_FAMILIES: ReadonlySet<RuleFamily> = new Set(['docutils', 'rst2']);

/** Every rule on by default, of every family: where the command line, the language server and the editor page start. */
export const DEFAULT_RULES: readonly string[] = Object.freeze(RULES.filter((r) => r.default).map((r) => r.code));

/** A code, the codes a prefix ending at a hyphen starts, or else a family's (`docutils` stays the prefix it always was). */
function byCodeOrPrefix(name: string): string[] {
  const matched = CODES.filter((code) => code === name || code.startsWith(`${name}-`));
  return matched.length > 0 ? matched : RULES.filter((r) => r.family === name).map((r) => r.code);
}

/** The codes a name stands for; an error naming it when it stands for none. */
export function expandRule(name: string): string[] {
  const trimmed = name.trim();
  const found =
    trimmed === 'ALL'
      ? CODES
      : trimmed === 'DEFAULT'
        ? [...DEFAULT_RULES]
        : byCodeOrPrefix(trimmed);
  if (found.length === 0) {
    const shown = trimmed.slice(0, 100);
    throw new ServiceError(Code.unknown_rule, `Unknown rule ${JSON.stringify(shown)}: not a rule, a prefix of rules ending at a hyphen, a family, ALL or DEFAULT (docs/rules.rst lists them).`, {
      details: { rule: shown },
    });
  }
  return found;
}

export interface RuleChoice {
  select?: readonly string[] | undefined;
  ignore?: readonly string[] | undefined;
  extendSelect?: readonly string[] | undefined;
}

/**
 * The codes a request reports: `select` (or the rules a request gets by
 * default, those of API_FAMILIES) plus `extendSelect`, less `ignore`;
 * undefined when nothing was chosen, so that the engine's defaults apply
 * and a request without a choice keeps the answer (and the render key) it
 * always had.
 */
export function enabledRules(choice: RuleChoice): string[] | undefined {
  const { select, ignore, extendSelect } = choice;
  if (select === undefined && ignore === undefined && extendSelect === undefined) return undefined;
  const on = new Set(select === undefined ? RULES.filter((r) => r.default && API_FAMILIES.has(r.family)).map((r) => r.code) : select.flatMap(expandRule));
  for (const code of (extendSelect ?? []).flatMap(expandRule)) on.add(code);
  for (const code of (ignore ?? []).flatMap(expandRule)) on.delete(code);
  return CODES.filter((code) => on.has(code));
}

/** A comma- or space-separated list of rule names as a parameter or flag gives it. */
export function ruleList(value: string): string[] {
  return value.split(/[\s,]+/).filter((name) => name !== '');
}
