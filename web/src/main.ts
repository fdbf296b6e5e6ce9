/**
 * The editor page: wires the source editor, the live preview and problem
 * list, the style, PDF and share controls, and keeps the document in this
 * browser's localStorage so a reload (or a lost connection) loses nothing.
 */
import { DEFAULT_DIALECT, DIALECTS } from '../../src/dialects.js';
import { createToken, names, renderPdf, tokenSource } from './api.js';
import { Fixing } from './fixing.js';
import { describe, Live } from './live.js';
import { previewDocument } from './preview.js';
import { createSourceEditor } from './source-editor.js';

const DEBOUNCE_MS = 400;
const STORED_DOCUMENT = 'rst2.document';
const STORED_STYLE = 'rst2.style';
const STORED_DIALECT = 'rst2.dialect';
const STORED_REMOTE_IMAGES = 'rst2.remote-images';

const SAMPLE = `A first document
================

Type reStructuredText here: the preview follows, and problems are
listed under the editor.

* *emphasis*, **strong**, \`\`literal\`\`
* a link to the docutils_ project

.. _docutils: https://docutils.sourceforge.io/
`;

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return el;
}

/** localStorage may be unavailable (private modes, disabled storage): then nothing is kept. */
const stored = {
  get(key: string): string | null {
    try {
      return localStorage.getItem(key);
    } catch {
      return null;
    }
  },
  set(key: string, value: string): void {
    try {
      localStorage.setItem(key, value);
    } catch {
      /* not kept; the page still works */
    }
  },
};

const ui = {
  status: element('status', HTMLElement),
  cursor: element('cursor', HTMLElement),
  editor: element('editor', HTMLElement),
  problems: element('problems', HTMLElement),
  fixAll: element('fix-all', HTMLButtonElement),
  preview: element('preview', HTMLIFrameElement),
  style: element('style', HTMLSelectElement),
  dialect: element('dialect', HTMLSelectElement),
  pdfClass: element('pdf-class', HTMLSelectElement),
  pdfStyle: element('pdf-style', HTMLSelectElement),
  pdfToc: element('pdf-toc', HTMLInputElement),
  pdfButton: element('pdf', HTMLButtonElement),
  shareButton: element('share', HTMLButtonElement),
  shareBox: element('share-box', HTMLElement),
  shareLink: element('share-link', HTMLInputElement),
  copyButton: element('copy', HTMLButtonElement),
  remoteImages: element('remote-images', HTMLInputElement),
  heldImages: element('held-images', HTMLElement),
};

function report(note: string, error = false): void {
  ui.status.textContent = note;
  ui.status.classList.toggle('error', error);
}

const tokenInUrl = new URLSearchParams(location.search).get('token');
let openingShared = false;

// Your own drafts show remote images as you chose (on unless you turned it
// off); a shared link opens with them held back until you allow them.
ui.remoteImages.checked = tokenInUrl ? false : stored.get(STORED_REMOTE_IMAGES) !== 'no';
let lastPage: string | undefined;

function showPreview(html: string): void {
  lastPage = html;
  const preview = previewDocument(html, { remoteImages: ui.remoteImages.checked, origin: location.origin });
  ui.preview.srcdoc = preview.html;
  ui.heldImages.textContent = preview.held ? `${preview.held} held back` : '';
}

const fixing = new Fixing({
  editor: () => editor,
  problems: ui.problems,
  fixAll: ui.fixAll,
  dialect: () => ui.dialect.value || DEFAULT_DIALECT,
  report,
});

const live = new Live({
  delayMs: DEBOUNCE_MS,
  text: () => editor.text(),
  style: () => ui.style.value || 'default',
  dialect: () => ui.dialect.value || DEFAULT_DIALECT,
  showPreview,
  showProblems: (messages, checked) => fixing.show(messages, checked),
  report,
});

const editor = createSourceEditor(ui.editor, {
  text: stored.get(STORED_DOCUMENT) ?? SAMPLE,
  labelledBy: 'source-heading',
  onChange(text) {
    // Opening a shared link must not overwrite the draft kept here; editing
    // the shared document afterwards makes it the draft, like any edit.
    if (!openingShared) stored.set(STORED_DOCUMENT, text);
    // The address no longer names this document once it is edited.
    if (location.search) history.replaceState(null, '', location.pathname);
    ui.shareBox.hidden = true;
    fixing.edited(text);
    live.schedule();
  },
  onCursor(line, column) {
    ui.cursor.textContent = `Line ${line}, column ${column}`;
  },
});

function fill(select: HTMLSelectElement, values: string[], preferred: string | null): void {
  select.replaceChildren(...values.map((v) => new Option(v, v)));
  if (preferred && values.includes(preferred)) select.value = preferred;
}

async function loadChoices(): Promise<void> {
  fill(ui.dialect, [...DIALECTS], stored.get(STORED_DIALECT));
  const [html, classes, latex] = await Promise.allSettled([names('html/styles'), names('pdf/classes'), names('pdf/styles')]);
  if (html.status === 'fulfilled') fill(ui.style, html.value, stored.get(STORED_STYLE));
  if (classes.status === 'fulfilled') fill(ui.pdfClass, classes.value, 'article');
  if (latex.status === 'fulfilled') fill(ui.pdfStyle, latex.value, 'default');
  const failed = [html, classes, latex].find((r) => r.status === 'rejected');
  if (failed) report(`Could not load the style lists: ${describe(failed.reason)}`, true);
}

async function openSharedDocument(token: string): Promise<void> {
  try {
    const text = await tokenSource(token);
    openingShared = true;
    try {
      editor.setText(text);
    } finally {
      openingShared = false;
    }
    // setText counts as an edit; the address still names this very document.
    history.replaceState(null, '', `${location.pathname}?token=${encodeURIComponent(token)}`);
    report('Opened the shared document.');
  } catch (err) {
    report(`Could not open the shared document: ${describe(err)}`, true);
  }
}

ui.style.addEventListener('change', () => {
  stored.set(STORED_STYLE, ui.style.value);
  void live.now();
});

ui.dialect.addEventListener('change', () => {
  stored.set(STORED_DIALECT, ui.dialect.value);
  void live.now();
});

ui.remoteImages.addEventListener('change', () => {
  // A choice made while looking at a shared document is about that document only.
  if (!tokenInUrl) stored.set(STORED_REMOTE_IMAGES, ui.remoteImages.checked ? 'yes' : 'no');
  if (lastPage !== undefined) showPreview(lastPage);
});

ui.pdfButton.addEventListener('click', async () => {
  ui.pdfButton.disabled = true;
  report('Making the PDF…');
  try {
    const pdf = await renderPdf(editor.text(), { class: ui.pdfClass.value || 'article', style: ui.pdfStyle.value || 'default', toc: ui.pdfToc.checked, dialect: ui.dialect.value || DEFAULT_DIALECT });
    const url = URL.createObjectURL(pdf.blob);
    const link = document.createElement('a');
    link.href = url;
    link.download = pdf.filename;
    document.body.append(link);
    link.click();
    link.remove();
    // The download has its own copy once started; free the blob a bit later.
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    report(`PDF ready: ${pdf.filename}`);
  } catch (err) {
    report(`No PDF: ${describe(err)}`, true);
  } finally {
    ui.pdfButton.disabled = false;
  }
});

ui.shareButton.addEventListener('click', async () => {
  ui.shareButton.disabled = true;
  try {
    const token = await createToken(editor.text());
    ui.shareLink.value = `${location.origin}/?token=${token}`;
    ui.shareBox.hidden = false;
    ui.shareLink.focus();
    ui.shareLink.select();
    report('Share link ready.');
  } catch (err) {
    report(`No link: ${describe(err)}`, true);
  } finally {
    ui.shareButton.disabled = false;
  }
});

ui.copyButton.addEventListener('click', async () => {
  try {
    await navigator.clipboard.writeText(ui.shareLink.value);
    report('Link copied.');
  } catch {
    // The clipboard API needs a secure context or permission; the link stays selected to copy by hand.
    ui.shareLink.focus();
    ui.shareLink.select();
    report('Copying is not allowed here; the link is selected, copy it with Ctrl+C.', true);
  }
});

async function start(): Promise<void> {
  await loadChoices();
  if (tokenInUrl) await openSharedDocument(tokenInUrl);
  await live.now();
}

void start();
