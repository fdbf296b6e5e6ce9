import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

import { paths, projectRoot } from '../src/paths.js';
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
});
