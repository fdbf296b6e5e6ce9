/**
 * The last check before a PDF leaves the TeX engine (engines/tex/worker.ts,
 * step 4 of pipeline.ts), and the check of a PDF given as an image
 * (src/images/convert.ts): does it carry active content?
 * The LaTeX we generate should never produce any (see
 * python/rst2/latex_safety.py and primitive_lock.tex); this catches what
 * slips past them, and what an image PDF brings (pdfTeX copies its page's
 * resources, and every object they reach, into the document).
 *
 * Every object in the file is judged (objects.ts reads them all, in
 * object streams too); page content is never looked into, so text such as
 * "(/JS)" on a page is no alarm. A value the policy reads may be given by
 * reference: it is judged by every value it may stand for, and refused when
 * it leads nowhere, since a reader may find there what this check did not.
 *
 * Refused: JavaScript, Launch, GoToR/GoToE, ImportData, SubmitForm,
 * ResetForm, multimedia (Rendition, Sound, Movie, RichMedia, 3D), embedded
 * files and file attachments, forms (AcroForm, XFA, widgets), URI actions
 * whose target is not http(s) or mailto, encryption (it would hide strings
 * from this check), and anything that cannot be read.
 */
import { Code } from '../errors.js';
import type { JobFailure } from '../engines/worker-messages.js';
import { readPdf, type PdfFile } from './objects.js';
import { nameOf, type PdfValue } from './syntax.js';

/** Dictionary keys that only exist for active content, embedded files or forms. */
const REFUSED_KEYS = new Set(['JS', 'JavaScript', 'AcroForm', 'XFA', 'EmbeddedFiles', 'EmbeddedFile', 'EF', 'RichMediaContent', 'Encrypt']);
/** Action types (/S), annotation subtypes and object types that are refused. */
const REFUSED_TYPES = new Set([
  'JavaScript', 'Launch', 'GoToR', 'GoToE', 'ImportData', 'SubmitForm', 'ResetForm', 'Rendition', 'Sound', 'Movie',
  'RichMedia', '3D', 'Widget', 'EmbeddedFile', 'FileAttachment',
]);
const TYPE_KEYS = new Set(['S', 'Type', 'Subtype']);
/**
 * Keys whose value leads to an action, an annotation or a file: given by a
 * reference that leads nowhere in this reading, they are refused. (What
 * they lead to is an object of the file, judged on its own.) In /AA every
 * entry is an action.
 */
const REACHING_KEYS = new Set(['A', 'AA', 'OpenAction', 'Next', 'Annots', 'Names', 'F', 'FS']);
const SAFE_URI = /^(https?|mailto):/i;

/** A PDF text string as text: UTF-16BE or UTF-8 with their byte order marks, else PDFDocEncoding (read as Latin-1). */
export function pdfText(bytes: Uint8Array): string {
  if (bytes[0] === 0xfe && bytes[1] === 0xff) {
    let s = '';
    for (let i = 2; i + 1 < bytes.length; i += 2) s += String.fromCharCode((bytes[i]! << 8) | bytes[i + 1]!);
    return s;
  }
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return Buffer.from(bytes.subarray(3)).toString('utf8');
  return Buffer.from(bytes).toString('latin1');
}

function shorten(s: string): string {
  const printable = JSON.stringify(s);
  return printable.length > 60 ? `${printable.slice(0, 57)}..."` : printable;
}

class Inspection {
  readonly found = new Set<string>();
  constructor(private readonly file: PdfFile) {}

  /** What `value` may stand for; a problem recorded (and nothing returned) when it leads nowhere. */
  private resolved(key: string, value: PdfValue, where: string): PdfValue[] {
    if (value.kind !== 'ref') return [value];
    const values = this.file.resolve(value);
    if (values === null) this.found.add(`/${key} ${value.num} ${value.gen} R, which this check cannot resolve (${where})`);
    return values ?? [];
  }

  /** References in the value of a key that leads somewhere must lead to an object of this reading. */
  private reachable(key: string, value: PdfValue, where: string): void {
    const items = value.kind === 'array' ? value.items : value.kind === 'dict' && key === 'AA' ? value.entries.map(([, v]) => v) : [value];
    for (const item of items) if (item.kind === 'ref') this.resolved(key, item, where);
  }

  private checkType(key: string, value: PdfValue, where: string): void {
    for (const v of this.resolved(key, value, where)) {
      const type = nameOf(v);
      if (type !== undefined && REFUSED_TYPES.has(type)) this.found.add(`/${key} /${type} (${where})`);
    }
  }

  private checkUri(value: PdfValue, where: string): void {
    for (const target of this.resolved('URI', value, where)) {
      // The catalog's /URI dictionary (a base for relative links) is no action.
      if (target.kind === 'dict') continue;
      if (target.kind !== 'string') this.found.add(`a URI action without a text target (${where})`);
      else {
        const uri = pdfText(target.bytes);
        if (!SAFE_URI.test(uri)) this.found.add(`a URI action to ${shorten(uri)} (${where})`);
      }
    }
  }

  inspect(value: PdfValue, where: string): void {
    if (value.kind === 'array') {
      for (const item of value.items) this.inspect(item, where);
      return;
    }
    if (value.kind !== 'dict') return;
    for (const [key, item] of value.entries) {
      if (REFUSED_KEYS.has(key)) this.found.add(`/${key} (${where})`);
      if (TYPE_KEYS.has(key)) this.checkType(key, item, where);
      if (key === 'URI') this.checkUri(item, where);
      if (REACHING_KEYS.has(key)) this.reachable(key, item, where);
      this.inspect(item, where);
    }
  }
}

/** What makes this PDF unsafe to serve, one line each; empty when nothing does. */
export function findActiveContent(pdf: Uint8Array): string[] {
  let file: PdfFile;
  try {
    file = readPdf(pdf);
  } catch (err) {
    return [`a PDF structure this check cannot read (${err instanceof Error ? err.message : String(err)})`];
  }
  const inspection = new Inspection(file);
  for (const object of file.objects) inspection.inspect(object.value, object.id === 'trailer' ? 'trailer' : `object ${object.id}`);
  return [...inspection.found];
}

/** The failure of a job whose PDF carries active content (`422 pdf_unsafe`), naming the first few things found. */
export function unsafePdf(found: readonly string[]): JobFailure {
  const shown = found.slice(0, 5).join('; ');
  return {
    code: Code.pdf_unsafe,
    message: `The PDF made from this document would carry active content, so it is not served: ${shown}${found.length > 5 ? `; and ${found.length - 5} more` : ''}.`,
    detail: `active content in a PDF: ${found.join('; ')}`,
  };
}
