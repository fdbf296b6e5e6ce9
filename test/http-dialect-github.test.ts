/**
 * `dialect=github` over HTTP, through the real server and worker: a README
 * as GitHub shows it (rest2html's output through GitHub's allow-list), the
 * github-* rules of check, and a PDF with the same parser behaviours.
 */
import { expect } from 'chai';

import type { RunningServer } from '../src/server.js';
import { pdfPages } from './support/pdf.js';
import { api, query, server } from './support/server.js';
import { requireTex } from './support/tex.js';

interface Item {
  message: string;
  type: string;
  line: number | null;
  rule: string;
}

const README = `Spam
====

Press :kbd:\`Ctrl+<C>\` to stop.

Install
-------

.. toctree::
   :maxdepth: 2

   install

.. github display off

.. automodule:: spam

.. github display on

.. raw:: html

   <div class="note" onclick="evil()"><b>bold</b><script>alert(1)</script></div>

.. raw:: html

   <iframe src="https://example.org/"></iframe>

.. include:: CHANGES.rst

.. doctest::

   >>> 1
   1
`;

function post(s: RunningServer, op: string, rst: string, options: Record<string, string>): Promise<Response> {
  return api(s, `/1.0/rst2/${op}${query(options)}`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: rst });
}

describe('dialect=github over HTTP', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('html: named section anchors, unknown directives as code, kbd escaped, raw HTML through the allow-list', async () => {
    const res = await post(s, 'html', README, { dialect: 'github' });
    expect(res.status, await res.clone().text()).to.equal(200);
    const html = await res.text();
    const body = html.slice(html.indexOf('<body>'), html.indexOf('</body>'));
    expect(body).to.include('<a name="install"></a>');
    expect(body).to.include('<pre>\n.. toctree::\n   :maxdepth: 2\n\n   install\n');
    expect(body).not.to.include('automodule');
    expect(body).to.include('<kbd>Ctrl+&lt;C&gt;</kbd>');
    expect(body).to.include('<div><b>bold</b></div>');
    expect(body).to.include('<pre lang="python">');
    for (const active of ['<script', 'onclick', '<iframe', 'alert(']) expect(body).not.to.include(active);
  });

  it('html with format=fragment is the README alone', async () => {
    const res = await post(s, 'html', 'Title\n=====\n\nText with ``code``.\n', { dialect: 'github', format: 'fragment' });
    expect(res.status).to.equal(200);
    expect((await res.text()).trim()).to.equal('<h1>Title</h1>\n<p>Text with <code>code</code>.</p>');
  });

  it('check names what GitHub shows differently', async () => {
    const res = await post(s, 'check', README + '\n.. contents::\n', { dialect: 'github' });
    expect(res.status).to.equal(200);
    const items = (await res.json()) as Item[];
    expect(items.map((i) => [i.line, i.rule])).to.deep.equal([
      [9, 'github-unknown-directive'],
      [24, 'github-raw-emptied'],
      [28, 'github-include'],
      [35, 'github-contents-links'],
    ]);
    const plain = (await (await post(s, 'check', README, {})).json()) as Item[];
    expect(plain.map((i) => i.rule)).not.to.include('github-unknown-directive');
  });

  it('pdf: the same directives, the key text kept', async function () {
    requireTex(this);
    const res = await post(s, 'pdf', README, { dialect: 'github' });
    expect(res.status, await res.clone().text()).to.equal(200);
    const text = (await pdfPages(await res.arrayBuffer())).join('\n');
    expect(text).to.include('Ctrl+<C>').and.include('.. toctree::').and.not.include('automodule');
  });
});
