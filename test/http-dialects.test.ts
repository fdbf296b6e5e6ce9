/**
 * The `dialect` option of html, pdf and check over HTTP: Sphinx documents
 * checked and rendered without a Sphinx project, PyPI descriptions judged
 * and rendered as PyPI does, and plain docutils unchanged.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

import { paths } from '../src/paths.js';
import type { RunningServer } from '../src/server.js';
import { pdfPages } from './support/pdf.js';
import { api, errorOf, query, server } from './support/server.js';
import { requireTex } from './support/tex.js';

interface Item {
  message: string;
  type: string;
  line: number | null;
  context: string;
}

// The page using every role and directive of Sphinx's standard set (shared with python/tests).
const SPHINX_PAGE = fs.readFileSync(path.join(paths.pythonSources, 'tests', 'fixtures', 'sphinx_page.rst'), 'utf8');

// readme_renderer 46.0's allow-list (readme_renderer/clean.py); the cleaner adds rel="nofollow" to links.
const PYPI_TAGS = new Set(
  'a abbr acronym b blockquote code em i li ol strong ul br caption cite col colgroup dd del details div dl dt h1 h2 h3 h4 h5 h6 hr img p pre span sub summary sup table tbody td th thead tr tt kbd var input section aside nav figure figcaption picture'.split(' '),
);
const PYPI_ATTRIBUTES: Record<string, string[]> = {
  a: ['href', 'title', 'rel'],
  abbr: ['title'],
  acronym: ['title'],
  hr: ['class'],
  img: ['src', 'width', 'height', 'alt', 'align', 'class'],
  span: ['class'],
  th: ['align', 'class'],
  td: ['align', 'colspan', 'rowspan'],
  div: ['align', 'class'],
  h1: ['align'], h2: ['align'], h3: ['align'], h4: ['align'], h5: ['align'], h6: ['align'],
  code: ['class'],
  p: ['align', 'class'],
  pre: ['class', 'lang'],
  ol: ['start'],
  input: ['type', 'checked', 'disabled'],
  aside: ['class'], dd: ['class'], dl: ['class'], dt: ['class'], ul: ['class'], nav: ['class'], figure: ['class'],
};

const ACCEPTED = `Spam
====

A *fine* package. Write to spam@example.org, read \`the docs <https://example.org/docs>\`_.

.. code:: python

   import spam

+--------+-------+
| option | value |
+========+=======+
| size   | 1     |
+--------+-------+

:Version: 1.0

.. note:: Notes pass.

Usage
-----

Term
   Definition [#]_.

.. [#] A footnote.

.. image:: https://example.org/badge.svg
   :width: 80
`;
// Only a warning (the underline is shorter than the title): PyPI still refuses it.
const WARNING_ONLY = 'Spam package\n=======\n\nAn otherwise fine description.\n';

function body(html: string): string {
  return html.slice(html.indexOf('<body>') + '<body>'.length, html.indexOf('</body>'));
}

async function checkItems(s: RunningServer, rst: string, dialect?: string): Promise<Item[]> {
  const res = await api(s, `/1.0/rst2/check${dialect ? `?dialect=${dialect}` : ''}`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: rst });
  expect(res.status).to.equal(200);
  return (await res.json()) as Item[];
}

async function post(s: RunningServer, op: string, rst: string, options: Record<string, string>): Promise<Response> {
  return api(s, `/1.0/rst2/${op}${query(options)}`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: rst });
}

describe('dialects over HTTP', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  describe('sphinx', () => {
    it('knows every standard role and directive: the page checks clean, where plain docutils reports each', async () => {
      expect(await checkItems(s, SPHINX_PAGE, 'sphinx')).to.deep.equal([]);
      const plain = await checkItems(s, SPHINX_PAGE);
      const unknown = plain.filter((i) => /^Unknown (interpreted text role|directive type)/.test(i.message));
      expect(unknown.length).to.be.greaterThan(50);
    });

    it('still reports real mistakes: exactly the three put in', async () => {
      const broken = SPHINX_PAGE.replace('.. toctree::\n', '.. toctree::\n   :depth: 2\n')
        .replace('.. centered:: SPAM', '* one\n* two\nthree\n\n.. centered:: SPAM')
        .replace('Makes :class:`Spam`.', 'Makes :class:`Spam` from nowhere_.');
      const lines = broken.split('\n');
      const items = await checkItems(s, broken, 'sphinx');
      expect(items.map((i) => i.message.split('\n')[1] ?? i.message).sort()).to.deep.equal(
        ['Bullet list ends without a blank line; unexpected unindent.', 'Unknown target name: "nowhere".', 'unknown option: "depth".'].sort(),
      );
      expect(items.map((i) => lines[i.line! - 1]).sort()).to.deep.equal(['   Makes :class:`Spam` from nowhere_.', '.. toctree::', 'three'].sort());
    });

    it('renders Sphinx constructs as Sphinx words and shows them', async () => {
      const res = await post(s, 'html', SPHINX_PAGE, { dialect: 'sphinx' });
      expect(res.status).to.equal(200);
      const html = body(await res.text());
      expect(html).to.not.include('system-message');
      expect(html).to.include('Added in version 3.2.').and.include('Changed in version 3.3: ').and.include('Deprecated since version 3.4: ');
      // A reference to a label of this document links to it with the section's title; others stay text.
      expect(html).to.match(/<a [^>]*href="#intro"><span [^>]*>Sphinx page<\/span><\/a>/);
      expect(html).to.match(/<span class="xref std std-doc">install<\/span>/);
      // API roles are literals, linked to their description here.
      expect(html).to.match(/<a [^>]*href="#spam\.make"><span class="xref py py-func docutils literal">make\(\)<\/span><\/a>/);
      const toctree = /<ul class="toctree[^"]*">([\s\S]*?)<\/ul>/.exec(html)![1]!;
      expect([...toctree.matchAll(/toctree-entry">([^<]*)</g)].map((m) => m[1])).to.deep.equal(['install', 'Usage']);
      expect(html).to.match(/autodoc would insert the documentation of the class <span [^>]*>Spam<\/span>/);
      expect(html).to.match(/The contents of <\/em><span [^>]*>example\.py<\/span>/);
    });

    it('makes a PDF of the page', async function () {
      requireTex(this);
      const printable = SPHINX_PAGE.replace('.. figure:: spam.png', '.. rubric:: Figures are not printed');
      const res = await post(s, 'pdf', printable, { dialect: 'sphinx' });
      expect(res.status, await res.clone().text()).to.equal(200);
      const text = (await pdfPages(await res.arrayBuffer())).join('\n');
      expect(text).to.include('Added in version 3.2.').and.include('See also');
    });

    it('section titles inside only, in a list, a table or a note, are bold rubrics in the PDF: 200, as the HTML', async function () {
      requireTex(this);
      const section = (indent: string, title: string) =>
        `${indent}.. only:: latex or html\n\n${indent}   ${title}\n${indent}   ${'-'.repeat(title.length)}\n\n${indent}   Text under ${title}.\n\n${indent}   Deeper ${title}\n${indent}   ${'~'.repeat(title.length + 7)}\n\n${indent}   More.\n`;
      const cell = section('', 'CellTitle').split('\n').map((l) => l.padEnd(40)).filter((l) => l.trim() !== '' || true);
      const border = `+${'-'.repeat(6)}+${'-'.repeat(40)}+`;
      const table = [border, ...cell.slice(0, -1).map((l, i) => `| ${i === 0 ? 'a' : ' '}    |${l}|`), border].join('\n');
      const doc = `Doc\n===\n\n* item\n\n${section('  ', 'ListTitle')}\n1. first\n\n${section('   ', 'EnumTitle')}\n.. note::\n\n${section('   ', 'NoteTitle')}\n${table}\n\nThe end.\n`;
      const html = await post(s, 'html', doc, { dialect: 'sphinx' });
      expect(html.status).to.equal(200);
      const res = await post(s, 'pdf', doc, { dialect: 'sphinx' });
      expect(res.status, await res.clone().text()).to.equal(200);
      const text = (await pdfPages(await res.arrayBuffer())).join('\n');
      for (const title of ['ListTitle', 'EnumTitle', 'NoteTitle', 'CellTitle']) {
        expect(text).to.include(title).and.include(`Text under ${title}.`).and.include(`Deeper ${title}`);
      }
      expect(text).to.include('The end.');
    });
  });

  describe('pypi', () => {
    it('a description PyPI accepts: check gives [], html shows it within the allow-list', async () => {
      expect(await checkItems(s, ACCEPTED, 'pypi')).to.deep.equal([]);
      const res = await post(s, 'html', ACCEPTED, { dialect: 'pypi' });
      expect(res.status).to.equal(200);
      const html = body(await res.text());
      // readme_renderer 46.0: the top title is the description's <h1>, its ids prefixed, each title linking to itself.
      expect(html).to.include('<section id="user-content-spam">\n<h1>Spam<a title="link to this section" href="#user-content-spam" rel="nofollow"></a></h1>');
      expect(html).to.not.include('spam@example.org'); // cloaked
      expect(html).to.include('href="https://example.org/docs" rel="nofollow"');
      const tags = [...html.matchAll(/<([a-zA-Z][\w-]*)([^>]*)>/g)];
      expect(tags.length).to.be.greaterThan(30);
      for (const [, tag, attributes] of tags) {
        expect(PYPI_TAGS.has(tag!), tag).to.equal(true);
        for (const [, name] of attributes!.matchAll(/([\w-]+)="/g)) {
          expect(name === 'id' || (PYPI_ATTRIBUTES[tag!] ?? []).includes(name!), `${tag} ${name}`).to.equal(true);
        }
      }
    });

    it('a warning alone makes PyPI refuse: listed by check, 422 pypi_refused for html and pdf', async () => {
      const items = await checkItems(s, WARNING_ONLY, 'pypi');
      expect(items.map((i) => [i.type, i.line, i.message])).to.deep.equal([['warning', 2, 'Title underline too short.']]);
      for (const op of ['html', 'pdf']) {
        const res = await post(s, op, WARNING_ONLY, { dialect: 'pypi' });
        expect(res.status, op).to.equal(422);
        const error = await errorOf(res);
        expect(error.code).to.equal('pypi_refused');
        expect(error.message).to.include('Title underline too short');
      }
      // Plain docutils renders the same text, with the warning in the page.
      expect((await post(s, 'html', WARNING_ONLY, {})).status).to.equal(200);
    });

    it('lists every problem, not only the first one twine shows', async () => {
      const items = await checkItems(s, 'Spam\n====\n\nSee :ref:`usage` and missing_.\n\n.. toctree::\n\n* a\nb\n', 'pypi');
      expect(items.map((i) => [i.line, i.message])).to.deep.equal([
        [4, 'Unknown interpreted text role "ref".'],
        [6, 'Unknown directive type "toctree".'],
        [9, 'Bullet list ends without a blank line; unexpected unindent.'],
        [4, 'Unknown target name: "missing".'],
      ]);
    });
  });

  it('an unknown dialect is 400 unknown_dialect naming the valid ones', async () => {
    for (const op of ['html', 'pdf', 'check']) {
      const res = await api(s, `/1.0/rst2/${op}${query({ rst: 'x\n', dialect: 'markdown' })}`);
      expect(res.status, op).to.equal(400);
      const error = await errorOf(res);
      expect(error.code).to.equal('unknown_dialect');
      expect(error.valid).to.deep.equal(['docutils', 'sphinx', 'pypi', 'github']);
    }
  });

  it('docutils is the default: same bytes and ETag with or without it; another dialect is another rendering', async () => {
    const doc = `Default\n=======\n\nSee :ref:\`x\`, made at ${Date.now()}.\n`;
    const plain = await api(s, `/1.0/rst2/html${query({ rst: doc })}`);
    const named = await api(s, `/1.0/rst2/html${query({ rst: doc, dialect: 'docutils' })}`);
    const sphinx = await api(s, `/1.0/rst2/html${query({ rst: doc, dialect: 'sphinx' })}`);
    expect(named.headers.get('etag')).to.equal(plain.headers.get('etag'));
    expect(named.headers.get('x-cache')).to.equal('hit');
    const plainHtml = await plain.text();
    expect(await named.text()).to.equal(plainHtml);
    expect(plainHtml).to.include('Unknown interpreted text role');
    expect(sphinx.headers.get('etag')).to.not.equal(plain.headers.get('etag'));
    expect(await sphinx.text()).to.not.include('Unknown interpreted text role');
  });
});
