/**
 * The list of docutils' problem reports under the editor. Each report with
 * a line is a button (reachable with Tab, activated by click, Enter or
 * Space) that takes the editor to that line. A report that comes with a fix
 * has a second button, "Fix: …", that applies it; a suggested fix (one that
 * may change what the document means) says so.
 */
import type { CheckMessage, Fix } from './api.js';

export interface ProblemActions {
  goToLine(line: number): void;
  /** Applies `fix`, whose edits are positions in `checked`, the text the check was made for. */
  applyFix(fix: Fix, checked: string): void;
}

const SAFE_TITLE = 'A safe fix: it cannot change what a correct part of the document means.';
const SUGGESTED_TITLE = 'A suggested fix: it may change what the document means, so read the result.';
const STALE_TITLE = 'The text changed since the check; the fixes come back once it is checked again.';

function fixButton(fix: Fix, describedBy: string, apply: () => void): HTMLButtonElement {
  const button = document.createElement('button');
  button.type = 'button';
  button.className = `fix fix-${fix.applicability === 'safe' ? 'safe' : 'suggested'}`;
  button.dataset.applicability = fix.applicability;
  button.dataset.rule = fix.rule;
  button.title = fix.applicability === 'safe' ? SAFE_TITLE : SUGGESTED_TITLE;
  button.setAttribute('aria-describedby', describedBy);
  button.append(`Fix: ${fix.description}`);
  if (fix.applicability !== 'safe') {
    const kind = document.createElement('span');
    kind.className = 'fix-kind';
    kind.textContent = ' (suggestion)';
    button.append(kind);
  }
  button.addEventListener('click', apply);
  return button;
}

/** Shows `messages`, the problems check found in `checked`. */
export function showProblems(list: HTMLElement, messages: CheckMessage[], checked: string, actions: ProblemActions): void {
  const items = messages.map((m, index) => {
    const item = document.createElement('li');
    item.className = `problem problem-${/^[a-z]+$/.test(m.type) ? m.type : 'other'}`;
    const where = m.line === null ? 'no line' : `line ${m.line}`;
    const label = document.createElement('span');
    label.className = 'problem-where';
    label.textContent = `${m.type}, ${where}`;
    const message = document.createElement('span');
    message.className = 'problem-message';
    message.id = `problem-${index}-message`;
    message.textContent = m.message;
    if (m.line === null) {
      item.append(label, ': ', message);
    } else {
      const line = m.line;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'problem-go';
      button.dataset.line = String(line);
      button.append(label, ': ', message);
      button.addEventListener('click', () => actions.goToLine(line));
      item.append(button);
    }
    const fix = m.fix;
    if (fix) item.append(fixButton(fix, message.id, () => actions.applyFix(fix, checked)));
    return item;
  });
  if (items.length === 0) {
    const none = document.createElement('li');
    none.className = 'problem-none';
    none.textContent = 'No problems found.';
    items.push(none);
  }
  list.replaceChildren(...items);
}

/**
 * The fixes' edits are positions in the text that was checked: they are
 * offered only while the editor holds that very text (after an edit, until
 * the next check; again after undoing back to it).
 */
export function offerFixes(list: HTMLElement, current: boolean): void {
  for (const button of Array.from(list.querySelectorAll<HTMLButtonElement>('button.fix'))) {
    if (button.disabled === !current) continue;
    button.disabled = !current;
    button.title = !current ? STALE_TITLE : button.dataset.applicability === 'safe' ? SAFE_TITLE : SUGGESTED_TITLE;
  }
}
