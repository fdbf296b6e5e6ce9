/**
 * `select` and `ignore`: the rules `check` and `fix` report, chosen as the
 * command line's --select and --ignore choose them (src/rules.ts). A request
 * that names neither gets the answer it always had, under the same render
 * key: the choice becomes a render option only when one is made.
 */
import { Code, ServiceError } from '../errors.js';
import { isLineLength } from '../project/config-keys.js';
import { joinList, LINE_LENGTH_OPTION, LIST_OPTIONS } from '../rendering.js';
import { enabledRules, ruleList } from '../rules.js';
import type { Params } from './params.js';

export const RULE_PARAMETERS = {
  Select: {
    name: 'select',
    description:
      'The rules to report instead of those a request gets by default (the docutils and rst2 families): rule codes, prefixes ending at a hyphen (`title` is every `title-…` rule), `ALL`, or `DEFAULT` (every rule on by default, as the command line reports), ' +
      'separated by commas. The rules are listed in the manual (docs/rules.html). A name that matches no rule is `400 unknown_rule`.',
  },
  Ignore: {
    name: 'ignore',
    description: 'Rules not to report, named as for `select`; applied after it. A name that matches no rule is `400 unknown_rule`.',
  },
  LineLength: {
    name: 'line_length',
    description:
      'The longest line `line-too-long` lets through, in characters, from 1 to 1000 (79 when absent). That rule is off unless selected. ' +
      'Anything else is `400 invalid_line_length`.',
  },
} as const;

/** The render option the choice makes, if any. */
export function ruleOptions(params: Params): Record<string, string> {
  const given = (name: string): string[] | undefined => {
    const value = params.get(name);
    return value === undefined || value.trim() === '' ? undefined : ruleList(value);
  };
  const enabled = enabledRules({ select: given(RULE_PARAMETERS.Select.name), ignore: given(RULE_PARAMETERS.Ignore.name) });
  const options: Record<string, string> = enabled === undefined ? {} : { [LIST_OPTIONS.rules]: joinList(enabled) };
  const length = params.get(RULE_PARAMETERS.LineLength.name);
  if (length !== undefined) options[LINE_LENGTH_OPTION] = String(lineLength(length));
  return options;
}

function lineLength(value: string): number {
  const n = /^\s*\d{1,4}\s*$/.test(value) ? Number(value) : NaN;
  if (!isLineLength(n)) {
    const shown = value.slice(0, 100);
    throw new ServiceError(Code.invalid_line_length, `line_length must be a whole number of characters from 1 to 1000, got ${JSON.stringify(shown)}.`, { details: { line_length: shown } });
  }
  return n;
}
