/**
 * The list of docutils' problem reports under the editor. Each report with
 * a line is a button (reachable with Tab, activated by click, Enter or
 * Space) that takes the editor to that line.
 */
import type { CheckMessage } from './api.js';

export function showProblems(list: HTMLElement, messages: CheckMessage[], goToLine: (line: number) => void): void {
  const items = messages.map((m) => {
    const item = document.createElement('li');
    item.className = `problem problem-${/^[a-z]+$/.test(m.type) ? m.type : 'other'}`;
    const where = m.line === null ? 'no line' : `line ${m.line}`;
    const label = document.createElement('span');
    label.className = 'problem-where';
    label.textContent = `${m.type}, ${where}`;
    const message = document.createElement('span');
    message.className = 'problem-message';
    message.textContent = m.message;
    if (m.line === null) {
      item.append(label, ': ', message);
    } else {
      const line = m.line;
      const button = document.createElement('button');
      button.type = 'button';
      button.dataset.line = String(line);
      button.append(label, ': ', message);
      button.addEventListener('click', () => goToLine(line));
      item.append(button);
    }
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
