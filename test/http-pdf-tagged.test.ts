/**
 * Tagged PDF (PDF/UA-1), the option `tagged=yes`, over HTTP with the real
 * engine: the structure tree pikepdf reads back (test/support/pdf-tags.py)
 * has the roles a screen reader needs, the catalog and XMP what PDF/UA-1
 * asks for, an untagged request of the same document is not tagged, and
 * `check` with the same option reports an image without alt text.
 *
 * No PDF/UA validator (veraPDF, PAC) is on npm or in Debian: what is
 * checked here is what pikepdf and pdfinfo can read (docs/pdf.rst, "Tagged
 * PDF", says what stays unverified).
 */
import { expect } from 'chai';
import fs from 'node:fs';

import type { RunningServer } from '../src/server.js';
import { png } from './support/images.js';
import { pdfinfoTagged, pdfTags, requirePikepdf, type PdfTags } from './support/pdf-tags.js';
import { pdfText, requirePdftotext } from './support/pdftotext.js';
import { api, form, server, tempDir } from './support/server.js';
import { describeTex } from './support/tex.js';

const RED = `data:image/png;base64,${png(40, 40, [220, 20, 20]).toString('base64')}`;

const SAMPLE = `===========
Tagged note
===========

A paragraph with a link to \`the docs <https://example.org/docs>\`__ and a
footnote [#f1]_.

Lists
=====

* first bullet
* second bullet

1. one
2. two

Table
-----

=====  =====
Name   Value
=====  =====
alpha  1
beta   2
=====  =====

.. figure:: ${RED}
   :alt: A red square

   The caption.

.. [#f1] The footnote text.
`;

// Article 1 of the Universal Declaration of Human Rights, in part.
const ARABIC_TITLE = 'الإعلان العالمي لحقوق الإنسان';
const ARABIC_BODY = 'يولد جميع الناس أحرارا متساوين في الكرامة والحقوق';
const ARABIC_ITEM = 'وقد وهبوا عقلا وضميرا';
const ARABIC = `${ARABIC_TITLE}\n${'='.repeat(ARABIC_TITLE.length * 2)}\n\n${ARABIC_BODY}.\n\n* ${ARABIC_ITEM}\n* Latin 2026\n`;

// The same article in Chinese (simplified) and Japanese.
const CJK_TITLE = '世界人权宣言';
const CJK_BODY = '人人生而自由，在尊严和权利上一律平等';
const CJK_ITEM = 'すべての人間は、生まれながらにして自由であり';
const CJK = `${CJK_TITLE}\n${'='.repeat(CJK_TITLE.length * 2)}\n\n${CJK_BODY}。\n\nSection\n-------\n\n* ${CJK_ITEM}\n* Latin 2026\n`;

/** As test/http-pdf-shaped.test.ts compares: NFKC, no whitespace, bidi controls or hyphens. */
const comparable = (text: string): string => text.normalize('NFKC').replace(/[\s\p{Cf}\-\u2010\u00ad]/gu, '');

describeTex('Tagged PDF (PDF/UA-1) over HTTP', function () {
  let s: RunningServer;
  before(async function () {
    requirePdftotext(this);
    requirePikepdf(this);
    s = await server({ RST2_PDF_TIMEOUT_MS: '120000', RST2_TEX_WORKERS: '1' });
  });
  // A shared server (support/server.ts): closed once, at the end of the run.

  async function pdf(rst: string, extra: Record<string, string> = {}): Promise<{ res: Response; bytes: ArrayBuffer }> {
    const res = await api(s, '/1.0/rst2/pdf', form({ rst, ...extra }));
    expect(res.status, res.status === 200 ? '' : JSON.stringify(await res.clone().json())).to.equal(200);
    const bytes = await res.arrayBuffer();
    expect(Buffer.from(bytes.slice(0, 5)).toString('latin1')).to.equal('%PDF-');
    return { res, bytes };
  }

  it('tags headings, lists, the table and its header row, the figure with its alt text, the link and the footnote', async () => {
    // A 200 is also the service's safety check passed (src/pdf/safety.ts runs on every PDF).
    const { res, bytes } = await pdf(SAMPLE, { tagged: 'yes' });
    expect(res.headers.get('x-rst2-image-problems')).to.equal(null);
    expect(pdfinfoTagged(bytes)).to.equal(true);
    const tags = pdfTags(bytes);
    expect(tags.structTreeRoot).to.equal(true);
    expect(tags.parentTree).to.equal(true);
    const roles = tags.standardRoles;
    for (const role of ['H1', 'H2', 'L', 'LI', 'Lbl', 'LBody', 'Table', 'TR', 'TH', 'TD', 'Figure', 'Link', 'Note']) {
      expect(roles, role).to.have.property(role);
    }
    // The header row's two cells are TH; the body's are TD.
    expect(roles['TH']).to.equal(2);
    expect(roles['TD']).to.be.at.least(4);
    expect(roles['L']).to.equal(2);
    expect(tags.roleMap['section']).to.equal('H1');
    expect(tags.roleMap['subsection']).to.equal('H2');
    expect(tags.alts).to.deep.equal([{ role: 'Figure', alt: 'A red square' }]);
    expect(tags.blocksInParagraphs).to.deep.equal({});
    expect(tags.lang).to.equal('en');
    expect(tags.marked).to.equal(true);
    expect(tags.displayDocTitle).to.equal(true);
    expect(tags.xmpTitle).to.equal('Tagged note');
    expect(tags.pdfuaPart).to.equal(1);
    // Typeset by pdfTeX, with the untagged document's fonts: Type 1 only, and
    // the interword spaces through pdfTeX's PdfTeX-Space (LuaHBTeX's fonts are Type0).
    expect(tags.fonts).to.include('Type1 PdfTeX-Space');
    expect(tags.fonts.filter((font) => !font.startsWith('Type1 '))).to.deep.equal([]);
    const untagged = pdfTags((await pdf(SAMPLE)).bytes).fonts;
    expect(tags.fonts.filter((font) => font !== 'Type1 PdfTeX-Space')).to.deep.equal(untagged);
  });

  it('CJK text is tagged as untagged pdfTeX sets it: its characters read back, no placeholder', async () => {
    const { res, bytes } = await pdf(CJK, { tagged: 'yes' });
    expect(res.headers.get('x-rst2-replaced-characters')).to.equal(null);
    expect(pdfinfoTagged(bytes)).to.equal(true);
    const tags = pdfTags(bytes);
    expect(tags.xmpTitle).to.equal(CJK_TITLE);
    for (const role of ['H1', 'L', 'LI', 'LBody']) expect(tags.standardRoles, role).to.have.property(role);
    expect(tags.fonts.filter((font) => !font.startsWith('Type1 '))).to.deep.equal([]);
    const text = comparable(pdfText(bytes));
    for (const part of [CJK_TITLE, CJK_BODY, CJK_ITEM, 'Latin 2026']) expect(text, part).to.include(comparable(part));
  });

  it('an untagged request of the same document is not tagged', async () => {
    for (const extra of [{}, { tagged: 'no' }] as Record<string, string>[]) {
      const { bytes } = await pdf(SAMPLE, extra);
      expect(pdfinfoTagged(bytes), JSON.stringify(extra)).to.equal(false);
      expect(pdfTags(bytes).structTreeRoot, JSON.stringify(extra)).to.equal(false);
    }
  });

  it('tagged=no keeps the render key of a request without it; tagged=yes has its own', async () => {
    const etag = async (extra: Record<string, string>): Promise<string | null> => (await pdf('Key\n===\n\nText.\n', extra)).res.headers.get('etag');
    const plain = await etag({});
    expect(plain).to.be.a('string');
    expect(await etag({ tagged: 'no' })).to.equal(plain);
    expect(await etag({ tagged: 'yes' })).to.not.equal(plain);
  });

  it('a tagged document later starts from a preamble format of its own, and is tagged as the first run without it was', async () => {
    const dir = tempDir('fmt-tagged');
    const f = await server({ RST2_PDF_TIMEOUT_MS: '120000', RST2_TEX_WORKERS: '1', RST2_TEX_FORMAT_DIR: dir });
    const jobs = async (start: string): Promise<number> => {
      const text = await (await fetch(`${f.url}/metrics`)).text();
      const line = text.split('\n').find((l) => l.startsWith(`rst2_tex_jobs_total{start="${start}"} `));
      return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
    };
    // Another class than the default, whose tagged format npm install makes.
    const tagged = async (word: string): Promise<PdfTags> => {
      const res = await api(f, '/1.0/rst2/pdf', form({ rst: `${SAMPLE}\n${word}\n`, tagged: 'yes', class: 'report' }));
      expect(res.status, res.status === 200 ? '' : await res.clone().text()).to.equal(200);
      const bytes = await res.arrayBuffer();
      expect(pdfText(bytes)).to.include(word);
      return pdfTags(bytes);
    };
    const plain = await jobs('plain');
    const first = await tagged('firstword');
    expect(await jobs('plain')).to.equal(plain + 1);
    await f.pdf.formatsIdle();
    expect(fs.readdirSync(dir).filter((name) => name.endsWith('.fmt'))).to.have.length(1);
    const withFormat = await jobs('format');
    const second = await tagged('secondword');
    expect(await jobs('format')).to.equal(withFormat + 1);
    expect(second.standardRoles).to.deep.equal(first.standardRoles);
    expect(second.roleMap).to.deep.equal(first.roleMap);
    expect(second.alts).to.deep.equal([{ role: 'Figure', alt: 'A red square' }]);
    for (const key of ['structTreeRoot', 'parentTree', 'lang', 'marked', 'displayDocTitle', 'xmpTitle', 'pdfuaPart', 'fonts'] as const) {
      expect(second[key], key).to.deep.equal(first[key]);
    }
  });

  it('an Arabic note is tagged as Arabic, its text in logical order', async () => {
    const { res, bytes } = await pdf(ARABIC, { tagged: 'yes' });
    expect(res.headers.get('x-rst2-replaced-characters')).to.equal(null);
    expect(pdfinfoTagged(bytes)).to.equal(true);
    const tags = pdfTags(bytes);
    expect(tags.lang).to.equal('ar');
    expect(tags.pdfuaPart).to.equal(1);
    expect(tags.xmpTitle).to.equal(ARABIC_TITLE);
    for (const role of ['L', 'LI', 'LBody']) expect(tags.standardRoles, role).to.have.property(role);
    const text = comparable(pdfText(bytes));
    for (const part of [ARABIC_TITLE, ARABIC_BODY, ARABIC_ITEM, 'Latin 2026']) expect(text, part).to.include(comparable(part));
  });

  it('a document of the shapes real ones have: no title of its own, a field list between sections, an ellipsis', async () => {
    // Each failed or lacked a dc:title in bench:real-documents --tagged (9 and 42 of 126).
    const untitled = 'Install\u2026\n----------\n\nText.\n\n:Version: 1.0\n:Web: https://example.org/\n\nUsage\n-----\n\nMore text.\n';
    const { bytes } = await pdf(untitled, { tagged: 'yes' });
    expect(pdfinfoTagged(bytes)).to.equal(true);
    const tags = pdfTags(bytes);
    expect(tags.xmpTitle).to.equal('Install\u2026');
    expect(tags.infoTitle).to.equal('Install\u2026');
    expect(tags.displayDocTitle).to.equal(true);
    expect(tags.standardRoles['H1']).to.equal(2);
    expect(tags.standardRoles, 'the field list').to.have.property('BlockQuote');
    expect(pdfText(bytes)).to.include('More text.');
    // The same through LuaHBTeX, whose Latin font has the ellipsis.
    const arabic = `${ARABIC_TITLE}\u2026\n${'-'.repeat(ARABIC_TITLE.length * 2)}\n\n${ARABIC_BODY}.\n\n:Version: 1.0\n\nقسم\n----\n\nLatin\u2026 2026\n`;
    const shaped = await pdf(arabic, { tagged: 'yes' });
    expect(shaped.res.headers.get('x-rst2-replaced-characters')).to.equal(null);
    const arabicTags = pdfTags(shaped.bytes);
    expect(arabicTags.xmpTitle).to.equal(`${ARABIC_TITLE}\u2026`);
    expect(arabicTags.lang).to.equal('ar');
    expect(comparable(pdfText(shaped.bytes))).to.include(comparable('Latin\u2026 2026'));
  });

  it('no block inside a paragraph: admonitions, an image placeholder in a line, a linked image after an admonition', async () => {
    // The styles' framed admonitions made their paragraphs a P inside a P; a
    // placeholder's framed box was a Div inside the paragraph; an image link
    // straight after an admonition continued its paragraph. (A loopback
    // address is refused, so both images are placeholders.)
    const rst = 'Boxes\n=====\n\n.. note:: A note.\n\n   Its second paragraph.\n\n.. image:: http://127.0.0.1:9/a.png\n   :alt: Linked picture\n   :target: https://example.org/\n\nA line with |badge| inside.\n\n.. warning:: Warned.\n\n.. |badge| image:: http://127.0.0.1:9/b.png\n';
    for (const style of ['default', 'style2', 'zope']) {
      const { res, bytes } = await pdf(rst, { tagged: 'yes', style });
      expect(res.headers.get('x-rst2-image-problems'), style).to.equal('2');
      const tags = pdfTags(bytes);
      expect(tags.blocksInParagraphs, style).to.deep.equal({});
      expect(tags.alts, style).to.deep.equal([{ role: 'Figure', alt: 'Linked picture' }, { role: 'Figure', alt: 'badge' }]);
      const text = pdfText(bytes);
      for (const part of ['A note.', 'Its second paragraph.', 'Linked picture', 'A line with', 'Warned.']) expect(text, `${style}: ${part}`).to.include(part);
    }
  });

  it('a table longer than a page: tagged, its header row TH (longtable\'s infinite glue stopped the tagging at a page break)', async () => {
    const rows = Array.from({ length: 150 }, (_, i) => `   * - row ${i}\n     - value ${i}\n`).join('');
    const { bytes } = await pdf(`Long\n====\n\n.. list-table::\n   :header-rows: 1\n\n   * - Name\n     - Value\n${rows}`, { tagged: 'yes' });
    expect(pdfinfoTagged(bytes)).to.equal(true);
    const tags = pdfTags(bytes);
    expect(tags.standardRoles['Table']).to.equal(1);
    expect(tags.standardRoles['TH']).to.equal(2);
    expect(tags.standardRoles['TD']).to.be.at.least(300);
    const text = pdfText(bytes);
    expect(text).to.include('row 0');
    expect(text).to.include('value 149');
    expect(text.split('\f').filter((page) => page.trim()).length).to.be.at.least(3);
  });

  it('refuses a value other than yes or no', async () => {
    const res = await api(s, '/1.0/rst2/pdf', form({ rst: 'Text.\n', tagged: 'maybe' }));
    expect(res.status).to.equal(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).to.equal('unknown_tagged');
  });

  it('check reports an image without alt text only when tagging is asked for', async () => {
    const rst = `Title\n=====\n\n.. image:: ${RED}\n\n.. image:: ${RED}\n   :alt: Red\n`;
    const rules = async (extra: Record<string, string>): Promise<string[]> => {
      const res = await api(s, '/1.0/rst2/check', form({ rst, ...extra }));
      expect(res.status).to.equal(200);
      return ((await res.json()) as { rule: string; line: number }[]).map((item) => `${item.rule}@${item.line}`);
    };
    expect(await rules({})).to.deep.equal([]);
    expect(await rules({ tagged: 'no' })).to.deep.equal([]);
    expect(await rules({ tagged: 'yes' })).to.deep.equal(['image-without-alt@4']);
    expect(await rules({ tagged: 'yes', ignore: 'image-without-alt' })).to.deep.equal([]);
  });
});
