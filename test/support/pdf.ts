/** PDFs read with pdf.js (pure JavaScript, no system tools): text, links, fonts, and active content as a viewer sees it. */
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

/** The fields pdf.js gives an annotation that say where it leads. */
interface AnnotationData {
  subtype?: string;
  url?: string;
  unsafeUrl?: string;
  dest?: unknown;
  action?: string;
  attachment?: unknown;
  actions?: unknown;
  resetForm?: unknown;
}

interface OutlineItem {
  title: string;
  items: OutlineItem[];
}

export interface PdfjsView {
  /** What pdf.js reports; null/empty everywhere for a PDF without active content. */
  openAction: unknown;
  jsActions: unknown;
  attachments: unknown;
  fields: unknown;
  pageActions: unknown[];
  annotations: AnnotationData[];
  outline: string[];
}

function titles(items: OutlineItem[] | null): string[] {
  return (items ?? []).flatMap((i) => [i.title, ...titles(i.items)]);
}

export async function pdfjsView(bytes: ArrayBuffer | Uint8Array): Promise<PdfjsView> {
  const doc = await open(bytes);
  try {
    const annotations: AnnotationData[] = [];
    const pageActions: unknown[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const onPage: AnnotationData[] = await page.getAnnotations();
      annotations.push(...onPage);
      const js: unknown = await page.getJSActions();
      if (js && Object.keys(js).length > 0) pageActions.push(js);
    }
    return {
      openAction: await doc.getOpenAction(),
      jsActions: await doc.getJSActions(),
      attachments: await doc.getAttachments(),
      fields: await doc.getFieldObjects(),
      pageActions,
      annotations,
      outline: titles(await doc.getOutline()),
    };
  } finally {
    await doc.destroy();
  }
}

const WEB = /^(https?|mailto):/i;

/** Everything in pdf.js's view that is not plain text, a web/mail link or an in-document jump. */
export function activeContentSeenByPdfjs(view: PdfjsView): string[] {
  const found: string[] = [];
  const openAction = view.openAction as { dest?: unknown } | null;
  if (openAction && openAction.dest === undefined) found.push(`open action ${JSON.stringify(openAction)}`);
  if (view.jsActions) found.push(`document JavaScript ${JSON.stringify(view.jsActions)}`);
  if (view.attachments) found.push('attachments');
  if (view.fields) found.push('form fields');
  for (const p of view.pageActions) found.push(`page actions ${JSON.stringify(p)}`);
  for (const a of view.annotations) {
    if (a.subtype !== 'Link') found.push(`a ${a.subtype} annotation`);
    else if (a.unsafeUrl !== undefined || a.url !== undefined) {
      if (!WEB.test(a.unsafeUrl ?? '') || !WEB.test(a.url ?? '')) found.push(`a link to ${a.unsafeUrl ?? a.url}`);
    } else if (a.dest === undefined || a.dest === null) found.push(`a link that leads nowhere pdf.js knows (${JSON.stringify(a)})`);
    if (a.action || a.attachment || a.resetForm || (a.actions && Object.keys(a.actions).length)) found.push(`a link with an action ${JSON.stringify(a)}`);
  }
  return found;
}

/** Link targets and outline titles: what must survive the safety measures. */
export async function pdfLinks(bytes: ArrayBuffer | Uint8Array): Promise<{ urls: string[]; internal: number; outline: string[] }> {
  const view = await pdfjsView(bytes);
  const urls = [...new Set(view.annotations.flatMap((a) => (a.url ? [a.url] : [])))].sort();
  const internal = view.annotations.filter((a) => a.subtype === 'Link' && a.dest !== undefined && a.dest !== null).length;
  return { urls, internal, outline: view.outline };
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

interface OutlineEntry { title: string; dest: unknown; items: OutlineEntry[] }
const outlineText = (items: OutlineEntry[] | null): string =>
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
  const outline = outlineText((await doc.getOutline()) as OutlineEntry[] | null);
  const info = JSON.stringify((await doc.getMetadata()).info);
  await doc.destroy();
  return { fonts: [...fonts].sort(), links, outline, info };
}

/** How many raster images (image XObjects) and form XObjects (e.g. an included PDF) the pages paint. */
export async function pdfImages(bytes: ArrayBuffer | Uint8Array): Promise<{ images: number; forms: number }> {
  const doc = await open(bytes);
  let images = 0;
  let forms = 0;
  for (let n = 1; n <= doc.numPages; n++) {
    const ops = await (await doc.getPage(n)).getOperatorList();
    for (const fn of ops.fnArray) {
      if (fn === OPS.paintImageXObject || fn === OPS.paintInlineImageXObject || fn === OPS.paintImageMaskXObject) images++;
      if (fn === OPS.paintFormXObjectBegin) forms++;
    }
  }
  await doc.destroy();
  return { images, forms };
}
