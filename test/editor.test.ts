/**
 * The editor page at `/`: its HTTP side (static files, headers, the token
 * source route it uses) and its behaviour in a real browser (Debian's
 * Chromium driven by playwright-core) against a real server on port 0.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

import type { BrowserContext, Page } from 'playwright-core';

import { EDITOR_CSP } from '../src/http/editor.js';
import type { RunningServer } from '../src/server.js';
import { browserSuite, SCREENSHOTS } from './support/chromium.js';
import { api, errorOf, form, server } from './support/server.js';

const WAIT_MS = 60_000;
// Where the page keeps the draft (web/src/main.ts, STORED_DOCUMENT).
const STORED_KEY = 'rst2.document';

describe('editor page over HTTP', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('serves the page at / with its security headers, and its hashed assets for good', async () => {
    const res = await api(s, '/?token=whatever');
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(res.headers.get('content-security-policy')).to.equal(EDITOR_CSP);
    expect(res.headers.get('cache-control')).to.equal('no-cache');
    expect(res.headers.get('referrer-policy')).to.equal('no-referrer');
    expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
    const html = await res.text();
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((m) => m[1]!);
    expect(assets.map((a) => path.extname(a)).sort()).to.deep.equal(['.css', '.js']);
    // Nothing is loaded from another host.
    expect(html).to.not.match(/(?:src|href)="(?:https?:)?\/\//);
    for (const asset of assets) {
      const file = await api(s, asset);
      expect(file.status).to.equal(200);
      expect(file.headers.get('content-type')).to.equal(asset.endsWith('.js') ? 'text/javascript; charset=utf-8' : 'text/css; charset=utf-8');
      expect(file.headers.get('cache-control')).to.equal('public, max-age=31536000, immutable');
      expect((await file.arrayBuffer()).byteLength).to.be.greaterThan(1000);
    }
  });

  it('answers HEAD, revalidates with ETag, refuses other methods, and keeps the JSON 404 elsewhere', async () => {
    const head = await api(s, '/', { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(Number(head.headers.get('content-length'))).to.be.greaterThan(500);
    const etag = head.headers.get('etag')!;
    expect((await api(s, '/', { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    const post = await api(s, '/', { method: 'POST', body: 'x' });
    expect(post.status).to.equal(405);
    expect(post.headers.get('allow')).to.equal('GET, HEAD');
    expect((await errorOf(post)).code).to.equal('method_not_allowed');
    for (const missing of ['/nope', '/assets/nope.js', '/index.html']) {
      const res = await api(s, missing);
      expect(res.status, missing).to.equal(404);
      expect((await errorOf(res)).code).to.equal('not_found');
    }
  });

  it('GET /1.0/rst2/token/<token> gives the stored source back as text/x-rst', async () => {
    const doc = `Shared source\n=============\n\nnon-ASCII: é ü ✓, made at ${Date.now()}\n`;
    const token = await (await api(s, '/1.0/rst2/token', form({ rst: doc }))).text();
    const res = await api(s, `/1.0/rst2/token/${token}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/x-rst; charset=utf-8');
    expect(res.headers.get('cache-control')).to.equal('public, max-age=86400');
    expect(await res.text()).to.equal(doc);
    expect((await api(s, `/1.0/rst2/token/${token}`, { headers: { 'If-None-Match': res.headers.get('etag')! } })).status).to.equal(304);

    const unknown = await api(s, `/1.0/rst2/token/${'0'.repeat(32)}`);
    expect(unknown.status).to.equal(404);
    expect((await errorOf(unknown)).code).to.equal('token_not_found');
    const malformed = await api(s, '/1.0/rst2/token/..%2F..%2Fetc%2Fpasswd');
    expect(malformed.status).to.equal(400);
    expect((await errorOf(malformed)).code).to.equal('token_invalid');
    const extra = await api(s, `/1.0/rst2/token/${token}?style=x`);
    expect(extra.status).to.equal(400);
    expect((await errorOf(extra)).code).to.equal('unknown_parameter');
    const post = await api(s, `/1.0/rst2/token/${token}`, { method: 'POST' });
    expect(post.status).to.equal(405);
  });
});

/** 1-based number of the first line of `text` that starts with `prefix`. */
function lineOf(text: string, prefix: string): number {
  const index = text.split('\n').findIndex((l) => l.startsWith(prefix));
  if (index < 0) throw new Error(`no line starts with ${prefix}`);
  return index + 1;
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = WAIT_MS): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe('editor page in Chromium', function () {
  const suite = browserSuite();
  let context: BrowserContext;
  /** Console errors and page errors (CSP violations show up here). */
  let problems: string[];

  beforeEach(async () => {
    // A context per test: its own localStorage, so tests do not see each other's documents.
    context = await suite.browser.newContext({ acceptDownloads: true, viewport: { width: 1280, height: 900 } });
    problems = [];
  });

  afterEach(async () => {
    await context.close();
    expect(problems, 'console errors').to.deep.equal([]);
  });

  function watch(page: Page): Page {
    page.on('console', (m) => {
      // Answers with an error status are logged by Chromium itself; the tests look at how the page shows them.
      if (m.type() === 'error' && !m.text().startsWith('Failed to load resource')) problems.push(m.text());
    });
    page.on('pageerror', (e) => problems.push(e.message));
    return page;
  }

  async function open(target = '/', on: BrowserContext = context): Promise<Page> {
    const page = watch(await on.newPage());
    await page.goto(`${suite.server.url}${target}`);
    await page.locator('#status', { hasText: /^(Rendered|Opened)/ }).waitFor({ timeout: WAIT_MS });
    return page;
  }

  async function replaceSource(page: Page, text: string): Promise<void> {
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(text);
  }

  async function editorText(page: Page): Promise<string> {
    return (await page.locator('.cm-line').allTextContents()).join('\n');
  }

  async function previewBackground(page: Page): Promise<string> {
    return page.frameLocator('#preview').locator('body').evaluate((body) => getComputedStyle(body).backgroundColor);
  }

  function shot(page: Page, name: string): Promise<Buffer> {
    return page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
  }

  it('typing a document shows its heading in the preview, and a reload keeps the document', async () => {
    const page = await open();
    const title = `Typed Title ${Date.now()}`;
    await replaceSource(page, '');
    await page.keyboard.type(`${title}\n${'='.repeat(title.length)}\n\nSome *typed* text.\n`, { delay: 5 });
    const heading = page.frameLocator('#preview').locator('h1', { hasText: title });
    await heading.waitFor({ timeout: WAIT_MS });
    expect(await page.frameLocator('#preview').locator('em').first().textContent()).to.equal('typed');
    const sandbox = (await page.locator('#preview').getAttribute('sandbox'))!.split(/\s+/);
    expect(sandbox).to.not.include('allow-scripts').and.not.include('allow-same-origin');
    await shot(page, 'typed');

    await page.reload();
    await page.locator('#status', { hasText: /^Rendered/ }).waitFor({ timeout: WAIT_MS });
    expect(await editorText(page)).to.include(title);
    await page.frameLocator('#preview').locator('h1', { hasText: title }).waitFor({ timeout: WAIT_MS });
  });

  it('lists a problem with its line; clicking it moves the cursor there and marks the line', async () => {
    const page = await open();
    const filler = Array.from({ length: 60 }, (_, i) => `Paragraph number ${i + 1}.\n`).join('\n');
    const doc = `Problems\n========\n\n${filler}\n.. nosuch:: argument\n\nAfter the problem.\n`;
    const line = lineOf(doc, '.. nosuch::');
    await replaceSource(page, doc);
    const item = page.locator(`#problems button[data-line="${line}"]`);
    await item.waitFor({ timeout: WAIT_MS });
    expect(await item.textContent()).to.include(`line ${line}`).and.include('nosuch');

    await item.click();
    const marked = page.locator('.cm-marked-line');
    await marked.waitFor({ timeout: WAIT_MS });
    expect(await marked.count()).to.equal(1);
    expect(await marked.textContent()).to.equal('.. nosuch:: argument');
    expect(await page.locator('#cursor').textContent()).to.equal(`Line ${line}, column 1`);
    // The line far down the document was scrolled into the editor's view.
    const scroller = (await page.locator('.cm-scroller').boundingBox())!;
    const box = (await marked.boundingBox())!;
    expect(box.y).to.be.greaterThanOrEqual(scroller.y);
    expect(box.y + box.height).to.be.lessThanOrEqual(scroller.y + scroller.height);
    expect(await page.locator('.cm-content').evaluate((el) => el === document.activeElement)).to.equal(true);
    await shot(page, 'problem-marked');

    // Editing clears the mark: it would soon point at the wrong text.
    await page.keyboard.type('x');
    await until('the mark to go', async () => ((await marked.count()) === 0 ? true : undefined));
  });

  it('the dialect selector checks and previews a Sphinx page as Sphinx would, and is remembered', async () => {
    const page = await open();
    expect(await page.locator('#dialect option').allTextContents()).to.deep.equal(['docutils', 'sphinx', 'pypi', 'github']);
    await replaceSource(page, 'Sphinx page\n===========\n\nSee :ref:`install`.\n\n.. versionadded:: 3.2\n');
    await page.locator('#problems button', { hasText: 'Unknown interpreted text role' }).first().waitFor({ timeout: WAIT_MS });
    await page.locator('#dialect').selectOption('sphinx');
    await page.locator('#status', { hasText: /no problems/ }).waitFor({ timeout: WAIT_MS });
    expect(await page.locator('#problems button').count()).to.equal(0);
    await page.frameLocator('#preview').locator('text=Added in version 3.2.').waitFor({ timeout: WAIT_MS });
    await shot(page, 'dialect-sphinx');
    const again = await open();
    expect(await again.locator('#dialect').inputValue()).to.equal('sphinx');
    await again.locator('#dialect').selectOption('docutils');
  });

  it('changing the style restyles the preview (dark d-scheme)', async () => {
    const page = await open();
    await replaceSource(page, 'Styled\n======\n\nA paragraph.\n');
    await page.frameLocator('#preview').locator('h1', { hasText: 'Styled' }).waitFor({ timeout: WAIT_MS });
    const light = await previewBackground(page);
    const styles = await page.locator('#style option').allTextContents();
    expect(styles).to.include('default').and.include('d-scheme');
    await page.locator('#style').selectOption('d-scheme');
    const dark = await until('a different background', async () => {
      const now = await previewBackground(page).catch(() => light);
      return now !== light ? now : undefined;
    });
    const [r, g, b] = dark.match(/\d+/g)!.map(Number);
    expect(r! + g! + b!, `d-scheme background ${dark}`).to.be.lessThan(3 * 80);
    await shot(page, 'style-d-scheme');
  });

  it('downloads a PDF with the chosen class, style and contents; a refused PDF shows the service error', async () => {
    const page = await open();
    await replaceSource(page, 'Printed\n=======\n\nSection\n-------\n\nText for the PDF.\n');
    // The live preview of this text reports to the same status line: let it
    // finish first, or on a slow machine it overwrites "PDF ready".
    await page.frameLocator('#preview').locator('body', { hasText: 'Text for the PDF.' }).waitFor({ timeout: WAIT_MS });
    await page.locator('#status', { hasText: /^Rendered/ }).waitFor({ timeout: WAIT_MS });
    expect(await page.locator('#pdf-class option').allTextContents()).to.include('scrartcl');
    expect(await page.locator('#pdf-style option').allTextContents()).to.include('zope');
    await page.locator('#pdf-class').selectOption('scrartcl');
    await page.locator('#pdf-style').selectOption('zope');
    await page.locator('#pdf-toc').check();
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: WAIT_MS }), page.locator('#pdf').click()]);
    expect(download.suggestedFilename()).to.match(/\.pdf$/);
    const file = await download.path();
    expect(fs.readFileSync(file).subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    await page.locator('#status', { hasText: /^PDF ready/ }).waitFor({ timeout: WAIT_MS });

    // A document LaTeX cannot typeset is a 422: the JSON message reaches the status line.
    await replaceSource(page, 'Failing\n=======\n\nMaths: :math:`x^{2}^{3}`\n');
    await page.frameLocator('#preview').locator('body', { hasText: 'Maths:' }).waitFor({ timeout: WAIT_MS });
    await page.locator('#status', { hasText: /^Rendered/ }).waitFor({ timeout: WAIT_MS });
    await page.locator('#pdf').click();
    const status = page.locator('#status.error', { hasText: /^No PDF/ });
    await status.waitFor({ timeout: WAIT_MS });
    expect(await status.textContent()).to.include('latex_failed');
  });

  it('shares a link that opens the document in another browser profile', async () => {
    const page = await open();
    const doc = `Shared by link\n==============\n\nMade at ${Date.now()}, with *emphasis*.\n`;
    await replaceSource(page, doc);
    await page.locator('#share').click();
    const link = page.locator('#share-link');
    await until('the share link', async () => ((await link.inputValue()) || undefined));
    const url = await link.inputValue();
    expect(url).to.match(new RegExp(`^${suite.server.url.replace(/[.]/g, '\\.')}/\\?token=[0-9a-f]{32}$`));
    expect(await link.evaluate((el) => el === document.activeElement)).to.equal(true);
    await shot(page, 'share');

    // Another context has its own (empty) localStorage: only the token can bring the document.
    const other = await suite.browser.newContext();
    try {
      const opened = watch(await other.newPage());
      await opened.goto(url);
      await opened.locator('#status', { hasText: /^Rendered/ }).waitFor({ timeout: WAIT_MS });
      expect(await editorText(opened)).to.equal(doc);
      await opened.frameLocator('#preview').locator('h1', { hasText: 'Shared by link' }).waitFor({ timeout: WAIT_MS });
    } finally {
      await other.close();
    }

    // In the same profile, opening the link shows the shared document but
    // leaves the draft kept in this browser alone.
    const draft = `My own draft\n============\n\nWritten at ${Date.now()}.\n`;
    await replaceSource(page, draft);
    await until('the draft to be kept', async () => ((await page.evaluate((key) => localStorage.getItem(key), STORED_KEY)) === draft ? true : undefined));
    const same = watch(await page.context().newPage());
    await same.goto(url);
    await same.locator('#status', { hasText: /^Rendered/ }).waitFor({ timeout: WAIT_MS });
    expect(await editorText(same)).to.equal(doc);
    expect(await same.evaluate((key) => localStorage.getItem(key), STORED_KEY)).to.equal(draft);
    await same.close();
  });

  it('links in the preview: within the document they scroll the preview, others open a new tab', async () => {
    const page = await open();
    const filler = Array.from({ length: 80 }, (_, i) => `Line ${i + 1} of filler.\n`).join('\n');
    await replaceSource(page, `Linked\n======\n\nJump to far-away_ or see example_.\n\n${filler}\n.. _far-away:\n\nFar away\n--------\n\nThe end.\n\n.. _example: https://example.org/\n`);
    const frame = page.frameLocator('#preview');
    const inner = frame.locator('a', { hasText: 'far-away' });
    await inner.waitFor({ timeout: WAIT_MS });
    expect(await frame.locator('a', { hasText: 'example' }).getAttribute('target')).to.equal('_blank');
    await inner.click();
    const preview = page.frames().find((f) => f.parentFrame() === page.mainFrame())!;
    await until('the preview to scroll', async () => ((await preview.evaluate(() => window.scrollY)) > 0 ? true : undefined));
    expect(preview.url()).to.equal('about:srcdoc#far-away');
    expect(await frame.locator('h2', { hasText: 'Far away' }).isVisible()).to.equal(true);
  });

  it('a render error shows in the status line and the last preview stays', async () => {
    const page = await open();
    await replaceSource(page, 'Kept Preview\n============\n\nfine\n');
    await page.frameLocator('#preview').locator('h1', { hasText: 'Kept Preview' }).waitFor({ timeout: WAIT_MS });
    // More than RST2_MAX_BODY_BYTES (2 MiB): the service answers 413 body_too_large.
    await page.keyboard.insertText(`\n${'word '.repeat(450_000)}\n`);
    const status = page.locator('#status.error');
    await status.waitFor({ timeout: WAIT_MS });
    expect(await status.textContent()).to.include('body_too_large');
    expect(await page.frameLocator('#preview').locator('h1').textContent()).to.equal('Kept Preview');
  });

  it('fits a phone-sized screen: panes stack, no horizontal scrolling', async () => {
    const phone = await suite.browser.newContext({ viewport: { width: 375, height: 740 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 });
    try {
      const page = watch(await phone.newPage());
      await page.goto(`${suite.server.url}/`);
      await page.locator('#status', { hasText: /^Rendered/ }).waitFor({ timeout: WAIT_MS });
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      expect(overflow).to.equal(0);
      const source = (await page.locator('.source-pane').boundingBox())!;
      const preview = (await page.locator('.preview-pane').boundingBox())!;
      expect(preview.y).to.be.greaterThanOrEqual(source.y + source.height);
      expect(preview.x + preview.width).to.be.lessThanOrEqual(375);
      await shot(page, 'phone');
    } finally {
      await phone.close();
    }
  });

  /** Waits until the editor holds exactly `text`. */
  async function editorHolds(page: Page, text: string, what: string): Promise<void> {
    let last = '';
    try {
      await until(what, async () => {
        last = await editorText(page);
        return last === text ? true : undefined;
      });
    } catch (err) {
      throw new Error(`${(err as Error).message}; the editor holds ${JSON.stringify(last)}`);
    }
  }

  // A title underline too short (safe fix), a list without its blank line
  // (safe) and a misspelt directive (suggested: the closest known name).
  const MISTAKES = 'Getting started\n=========\n\n* one\n* two\nAfter the list.\n\n.. notte:: Mind the gap.\n';
  const SAFE_FIXED = 'Getting started\n===============\n\n* one\n* two\n\nAfter the list.\n\n.. notte:: Mind the gap.\n';

  it('a problem with a fix has a button for it; a safe one fixes the text, the problem goes, undo restores it', async () => {
    const page = await open();
    const doc = 'Getting started\n=========\n\nSome text.\n\n.. notte:: Mind the gap.\n';
    await replaceSource(page, doc);
    const fixes = page.locator('#problems button.fix');
    const safe = fixes.and(page.locator('[data-applicability="safe"]'));
    const suggested = fixes.and(page.locator('[data-applicability="suggested"]'));
    await suggested.waitFor({ timeout: WAIT_MS });
    expect(await fixes.count()).to.equal(2);
    // Real buttons whose text says what they do; the suggested one says it is a suggestion.
    expect(await safe.textContent()).to.match(/^Fix: /).and.not.include('suggestion');
    expect(await suggested.textContent()).to.equal('Fix: Use the directive "note" (suggestion)');
    expect(await safe.evaluate((el) => el.tagName)).to.equal('BUTTON');
    expect(await page.locator('#problems li', { has: page.locator('button.fix[data-applicability="safe"]') }).textContent()).to.include('line 2').and.include('Title underline too short');
    expect(await page.locator('#fix-all').isEnabled()).to.equal(true);
    await shot(page, 'fix-buttons');

    await safe.click();
    await editorHolds(page, 'Getting started\n===============\n\nSome text.\n\n.. notte:: Mind the gap.\n', 'the underline to be fixed');
    // The page checks again: the underline's problem goes, the directive's stays (and its fix is offered again).
    await page.locator('#problems li', { hasText: 'Title underline too short' }).waitFor({ state: 'detached', timeout: WAIT_MS });
    await suggested.and(page.locator(':enabled')).waitFor({ timeout: WAIT_MS });
    expect(await fixes.count()).to.equal(1);
    expect(await page.locator('#fix-all').isDisabled()).to.equal(true);

    // The fix is one undo step of its own, taken back with the keyboard in the editor.
    expect(await page.locator('.cm-content').evaluate((el) => el === document.activeElement)).to.equal(true);
    await page.keyboard.press('Control+z');
    await editorHolds(page, doc, 'undo to restore the underline');
    await page.locator('#problems li', { hasText: 'Title underline too short' }).waitFor({ timeout: WAIT_MS });
  });

  it('"Fix all safe" applies the safe fixes and leaves the suggested one; undo restores the text', async () => {
    const page = await open();
    await replaceSource(page, MISTAKES);
    const fixAll = page.locator('#fix-all');
    await page.locator('#problems button.fix').nth(2).waitFor({ timeout: WAIT_MS });
    expect(await fixAll.textContent()).to.equal('Fix all safe');
    expect(await fixAll.isEnabled()).to.equal(true);

    await fixAll.click();
    await editorHolds(page, SAFE_FIXED, 'the safe fixes');
    await page.locator('#status', { hasText: /^Rendered.*1 problem\.$/ }).waitFor({ timeout: WAIT_MS });
    const left = page.locator('#problems button.fix');
    expect(await left.count()).to.equal(1);
    expect(await left.getAttribute('data-applicability')).to.equal('suggested');
    // No safe fix is offered any more: nothing for the control to do.
    expect(await fixAll.isDisabled()).to.equal(true);

    await page.keyboard.press('Control+z');
    await editorHolds(page, MISTAKES, 'undo to restore the text');
    await page.locator('#fix-all:enabled').waitFor({ timeout: WAIT_MS });
  });

  it('a fix after an emoji (two UTF-16 units, one code point) and a U+2028 (a line break to docutils, not to CodeMirror) lands at its place', async () => {
    const page = await open();
    const doc = 'Smile\n=====\n\nPage\u2028break.\n\nA 😀 smile *star here.\n';
    await replaceSource(page, doc);
    await editorHolds(page, doc, 'the typed document');
    const fix = page.locator('#problems button.fix', { hasText: 'Escape the emphasis start-string' });
    await fix.waitFor({ timeout: WAIT_MS });
    await fix.click();
    await editorHolds(page, 'Smile\n=====\n\nPage\u2028break.\n\nA 😀 smile \\*star here.\n', 'the star to be escaped');
    await page.locator('#problems .problem-none').waitFor({ timeout: WAIT_MS });
    await page.keyboard.press('Control+z');
    await editorHolds(page, doc, 'undo to bring the star back');
  });

  it('a fix is offered only for the text it was made for: after an edit it waits for the next check', async () => {
    const page = await open();
    await replaceSource(page, MISTAKES);
    const fix = page.locator('#problems button.fix[data-applicability="suggested"]');
    await fix.and(page.locator(':enabled')).waitFor({ timeout: WAIT_MS });
    await page.keyboard.press('Control+Home');
    await page.keyboard.insertText('New first line\n\n');
    await fix.and(page.locator(':disabled')).waitFor({ timeout: WAIT_MS });
    // Undoing back to the checked text offers it again at once.
    await page.keyboard.press('Control+z');
    await fix.and(page.locator(':enabled')).waitFor({ timeout: WAIT_MS });
  });

  it('keyboard: Tab reaches a problem, Enter takes the editor to its line', async () => {
    const page = await open();
    const doc = 'Keys\n====\n\nText with an `unclosed interpreted text.\n\nMore.\n';
    await replaceSource(page, doc);
    const first = page.locator('#problems button').first();
    await first.waitFor({ timeout: WAIT_MS });
    const line = Number(await first.getAttribute('data-line'));
    expect(line).to.be.within(1, doc.split('\n').length);

    // Start from the top of the page and Tab forward until a problem has focus.
    await page.locator('body').click({ position: { x: 5, y: 5 } });
    await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    let presses = 0;
    while (!(await first.evaluate((el) => el === document.activeElement))) {
      expect(++presses, 'Tab presses to reach the problem').to.be.lessThan(30);
      await page.keyboard.press('Tab');
    }
    await page.keyboard.press('Enter');
    await page.locator('.cm-marked-line').waitFor({ timeout: WAIT_MS });
    expect(await page.locator('#cursor').textContent()).to.equal(`Line ${line}, column 1`);
    expect(await page.locator('.cm-marked-line').textContent()).to.equal(doc.split('\n')[line - 1]);
    expect(await page.locator('.cm-content').evaluate((el) => el === document.activeElement)).to.equal(true);
    await shot(page, 'keyboard');
  });
});
