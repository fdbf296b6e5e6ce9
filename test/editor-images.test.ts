/**
 * Remote images in the editor's preview, in Chromium: an author's own draft
 * shows them; a shared link holds them back (no request reaches the image's
 * host) until the reader allows them. The image host is a real HTTPS server
 * on loopback with a certificate made for the test (the editor's CSP allows
 * https: images only).
 */
import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import type { Page } from 'playwright-core';

import { browserSuite } from './support/chromium.js';
import { png } from './support/images.js';

const WAIT_MS = 60_000;

/** A self-signed certificate for 127.0.0.1, made by Debian's openssl. */
function certificate(): { key: Buffer; cert: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-cert-'));
  try {
    const made = spawnSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem')], { encoding: 'utf8' });
    if (made.status !== 0) throw new Error(`openssl failed: ${made.stderr}`);
    return { key: fs.readFileSync(path.join(dir, 'key.pem')), cert: fs.readFileSync(path.join(dir, 'cert.pem')) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

describe('remote images in the editor preview (Chromium)', function () {
  // The test's own certificate is not one Chromium knows.
  const suite = browserSuite(['--ignore-certificate-errors']);
  let host: https.Server;
  let imageUrl: string;
  const hits: { path: string; referer: string | undefined }[] = [];

  before(async () => {
    host = https.createServer(certificate(), (req, res) => {
      hits.push({ path: req.url ?? '', referer: req.headers.referer });
      res.writeHead(200, { 'Content-Type': 'image/png' });
      res.end(png(40, 20));
    });
    await new Promise<void>((r) => host.listen(0, '127.0.0.1', r));
    imageUrl = `https://127.0.0.1:${(host.address() as AddressInfo).port}/badge.png`;
  });

  after(async () => {
    await new Promise<void>((r) => (host ? host.close(() => r()) : r()));
  });

  const doc = (n: string) => `Pictures\n========\n\n.. image:: ${imageUrl}?${n}\n   :alt: the badge ${n}\n`;

  async function typeDocument(page: Page, text: string): Promise<void> {
    await page.locator('.cm-content').click();
    await page.keyboard.press('Control+A');
    await page.keyboard.insertText(text);
  }

  /** The preview's image, once it has loaded (its natural width). */
  async function loadedWidth(page: Page): Promise<number> {
    const img = page.frameLocator('#preview').locator('img');
    await img.waitFor({ timeout: WAIT_MS });
    return img.evaluate(async (el: HTMLImageElement) => {
      if (!el.complete) await new Promise((r) => el.addEventListener('load', r, { once: true }));
      return el.naturalWidth;
    });
  }

  it("shows an https image in the author's own draft, sending no Referer", async () => {
    const context = await suite.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${suite.server.url}/`);
      await typeDocument(page, doc('own'));
      expect(await loadedWidth(page)).to.equal(40);
      const hit = hits.find((h) => h.path === '/badge.png?own');
      expect(hit, 'the image host was asked').to.not.equal(undefined);
      expect(hit!.referer).to.equal(undefined);
    } finally {
      await context.close();
    }
  });

  it('holds remote images back in a shared link until the reader allows them', async () => {
    const token = await (await fetch(`${suite.server.url}/1.0/rst2/token`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: doc('shared') })).text();
    const context = await suite.browser.newContext();
    try {
      const page = await context.newPage();
      await page.goto(`${suite.server.url}/?token=${token}`);
      const held = page.frameLocator('#preview').locator('.rst2-held-image');
      await held.waitFor({ timeout: WAIT_MS });
      expect(await held.textContent()).to.include('the badge shared');
      expect(await page.locator('#held-images').textContent()).to.equal('1 held back');
      expect(await page.locator('#remote-images').isChecked()).to.equal(false);
      expect(hits.some((h) => h.path === '/badge.png?shared'), 'no request before the reader allows it').to.equal(false);

      await page.locator('#remote-images').check();
      expect(await loadedWidth(page)).to.equal(40);
      expect(hits.some((h) => h.path === '/badge.png?shared')).to.equal(true);
      expect(await page.locator('#held-images').textContent()).to.equal('');
    } finally {
      await context.close();
    }
  });
});
