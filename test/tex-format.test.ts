/**
 * PDF speed without different PDFs: a document typeset from its preamble
 * format reads the same as without it, for every class and style; a
 * document that reads nothing back is typeset once, and a second run would
 * not change a byte; one that reads back its .aux/.toc still runs again.
 * Real docutils (Pyodide) writes the LaTeX, our pdfTeX typesets it.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

import { PythonEngine } from '../src/engines/python/engine.js';
import { dumpFormat } from '../src/engines/tex/format-dump.js';
import { engineKey, formatName } from '../src/engines/tex/format-name.js';
import { loadTexModule, runPdftex, type PdftexResult } from '../src/engines/tex/pdftex-run.js';
import { logAsksForRerun, readsAuxiliaryFiles } from '../src/engines/tex/rerun.js';
import { createLogger } from '../src/log.js';
import { paths } from '../src/paths.js';
import { pdfFacts, pdfPages } from './support/pdf.js';
import { pdfTags, requirePikepdf } from './support/pdf-tags.js';
import { tempDir } from './support/server.js';
import { describeTex } from './support/tex.js';

// Fixed dates: two runs of the same document then make the same bytes.
const REPRODUCIBLE = { SOURCE_DATE_EPOCH: '1700000000', FORCE_SOURCE_DATE: '1' };

const ONE_RUN_DOCS: Record<string, string> = {
  'a short note': 'Note\n====\n\nA short *note* with a list:\n\n* one\n* two\n',
  // No footnote: docutils 0.23 links a footnote mark with \\hyperref[label],
  // which reads the label back (0.19: \\hyperlink, one run).
  'sections, a citation, a table, code and an admonition': `Report
======

First
-----

Text with a citation [CIT]_, see https://example.org/.

.. [CIT] The citation.

Second
------

=====  =====
A      B
=====  =====
1      2
=====  =====

.. code:: python

   print("hi")

.. note:: Careful.
`,
};

const CLASSES = ['article', 'report', 'book', 'scrartcl', 'scrreprt', 'scrbook'];
const STYLES = ['default', 'style2', 'zope'];
const SAMPLE = `Sample Title
============

:Author: Ada

.. contents::

Part one
--------

Words *and* **more** words, a footnote [#n]_, a link to \`Part two\`_ and math :math:\`a^2+b^2\`.

.. [#n] Footnote text.

Part two
--------

=====  =====
x      y
=====  =====
1      2
=====  =====

| a line block
|    indented
`;

describeTex('pdfTeX: preamble formats and runs', function () {
  let python: PythonEngine;
  let module: WebAssembly.Module;
  const texDir = paths.texDir;

  before(async () => {
    python = new PythonEngine({
      workers: 1, queueLimit: 8, timeoutMs: 60_000, bundlePath: paths.pythonBundle,
      pythonSources: paths.pythonSources, stylesDir: paths.styles, log: createLogger('silent'),
    });
    [module] = await Promise.all([loadTexModule(texDir), python.start()]);
  });
  after(() => python?.close());

  const latexOf = (rst: string, documentClass = 'article', style = 'default', useLatexToc = false) =>
    python.renderLatex(rst, { documentClass, style, useLatexToc });
  const typeset = (files: Record<string, string | Uint8Array>, format?: { dir: string; file: string }): Promise<PdftexResult> =>
    runPdftex({ module, texDir, files, main: 'document.tex', maxRuns: 3, env: REPRODUCIBLE, ...(format ? { format } : {}) });

  describe('runs', () => {
    for (const [name, rst] of Object.entries(ONE_RUN_DOCS)) {
      it(`${name}: one run, and a second one changes nothing`, async () => {
        const { latex } = await latexOf(rst);
        const once = await typeset({ 'document.tex': latex });
        expect(once.exitCode, once.log.slice(-2000)).to.equal(0);
        expect(once.runs).to.equal(1);
        // The second run gets the job folder the first one left (.aux, .out).
        const folder = Object.fromEntries([...once.files].filter(([f]) => !/\.(pdf|log)$/.test(f)));
        expect(Object.keys(folder)).to.include('document.aux');
        const again = await runPdftex({ module, texDir, files: folder, main: 'document.tex', maxRuns: 1, env: REPRODUCIBLE });
        expect(again.exitCode).to.equal(0);
        expect(Buffer.from(again.pdf!).equals(Buffer.from(once.pdf!)), 'the PDF of a second run differs').to.equal(true);
      });
    }

    it('a footnote runs again: docutils 0.23 links its mark to a label (\\hyperref), which the second run resolves', async () => {
      const { latex } = await latexOf('Note\n====\n\nText with a footnote [#f]_.\n\n.. [#f] The footnote.\n');
      expect(latex).to.include('\\hyperref[#2]');
      const r = await typeset({ 'document.tex': latex });
      expect(r.exitCode, r.log.slice(-2000)).to.equal(0);
      expect(r.runs).to.equal(2);
      expect(r.log).to.not.match(/There were undefined references|Rerun to get/);
    });

    it('a document with internal links and a contents topic runs again until its references resolve', async () => {
      const { latex } = await latexOf(SAMPLE);
      const r = await typeset({ 'document.tex': latex });
      expect(r.exitCode, r.log.slice(-2000)).to.equal(0);
      expect(r.runs).to.be.within(2, 3);
      expect(r.log).to.not.match(/There were undefined references|Rerun to get/);
    });

    it('a document that reads back: the first run writes no PDF, and the last one is what full runs make', async () => {
      const { latex } = await latexOf(SAMPLE);
      const r = await typeset({ 'document.tex': latex });
      expect(r.exitCode, r.log.slice(-2000)).to.equal(0);
      let files: Record<string, string | Uint8Array> = { 'document.tex': latex };
      let full: PdftexResult | undefined;
      for (let i = 0; i < r.runs; i++) {
        full = await runPdftex({ module, texDir, files, main: 'document.tex', maxRuns: 1, env: REPRODUCIBLE });
        files = Object.fromEntries([...full.files].filter(([f]) => !/\.(pdf|log)$/.test(f)));
      }
      expect(Buffer.from(r.pdf!).equals(Buffer.from(full!.pdf!)), 'the PDF differs from full runs').to.equal(true);
    });

    it("LaTeX's own table of contents is filled in by a second run", async () => {
      const { latex } = await latexOf('Title\n=====\n\nAlpha section\n-------------\n\ntext\n\nBeta section\n------------\n\ntext\n', 'report', 'default', true);
      const r = await typeset({ 'document.tex': latex });
      expect(r.runs).to.be.within(2, 3);
      // report: a title page, then the contents listing both sections.
      const text = (await pdfPages(r.pdf!)).join('\n');
      expect(text).to.match(/Contents[\s\S]*Alpha section[\s\S]*Beta section[\s\S]*Alpha section/);
    });

    it('reads rerun requests in a log even where TeX broke its lines', () => {
      const wrapped = 'Package rerunfilecheck Warning: File `document.out\' has changed.\n(rerunfilecheck)                Rerun to get outlines right\n';
      expect(logAsksForRerun(wrapped)).to.equal(true);
      const longtable = 'Package longtable Warning: Table widths have changed. Rerun LaTeX.\n';
      expect(logAsksForRerun(longtable)).to.equal(true);
      // Written after every first run of a document with labels: not a reason by itself.
      expect(logAsksForRerun('LaTeX Warning: Label(s) may have changed. Rerun to get cross-references righ\nt.\n')).to.equal(false);
      expect(logAsksForRerun('rerunfilecheck.sty    2022-07-10 v1.10 Rerun checks for auxiliary files (HO)\n')).to.equal(false);
    });

    it('knows which commands read back what a run wrote', () => {
      for (const reads of ['see \\ref{x}', '\\hyperref[sec]{Section}', '\\pageref*{x}', '\\tableofcontents', '\\cite{key}']) {
        expect(readsAuxiliaryFiles(reads), reads).to.equal(true);
      }
      for (const writes of ['\\label{x}', '\\refstepcounter{section}', '\\href{https://x.org}{x}', '\\hypertarget{a}{}', '\\hyperlink{a}{b}']) {
        expect(readsAuxiliaryFiles(writes), writes).to.equal(false);
      }
    });
  });

  describe('the same PDF with and without the preamble format, and as docutils lays it out', () => {
    let formats: string;
    before(() => { formats = tempDir('formats'); });

    for (const cls of CLASSES) {
      for (const style of STYLES) {
        it(`class ${cls}, style ${style}: same text, pages, fonts, links, bookmarks and metadata`, async () => {
          const out = await latexOf(SAMPLE, cls, style);
          const docutils = await python.renderLatex(SAMPLE, { documentClass: cls, style, useLatexToc: false, docutilsLayout: true });
          expect(docutils.format_preamble).to.equal(null);
          const preamble = out.format_preamble;
          expect(preamble, 'no format preamble').to.be.a('string');
          const name = formatName(engineKey(texDir), preamble!);
          const dumped = await dumpFormat({ module, texDir, preamble: preamble!, name });
          expect(dumped.format, dumped.log.slice(-2000)).to.not.equal(null);
          fs.writeFileSync(path.join(formats, `${name}.fmt`), dumped.format!);

          const before = await typeset({ 'document.tex': docutils.latex });
          const plain = await typeset({ 'document.tex': out.latex });
          const fast = await typeset({ 'document.tex': out.latex }, { dir: formats, file: `${name}.fmt` });
          for (const r of [before, plain, fast]) expect(r.exitCode, r.log.slice(-2000)).to.equal(0);
          // The format really was used: the log shows mylatexformat's banner.
          expect(fast.log).to.include('CUSTOMISED FORMAT');
          expect(plain.log).to.not.include('CUSTOMISED FORMAT');
          expect(fast.runs).to.equal(plain.runs);
          const [a, b, c] = [await pdfPages(before.pdf!), await pdfPages(plain.pdf!), await pdfPages(fast.pdf!)];
          expect(a.join('\n')).to.include('Sample Title');
          expect(b, 'docutils layout vs ours').to.deep.equal(a);
          expect(c, 'with the format').to.deep.equal(a);
          const [fa, fb, fc] = [await pdfFacts(before.pdf!), await pdfFacts(plain.pdf!), await pdfFacts(fast.pdf!)];
          expect(fa.fonts).to.not.deep.equal([]);
          expect(fa.links).to.not.deep.equal([]);
          expect(fb).to.deep.equal(fa);
          expect(fc).to.deep.equal(fa);
        });
      }
    }

    // \DocumentMetadata before the class: the format holds LaTeX's PDF
    // management and tagging as set up then (latex_format.METADATA_FORMAT).
    for (const [cls, style] of [['article', 'default'], ['scrreprt', 'zope']] as const) {
      it(`tagged, class ${cls}, style ${style}: the same PDF and the same structure tree with the format`, async function () {
        requirePikepdf(this);
        const out = await python.renderLatex(SAMPLE, { documentClass: cls, style, useLatexToc: false, tagged: true });
        const preamble = out.format_preamble;
        expect(preamble, 'no format preamble').to.be.a('string');
        expect(preamble!.startsWith('\\DocumentMetadata{')).to.equal(true);
        const name = formatName(engineKey(texDir), preamble!);
        const dumped = await dumpFormat({ module, texDir, preamble: preamble!, name });
        expect(dumped.format, dumped.log.slice(-2000)).to.not.equal(null);
        fs.writeFileSync(path.join(formats, `${name}.fmt`), dumped.format!);
        const plain = await typeset({ 'document.tex': out.latex });
        const fast = await typeset({ 'document.tex': out.latex }, { dir: formats, file: `${name}.fmt` });
        for (const r of [plain, fast]) expect(r.exitCode, r.log.slice(-2000)).to.equal(0);
        expect(fast.log).to.include('CUSTOMISED FORMAT');
        expect(fast.runs).to.equal(plain.runs);
        expect(await pdfPages(fast.pdf!)).to.deep.equal(await pdfPages(plain.pdf!));
        expect(await pdfFacts(fast.pdf!)).to.deep.equal(await pdfFacts(plain.pdf!));
        const [a, b] = [pdfTags(plain.pdf!), pdfTags(fast.pdf!)];
        expect(a.structTreeRoot).to.equal(true);
        expect(a.standardRoles).to.have.property('H1');
        expect(b).to.deep.equal(a);
      });
    }
  });
});
