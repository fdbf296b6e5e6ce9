/**
 * Where check's coordinates fall in an LSP document. Check counts lines as
 * docutils does (Python's str.splitlines' breaks, \x1c-\x1e, \x85, U+2028
 * and U+2029 among them, but not \v and \f, which docutils reads as
 * spaces) and columns in Unicode code points,
 * from 1 (python/rst2/fixes/edits.py); LSP counts lines at \n, \r\n and \r
 * only and characters in UTF-16 code units, from 0. Both sides meet at an
 * offset into the text: a check position becomes a UTF-16 offset here, and
 * TextDocument.positionAt makes that an LSP position.
 */
import type { Position, Range } from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';

import type { Edit } from '../engines/python/contract.js';

/** docutils' line boundaries (str.splitlines' but \v and \f), \r\n as one. */
const PYTHON_BREAK = /\r\n|[\n\r\x1c-\x1e\x85\u2028\u2029]/g;

/** The UTF-16 offset where each docutils line starts, and where its content ends (before its line break). */
export function pythonLines(text: string): { starts: number[]; ends: number[] } {
  const starts = [0];
  const ends: number[] = [];
  for (const m of text.matchAll(PYTHON_BREAK)) {
    ends.push(m.index);
    starts.push(m.index + m[0].length);
  }
  ends.push(text.length);
  return { starts, ends };
}

/** The UTF-16 offset `count` code points on from `from`, never past the end of the text. */
export function advanceCodePoints(text: string, from: number, count: number): number {
  let at = from;
  for (let i = 0; i < count && at < text.length; i++) {
    const unit = text.charCodeAt(at);
    const next = text.charCodeAt(at + 1);
    // A surrogate pair is one code point in two units; a lone surrogate counts as one, as in Python.
    at += unit >= 0xd800 && unit <= 0xdbff && next >= 0xdc00 && next <= 0xdfff ? 2 : 1;
  }
  return at;
}

/** A document's text as check saw it, answering check's coordinates in LSP ones. */
export class CheckCoordinates {
  private readonly text: string;
  private readonly lines: { starts: number[]; ends: number[] };

  constructor(private readonly document: TextDocument) {
    this.text = document.getText();
    this.lines = pythonLines(this.text);
  }

  /**
   * The UTF-16 offset of (line, column), both from 1, the column in code
   * points: as Python's Source.offset, the start of the line plus the column
   * (line count+1, column 1 is the end of the text). Clamped to the text.
   */
  offset(line: number, column: number): number {
    const { starts } = this.lines;
    const index = Math.min(Math.max(line, 1), starts.length) - 1;
    return advanceCodePoints(this.text, starts[index]!, Math.max(column, 1) - 1);
  }

  position(line: number, column: number): Position {
    return this.document.positionAt(this.offset(line, column));
  }

  /** An edit's range: its end is exclusive in both worlds. */
  editRange(edit: Edit): Range {
    return { start: this.position(edit.line, edit.column), end: this.position(edit.endLine, edit.endColumn) };
  }

  /** The UTF-16 offset where a docutils line's text ends (before its break); the text's end past the last line. */
  lineEnd(line: number): number {
    const { ends } = this.lines;
    return line >= 1 && line <= ends.length ? ends[line - 1]! : this.text.length;
  }

  /** The checked text between two UTF-16 offsets. */
  slice(from: number, to: number): string {
    return this.text.slice(from, to);
  }

  /** A docutils line's text without its line break ('' past the end). */
  lineText(line: number): string {
    const { starts, ends } = this.lines;
    if (line < 1 || line > starts.length) return '';
    return this.text.slice(starts[line - 1], ends[line - 1]);
  }

  /** The whole of a docutils line without its line break; a problem with no line is on the first. */
  lineRange(line: number | null): Range {
    const { starts, ends } = this.lines;
    const index = Math.min(Math.max(line ?? 1, 1), starts.length) - 1;
    return { start: this.document.positionAt(starts[index]!), end: this.document.positionAt(ends[index]!) };
  }
}
