/**
 * LuaHBTeX, our second engine (issue 31), on its own: LuaLaTeX from the
 * lualatex format with luaotfload's caches the build made, HarfBuzz
 * shaping, the same sandbox as pdfTeX's (the tree read-only, nothing of
 * the host but the tree), and the characters a font lacks counted.
 */
import { expect } from 'chai';

import { TexEngine } from '../src/engines/tex/engine.js';
import { loadCacheFiles, loadTexModule, runPdftex, type PdftexResult } from '../src/engines/tex/pdftex-run.js';
import { createLogger } from '../src/log.js';
import { paths } from '../src/paths.js';
import { pdfText, requirePdftotext } from './support/pdftotext.js';
import { describeTex } from './support/tex.js';

const PREAMBLE = String.raw`\documentclass{article}
\usepackage{fontspec}
\usepackage[bidi=basic]{babel}
\babelprovide[import, main]{english}
\babelprovide[import, onchar=ids fonts]{arabic}
\babelfont[arabic]{rm}[Renderer=HarfBuzz, Extension=.ttf, UprightFont=*-Regular, BoldFont=*-Bold]{NotoSansArabic}
`;
const doc = (body: string): string => `${PREAMBLE}\\begin{document}\n${body}\n\\end{document}\n`;

describeTex('LuaHBTeX (WebAssembly)', function () {
  let module: WebAssembly.Module;
  let run: (latex: string) => Promise<PdftexResult>;

  before(async function () {
    requirePdftotext(this);
    module = await loadTexModule(paths.texDir, 'luahbtex');
    const cache = await loadCacheFiles(paths.texDir, 'luahbtex');
    expect(cache.size, 'luaotfload caches in the tree').to.be.greaterThan(10);
    run = (latex) => runPdftex({ engine: 'luahbtex', module, cache, texDir: paths.texDir, files: { 'document.tex': latex }, main: 'document.tex', maxRuns: 2 });
  });

  it('shapes Arabic right to left next to Latin, from the caches the build made (no font names database made per run)', async () => {
    const r = await run(doc('Latin words, then مرحبا بالعالم, then Latin again.'));
    expect(r.exitCode, r.log.slice(-1500)).to.equal(0);
    expect(r.log).not.to.match(/Font names database not found/);
    expect(r.log).not.to.match(/Missing character/);
    const text = pdfText(r.pdf!).normalize('NFKC').replace(/\p{Cf}/gu, '');
    expect(text).to.include('مرحبا بالعالم');
    expect(text).to.include('Latin again.');
  });

  it("Lua sees no host file and cannot write into the tree: io.open of /etc/passwd fails, of /tex/x for writing too", async () => {
    const r = await run(doc(String.raw`\directlua{
      tex.print(io.open("/etc/passwd") and "READ-HOST" or "NO-HOST")
      tex.print(io.open("/tex/texmf.cnf", "a") and "WROTE-TREE" or "NO-WRITE")
      tex.print(os.execute and (os.execute("true") and "RAN" or "NO-RUN") or "NO-RUN")}`));
    expect(r.exitCode, r.log.slice(-1500)).to.equal(0);
    const text = pdfText(r.pdf!);
    expect(text).to.include('NO-HOST');
    expect(text).to.include('NO-WRITE');
    expect(text).to.include('NO-RUN');
  });

  it('through the engine pool: a character the Arabic face lacks is counted, as pdfTeX counts its own', async () => {
    const engine = new TexEngine({ workers: 1, queueLimit: 4, timeoutMs: 120_000, stallMs: 0, texDir: paths.texDir, log: createLogger('silent') });
    await engine.start();
    try {
      // Noto Sans Arabic has no Latin capitals: set in it alone, "AB" is two lost characters (a letter it has keeps the face in the PDF).
      const out = await engine.typeset(doc(String.raw`{\fontspec{NotoSansArabic}[Renderer=HarfBuzz, Extension=.ttf, UprightFont=*-Regular] مAB}`), null, undefined, 'luahbtex');
      expect(out.pdf.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
      expect(out.lostCharacters).to.equal(2);
      const latin = await engine.typeset(doc('Plain Latin.'), null, undefined, 'luahbtex');
      expect(latin.lostCharacters).to.equal(0);
    } finally {
      await engine.close();
    }
  });
});
