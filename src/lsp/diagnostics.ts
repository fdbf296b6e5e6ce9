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

/**
 * Where a problem shows: on its fix's first edit when it has a fix (the
 * spot the fix changes), else on its whole line; a problem docutils gives
 * no line goes on the first line.
 */
export function toDiagnostic(item: CheckItem, at: CheckCoordinates, rulePage?: (rule: string) => string): Diagnostic {
  const first = item.fix?.edits[0];
  const diagnostic: Diagnostic = {
    range: first ? at.editRange(first) : at.lineRange(item.line),
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
