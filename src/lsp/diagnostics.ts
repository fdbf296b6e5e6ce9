/**
 * Check items as LSP diagnostics, and their fixes as code actions, in the
 * coordinates of the text that was checked (positions.ts converts).
 */
import {
  CodeActionKind,
  DiagnosticSeverity,
  TextDocumentEdit,
  type CodeAction,
  type Diagnostic,
  type Range,
  type TextEdit,
  type WorkspaceEdit,
} from 'vscode-languageserver';
import type { TextDocument } from 'vscode-languageserver-textdocument';

import type { CheckItem } from '../engines/python/contract.js';
import type { CheckCoordinates } from './positions.js';

export const SOURCE = 'rst2';

// The start-string an unclosed inline markup message names, by its length in code points.
const START_STRING = /^Inline (strong|literal|internal target|emphasis|interpreted text or phrase reference|substitution reference) start-string/;
// Where each may start: after a space or an opening mark, before a character that is not a space (nor, for emphasis, a star).
const START_AT: Readonly<Record<string, RegExp>> = {
  strong: /(?:^|(?<=[\s'"(\[{<\-/:]))\*\*(?=\S)/u,
  literal: /(?:^|(?<=[\s'"(\[{<\-/:]))``(?=\S)/u,
  'internal target': /(?:^|(?<=[\s'"(\[{<\-/:]))_`(?=\S)/u,
  emphasis: /(?:^|(?<=[\s'"(\[{<\-/:]))\*(?=[^\s*])/u,
  'interpreted text or phrase reference': /(?:^|(?<=[\s'"(\[{<\-/:]))`(?=[^\s`])/u,
  'substitution reference': /(?:^|(?<=[\s'"(\[{<\-/:]))\|(?=[^\s|])/u,
};
// docutils places an inline problem on its paragraph's first line; the start-string may be on a later one.
const PARAGRAPH_LINES = 200;
const QUOTED = /"([^"\n]{1,200})"/;

/**
 * Where a problem shows: on its fix's first edit when it has a fix (the
 * spot the fix changes); else on the start-string or the quoted name at its
 * column, where the line has it (the spot such a fix would change); else on
 * its whole line. A problem docutils gives no line goes on the first line.
 */
export function problemRange(item: CheckItem, at: CheckCoordinates): Range {
  const first = item.fix?.edits[0];
  if (first) return at.editRange(first);
  if (item.line === null || item.column === null) return at.lineRange(item.line);
  const start = START_STRING.exec(item.message)?.[1];
  if (start !== undefined) return startStringRangeOnce(item.line, start, at) ?? at.lineRange(item.line);
  const name = QUOTED.exec(item.message)?.[1];
  if (name === undefined) return at.lineRange(item.line);
  // Only as much of the line as the name could fill (two UTF-16 units a code point at most), not the whole line for each problem.
  const from = at.offset(item.line, item.column);
  const end = at.lineEnd(item.line);
  const rest = at.slice(from, Math.min(end, from + 2 * name.length));
  if (!rest.toLowerCase().startsWith(name.toLowerCase())) return at.lineRange(item.line);
  return span(at, item.line, item.column, [...name].length);
}

function span(at: CheckCoordinates, line: number, column: number, length: number): Range {
  return at.editRange({ line, column, endLine: line, endColumn: column + length, text: '' });
}

// A paragraph's unclosed start-strings are all reported on its first line:
// the search is made once per line and kind for the coordinates of one text.
const startStrings = new WeakMap<CheckCoordinates, Map<string, Range | undefined>>();

function startStringRangeOnce(line: number, kind: string, at: CheckCoordinates): Range | undefined {
  let known = startStrings.get(at);
  if (known === undefined) startStrings.set(at, (known = new Map()));
  const key = `${line} ${kind}`;
  if (!known.has(key)) known.set(key, startStringRange(line, START_AT[kind]!, at));
  return known.get(key);
}

/** The first place in the paragraph from `line` where the start-string may start. */
function startStringRange(line: number, pattern: RegExp, at: CheckCoordinates): Range | undefined {
  for (let n = line; n < line + PARAGRAPH_LINES; n++) {
    const text = at.lineText(n);
    if (text.trim() === '') return undefined;
    const found = pattern.exec(text);
    if (found) {
      const column = [...text.slice(0, found.index)].length + 1;
      return span(at, n, column, [...found[0]].length);
    }
  }
  return undefined;
}

export function toDiagnostic(item: CheckItem, at: CheckCoordinates, rulePage?: (rule: string) => string): Diagnostic {
  const diagnostic: Diagnostic = {
    range: problemRange(item, at),
    severity: item.type === 'warning' ? DiagnosticSeverity.Warning : DiagnosticSeverity.Error,
    source: SOURCE,
    message: item.message,
    // The problem's rule, not its fix's: every problem has one, and an
    // editor filters and groups by it.
    code: item.rule,
  };
  if (rulePage) diagnostic.codeDescription = { href: rulePage(item.rule) };
  return diagnostic;
}

/** Whether two ranges share a line: a cursor anywhere on a problem's line is offered its fix. */
export function sharesLine(a: Range, b: Range): boolean {
  return a.start.line <= b.end.line && b.start.line <= a.end.line;
}

/** A workspace edit of one document: versioned when the client takes documentChanges, so it refuses to apply it to a later text. */
export function workspaceEdit(document: { uri: string; version: number }, edits: TextEdit[], versioned: boolean): WorkspaceEdit {
  if (versioned) return { documentChanges: [TextDocumentEdit.create({ uri: document.uri, version: document.version }, edits)] };
  return { changes: { [document.uri]: edits } };
}

/** The quick fix of one problem: its edits, in the checked text's coordinates; safe fixes are preferred. */
export function quickFix(document: { uri: string; version: number }, item: CheckItem, diagnostic: Diagnostic, at: CheckCoordinates, versioned: boolean): CodeAction | null {
  const fix = item.fix;
  if (!fix) return null;
  const edits = fix.edits.map((e) => ({ range: at.editRange(e), newText: e.text }));
  const action: CodeAction = {
    title: fix.description,
    kind: CodeActionKind.QuickFix,
    diagnostics: [diagnostic],
    edit: workspaceEdit(document, edits, versioned),
  };
  if (fix.applicability === 'safe') action.isPreferred = true;
  return action;
}

/** Whether offset `at` falls inside a surrogate pair or a \r\n. */
function splits(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const before = text.charCodeAt(at - 1);
  const after = text.charCodeAt(at);
  return (before >= 0xd800 && before <= 0xdbff && after >= 0xdc00 && after <= 0xdfff) || (before === 13 && after === 10);
}

/**
 * One edit turning `before` into `after`: the part between their common
 * start and common end (so an editor keeps the cursor and folds elsewhere),
 * never splitting a surrogate pair or a \r\n.
 */
export function replacement(document: TextDocument, before: string, after: string): TextEdit {
  const limit = Math.min(before.length, after.length);
  let head = 0;
  while (head < limit && before.charCodeAt(head) === after.charCodeAt(head)) head++;
  while (head > 0 && (splits(before, head) || splits(after, head))) head--;
  let tail = 0;
  while (tail < limit - head && before.charCodeAt(before.length - 1 - tail) === after.charCodeAt(after.length - 1 - tail)) tail++;
  while (tail > 0 && (splits(before, before.length - tail) || splits(after, after.length - tail))) tail--;
  return {
    range: { start: document.positionAt(head), end: document.positionAt(before.length - tail) },
    newText: after.slice(head, after.length - tail),
  };
}
