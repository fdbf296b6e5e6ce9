import { expect } from 'chai';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { makeDocument } from '../src/documents/document.js';
import { paths, projectRoot } from '../src/paths.js';
import { renderKey } from '../src/renderer.js';
import { readVersions } from '../src/versions.js';
import type { RunningServer } from '../src/server.js';
import { api, errorOf, form, query, server } from './support/server.js';
import { haveTex } from './support/tex.js';

const DOC = 'Greeting\n========\n\nHello *world* with ``code``.\n\n.. code-block:: python\n\n   def f():\n       return 1\n';

function expectRendered(html: string): void {
  expect(html).to.match(/^<!DOCTYPE html>/);
  expect(html).to.include('<title>Greeting</title>');
  expect(html).to.include('<em>world</em>');
  expect(html).to.include('<span class="k">def</span>');
}

describe('HTML rendering over HTTP', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it("/health names docutils, Pygments and the TeX engine as built, and a page keeps docutils' generator meta", async () => {
    const res = await api(s, '/health');
    expect(res.status).to.equal(200);
    const { versions } = (await res.json()) as { versions: { docutils: string; pygments: string; tex: string | null } };
    const python = JSON.parse(fs.readFileSync(path.join(projectRoot, 'wasm/python/manifest.json'), 'utf8')) as { packages: { name: string; version: string }[] };
    const debian = (name: string): string => python.packages.find((p) => p.name === name)!.version;
    expect(debian('python3-docutils').startsWith(`${versions.docutils}+`) || debian('python3-docutils').startsWith(`${versions.docutils}-`)).to.equal(true);
    expect(debian('python3-pygments').startsWith(`${versions.pygments}`)).to.equal(true);
    if (haveTex) {
      const { engine } = JSON.parse(fs.readFileSync(path.join(paths.texDir, 'manifest.json'), 'utf8')) as { engine: { name: string; version: string } };
      expect(versions.tex).to.equal(`${engine.name} ${engine.version}`);
    } else {
      expect(versions.tex).to.equal(null);
    }
    const html = await (await api(s, '/1.0/rst2/html', form({ rst: DOC }))).text();
    expect(html).to.include(`<meta name="generator" content="Docutils ${versions.docutils}: https://docutils.sourceforge.io/" />`);
  });

  it('renders a GET query', async () => {
    const res = await api(s, `/1.0/rst2/html${query({ rst: DOC })}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expectRendered(await res.text());
  });

  it('renders an urlencoded POST form', async () => {
    const res = await api(s, '/1.0/rst2/html', form({ rst: DOC }));
    expect(res.status).to.equal(200);
    expectRendered(await res.text());
  });

  it('renders a multipart POST with rst as a text field', async () => {
    const body = new FormData();
    body.append('rst', DOC);
    body.append('style', 'd-scheme');
    const res = await api(s, '/1.0/rst2/html', { method: 'POST', body });
    expect(res.status).to.equal(200);
    expectRendered(await res.text());
  });

  it('renders a multipart POST with rst as an uploaded file', async () => {
    const body = new FormData();
    body.append('rst', new Blob([DOC], { type: 'text/x-rst' }), 'doc.rst');
    const res = await api(s, '/1.0/rst2/html', { method: 'POST', body });
    expect(res.status).to.equal(200);
    expectRendered(await res.text());
  });

  for (const type of ['text/x-rst', 'text/plain; charset=utf-8']) {
    it(`renders a raw ${type} body, with options in the query`, async () => {
      const res = await api(s, '/1.0/rst2/html?style=d-scheme', { method: 'POST', headers: { 'Content-Type': type }, body: DOC });
      expect(res.status).to.equal(200);
      const html = await res.text();
      expectRendered(html);
    });
  }

  it('keeps non-ASCII text intact', async () => {
    const res = await api(s, '/1.0/rst2/html', form({ rst: 'Grüße, “quotes”, ø and 漢字\n' }));
    const html = await res.text();
    expect(html).to.include('<meta charset="utf-8"');
    expect(html).to.include('Grüße, “quotes”, ø and 漢字');
  });

  it('applies each listed style, and each is a different stylesheet', async () => {
    const list = await (await api(s, '/1.0/rst2/html/styles')).text();
    const names = [...list.matchAll(/<style name="([^"]+)"\/>/g)].map((m) => m[1]!);
    expect(names).to.include.members(['default', 'd-scheme']);
    expect(names.length).to.be.at.least(3);
    const pages = await Promise.all(names.map(async (style) => (await api(s, '/1.0/rst2/html', form({ rst: DOC, style }))).text()));
    const sheets = pages.map((p) => p.slice(p.indexOf('<style'), p.indexOf('</head>')));
    expect(new Set(sheets).size).to.equal(names.length);
    for (const page of pages) expectRendered(page);
  });

  it("every style builds on the bundle's docutils minimal.css and plain.css (scripts/docutils-css.mjs --check)", () => {
    const r = spawnSync(process.execPath, [path.join(projectRoot, 'scripts', 'docutils-css.mjs'), '--check'], { encoding: 'utf8' });
    expect(r.status, r.stderr).to.equal(0);
    const docutils = JSON.parse(fs.readFileSync(path.join(projectRoot, 'wasm/python/manifest.json'), 'utf8')) as { series: { docutils: string } };
    expect(fs.readFileSync(path.join(paths.styles, 'html', 'base', 'docutils.css'), 'utf8')).to.match(new RegExp(`^/\\* Docutils ${docutils.series.docutils.replace('.', '\\.')}'s minimal\\.css and plain\\.css`));
  });

  it('refuses an unknown style, naming the valid ones', async () => {
    const res = await api(s, '/1.0/rst2/html', form({ rst: DOC, style: 'neon' }));
    expect(res.status).to.equal(400);
    const err = await errorOf(res);
    expect(err.code).to.equal('unknown_style');
    expect(err.message).to.include('default').and.to.include('d-scheme');
    expect(err.valid).to.include('default');
  });

  it('sends an ETag and answers 304 to a matching If-None-Match', async () => {
    const first = await api(s, '/1.0/rst2/html', form({ rst: DOC }));
    const etag = first.headers.get('etag');
    expect(etag).to.match(/^"[0-9a-f]{32}"$/);
    const again = await api(s, '/1.0/rst2/html', { ...form({ rst: DOC }), headers: { 'If-None-Match': etag! } });
    expect(again.status).to.equal(304);
    expect(await again.text()).to.equal('');
    const other = await api(s, '/1.0/rst2/html', form({ rst: DOC, style: 'd-scheme' }));
    expect(other.headers.get('etag')).to.not.equal(etag);
  });

  it('shows docutils problem reports inside the page, as rst2html does', async () => {
    const html = await (await api(s, '/1.0/rst2/html', form({ rst: 'x\n\n.. nosuch:: y\n' }))).text();
    expect(html).to.include('class="system-message"');
    expect(html).to.include('Unknown directive type');
  });
  describe('format=parts and format=fragment', () => {
    const PARTS_DOC = 'Greeting\n========\n\nSubtitle\n--------\n\n:Author: Ann\n\n.. meta::\n   :keywords: a, b\n\nHello *world*.\n\n.. nosuch:: y\n';

    it('without format, or with format=page, the page and its ETag are the render key of the options html always had', async () => {
      const plain = await api(s, '/1.0/rst2/html', form({ rst: DOC }));
      const page = await api(s, '/1.0/rst2/html', form({ rst: DOC, format: 'page' }));
      // The key a request without `format` had before the option existed: style and dialect only.
      const before = renderKey(readVersions().renderKeySalt, 'html', { style: 'default', dialect: 'docutils' }, makeDocument(DOC));
      expect(plain.headers.get('etag')).to.equal(`"${before.slice(0, 32)}"`);
      expect(page.headers.get('etag')).to.equal(plain.headers.get('etag'));
      expect(page.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(await page.text()).to.equal(await plain.text());
    });

    it("format=parts answers docutils' publish_parts() names as JSON, with the problems the page shows", async () => {
      const res = await api(s, '/1.0/rst2/html', form({ rst: PARTS_DOC, format: 'parts' }));
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
      const parts = (await res.json()) as Record<string, string> & { messages: Array<{ type: string; line: number; rule: string; message: string }> };
      expect(Object.keys(parts).sort()).to.deep.equal(['body', 'docinfo', 'fragment', 'html_body', 'messages', 'meta', 'stylesheet', 'subtitle', 'title']);
      expect(parts.title).to.equal('Greeting');
      expect(parts.subtitle).to.equal('Subtitle');
      expect(parts.docinfo).to.include('<dd class="author"><p>Ann</p></dd>');
      expect(parts.fragment).to.match(/^<p>Hello <em>world<\/em>.<\/p>\n/).and.include('class="system-message"');
      // docutils 0.23's `body` is the fragment's text (the title and docinfo are parts of their own).
      expect(parts.body).to.equal(parts.fragment);
      expect(parts.meta).to.include('<meta name="author" content="Ann" />');
      expect(parts.html_body).to.match(/^<main id="greeting">/).and.include('<h1 class="title">Greeting</h1>');
      expect(parts.meta).to.include('<meta content="a, b" name="keywords" />');
      expect(parts.stylesheet).to.match(/^<style type="text\/css">/).and.include("Docutils 0.23's minimal.css");
      // The page holds every part: a generator that lays them out shows what the page shows.
      const page = await (await api(s, '/1.0/rst2/html', form({ rst: PARTS_DOC }))).text();
      for (const name of ['docinfo', 'fragment', 'html_body', 'meta', 'stylesheet'] as const) expect(page, name).to.include(parts[name]);
      expect(parts.messages).to.have.length(1);
      expect(parts.messages[0]).to.include({ type: 'error', line: 14 });
      expect(parts.messages[0]!.message).to.include('Unknown directive type "nosuch"');
      // As check reports the same problem.
      const checked = (await (await api(s, '/1.0/rst2/check', form({ rst: PARTS_DOC }))).json()) as unknown[];
      expect(parts.messages).to.deep.equal(checked);
    });

    it('format=fragment answers the bare body as HTML, with its own ETag', async () => {
      const parts = (await (await api(s, '/1.0/rst2/html', form({ rst: PARTS_DOC, format: 'parts' }))).json()) as Record<string, string>;
      const res = await api(s, '/1.0/rst2/html', form({ rst: PARTS_DOC, format: 'fragment' }));
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/html; charset=utf-8');
      expect(await res.text()).to.equal(parts['fragment']);
      const page = await api(s, '/1.0/rst2/html', form({ rst: PARTS_DOC }));
      const etags = new Set([res.headers.get('etag'), page.headers.get('etag')]);
      expect(etags.size).to.equal(2);
      const again = await api(s, `/1.0/rst2/html${query({ rst: PARTS_DOC, format: 'fragment' })}`, { headers: { 'If-None-Match': res.headers.get('etag')! } });
      expect(again.status).to.equal(304);
    });

    it("with dialect=pypi, fragment is the description as PyPI shows it, and a refused one is 422", async () => {
      const rst = 'Title\n=====\n\nHello <b>x</b> *world*.\n\nMore.\n';
      const parts = (await (await api(s, '/1.0/rst2/html', form({ rst, format: 'parts', dialect: 'pypi' }))).json()) as Record<string, string> & { messages: unknown[] };
      const page = await (await api(s, '/1.0/rst2/html', form({ rst, dialect: 'pypi' }))).text();
      expect(page).to.include(`<body>\n${parts['fragment']}\n</body>`);
      expect(parts.messages).to.deep.equal([]);
      const refused = await api(s, '/1.0/rst2/html', form({ rst: 'x\n\n.. nosuch::\n', format: 'parts', dialect: 'pypi' }));
      expect(refused.status).to.equal(422);
      expect((await errorOf(refused)).code).to.equal('pypi_refused');
    });

    it('refuses an unknown format, naming the valid ones', async () => {
      const res = await api(s, '/1.0/rst2/html', form({ rst: DOC, format: 'json' }));
      expect(res.status).to.equal(400);
      const err = await errorOf(res);
      expect(err.code).to.equal('unknown_html_format');
      expect(err.valid).to.deep.equal(['page', 'parts', 'fragment']);
    });
  });
});
