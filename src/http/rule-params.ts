/**
 * `select` and `ignore`: the rules `check` and `fix` report, chosen as the
 * command line's --select and --ignore choose them (src/rules.ts). A request
 * that names neither gets the answer it always had, under the same render
 * key: the choice becomes a render option only when one is made.
 */
import { joinList, LIST_OPTIONS } from '../rendering.js';
import { enabledRules, ruleList } from '../rules.js';
import type { Params } from './params.js';

export const RULE_PARAMETERS = {
  Select: {
    name: 'select',
    description:
      'The rules to report instead of those on by default: rule codes, prefixes ending at a hyphen (`title` is every `title-…` rule) or `ALL`, ' +
      'separated by commas. The rules are listed in the manual (docs/rules.html). A name that matches no rule is `400 unknown_rule`.',
  },
  Ignore: {
    name: 'ignore',
    description: 'Rules not to report, named as for `select`; applied after it. A name that matches no rule is `400 unknown_rule`.',
  },
} as const;

/** The render option the choice makes, if any. */
export function ruleOptions(params: Params): Record<string, string> {
  const given = (name: string): string[] | undefined => {
    const value = params.get(name);
    return value === undefined || value.trim() === '' ? undefined : ruleList(value);
  };
  const enabled = enabledRules({ select: given(RULE_PARAMETERS.Select.name), ignore: given(RULE_PARAMETERS.Ignore.name) });
  return enabled === undefined ? {} : { [LIST_OPTIONS.rules]: joinList(enabled) };
}
