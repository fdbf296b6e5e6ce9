/**
 * The rules a file is checked with, from layers of choices as ruff stacks
 * them: the config's top level, then each override that applies to the
 * file, then the command line. A layer with `select` starts afresh from
 * its selection; `extend-select` adds to what the layers before chose;
 * `ignore` takes away. So `--select title` on the command line replaces
 * the config's selection, and `--ignore unknown-role` trims it.
 */
import { expandRule, RULES } from '../rules.js';

export interface RuleLayer {
  select?: readonly string[] | undefined;
  ignore?: readonly string[] | undefined;
  extendSelect?: readonly string[] | undefined;
}

const CODES = RULES.map((r) => r.code);

/** The rule codes to report, in the table's order; undefined when no layer chose anything (the engine's defaults). */
export function stackRules(layers: readonly RuleLayer[]): string[] | undefined {
  const chosen = layers.filter((l) => l.select !== undefined || l.ignore !== undefined || l.extendSelect !== undefined);
  if (chosen.length === 0) return undefined;
  let on = new Set(RULES.filter((r) => r.default).map((r) => r.code));
  for (const layer of chosen) {
    if (layer.select !== undefined) on = new Set(layer.select.flatMap(expandRule));
    for (const code of (layer.extendSelect ?? []).flatMap(expandRule)) on.add(code);
    for (const code of (layer.ignore ?? []).flatMap(expandRule)) on.delete(code);
  }
  return CODES.filter((code) => on.has(code));
}
