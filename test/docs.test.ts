/**
 * The manual (docs/*.rst): every page passes the service's own check with no
 * problem at all, and the service serves it rendered by its own engine at
 * /docs/ (src/http/docs.ts) under the editor page's Content-Security-Policy;
 * in headless Chromium the index loads, every page it links to loads with its
 * title, links between pages land on ids that exist, and nothing is logged.
 */
import { expect } from 'chai';

import type { Page } from 'playwright-core';

import { EDITOR_CSP } from '../src/http/csp.js';
import type { RunningServer } from '../src/server.js';
import { browserSuite, SCREENSHOTS } from './support/chromium.js';
import { docsPages, type DocsPage } from './support/docs.js';
import { api, errorOf, server } from './support/server.js';

const pages = docsPages();

describe('docs: every page passes our own check', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('has the pages the README links to, each with a title', () => {
    expect(pages.map((p) => p.name)).to.include.members(['index', 'install', 'api', 'dialects', 'pdf', 'configuration', 'operations', 'security', 'cli', 'binary', 'editor', 'lsp', 'architecture', 'benchmarks', 'changelog']);
    for (const p of pages) expect(p.title, p.file).to.match(/\w/);
  });

  for (const p of pages) {
    it(`${p.file}: check (dialect docutils) answers []`, async () => {
      const res = await api(s, '/1.0/rst2/check?dialect=docutils', { method: 'POST', headers: { 'Content-Type': 'text/x-rst; charset=utf-8' }, body: p.text });
      expect(res.status).to.equal(200);
      expect(await res.json(), p.file).to.deep.equal([]);
    });
  }
});

/** Relative links of a served page (hrefs that are neither absolute nor rooted). */
function relativeLinks(html: string): string[] {
  return [...html.matchAll(/<a [^>]*href="([^"]+)"/g)].map((m) => m[1]!.replace(/&amp;/g, '&')).filter((href) => !/^[a-z][a-z0-9+.-]*:/i.test(href) && !href.startsWith('/'));
}

describe('docs served at /docs/', () => {
  let s: RunningServer;
  const served = new Map<string, string>();
  before(async () => {
    s = await server();
  });

  it('serves the index at /docs/ and each page NAME.rst at /docs/NAME.html, with the editor page\'s CSP', async () => {
    for (const p of pages) {
      const target = p.name === 'index' ? '/docs/' : `/docs/${p.name}.html`;
      const res = await api(s, target);
      expect(res.status, target).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(res.headers.get('content-security-policy')).to.equal(EDITOR_CSP);
      expect(res.headers.get('cache-control')).to.equal('no-cache');
      expect(res.headers.get('x-content-type-options')).to.equal('nosniff');
      const html = await res.text();
      // Rendered by our engine: docutils' own generator line, the page's title as its <h1>.
      expect(html).to.match(/<meta name="generator" content="Docutils 0\.23/);
      expect(html).to.include(`<h1 class="title">${p.title.replace(/&/g, '&amp;')}</h1>`);
      served.set(p.name, html);
    }
    expect(await (await api(s, '/docs/index.html')).text()).to.equal(served.get('index'));
  });

  it('links pages to pages and sections that exist', () => {
    expect(served.size, 'the previous test fills this').to.equal(pages.length);
    const linked = new Set<string>();
    for (const [name, html] of served) {
      for (const href of relativeLinks(html)) {
        const [file, fragment] = href.split('#') as [string, string | undefined];
        const target = file === '' ? name : file.replace(/\.html$/, '');
        expect(served.has(target), `${name}.html links to ${href}: no such page`).to.equal(true);
        if (fragment) expect(served.get(target), `${name}.html links to ${href}: no such id`).to.include(`id="${fragment}"`);
        linked.add(target);
      }
    }
    const fromIndex = new Set(relativeLinks(served.get('index')!).map((h) => h.split('#')[0]!.replace(/\.html$/, '')));
    expect(pages.map((p) => p.name).filter((n) => n !== 'index' && !fromIndex.has(n)), 'pages the index does not link to').to.deep.equal([]);
  });

  it('redirects /docs to /docs/, revalidates with ETag, answers HEAD, refuses other methods, and 404s an unknown page', async () => {
    const redirect = await api(s, '/docs', { redirect: 'manual' });
    expect(redirect.status).to.equal(301);
    expect(redirect.headers.get('location')).to.equal('/docs/');
    const page = await api(s, '/docs/api.html');
    const etag = page.headers.get('etag')!;
    expect(etag).to.match(/^"[0-9a-f]{32}"$/);
    expect((await api(s, '/docs/api.html', { headers: { 'If-None-Match': etag } })).status).to.equal(304);
    const head = await api(s, '/docs/api.html', { method: 'HEAD' });
    expect(head.status).to.equal(200);
    expect(Number(head.headers.get('content-length'))).to.be.greaterThan(10_000);
    const post = await api(s, '/docs/api.html', { method: 'POST', body: 'x' });
    expect(post.status).to.equal(405);
    expect(post.headers.get('allow')).to.equal('GET, HEAD');
    expect((await errorOf(post)).code).to.equal('method_not_allowed');
    for (const missing of ['/docs/nope.html', '/docs/api', '/docs/api.rst', '/docs/../package.json', '/docs/%2e%2e%2fpackage.json', '/docs/API.html']) {
      const res = await api(s, missing);
      expect(res.status, missing).to.equal(404);
      expect((await errorOf(res)).code, missing).to.equal('not_found');
    }
  });
});

describe('docs in Chromium', function () {
  const suite = browserSuite();

  it('loads the index, follows its link to every page (each shows its title), with no console error or CSP violation', async () => {
    const context = await suite.browser.newContext({ viewport: { width: 1100, height: 900 } });
    const problems: string[] = [];
    const failed: string[] = [];
    const watch = (page: Page): Page => {
      page.on('console', (m) => {
        if (m.type() === 'error' || m.type() === 'warning') problems.push(`${page.url()}: ${m.text()}`);
      });
      page.on('pageerror', (e) => problems.push(`${page.url()}: ${e.message}`));
      page.on('response', (r) => {
        if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
      });
      return page;
    };
    const page = watch(await context.newPage());
    // A CSP violation is reported to the page as an event besides the console.
    await page.addInitScript(() => {
      document.addEventListener('securitypolicyviolation', (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
    });
    const res = await page.goto(`${suite.server.url}/docs`);
    expect(res?.status()).to.equal(200);
    expect(page.url()).to.equal(`${suite.server.url}/docs/`);
    const index = pages.find((p) => p.name === 'index')!;
    expect(await page.locator('h1.title').innerText()).to.equal(index.title);
    await page.screenshot({ path: `${SCREENSHOTS}/docs-index.png` });

    const byTitle = new Map<string, DocsPage>(pages.map((p) => [p.name, p]));
    const hrefs = await page.locator('main a[href$=".html"]').evaluateAll((links) => [...new Set(links.map((a) => (a as HTMLAnchorElement).getAttribute('href')!))]);
    const reached = new Set<string>();
    for (const href of hrefs) {
      await page.goto(`${suite.server.url}/docs/`);
      // Click the link as a reader would, and land on its page.
      await Promise.all([page.waitForURL(`${suite.server.url}/docs/${href}`), page.locator(`main a[href="${href}"]`).first().click()]);
      const name = href.replace(/\.html$/, '');
      const expected = byTitle.get(name);
      expect(expected, `the index links to ${href}, which is no page of docs/`).to.not.equal(undefined);
      expect(await page.locator('h1.title').innerText(), href).to.equal(expected!.title);
      expect(await page.locator('body').innerText(), href).to.include(expected!.title);
      reached.add(name);
    }
    expect(pages.map((p) => p.name).filter((n) => n !== 'index' && !reached.has(n)), 'pages not reached from the index').to.deep.equal([]);
    await page.goto(`${suite.server.url}/docs/api.html`);
    await page.screenshot({ path: `${SCREENSHOTS}/docs-api.png` });
    await context.close();
    expect(failed, 'failed requests').to.deep.equal([]);
    expect(problems, 'console errors and CSP violations').to.deep.equal([]);
  });
});
