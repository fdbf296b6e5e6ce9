/**
 * The source pane: a CodeMirror 6 editor with rst highlighting, and one
 * "marked line" (a line decoration) that shows where a reported problem is.
 */
import { defaultKeymap, history, historyKeymap, isolateHistory } from '@codemirror/commands';
import { defaultHighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { highlightSelectionMatches, searchKeymap } from '@codemirror/search';
import { EditorState, StateEffect, StateField, Transaction } from '@codemirror/state';
import {
  Decoration,
  drawSelection,
  EditorView,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  type DecorationSet,
} from '@codemirror/view';

import type { TextChange } from './fix-edits.js';
import { rstLanguage } from './rst-language.js';

/** Marks the line starting at this position, or clears the mark (null). */
const markLine = StateEffect.define<number | null>();
const markedLineDecoration = Decoration.line({ class: 'cm-marked-line' });

const markedLine = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, tr) {
    for (const effect of tr.effects) {
      if (effect.is(markLine)) return effect.value === null ? Decoration.none : Decoration.set([markedLineDecoration.range(effect.value)]);
    }
    // Editing the document means the problem is being worked on: the mark
    // has done its job and would soon point at the wrong text.
    return tr.docChanged ? Decoration.none : marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export interface SourceEditor {
  view: EditorView;
  text(): string;
  setText(text: string): void;
  /** Moves the cursor to the start of a 1-based line, scrolls to it, marks it and focuses the editor. */
  goToLine(line: number): void;
  /**
   * Makes `changes` (positions in the current text) as one transaction, its
   * own undo step, and focuses the editor; `cursorAfter` puts the cursor
   * after the first change's new text and scrolls to it, otherwise the
   * selection follows the text.
   */
  applyChanges(changes: readonly TextChange[], cursorAfter: boolean): void;
}

export function createSourceEditor(
  parent: HTMLElement,
  options: { text: string; labelledBy: string; onChange: (text: string) => void; onCursor: (line: number, column: number) => void },
): SourceEditor {
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: options.text,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        drawSelection(),
        history(),
        highlightSelectionMatches(),
        rstLanguage,
        syntaxHighlighting(defaultHighlightStyle),
        EditorView.lineWrapping,
        markedLine,
        // Tab is left to the browser, so keyboard users can leave the editor.
        keymap.of([...defaultKeymap, ...historyKeymap, ...searchKeymap]),
        EditorView.contentAttributes.of({ 'aria-labelledby': options.labelledBy, 'aria-multiline': 'true', spellcheck: 'true' }),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
          if (update.docChanged || update.selectionSet) {
            const head = update.state.selection.main.head;
            const line = update.state.doc.lineAt(head);
            options.onCursor(line.number, head - line.from + 1);
          }
        }),
      ],
    }),
  });

  return {
    view,
    text: () => view.state.doc.toString(),
    setText(text) {
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 } });
    },
    goToLine(line) {
      const doc = view.state.doc;
      const target = doc.line(Math.min(Math.max(1, line), doc.lines));
      view.dispatch({
        selection: { anchor: target.from },
        effects: [markLine.of(target.from), EditorView.scrollIntoView(target.from, { y: 'center' })],
      });
      view.focus();
    },
    applyChanges(changes, cursorAfter) {
      const set = view.state.changes(changes);
      const first = changes[0];
      const cursor = cursorAfter && first ? set.mapPos(first.to, 1) : undefined;
      view.dispatch({
        changes: set,
        selection: cursor === undefined ? undefined : { anchor: cursor },
        scrollIntoView: cursor !== undefined,
        // Never merged with the typing just before: one undo takes back exactly the fix.
        annotations: [isolateHistory.of('full'), Transaction.userEvent.of('input.fix')],
      });
      view.focus();
    },
  };
}
