/**
 * The last check before a PDF leaves the TeX engine: does it carry active
 * content? The LaTeX we generate should never produce any (see
 * python/rst2/latex_safety.py and primitive_lock.tex); this catches what
 * slips past them.
 *
 * The file is read as PDF objects, not searched as text: a tokenizer tells
 * names from strings and comments, dictionaries and arrays nest, and every
 * `n g obj` in the file is read in order (so an object the cross-reference
 * table does not list is read too). Stream data is skipped, except object
 * streams (/ObjStm), which hold objects and are inflated; page content is
 * never looked into, so text such as "(/JS)" on a page is no alarm.
 *
 * Refused: JavaScript, Launch, GoToR/GoToE, ImportData, SubmitForm,
 * multimedia (Rendition, Sound, Movie, RichMedia, 3D), embedded files, forms
 * (AcroForm, XFA, widgets), URI actions whose target is not http(s) or
 * mailto, encryption (it would hide strings from this check), and anything
 * that cannot be read.
 */
import zlib from 'node:zlib';

type PdfValue =
  | { kind: 'name'; name: string }
  | { kind: 'string'; bytes: Uint8Array }
  | { kind: 'number'; value: number }
  | { kind: 'ref'; num: number; gen: number }
  | { kind: 'array'; items: PdfValue[] }
  // A list, not a map: a key given twice is kept twice, and both values are inspected.
  | { kind: 'dict'; entries: Array<[string, PdfValue]> }
  | { kind: 'keyword'; word: string };

type PdfDict = Extract<PdfValue, { kind: 'dict' }>;

export class PdfSyntaxError extends Error {
  override name = 'PdfSyntaxError';
}

// ---------------------------------------------------------------- tokens

const WHITESPACE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIMITERS = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const REGULAR = Uint8Array.from({ length: 256 }, (_, b) => (WHITESPACE.has(b) || DELIMITERS.has(b) ? 0 : 1));
const isRegular = (b: number): boolean => REGULAR[b] === 1;
const ESCAPES: Readonly<Record<number, number>> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c, 0x28: 0x28, 0x29: 0x29, 0x5c: 0x5c };
const hexValue = (b: number): number => (b >= 0x30 && b <= 0x39 ? b - 0x30 : b >= 0x41 && b <= 0x46 ? b - 0x37 : b >= 0x61 && b <= 0x66 ? b - 0x57 : -1);

// Nesting deeper than this is not something pdfTeX writes; refusing it keeps
// the recursive parser off the stack limit.
const MAX_DEPTH = 64;

type Token =
  | { t: 'value'; value: PdfValue }
  | { t: 'open-dict' | 'close-dict' | 'open-array' | 'close-array' }
  | { t: 'eof' };

class Lexer {
  pos: number;
  constructor(readonly bytes: Uint8Array, start = 0) {
    this.pos = start;
  }

  skipSpace(): void {
    const b = this.bytes;
    while (this.pos < b.length) {
      const c = b[this.pos]!;
      if (WHITESPACE.has(c)) this.pos++;
      else if (c === 0x25) {
        while (this.pos < b.length && b[this.pos] !== 0x0a && b[this.pos] !== 0x0d) this.pos++;
      } else break;
    }
  }

  next(): Token {
    this.skipSpace();
    const b = this.bytes;
    if (this.pos >= b.length) return { t: 'eof' };
    const c = b[this.pos]!;
    if (c === 0x2f) return { t: 'value', value: this.name() };
    if (c === 0x28) return { t: 'value', value: this.literalString() };
    if (c === 0x3c) {
      if (b[this.pos + 1] === 0x3c) {
        this.pos += 2;
        return { t: 'open-dict' };
      }
      return { t: 'value', value: this.hexString() };
    }
    if (c === 0x3e) {
      if (b[this.pos + 1] !== 0x3e) throw new PdfSyntaxError(`stray '>' at byte ${this.pos}`);
      this.pos += 2;
      return { t: 'close-dict' };
    }
    if (c === 0x5b) {
      this.pos++;
      return { t: 'open-array' };
    }
    if (c === 0x5d) {
      this.pos++;
      return { t: 'close-array' };
    }
    if (c === 0x29 || c === 0x7b || c === 0x7d) throw new PdfSyntaxError(`unexpected '${String.fromCharCode(c)}' at byte ${this.pos}`);
    const start = this.pos;
    while (this.pos < b.length && isRegular(b[this.pos]!)) this.pos++;
    if (this.pos === start) throw new PdfSyntaxError(`unexpected byte ${c} at ${start}`);
    // Built by hand: a PDF has tens of thousands of these, and buffers and
    // regular expressions per token made the check several times slower.
    let word = '';
    let numeric = true;
    for (let i = start; i < this.pos; i++) {
      const ch = b[i]!;
      word += String.fromCharCode(ch);
      if (!((ch >= 0x30 && ch <= 0x39) || ch === 0x2e || ((ch === 0x2b || ch === 0x2d) && i === start))) numeric = false;
    }
    if (numeric) {
      const value = Number(word);
      if (!Number.isNaN(value)) return { t: 'value', value: { kind: 'number', value } };
    }
    return { t: 'value', value: { kind: 'keyword', word } };
  }

  /** The next byte that is not white space or comment (-1 at the end), without consuming it. */
  peekByte(): number {
    this.skipSpace();
    return this.pos < this.bytes.length ? this.bytes[this.pos]! : -1;
  }

  private name(): PdfValue {
    const b = this.bytes;
    this.pos++;
    let name = '';
    while (this.pos < b.length && isRegular(b[this.pos]!)) {
      const c = b[this.pos]!;
      // #xx is how a name spells any byte: /J#61vaScript is /JavaScript.
      if (c === 0x23 && this.pos + 2 < b.length && hexValue(b[this.pos + 1]!) >= 0 && hexValue(b[this.pos + 2]!) >= 0) {
        name += String.fromCharCode(hexValue(b[this.pos + 1]!) * 16 + hexValue(b[this.pos + 2]!));
        this.pos += 3;
      } else {
        name += String.fromCharCode(c);
        this.pos++;
      }
    }
    return { kind: 'name', name };
  }

  private literalString(): PdfValue {
    const b = this.bytes;
    this.pos++;
    const out: number[] = [];
    let depth = 1;
    while (this.pos < b.length) {
      const c = b[this.pos++]!;
      if (c === 0x5c) {
        const e = b[this.pos++];
        if (e === undefined) break;
        if (ESCAPES[e] !== undefined) out.push(ESCAPES[e]!);
        else if (e >= 0x30 && e <= 0x37) {
          let v = e - 0x30;
          for (let k = 0; k < 2 && b[this.pos]! >= 0x30 && b[this.pos]! <= 0x37; k++) v = v * 8 + (b[this.pos++]! - 0x30);
          out.push(v & 0xff);
        } else if (e === 0x0d) {
          if (b[this.pos] === 0x0a) this.pos++; // a line continuation
        } else if (e !== 0x0a) out.push(e);
        continue;
      }
      if (c === 0x28) depth++;
      else if (c === 0x29 && --depth === 0) return { kind: 'string', bytes: Uint8Array.from(out) };
      out.push(c);
    }
    throw new PdfSyntaxError('unterminated string');
  }

  private hexString(): PdfValue {
    const b = this.bytes;
    this.pos++;
    const digits: number[] = [];
    while (this.pos < b.length && b[this.pos] !== 0x3e) {
      const c = b[this.pos++]!;
      if (WHITESPACE.has(c)) continue;
      const v = hexValue(c);
      if (v < 0) throw new PdfSyntaxError(`bad hex string digit at byte ${this.pos - 1}`);
      digits.push(v);
    }
    if (this.pos >= b.length) throw new PdfSyntaxError('unterminated hex string');
    this.pos++;
    if (digits.length % 2) digits.push(0);
    const out = new Uint8Array(digits.length / 2);
    for (let i = 0; i < out.length; i++) out[i] = digits[2 * i]! * 16 + digits[2 * i + 1]!;
    return { kind: 'string', bytes: out };
  }
}

// ---------------------------------------------------------------- values

/** Reads one value; `n g R` becomes a reference. Keywords (obj, stream, null...) come back as keywords. */
function readValue(lx: Lexer, depth = 0): PdfValue | null {
  if (depth > MAX_DEPTH) throw new PdfSyntaxError('nesting too deep');
  const tok = lx.next();
  switch (tok.t) {
    case 'eof':
      return null;
    case 'open-dict': {
      const entries: Array<[string, PdfValue]> = [];
      for (;;) {
        const key = lx.next();
        if (key.t === 'close-dict') return { kind: 'dict', entries };
        if (key.t !== 'value' || key.value.kind !== 'name') throw new PdfSyntaxError(`dictionary key expected at byte ${lx.pos}`);
        const value = readValue(lx, depth + 1);
        if (value === null) throw new PdfSyntaxError('unterminated dictionary');
        entries.push([key.value.name, value]);
      }
    }
    case 'open-array': {
      const items: PdfValue[] = [];
      for (;;) {
        if (lx.peekByte() === 0x5d) {
          lx.pos++;
          return { kind: 'array', items };
        }
        const item = readValue(lx, depth + 1);
        if (item === null) throw new PdfSyntaxError('unterminated array');
        items.push(item);
      }
    }
    case 'close-dict':
    case 'close-array':
      throw new PdfSyntaxError(`unbalanced ${tok.t === 'close-dict' ? '>>' : ']'} at byte ${lx.pos}`);
    case 'value':
      if (tok.value.kind === 'number' && Number.isInteger(tok.value.value)) return refOrNumber(lx, tok.value.value);
      return tok.value;
  }
}

function refOrNumber(lx: Lexer, first: number): PdfValue {
  const save = lx.pos;
  const ahead = lx.peekByte();
  if (ahead < 0x30 || ahead > 0x39) {
    lx.pos = save;
    return { kind: 'number', value: first };
  }
  const second = lx.next();
  if (second.t === 'value' && second.value.kind === 'number' && Number.isInteger(second.value.value)) {
    const third = lx.next();
    if (third.t === 'value' && third.value.kind === 'keyword' && third.value.word === 'R') return { kind: 'ref', num: first, gen: second.value.value };
  }
  lx.pos = save;
  return { kind: 'number', value: first };
}

// ---------------------------------------------------------------- objects

interface PdfObject {
  id: string;
  value: PdfValue;
}

function entry(dict: PdfDict, key: string): PdfValue | undefined {
  return dict.entries.find(([k]) => k === key)?.[1];
}

/** Where a stream's data ends: its /Length when endstream follows there, else the first endstream. */
function streamEnd(bytes: Uint8Array, start: number, dict: PdfDict): number {
  const length = entry(dict, 'Length');
  if (length?.kind === 'number' && Number.isInteger(length.value) && length.value >= 0) {
    const lx = new Lexer(bytes, start + length.value);
    const after = lx.next();
    if (after.t === 'value' && after.value.kind === 'keyword' && after.value.word === 'endstream') return start + length.value;
  }
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf('endstream', start, 'latin1');
  if (at < 0) throw new PdfSyntaxError('stream without endstream');
  return at;
}

function nameOf(v: PdfValue | undefined): string | undefined {
  return v?.kind === 'name' ? v.name : undefined;
}

// Object streams are inflated to be read, so a few compressed megabytes
// could ask for gigabytes (a 1 MB file inflated to 1.1 GB in 0.9 s): pdfTeX
// packs at most 100 small objects in one, and a whole file's together stay
// within a small multiple of its size.
const MAX_OBJECT_STREAM_BYTES = 16 * 1024 * 1024;
const MIN_INFLATE_BUDGET = 64 * 1024 * 1024;
const INFLATE_RATIO = 20;

/** What a file's object streams may inflate to, together. */
class InflateBudget {
  private left: number;
  constructor(fileBytes: number) {
    this.left = Math.max(MIN_INFLATE_BUDGET, INFLATE_RATIO * fileBytes);
  }

  inflate(data: Uint8Array, id: string): Uint8Array {
    let plain: Buffer;
    try {
      plain = zlib.inflateSync(data, { maxOutputLength: Math.max(1, Math.min(MAX_OBJECT_STREAM_BYTES, this.left)) });
    } catch (error) {
      if (error instanceof RangeError) throw new PdfSyntaxError(`object stream ${id} inflates to more than this check reads`);
      throw error;
    }
    this.left -= plain.length;
    return new Uint8Array(plain.buffer, plain.byteOffset, plain.byteLength);
  }
}

/**
 * Readers (xpdf in pdfTeX among them) take objects from any stream the
 * cross-reference stream points into, without looking at its /Type: a
 * stream with /N and /First is read as one whatever it calls itself.
 */
function isObjectStream(dict: PdfDict): boolean {
  return nameOf(entry(dict, 'Type')) === 'ObjStm' || (entry(dict, 'N') !== undefined && entry(dict, 'First') !== undefined);
}

/** The objects packed in an object stream. */
function objectStreamContents(data: Uint8Array, dict: PdfDict, id: string, budget: InflateBudget): PdfObject[] {
  const filter = entry(dict, 'Filter');
  const filters = filter === undefined ? [] : filter.kind === 'array' ? filter.items.map(nameOf) : [nameOf(filter)];
  if (filters.some((f) => f !== 'FlateDecode') || entry(dict, 'DecodeParms') !== undefined) {
    throw new PdfSyntaxError(`object stream ${id} uses a filter this check cannot read`);
  }
  const plain = filters.length ? budget.inflate(data, id) : data;
  const n = entry(dict, 'N');
  const first = entry(dict, 'First');
  if (n?.kind !== 'number' || first?.kind !== 'number') throw new PdfSyntaxError(`object stream ${id} lacks /N or /First`);
  const header = new Lexer(plain);
  const objects: PdfObject[] = [];
  for (let i = 0; i < n.value; i++) {
    const num = readValue(header);
    const offset = readValue(header);
    if (num?.kind !== 'number' || offset?.kind !== 'number') throw new PdfSyntaxError(`object stream ${id} has a bad header`);
    const value = readValue(new Lexer(plain, first.value + offset.value));
    if (value === null) throw new PdfSyntaxError(`object stream ${id} ends early`);
    objects.push({ id: `${num.value} 0 in object stream ${id}`, value });
  }
  return objects;
}

/** Every object in the file, in order, with trailers and the contents of object streams; stream data is not read. */
export function readPdfObjects(bytes: Uint8Array): PdfObject[] {
  const lx = new Lexer(bytes);
  const objects: PdfObject[] = [];
  const pending: number[] = [];
  const budget = new InflateBudget(bytes.length);
  for (;;) {
    const value = readValue(lx);
    if (value === null) return objects;
    if (value.kind === 'number') {
      pending.push(value.value);
      continue;
    }
    if (value.kind === 'keyword' && value.word === 'obj' && pending.length >= 2) {
      const id = `${pending[pending.length - 2]} ${pending[pending.length - 1]}`;
      pending.length = 0;
      const body = readValue(lx);
      if (body === null) throw new PdfSyntaxError(`object ${id} is cut off`);
      objects.push({ id, value: body });
      const save = lx.pos;
      const next = lx.next();
      if (next.t === 'value' && next.value.kind === 'keyword' && next.value.word === 'stream') {
        if (body.kind !== 'dict') throw new PdfSyntaxError(`stream ${id} without a dictionary`);
        let start = lx.pos;
        if (bytes[start] === 0x0d) start++;
        if (bytes[start] === 0x0a) start++;
        const end = streamEnd(bytes, start, body);
        if (isObjectStream(body)) objects.push(...objectStreamContents(bytes.subarray(start, end), body, id, budget));
        lx.pos = end;
        const endstream = lx.next();
        if (endstream.t !== 'value' || endstream.value.kind !== 'keyword' || endstream.value.word !== 'endstream') throw new PdfSyntaxError(`stream ${id} is not closed`);
      } else lx.pos = save;
      continue;
    }
    pending.length = 0;
    // The trailer dictionary, and anything else at top level (xref tables
    // are numbers and keywords), is looked at like an object.
    if (value.kind === 'dict') objects.push({ id: 'trailer', value });
  }
}

// ---------------------------------------------------------------- the policy

/** Dictionary keys that only exist for active content, embedded files or forms. */
const REFUSED_KEYS = new Set(['JS', 'JavaScript', 'AcroForm', 'XFA', 'EmbeddedFiles', 'EmbeddedFile', 'EF', 'RichMediaContent', 'Encrypt']);
/** Action types (/S), annotation subtypes and object types that are refused. */
const REFUSED_TYPES = new Set([
  'JavaScript', 'Launch', 'GoToR', 'GoToE', 'ImportData', 'SubmitForm', 'ResetForm', 'Rendition', 'Sound', 'Movie',
  'RichMedia', '3D', 'Widget', 'EmbeddedFile', 'FileAttachment',
]);
const TYPE_KEYS = ['S', 'Type', 'Subtype'];
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

function inspect(value: PdfValue, where: string, resolve: (ref: PdfValue) => PdfValue, found: Set<string>): void {
  if (value.kind === 'array') {
    for (const item of value.items) inspect(item, where, resolve, found);
    return;
  }
  if (value.kind !== 'dict') return;
  for (const [key, item] of value.entries) {
    if (REFUSED_KEYS.has(key)) found.add(`/${key} (${where})`);
    if (TYPE_KEYS.includes(key)) {
      const type = nameOf(item);
      if (type !== undefined && REFUSED_TYPES.has(type)) found.add(`/${key} /${type} (${where})`);
    }
    if (key === 'URI' && item.kind !== 'dict') {
      const target = resolve(item);
      if (target.kind !== 'string') found.add(`a URI action without a text target (${where})`);
      else {
        const uri = pdfText(target.bytes);
        if (!SAFE_URI.test(uri)) found.add(`a URI action to ${shorten(uri)} (${where})`);
      }
    }
    inspect(item, where, resolve, found);
  }
}

/** What makes this PDF unsafe to serve, one line each; empty when nothing does. */
export function findActiveContent(pdf: Uint8Array): string[] {
  let objects: PdfObject[];
  try {
    objects = readPdfObjects(pdf);
  } catch (err) {
    return [`a PDF structure this check cannot read (${err instanceof Error ? err.message : String(err)})`];
  }
  const byId = new Map(objects.map((o) => [o.id.replace(/ in object stream .*$/, ''), o.value]));
  const resolve = (v: PdfValue): PdfValue => (v.kind === 'ref' ? byId.get(`${v.num} ${v.gen}`) ?? v : v);
  const found = new Set<string>();
  for (const object of objects) inspect(object.value, object.id === 'trailer' ? 'trailer' : `object ${object.id}`, resolve, found);
  return [...found];
}
