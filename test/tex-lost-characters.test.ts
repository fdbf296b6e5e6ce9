/**
 * The safety net of issue 12: a character the font lacks is dropped by
 * pdfTeX, never silently. LaTeX's \tracinglostchars=2 logs it; the engine
 * counts those lines (src/engines/tex/lost-characters.ts) and the renderer
 * adds them to X-Rst2-Replaced-Characters.
 */
import { expect } from 'chai';

import { TexEngine } from '../src/engines/tex/engine.js';
import { createLogger } from '../src/log.js';
import { paths } from '../src/paths.js';
import { describeTex } from './support/tex.js';

describeTex('pdfTeX: characters a font lacks are counted', function () {
  let engine: TexEngine;
  before(async () => {
    engine = new TexEngine({ workers: 1, queueLimit: 4, timeoutMs: 60_000, stallMs: 0, texDir: paths.texDir, log: createLogger('silent') });
    await engine.start();
  });
  after(async () => {
    await engine?.close();
  });

  it('a slot cmr10 has no glyph in is typeset as nothing and counted, once per character', async () => {
    // OT1 cmr10 ends at slot 127: \symbol{200} and \symbol{201} exist nowhere in it.
    const latex = '\\documentclass{article}\\begin{document}A\\symbol{200}B\\symbol{201}C\\end{document}\n';
    const out = await engine.typeset(latex);
    expect(out.pdf.subarray(0, 5).toString('latin1')).to.equal('%PDF-');
    expect(out.lostCharacters).to.equal(2);
  });

  it('a document whose characters all have glyphs loses none', async () => {
    const out = await engine.typeset('\\documentclass{article}\\begin{document}ABC\\end{document}\n');
    expect(out.lostCharacters).to.equal(0);
  });
});
