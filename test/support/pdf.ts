/** Text and other facts of a PDF, read with pdf.js (pure JavaScript, no system tools). */
import { getDocument, OPS, type PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

async function open(bytes: ArrayBuffer | Uint8Array): Promise<PDFDocumentProxy> {
  const data = bytes instanceof Uint8Array ? new Uint8Array(bytes) : new Uint8Array(bytes.slice(0));
  return getDocument({ data, useSystemFonts: false, isEvalSupported: false, verbosity: 0 }).promise;
}

export async function pdfPages(bytes: ArrayBuffer | Uint8Array): Promise<string[]> {
  const doc = await open(bytes);
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join(''));
  }
  await doc.destroy();
  return pages;
}

/** What a reader of the PDF gets besides the text. */
export interface PdfFacts {
  /** Fonts the pages draw text with, by PostScript name (without the subset tag). */
  fonts: string[];
  /** Link annotations: target (URL or destination) and rounded rectangle, page by page. */
  links: string[];
  /** The bookmarks: title and destination, nested. */
  outline: string;
  /** The document information dictionary (title, author, producer, dates, ...). */
  info: string;
}

interface OutlineItem { title: string; dest: unknown; items: OutlineItem[] }
const outlineText = (items: OutlineItem[] | null): string =>
  JSON.stringify((items ?? []).map(function each(o): unknown { return [o.title, o.dest, o.items.map(each)]; }));

export async function pdfFacts(bytes: ArrayBuffer | Uint8Array): Promise<PdfFacts> {
  const doc = await open(bytes);
  const fonts = new Set<string>();
  const links: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const page = await doc.getPage(n);
    const ops = await page.getOperatorList();
    ops.fnArray.forEach((fn, i) => {
      if (fn !== OPS.setFont) return;
      const font = page.commonObjs.get(String((ops.argsArray[i] as unknown[])[0])) as { name?: string };
      if (font.name) fonts.add(font.name.replace(/^[A-Z]{6}\+/, ''));
    });
    for (const a of (await page.getAnnotations()) as Array<{ subtype: string; url?: string; dest?: unknown; rect: number[] }>) {
      if (a.subtype === 'Link') links.push(`${n}:${a.url ?? JSON.stringify(a.dest)}@${a.rect.map(Math.round).join(',')}`);
    }
  }
  const outline = outlineText((await doc.getOutline()) as OutlineItem[] | null);
  const info = JSON.stringify((await doc.getMetadata()).info);
  await doc.destroy();
  return { fonts: [...fonts].sort(), links, outline, info };
}
