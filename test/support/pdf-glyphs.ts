/** What a PDF's pages draw, counted with pdf.js: glyphs shown and form XObjects placed (pictures such as emoji). */
import { getDocument, OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';

export interface DrawnCounts {
  /** Glyphs shown by text operators, page by page summed. */
  glyphs: number;
  /** Form XObjects painted (an included PDF page, e.g. one of hwemoji's pictures). */
  forms: number;
}

export async function drawnCounts(bytes: ArrayBuffer | Uint8Array): Promise<DrawnCounts> {
  const data = bytes instanceof Uint8Array ? new Uint8Array(bytes) : new Uint8Array(bytes.slice(0));
  const doc = await getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
  let glyphs = 0;
  let forms = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const ops = await (await doc.getPage(n)).getOperatorList();
    ops.fnArray.forEach((fn, i) => {
      if (fn === OPS.paintFormXObjectBegin) forms++;
      if (fn === OPS.showText || fn === OPS.showSpacedText) {
        const shown = (ops.argsArray[i] as unknown[])[0];
        if (Array.isArray(shown)) glyphs += shown.filter((g) => typeof g === 'object' && g !== null).length;
      }
    });
  }
  await doc.destroy();
  return { glyphs, forms };
}
