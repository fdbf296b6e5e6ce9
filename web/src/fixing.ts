/**
 * Fixes from the editor page: a problem's own fix (its edits, converted to
 * CodeMirror positions) and "Fix all safe" (the service's /fix, whose answer
 * replaces the text). Either is one transaction and one undo step; the edit
 * then makes the page check again, as any edit does.
 */
import { fixSafe, type CheckMessage, type Fix } from './api.js';
import { changesOf, difference, StaleEdit } from './fix-edits.js';
import { describe } from './live.js';
import { offerFixes, showProblems } from './problems.js';
import type { SourceEditor } from './source-editor.js';

export interface FixingOptions {
  editor: () => SourceEditor;
  problems: HTMLElement;
  fixAll: HTMLButtonElement;
  dialect: () => string;
  report: (note: string, error?: boolean) => void;
}

function count(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

export class Fixing {
  /** The text the problems on show were found in. */
  private checked: string | undefined;
  private safeOffered = false;
  private fixingAll = false;

  constructor(private readonly options: FixingOptions) {
    options.fixAll.addEventListener('click', () => void this.fixAllSafe());
    this.updateFixAll();
  }

  /** Shows the problems check found in `checked`, each with its fix. */
  show(messages: CheckMessage[], checked: string): void {
    const editor = this.options.editor();
    showProblems(this.options.problems, messages, checked, {
      goToLine: (line) => editor.goToLine(line),
      applyFix: (fix, text) => this.applyFix(fix, text),
    });
    this.checked = checked;
    this.safeOffered = messages.some((m) => m.fix?.applicability === 'safe');
    offerFixes(this.options.problems, editor.text() === checked);
    this.updateFixAll();
  }

  /** Call on every edit: the problems' fixes are offered only for the text they were made for. */
  edited(text: string): void {
    offerFixes(this.options.problems, text === this.checked);
  }

  private applyFix(fix: Fix, checked: string): void {
    const { editor, report } = this.options;
    if (editor().text() !== checked) {
      report('The text changed since the check; its fixes come back once it is checked again.', true);
      return;
    }
    try {
      editor().applyChanges(changesOf(checked, fix.edits), true);
    } catch (err) {
      if (!(err instanceof StaleEdit)) throw err;
      report(`This fix does not fit the text (${err.message}); nothing was changed.`, true);
      return;
    }
    report(`Fixed: ${fix.description}. Undo (Ctrl+Z) takes it back.`);
  }

  private async fixAllSafe(): Promise<void> {
    const { editor, report } = this.options;
    if (this.fixingAll) return;
    this.fixingAll = true;
    this.updateFixAll();
    const text = editor().text();
    report('Applying the safe fixes…');
    try {
      const result = await fixSafe(text, this.options.dialect());
      if (editor().text() !== text) {
        report('The text changed while it was being fixed; nothing was changed, try again.', true);
        return;
      }
      const change = difference(text, result.text);
      if (change === null) {
        report('No safe fix to apply.');
        return;
      }
      editor().applyChanges([change], false);
      const left = result.messages.length;
      report(`${count(result.fixes.length, 'safe fix', 'safe fixes')} applied; ${count(left, 'problem', 'problems')} left. Undo (Ctrl+Z) takes them back.`);
    } catch (err) {
      report(`Not fixed: ${describe(err)}`, true);
    } finally {
      this.fixingAll = false;
      this.updateFixAll();
    }
  }

  private updateFixAll(): void {
    const button = this.options.fixAll;
    button.disabled = this.fixingAll || !this.safeOffered;
    button.title = this.safeOffered
      ? 'Applies every safe fix: those that cannot change what a correct part of the document means.'
      : 'The last check offered no safe fix.';
  }
}
