/**
 * No PDF the service serves carries active content: the attacks found by
 * the outside review, and variants, through the real server and pdfTeX.
 * Each PDF is read twice: by pdf.js as a viewer would (an independent
 * parser) and by the service's own check.
 */
import { expect } from 'chai';

import { findActiveContent } from '../src/pdf/safety.js';
import type { RunningServer } from '../src/server.js';
import { activeContentSeenByPdfjs, pdfjsView, pdfLinks, pdfPages } from './support/pdf.js';
import { api, form, server } from './support/server.js';
import { describeTex } from './support/tex.js';

describeTex('PDFs carry no active content', function () {
  let s: RunningServer;
  before(async () => {
    s = await server({ RST2_TEX_WORKERS: '2' });
  });

  async function cleanPdf(rst: string, params: Record<string, string> = {}): Promise<Uint8Array> {
    const res = await api(s, '/1.0/rst2/pdf', form({ rst, ...params }));
    expect(res.status, res.status === 200 ? '' : await res.text()).to.equal(200);
    const bytes = new Uint8Array(await res.arrayBuffer());
    expect(activeContentSeenByPdfjs(await pdfjsView(bytes))).to.deep.equal([]);
    expect(findActiveContent(bytes)).to.deep.equal([]);
    return bytes;
  }

  // Words TeX hyphenated at a line end are joined again.
  const text = async (bytes: Uint8Array): Promise<string> => (await pdfPages(bytes)).join('\n').replace(/-\n/g, '');

  // The math is shown as written (with a warning) instead of reaching pdfTeX.
  const mathAttacks: Record<string, string> = {
    'JavaScript open action with \\pdfcatalog': '\\pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}',
    'an object and an annotation with \\pdfobj and \\pdfannot':
      '\\immediate\\pdfobj{<</S/JavaScript/JS(app.alert(1))>>}\\pdfannot{/Subtype/Link/A \\the\\pdflastobj\\space 0 R}',
    'a Launch link with \\pdfstartlink': '\\pdfstartlink user{/Subtype/Link/A<</S/Launch/F(calc.exe)>>}x\\pdfendlink',
    '\\href to javascript:': '\\href{javascript:app.alert(1)}{click}',
    '\\href to run:': '\\href{run:calc.exe}{click}',
    '\\url to file:': '\\url{file:///etc/passwd}',
    '^^5c for the backslash': '^^5cpdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}',
    '\\csname': '\\csname pdfcatalog\\endcsname{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}',
    '\\pdfprimitive': '\\pdfprimitive\\pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}',
    'a catcode trick': '\\catcode`\\|=0 |pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}',
    'a comment that ends the math early': 'x %\n\\pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}',
    'braces that close the group': '}}\\pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}{{',
    '\\def (the old runaway test)': '\\def\\loop{\\loop}\\loop',
  };
  for (const [name, code] of Object.entries(mathAttacks)) {
    it(`math role: ${name}`, async () => {
      const bytes = await cleanPdf(`Title\n=====\n\nBefore :math:\`${code}\` after.\n`);
      const shown = await text(bytes);
      expect(shown).to.include('Math not typeset');
      expect(shown).to.include('Before');
      expect(shown).to.include('after.');
    });
  }

  it('math directive: the same, as a block', async () => {
    const bytes = await cleanPdf('Title\n=====\n\n.. math::\n\n   \\pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}\n\nAfter.\n');
    const shown = await text(bytes);
    expect(shown).to.include('pdfcatalog');
    expect(shown).to.include('Math not typeset');
  });

  const metaAttacks: Record<string, string> = {
    'a hyperref option': ':keywords: x},pdfstartview={FitH},pdfnewwindow={true',
    'a TeX command': ':subject: }\\\\pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}\\\\iffalse{',
    'a custom field name': ':x}},pdfstartview={FitH}}: y',
  };
  for (const [name, field] of Object.entries(metaAttacks)) {
    it(`meta: ${name} stays text in the document information`, async () => {
      await cleanPdf(`Title\n=====\n\n.. meta::\n   ${field}\n\nBody text.\n`);
    });
  }

  it('reST links to javascript:, file:, run: and relative paths are plain text', async () => {
    const bytes = await cleanPdf(
      'Title\n=====\n\n`js <javascript:app.alert(1)>`_, `file <file:///etc/passwd>`_, `run <run:calc.exe>`_, ' +
        '`contributing <CONTRIBUTING.rst>`_, `manual <doc.pdf>`_, `up <../index.html>`_, `named`_ and ' +
        '`web <https://example.org/>`_.\n\n.. _named: java\tscript:app.alert(2)\n',
    );
    const links = await pdfLinks(bytes);
    expect(links.urls).to.deep.equal(['https://example.org/']);
    const shown = await text(bytes);
    for (const word of ['js', 'file', 'run', 'contributing', 'manual', 'up', 'named', 'web']) expect(shown).to.match(new RegExp(`\\b${word}\\b`));
  });

  it('a link whose URI breaks out of \\href is percent-encoded (docutils drops the spaces)', async () => {
    const bytes = await cleanPdf('Title\n=====\n\n`x`_\n\n.. _x: https://example.org/}\\\\pdfcatalog{/OpenAction 1 0 R}{\n');
    expect((await pdfLinks(bytes)).urls).to.deep.equal(['https://example.org/%7D%5Cpdfcatalog%7B/OpenAction10R%7D%7B']);
  });

  it('URIs with & ~ # % $ keep their link in a cell spanning columns, a footnote and running text', async () => {
    const uri = (part: string) => `https://example.org/~me/a_b?u=1&v=$2&w=%41#${part}`;
    const cell = `see \`cell <${uri('cell')}>\`_`;
    const wide = '-'.repeat(cell.length - 2);
    const table = [`+---+---+${wide}+`, `| a | b | c${' '.repeat(wide.length - 3)} |`, `+---+---+${wide}+`, `| x | ${cell} |`, `+---+---${'-'.repeat(wide.length + 1)}+`].join('\n');
    const bytes = await cleanPdf(
      `Links\n=====\n\n${table}\n\nText \`running <${uri('run')}>\`_, a note [#]_ and ${uri('bare')}\n\n.. [#] \`noted <${uri('note')}>\`_\n`,
    );
    expect((await pdfLinks(bytes)).urls.sort()).to.deep.equal(['bare', 'cell', 'note', 'run'].map(uri));
    expect(await text(bytes)).to.include('example.org/~me/a_b');
  });

  it('class values (a code language) cannot carry TeX', async () => {
    const bytes = await cleanPdf(
      'Title\n=====\n\n.. code:: }\\pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}\n\n   code line\n\n' +
        '.. role:: r(code)\n   :language: }\\pdfcatalog{/X 1}\n\n:r:`q`\n',
    );
    expect(await text(bytes)).to.include('code line');
  });

  it('the raw role stays disabled', async () => {
    await cleanPdf('Title\n=====\n\n.. role:: raw-latex(raw)\n   :format: latex\n\n:raw-latex:`\\pdfcatalog{/OpenAction <</S/JavaScript/JS(x)>>}`\n');
  });

  const ORDINARY = `==============
Ordinary Title
==============

:Author: Ann Example

.. contents::

Intro
=====

See https://example.org/ and \`the site <https://example.org/page?a=1&b=2#frag>\`_,
write to ann@example.org, or go to Details_ or the \`second part\`_ [#fn]_.

.. [#fn] A footnote.

Math: :math:\`\\alpha^2 + \\frac{1}{2} \\le \\sqrt{x}\` and

.. math::

   \\int_0^1 x^2\\,dx = \\frac{1}{3}

Details
=======

.. _second part:

Second part
-----------

.. note:: A note with \`a link <http://example.org/plain>\`_.
`;

  const variants: Array<Record<string, string>> = [{}, { 'use-latex-toc': 'yes' }, { class: 'scrreprt', style: 'zope' }];
  for (const params of variants) {
    it(`an ordinary document keeps its links, contents and bookmarks (${JSON.stringify(params)})`, async () => {
      const bytes = await cleanPdf(ORDINARY, params);
      const links = await pdfLinks(bytes);
      expect(links.urls).to.have.members(['https://example.org/', 'https://example.org/page?a=1&b=2#frag', 'mailto:ann@example.org', 'http://example.org/plain']);
      expect(links.internal).to.be.at.least(4);
      expect(links.outline).to.include.members(['Intro', 'Details', 'Second part']);
      const shown = await text(bytes);
      expect(shown).to.include('Second part');
      expect(shown).to.not.include('Math not typeset');
      expect(shown).to.not.include('\\alpha');
    });
  }
});
