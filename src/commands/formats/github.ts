/**
 * The github format: a workflow command per problem, which GitHub Actions
 * shows as an annotation on the file's line:
 * `::error file=F,line=L,col=C,endLine=L,endColumn=C,title=RULE::MESSAGE`
 * (`::warning` for a warning; endLine and endColumn where check knows the
 * span, span.ts). Values are escaped as GitHub's toolkit (@actions/core)
 * escapes them, so a message with a newline or a comma stays one command.
 */
import type { CheckItem } from '../../engines/python/contract.js';
import { spanOf } from './span.js';
import type { FileReport, Format } from './types.js';

export function escapeData(s: string): string {
  return s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

export function escapeProperty(s: string): string {
  return escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

function command(r: FileReport, item: CheckItem): string {
  const props: [string, string | number][] = [['file', r.file], ['line', item.line ?? 1], ['col', item.column ?? 1]];
  const span = spanOf(item, r.text);
  if (span !== undefined) props.push(['endLine', span.endLine], ['endColumn', span.endColumn]);
  props.push(['title', item.rule]);
  const level = item.type === 'warning' ? 'warning' : 'error';
  return `::${level} ${props.map(([k, v]) => `${k}=${escapeProperty(String(v))}`).join(',')}::${escapeData(item.message)}\n`;
}

export const GITHUB: Format = {
  needsFixes: false,
  each: (r: FileReport) => r.items.map((item) => command(r, item)).join(''),
};
