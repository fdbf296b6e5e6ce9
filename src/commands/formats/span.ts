/**
 * Where a problem ends, for the formats that mark a range (GitHub's
 * annotations, SARIF's regions): the name a message quotes ("Unknown
 * interpreted text role "issue".") when the line has it at the problem's
 * column. Elsewhere check gives a point, and a point is what is reported.
 */
import type { CheckItem } from '../../engines/python/contract.js';

const QUOTED = /"([^"\n]{1,200})"/;
// docutils' line breaks (python/rst2/fixes/edits.py counts lines so).
const LINE_BREAK = /\r\n|[\n\r\x1c-\x1e\x85\u2028\u2029]/;

export interface Span {
  endLine: number;
  /** Exclusive, in code points from 1, as the problem's column. */
  endColumn: number;
}

export function spanOf(item: CheckItem, text: string): Span | undefined {
  if (item.line === null || item.column === null) return undefined;
  const name = QUOTED.exec(item.message)?.[1];
  if (name === undefined) return undefined;
  const line = text.split(LINE_BREAK)[item.line - 1];
  if (line === undefined) return undefined;
  const rest = [...line].slice(item.column - 1).join('');
  if (!rest.toLowerCase().startsWith(name.toLowerCase())) return undefined;
  return { endLine: item.line, endColumn: item.column + [...name].length };
}
