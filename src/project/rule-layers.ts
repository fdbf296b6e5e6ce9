/**
 * The rules a file is checked with, from layers of choices as ruff stacks
 * them: the config's top level, then each override that applies to the
 * file, then the command line. A layer with `select` starts afresh from
 * its selection; `extend-select` adds to what the layers before chose;
 * `ignore` takes away. So `--select title` on the command line replaces
 * the config's selection, and `--ignore unknown-role` trims it.
 */
import { DEFAULT_RULES, expandRule, RULES } from '../rules.js';

export interface RuleLayer {
  select?: readonly string[] | undefined;
  ignore?: readonly string[] | undefined;
  extendSelect?: readonly string[] | undefined;
}

const CODES = RULES.map((r) => r.code);

/**
 * The rule codes to report, in the table's order. With no layer choosing
 * anything, every rule on by default, of every family (the engine's own
 * default, a request's, leaves out the rules that read the source).
 */
export function stackRules(layers: readonly RuleLayer[]): string[] {
  const chosen = layers.filter((l) => l.select !== undefined || l.ignore !== undefined || l.extendSelect !== undefined);
  let on = new Set(DEFAULT_RULES);
  for (const layer of chosen) {
    if (layer.select !== undefined) on = new Set(layer.select.flatMap(expandRule));
    for (const code of (layer.extendSelect ?? []).flatMap(expandRule)) on.add(code);
    for (const code of (layer.ignore ?? []).flatMap(expandRule)) on.delete(code);
  }
  return CODES.filter((code) => on.has(code));
}
