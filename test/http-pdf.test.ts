import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { RunningServer } from '../src/server.js';
import { pdfPages } from './support/pdf.js';
import { api, errorOf, form, query, server } from './support/server.js';
import { describeTex } from './support/tex.js';

const PDF_TIMEOUT_MS = 20_000;

const DOC = `==============
Quarterly Note
==============

Introduction
============

The zeppelin *quietly* crossed the fjord.

Details
=======

A second section with \`\`literal\`\` text and a list:

* alpha
* beta
`;

describeTex('PDF rendering over HTTP', function () {
  let s: RunningServer;
  before(async function () {
    // Long enough that a slow or busy CI machine does not time out real
    // documents.
    s = await server({ RST2_PDF_TIMEOUT_MS: String(PDF_TIMEOUT_MS), RST2_TEX_WORKERS: '2' });
  });

  async function pdf(params: Record<string, string>): Promise<{ res: Response; pages: string[] }> {
    const res = await api(s, '/1.0/rst2/pdf', form(params));
    expect(res.status, res.status === 200 ? '' : JSON.stringify(await res.clone().json())).to.equal(200);
    const bytes = await res.arrayBuffer();
    expect(Buffer.from(bytes.slice(0, 5)).toString('latin1')).to.equal('%PDF-');
    return { res, pages: await pdfPages(bytes) };
  }

  const classes = ['article', 'report', 'book', 'scrartcl', 'scrreprt', 'scrbook'];
  const styles = ['default', 'style2', 'zope'];
  for (const cls of classes) {
    for (const style of styles) {
      it(`class ${cls}, style ${style}: a PDF with the document's words`, async () => {
        const { res, pages } = await pdf({ rst: DOC, class: cls, style });
        expect(res.headers.get('content-type')).to.equal('application/pdf');
        const text = pages.join('\n');
        expect(text).to.include('zeppelin');
        expect(text).to.include('Quarterly Note');
      });
    }
  }

  it('styles look different: the three PDFs differ', async () => {
    const bodies = await Promise.all(
      styles.map(async (style) => Buffer.from(await (await api(s, '/1.0/rst2/pdf', form({ rst: DOC, style }))).arrayBuffer()).toString('latin1').replace(/\/CreationDate.*|\/ModDate.*|\/ID.*/g, '')),
    );
    expect(new Set(bodies).size).to.equal(3);
  });

  it('use-latex-toc=yes gives a table of contents', async () => {
    const { pages } = await pdf({ rst: DOC, 'use-latex-toc': 'yes' });
    const text = pages.join('\n');
    expect(text).to.match(/Contents/);
    // The section titles appear twice: in the contents and as headings.
    expect(text.split('Introduction').length - 1).to.be.at.least(2);
    const without = (await pdf({ rst: DOC, 'use-latex-toc': 'no' })).pages.join('\n');
    expect(without).to.not.match(/Contents/);
  });

  it('non-ASCII Latin text comes out right', async () => {
    const { pages } = await pdf({ rst: 'Grüße\n======\n\nCafé, Straße, Øresund, “quoted” and naïve.\n' });
    const text = pages.join('\n').normalize('NFC');
    for (const word of ['Grüße', 'Café', 'Straße', 'Øresund', '“quoted”', 'naïve']) expect(text).to.include(word);
  });

  it('names the file after the title', async () => {
    const { res } = await pdf({ rst: DOC });
    expect(res.headers.get('content-disposition')).to.equal('inline; filename="Quarterly-Note.pdf"');
  });

  it('takes a token and a raw body as input', async () => {
    const token = await (await api(s, '/1.0/rst2/token', form({ rst: DOC }))).text();
    const byToken = await api(s, `/1.0/rst2/pdf${query({ token, class: 'scrartcl' })}`);
    expect(byToken.status).to.equal(200);
    expect((await pdfPages(await byToken.arrayBuffer())).join(' ')).to.include('zeppelin');
    const raw = await api(s, '/1.0/rst2/pdf?style=zope', { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: DOC });
    expect(raw.status).to.equal(200);
  });

  it('takes a uri as input', async () => {
    const upstream = http.createServer((_, res) => res.end(DOC));
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    try {
      const open = await server({ RST2_ALLOW_PRIVATE_URI: '1', RST2_WORKERS: '1' });
      const uri = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/doc.rst`;
      const res = await api(open, `/1.0/rst2/pdf${query({ uri })}`);
      expect(res.status).to.equal(200);
      expect((await pdfPages(await res.arrayBuffer())).join(' ')).to.include('zeppelin');
    } finally {
      upstream.close();
    }
  });

  it('a document with an image it cannot have is still a PDF, with a placeholder and the problem count', async () => {
    for (const rst of ['x\n\n.. image:: logo.png\n', 'x\n\n.. figure:: logo.png\n\n   Caption\n']) {
      const res = await api(s, '/1.0/rst2/pdf', form({ rst }));
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-rst2-image-problems')).to.equal('1');
      // A relative path in an `rst` document has nothing to resolve against: its placeholder shows the path.
      expect((await pdfPages(await res.arrayBuffer())).join(' ')).to.include('logo.png');
    }
  });

  it('a LaTeX error is a 422 with the relevant log lines, not the whole log', async () => {
    // Allowed math that TeX still rejects (an unknown command would be shown as written instead).
    const res = await api(s, '/1.0/rst2/pdf', form({ rst: 'Maths: :math:`x^{2}^{3}`\n' }));
    expect(res.status).to.equal(422);
    const err = await errorOf(res);
    expect(err.code).to.equal('latex_failed');
    expect(err.message).to.include('Double superscript');
    expect(err.message.length).to.be.below(3000);
  });

  it('LaTeX in a document cannot read host files', async () => {
    const res = await api(s, '/1.0/rst2/pdf', form({ rst: 'Leak: :math:`\\input{/etc/passwd}`\n' }));
    if (res.status === 200) {
      expect((await pdfPages(await res.arrayBuffer())).join(' ')).to.not.include('root:x:');
    } else {
      expect(res.status).to.equal(422);
      expect(JSON.stringify(await errorOf(res))).to.not.include('root:x:');
    }
  });

  it('math that would send TeX into a loop is shown as written, and the next PDF renders', async () => {
    // The stall watch and the deadline themselves are tested on the engine
    // (tex-engine.test.ts): math is the only door to TeX, and it is closed.
    const loop = await pdf({ rst: 'Loop: :math:`\\def\\loop{\\loop}\\loop`\n' });
    expect(loop.pages.join(' ')).to.include('Math not typeset');
    const next = await pdf({ rst: DOC });
    expect(next.pages.join(' ')).to.include('zeppelin');
  });

  it('/health also compiles a PDF', async () => {
    const body = (await (await api(s, '/health')).json()) as { status: string; pdf: unknown };
    expect(body.status).to.equal('ok');
    expect(body.pdf).to.be.an('object');
  });
});
