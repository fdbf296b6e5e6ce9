/**
 * The text format: `FILE:LINE:COL: severity: message [rule]`, a line per
 * problem, ` (fixable)` after it when `--fix` would fix it and
 * ` (fixable with --unsafe)` when only `--fix --unsafe` would. A message
 * over several lines shows its first; `--format json` has the rest. A
 * problem docutils gives no line is at line 1, column 1: the file's start.
 */
import type { CheckItem } from '../../engines/python/contract.js';
import type { FileReport, Format } from './types.js';

function marker(item: CheckItem): string {
  if (item.fix === undefined) return '';
  return item.fix.applicability === 'safe' ? ' (fixable)' : ' (fixable with --unsafe)';
}

export function textLine(file: string, item: CheckItem): string {
  const message = item.message.split(/\r?\n/, 1)[0]!;
  return `${file}:${item.line ?? 1}:${item.column ?? 1}: ${item.type}: ${message} [${item.rule}]${marker(item)}\n`;
}

export function textLines(file: string, items: readonly CheckItem[]): string {
  return items.map((i) => textLine(file, i)).join('');
}

export const TEXT: Format = {
  needsFixes: true,
  each: (r: FileReport) => textLines(r.file, r.items),
};
