/**
 * Script injection through the HTML output (math, meta, images, every
 * writer path): each payload is rendered by the real server, then
 *
 * - parsed the way a browser parses it (parse5) and searched for anything
 *   active, and
 * - saved to a file and opened with file:// in Chromium, where no CSP
 *   header protects it (what `curl -o page.html` or an embedding client
 *   gets), with every way a payload could announce itself watched.
 *
 * Also: ordinary math renders as native MathML, and docutils' standard
 * substitution sets can be included while file insertion stays off.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import type { BrowserContext, Page } from 'playwright-core';

import { PYODIDE_PATHS, type HtmlParts as EngineParts } from '../src/engines/python/contract.js';
import type { CheckItem } from '../src/engines/python/protocol.js';
import { HTML_PART_NAMES } from '../src/rendering.js';
import { projectRoot } from '../src/paths.js';
import type { RunningServer } from '../src/server.js';
import { activeContent, schemeOf } from './support/active-content.js';
import { browserSuite, SCREENSHOTS } from './support/chromium.js';
import { INJECTION_CASES } from './support/injection-cases.js';
import { api, form, server } from './support/server.js';

const SAVED = path.join(projectRoot, 'test-output', 'injection');

/** What `format=parts` answers. */
type HtmlParts = EngineParts & { messages: CheckItem[] };

async function renderHtml(s: RunningServer, rst: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await api(s, '/1.0/rst2/html', form({ rst, ...extra }));
  expect(res.status, await res.clone().text()).to.equal(200);
  return res.text();
}

/** `format=parts` of a document: every part as served. */
async function renderParts(s: RunningServer, rst: string, extra: Record<string, string> = {}): Promise<HtmlParts> {
  const res = await api(s, '/1.0/rst2/html', form({ rst, format: 'parts', ...extra }));
  expect(res.status, await res.clone().text()).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
  return (await res.json()) as HtmlParts;
}

async function renderFragment(s: RunningServer, rst: string, extra: Record<string, string> = {}): Promise<string> {
  const res = await api(s, '/1.0/rst2/html', form({ rst, format: 'fragment', ...extra }));
  expect(res.status, await res.clone().text()).to.equal(200);
  expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
  return res.text();
}

/** The page a static-site generator lays out from the parts: head parts in <head>, the rest in <body>. */
function siteGeneratorPage(parts: HtmlParts): string {
  return (
    `<!DOCTYPE html><html><head>${parts.meta}${parts.stylesheet}<title>${parts.title}</title></head>` +
    `<body><h1>${parts.title}</h1><p>${parts.subtitle}</p>${parts.docinfo}${parts.body}<hr>${parts.fragment}<hr>${parts.html_body}</body></html>`
  );
}

function fileName(name: string): string {
  return `${name.replace(/[^a-z0-9]+/gi, '-').toLowerCase()}.html`;
}

describe('HTML output carries no active content', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('the checker finds what a browser would run', () => {
    // The oracle itself: parse5 reads these as a browser does, MathML's
    // HTML islands (<mtext>) included.
    const bad: Record<string, string> = {
      '<script>alert(1)</script>': '<script>',
      '<a href=" java\tscript:alert(1)">x</a>': 'href=',
      '<p><img src=x onerror=alert(1)></p>': 'onerror on <img>',
      '<math><mtext><img src=x onerror=alert(1)></mtext></math>': 'onerror on <img>',
      '<meta http-equiv="refresh" content="0;url=x">': 'http-equiv on <meta>',
      '<span style="background:url(javascript:x)">x</span>': 'style on <span>',
    };
    for (const [html, expected] of Object.entries(bad)) {
      expect(activeContent(`<!DOCTYPE html><html><head></head><body>${html}</body></html>`).join(' '), html).to.include(expected);
    }
    expect(schemeOf('\u0001 JaVa\tScRiPt:x')).to.equal('javascript');
  });

  for (const { name, rst } of INJECTION_CASES) {
    it(`${name}: rendered, nothing active`, async () => {
      const html = await renderHtml(s, rst);
      expect(html).to.match(/^<!DOCTYPE html>/).and.include('<main');
      expect(activeContent(html)).to.deep.equal([]);
    });
    it(`${name}: format=parts and format=fragment, nothing active in any part`, async () => {
      const parts = await renderParts(s, rst);
      // Each part alone, where a generator may put it: head parts in <head>, the others in <body>.
      for (const name of HTML_PART_NAMES) {
        const where = name === 'stylesheet' || name === 'meta' ? `<head>${parts[name]}</head><body></body>` : `<head></head><body>${parts[name]}</body>`;
        expect(activeContent(`<!DOCTYPE html><html>${where}</html>`), name).to.deep.equal([]);
      }
      expect(activeContent(siteGeneratorPage(parts))).to.deep.equal([]);
      const fragment = await renderFragment(s, rst);
      expect(fragment).to.equal(parts.fragment);
      expect(activeContent(`<!DOCTYPE html><html><head></head><body>${fragment}</body></html>`)).to.deep.equal([]);
    });
  }

  // dialect=github is the one place raw HTML is allowed (GitHub shows it,
  // sanitized): every payload above, and the classic ways past a sanitizer,
  // written as raw HTML.
  const RAW_HTML = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<svg onload=alert(1)><circle/></svg>',
    '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
    '<a href="javascript:alert(1)">a</a> <a href="&#106;avascript:alert(1)">b</a> <a href=" java\tscript:alert(1)">c</a>',
    '<form action="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button></form>',
    '<object data="javascript:alert(1)"></object><embed src="javascript:alert(1)">',
    '<math><mtext><img src=x onerror=alert(1)></mtext></math>',
    '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></p></noscript>',
    '<svg><style><img src=x onerror=alert(1)></style></svg>',
    '<details open ontoggle=alert(1)>x</details>',
    '<base href="javascript:alert(1)//"><meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
    '<div style="background:url(javascript:alert(1))">x</div><span style="x:expression(alert(1))">y</span>',
    '<a href="#" title="x" onclick="alert(1)" name="top">n</a><img src="https://e.invalid/a.png" alt="https://e.invalid" longdesc="javascript:alert(1)">',
    '<!--><img src=x onerror=alert(1)>--><![CDATA[<img src=x onerror=alert(1)>]]>',
    '<textarea><img src=x onerror=alert(1)></textarea><title><img src=x onerror=alert(1)></title>',
  ];
  const GITHUB_CASES = [
    ...INJECTION_CASES,
    ...RAW_HTML.map((html, i) => ({ name: `raw HTML ${i + 1}`, rst: `Injection\n=========\n\n.. raw:: html\n\n   ${html}\n\nAnd :kbd:\`${html}\`.\n` })),
  ];
  for (const { name, rst } of GITHUB_CASES) {
    it(`dialect=github, ${name}: page, parts and fragment, nothing active`, async () => {
      const github = { dialect: 'github' };
      expect(activeContent(await renderHtml(s, rst, github))).to.deep.equal([]);
      const parts = await renderParts(s, rst, github);
      for (const name of HTML_PART_NAMES) {
        const where = name === 'stylesheet' || name === 'meta' ? `<head>${parts[name]}</head><body></body>` : `<head></head><body>${parts[name]}</body>`;
        expect(activeContent(`<!DOCTYPE html><html>${where}</html>`), name).to.deep.equal([]);
      }
      expect(activeContent(siteGeneratorPage(parts))).to.deep.equal([]);
      const fragment = await renderFragment(s, rst, github);
      expect(activeContent(`<!DOCTYPE html><html><head></head><body>${fragment}</body></html>`)).to.deep.equal([]);
    });
  }

  it('math is written as MathML, and an unconvertible formula as a visible message', async () => {
    const html = await renderHtml(s, 'Inline :math:`\\frac{a}{b}`.\n\n.. math::\n\n   \\sum_{i=1}^n i\n\nBad :math:`\\href{javascript:alert(1)}{x}`.\n');
    expect(html).to.include('<math xmlns="http://www.w3.org/1998/Math/MathML">').and.include('<mfrac>');
    expect(html).to.include('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">').and.include('<munderover>');
    // docutils 0.23's wording (0.19: "Unknown LaTeX command: href").
    expect(html).to.include('Unknown LaTeX command &quot;\\href&quot;.').and.include('\\href{javascript:alert(1)}{x}');
  });

  it('images stay links: :loading: embed never reads the file the URI names (docutils 0.21+)', async () => {
    // Files inside the worker (our sources, docutils' data) and one that never ends.
    for (const uri of [`${PYODIDE_PATHS.python}/rst2/settings.py`, '/usr/share/docutils/writers/html5_polyglot/minimal.css', '/dev/urandom']) {
      const rst = `Embed\n=====\n\n.. image:: ${uri}\n   :loading: embed\n\n.. figure:: ${uri}\n   :loading: embed\n\n   Caption.\n`;
      const html = await renderHtml(s, rst);
      const body = html.slice(html.indexOf('<main'));
      expect(body.match(/<img [^>]*>/g), uri).to.have.length(2);
      for (const img of body.match(/<img [^>]*>/g)!) expect(img, uri).to.include(`src="${uri}"`).and.not.include('data:');
      expect(body, uri).to.include('Images are not embedded here').and.not.include('Cannot embed image');
      const res = await api(s, '/1.0/rst2/check', form({ rst }));
      expect(res.status).to.equal(200);
      const messages = JSON.stringify(await res.json());
      expect(messages, uri).to.include('Images are not embedded here');
    }
  });

  it('.. meta:: keeps name, property, content, lang, dir and scheme only', async () => {
    const html = await renderHtml(s, '.. meta::\n   :keywords lang=en dir=ltr: a, b\n   :property=og:title: Open\n   :description a><script>alert(1)</script><x=y: d\n   :http-equiv=refresh: 0\n\nx\n');
    const metas = html.match(/<meta [^>]*>/g)!.filter((m) => !/charset|viewport|generator/.test(m));
    expect(metas).to.deep.equal([
      '<meta content="a, b" dir="ltr" lang="en" name="keywords" xml:lang="en" />',
      '<meta content="Open" property="og:title" />',
      '<meta content="d" name="description" />',
    ]);
  });

  it("docutils' standard substitution sets can be included; other files stay refused", async () => {
    const html = await renderHtml(s, '.. include:: <isonum.txt>\n.. include:: <isogrk1.txt>\n\n|frac12| |copy| |agr|\n');
    expect(html).to.include('<p>½ © α</p>').and.not.include('class="system-message"');
    for (const target of ['/etc/passwd', '../etc/passwd', '<../../../../etc/passwd>', '<README.txt>', 'isonum.txt']) {
      const refused = await renderHtml(s, `.. include:: ${target}\n`);
      expect(refused, target).to.include('&quot;include&quot; directive disabled.').and.not.include('root:');
    }
  });
});

describe('HTML injection payloads saved to a file and opened in Chromium', function () {
  const suite = browserSuite();
  let context: BrowserContext;
  /** Everything that shows a payload ran: alert() and friends, dialogs, errors, requests, navigations. */
  let signs: string[];

  before(() => {
    fs.mkdirSync(SAVED, { recursive: true });
  });

  beforeEach(async () => {
    signs = [];
    context = await suite.browser.newContext({ viewport: { width: 1000, height: 800 } });
    await context.exposeBinding('__rst2ScriptRan', (_source, what: string) => {
      signs.push(`script ran: ${what}`);
    });
    // Before any of the page's own script could run: the payloads' alert()
    // and its relatives report instead of opening a dialog.
    await context.addInitScript(() => {
      const report = (window as unknown as { __rst2ScriptRan: (what: string) => void }).__rst2ScriptRan;
      const global = window as unknown as Record<string, unknown>;
      for (const name of ['alert', 'confirm', 'prompt', 'print']) {
        global[name] = (...args: unknown[]) => report(`${name}(${args.map(String).join(', ')})`);
      }
    });
    // Nothing leaves the file: any other request is refused and counted.
    await context.route('**/*', (route) => {
      const url = route.request().url();
      if (url.startsWith('file:')) return route.continue();
      signs.push(`request: ${url}`);
      return route.abort();
    });
  });

  afterEach(async () => {
    await context.close();
  });

  async function open(file: string): Promise<Page> {
    const page = await context.newPage();
    page.on('dialog', (dialog) => {
      signs.push(`dialog: ${dialog.message()}`);
      void dialog.dismiss();
    });
    page.on('pageerror', (error) => signs.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      // Chromium's own note for the payloads' missing images (src=x).
      if (!message.text().startsWith('Failed to load resource')) signs.push(`console: ${message.text()}`);
    });
    const url = pathToFileURL(file).href;
    await page.goto(url, { waitUntil: 'load' });
    page.on('framenavigated', (frame) => signs.push(`navigated: ${frame.url()}`));
    return page;
  }

  for (const { name, rst } of INJECTION_CASES) {
    it(`${name}: no script runs`, async () => {
      const file = path.join(SAVED, fileName(name));
      fs.writeFileSync(file, await renderHtml(suite.server, rst));
      await expectNothingRuns(file);
    });
    it(`${name}: its parts laid out by a site generator, no script runs`, async () => {
      const file = path.join(SAVED, `parts-${fileName(name)}`);
      fs.writeFileSync(file, siteGeneratorPage(await renderParts(suite.server, rst)));
      await expectNothingRuns(file);
    });
  }

  async function expectNothingRuns(file: string): Promise<void> {
    const page = await open(file);
    // Payloads that wait for the reader: hover, focus and click every
    // element (links are checked by their scheme instead of followed).
    const live = await page.evaluate(() => {
      const found: string[] = [];
      for (const element of Array.from(document.querySelectorAll('*'))) {
        for (const attr of Array.from(element.attributes)) {
          if (attr.name.startsWith('on')) found.push(`${attr.name} on ${element.tagName}`);
        }
        if (element instanceof HTMLAnchorElement && element.hasAttribute('href') && /^(javascript|vbscript|data):$/.test(element.protocol)) found.push(`link ${element.href.slice(0, 40)}`);
        if (!(element instanceof HTMLAnchorElement)) {
          for (const type of ['mouseover', 'mouseenter', 'focus', 'click']) element.dispatchEvent(new Event(type, { bubbles: true }));
        }
      }
      for (const selector of ['script', 'iframe', 'object', 'embed', 'base', 'form', 'link', 'meta[http-equiv]', 'svg']) {
        if (document.querySelector(selector)) found.push(selector);
      }
      return found;
    });
    // A refresh <meta> would navigate right after load; give it the chance.
    await page.waitForTimeout(300);
    expect({ ran: signs, activeMarkup: live }).to.deep.equal({ ran: [], activeMarkup: [] });
    expect(page.url()).to.equal(pathToFileURL(file).href);
  }

  it('a payload that does run is noticed (the watch works)', async () => {
    const file = path.join(SAVED, 'watch-self-test.html');
    fs.writeFileSync(file, '<!DOCTYPE html><html><head><title>t</title></head><body><img src="x" onerror="alert(7)"><p onmouseover="confirm(8)">p</p></body></html>');
    const page = await open(file);
    await page.locator('p').dispatchEvent('mouseover');
    expect(signs).to.include('script ran: alert(7)').and.include('script ran: confirm(8)');
  });

  it('ordinary math renders as MathML: fractions stacked, scripts raised and lowered, limits above and below', async () => {
    const rst = [
      'Maths',
      '=====',
      '',
      'Inline: :math:`\\frac{a+b}{c}`, :math:`x_i^2 + y^{n}`, :math:`\\alpha\\beta\\gamma\\,\\Omega`.',
      '',
      '.. math::',
      '',
      '   \\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}',
      '',
      '.. math::',
      '',
      '   e^{i\\pi} + 1 = 0, \\quad \\int_0^\\infty e^{-x^2}\\,dx = \\frac{\\sqrt{\\pi}}{2}',
      '',
    ].join('\n');
    const file = path.join(SAVED, 'mathml.html');
    fs.writeFileSync(file, await renderHtml(suite.server, rst));
    const page = await open(file);
    const layout = await page.evaluate(() => {
      const box = (el: Element | null | undefined) => el!.getBoundingClientRect();
      const maths = Array.from(document.querySelectorAll('math'));
      const frac = document.querySelector('mfrac')!;
      const sup = document.querySelector('msup, msubsup')!;
      const sum = document.querySelector('munderover')!;
      return {
        displays: maths.map((m) => getComputedStyle(m).display),
        text: maths.map((m) => m.textContent).join(' '),
        fraction: { numeratorBottom: box(frac.children[0]).bottom, denominatorTop: box(frac.children[1]).top },
        scripts: { base: box(sup.children[0]), lower: box(sup.children[1]), upper: box(sup.children[sup.children.length - 1]) },
        sum: { operator: box(sum.children[0]), under: box(sum.children[1]), over: box(sum.children[2]) },
      };
    });
    await page.screenshot({ path: path.join(SCREENSHOTS, 'mathml.png'), fullPage: true });
    // Native MathML layout (Chromium's MathML Core: display "math", i.e.
    // inline math, and "block math"), not text in a row.
    expect(layout.displays).to.deep.equal(['math', 'math', 'math', 'block math', 'block math']);
    expect(layout.text).to.include('α').and.include('β').and.include('Ω').and.include('∑').and.include('∫');
    expect(layout.fraction.numeratorBottom).to.be.at.most(layout.fraction.denominatorTop);
    expect(layout.scripts.upper.top).to.be.below(layout.scripts.base.top);
    expect(layout.scripts.lower.bottom).to.be.above(layout.scripts.base.bottom);
    expect(layout.sum.under.top).to.be.at.least(layout.sum.operator.bottom - 1);
    expect(layout.sum.over.bottom).to.be.at.most(layout.sum.operator.top + 1);
    expect(signs).to.deep.equal([]);
  });
});
