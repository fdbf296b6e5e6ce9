/**
 * A fix's edits (python/rst2/fixes/edits.py) as CodeMirror changes.
 *
 * An edit counts lines as docutils does (str.splitlines' breaks but \v and \f,
 * which docutils reads as spaces) and columns in Unicode
 * code points, in the text the service received. CodeMirror positions are
 * UTF-16 code units in the editor's own text. These differ in three ways
 * handled here:
 *
 * - a character outside the Basic Multilingual Plane (an emoji) is one code
 *   point but two code units;
 * - docutils also breaks lines at \x1c–\x1e, \x85, U+2028 and U+2029,
 *   which CodeMirror keeps inside a line;
 * - the service decodes the body without a leading byte order mark, so the
 *   service's offsets start one code unit after the editor's.
 *
 * Every position is computed in the text the check was made for; the changes
 * all refer to that text, as one CodeMirror transaction's changes do.
 */
import type { Edit } from '../../src/engines/python/contract.js';

export interface TextChange {
  from: number;
  to: number;
  insert: string;
}

/** An edit that does not fit the text (the text changed since the check). */
export class StaleEdit extends Error {
  override readonly name = 'StaleEdit';
}

const BOM = '\uFEFF';

/** Characters at which docutils ends a line (\r\n counts once; \v and \f are spaces to it). */
function isPythonLineBreak(code: number): boolean {
  return code === 0x0a || code === 0x0d || code === 0x1c || code === 0x1d || code === 0x1e || code === 0x85 || code === 0x2028 || code === 0x2029;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

function isLowSurrogate(code: number): boolean {
  return code >= 0xdc00 && code <= 0xdfff;
}

/** Positions in one text, from the service's (line, column) in code points to UTF-16 offsets. */
export class CodePointIndex {
  /** The UTF-16 offset where each Python line starts; one more entry for the end of the text. */
  private readonly lineStarts: number[];
  private readonly base: number;

  constructor(private readonly text: string) {
    this.base = text.startsWith(BOM) ? BOM.length : 0;
    const starts = [this.base];
    for (let i = this.base; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (!isPythonLineBreak(code)) continue;
      if (code === 0x0d && text.charCodeAt(i + 1) === 0x0a) i++;
      starts.push(i + 1);
    }
    if (starts[starts.length - 1] !== text.length) starts.push(text.length);
    this.lineStarts = starts;
  }

  /** The UTF-16 offset of 1-based `line` and code-point `column`; Python's own rule: line count+1, column 1 is the end. */
  offset(line: number, column: number): number {
    const start = Number.isInteger(line) && line >= 1 ? this.lineStarts[line - 1] : undefined;
    if (start === undefined || !Number.isInteger(column) || column < 1) throw new StaleEdit(`no line ${line}, column ${column} in the text`);
    let at = start;
    for (let n = 1; n < column; n++) {
      if (at >= this.text.length) throw new StaleEdit(`line ${line} has no column ${column}`);
      at += isHighSurrogate(this.text.charCodeAt(at)) && isLowSurrogate(this.text.charCodeAt(at + 1)) ? 2 : 1;
    }
    return at;
  }
}

/** The changes that make `edits` in `text`, in the same order; throws StaleEdit when one does not fit. */
export function changesOf(text: string, edits: readonly Edit[]): TextChange[] {
  const index = new CodePointIndex(text);
  return edits.map((edit) => {
    const from = index.offset(edit.line, edit.column);
    const to = index.offset(edit.endLine, edit.endColumn);
    if (to < from) throw new StaleEdit(`an edit ends (line ${edit.endLine}, column ${edit.endColumn}) before it starts (line ${edit.line}, column ${edit.column})`);
    return { from, to, insert: edit.text };
  });
}

/**
 * The one change that turns `before` into `after` (their common start and end
 * kept, so the cursor and the undo step stay small), or null when they are
 * equal. A leading byte order mark of `before` is kept: the service answers
 * without it.
 */
export function difference(before: string, after: string): TextChange | null {
  if (before.startsWith(BOM) && !after.startsWith(BOM)) after = BOM + after;
  if (before === after) return null;
  const limit = Math.min(before.length, after.length);
  let start = 0;
  while (start < limit && before.charCodeAt(start) === after.charCodeAt(start)) start++;
  // Never split a surrogate pair: the change starts before its high half.
  if (start > 0 && isHighSurrogate(before.charCodeAt(start - 1))) start--;
  let end = 0;
  while (end < limit - start && before.charCodeAt(before.length - 1 - end) === after.charCodeAt(after.length - 1 - end)) end++;
  if (end > 0 && isLowSurrogate(before.charCodeAt(before.length - end))) end--;
  return { from: start, to: before.length - end, insert: after.slice(start, after.length - end) };
}
