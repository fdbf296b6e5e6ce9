/**
 * A PDF read as objects, for the active-content check (pdf-safety.ts).
 *
 * The file is read as PDF objects, not searched as text: a tokenizer tells
 * names from strings and comments, dictionaries and arrays nest, and every
 * `n g obj` in the file is read in order (so an object the cross-reference
 * table does not list is read too). Stream data is skipped, except object
 * streams (/ObjStm), which hold objects and are inflated.
 *
 * References are resolved the way a reader would, only more widely: by
 * object number to every version the file holds (an update may replace an
 * object, and the cross-reference table decides which one a reader takes),
 * through chains, with a bound. A caller that judges a value it reached
 * through a reference sees every candidate, or learns that there is none.
 */
import zlib from 'node:zlib';

export type PdfValue =
  | { kind: 'name'; name: string }
  | { kind: 'string'; bytes: Uint8Array }
  | { kind: 'number'; value: number }
  | { kind: 'ref'; num: number; gen: number }
  | { kind: 'array'; items: PdfValue[] }
  // A list, not a map: a key given twice is kept twice, and both values are inspected.
  | { kind: 'dict'; entries: Array<[string, PdfValue]> }
  | { kind: 'keyword'; word: string };

export type PdfDict = Extract<PdfValue, { kind: 'dict' }>;

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

export interface PdfObject {
  /** How messages name it: "6 0", "7 0 in object stream 5 0", "trailer". */
  id: string;
  /** Its object number; none for a trailer. */
  num?: number;
  value: PdfValue;
}

export function entry(dict: PdfDict, key: string): PdfValue | undefined {
  return dict.entries.find(([k]) => k === key)?.[1];
}

/** Where the `endstream` keyword after `at` starts (white space and comments between), or -1 when none follows. */
function endstreamAfter(bytes: Uint8Array, at: number): number {
  const lx = new Lexer(bytes, at);
  lx.skipSpace();
  const keyword = lx.pos;
  const after = lx.next();
  return after.t === 'value' && after.value.kind === 'keyword' && after.value.word === 'endstream' ? keyword : -1;
}

/** Where a stream's data ends: its /Length when endstream follows there, else the first endstream. */
function streamEnd(bytes: Uint8Array, start: number, dict: PdfDict): number {
  const length = entry(dict, 'Length');
  if (length?.kind === 'number' && Number.isInteger(length.value) && length.value >= 0 && endstreamAfter(bytes, start + length.value) >= 0) return start + length.value;
  const at = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).indexOf('endstream', start, 'latin1');
  if (at < 0) throw new PdfSyntaxError('stream without endstream');
  return at;
}

export function nameOf(v: PdfValue | undefined): string | undefined {
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
    objects.push({ id: `${num.value} 0 in object stream ${id}`, num: num.value, value });
  }
  return objects;
}

// A chain of references longer than this is not something a writer makes;
// a reader gives up on it, and so does this check (as a failure).
const MAX_REFERENCE_HOPS = 32;

/** A stream whose /Length is a reference, and where this reading ended it. */
interface IndirectLength {
  id: string;
  ref: Extract<PdfValue, { kind: 'ref' }>;
  start: number;
  end: number;
}

export class PdfFile {
  private readonly byNumber = new Map<number, PdfValue[]>();

  constructor(readonly objects: readonly PdfObject[]) {
    for (const o of objects) {
      if (o.num === undefined) continue;
      const versions = this.byNumber.get(o.num);
      if (versions) versions.push(o.value);
      else this.byNumber.set(o.num, [o.value]);
    }
  }

  /**
   * Every direct value `value` may stand for: itself when direct, else what
   * the objects of that number hold (any generation, every version),
   * followed through chains. Null when some reference leads nowhere: to no
   * object, into a loop, or past the bound. A caller judging the value must
   * then refuse, since a reader may find what this reading did not.
   */
  resolve(value: PdfValue): PdfValue[] | null {
    const found: PdfValue[] = [];
    const seen = new Set<number>();
    let frontier = [value];
    for (let hop = 0; frontier.length > 0; hop++) {
      if (hop > MAX_REFERENCE_HOPS) return null;
      const next: PdfValue[] = [];
      for (const v of frontier) {
        if (v.kind !== 'ref') {
          found.push(v);
          continue;
        }
        const versions = this.byNumber.get(v.num);
        if (!versions) return null;
        // Met before on this walk: a loop, or two versions meeting again.
        if (seen.has(v.num)) continue;
        seen.add(v.num);
        next.push(...versions);
      }
      frontier = next;
    }
    return found.length > 0 ? found : null;
  }
}

/**
 * A stream with an indirect /Length was read to the first "endstream" in
 * it, the length being unknown then. A reader takes the length from the
 * referenced object: where that ends the stream elsewhere, what this
 * reading took for objects after the stream is not what a reader sees (a
 * string opened in the data can swallow real objects), so the file is
 * refused; also when the length cannot be found.
 */
function checkIndirectLengths(bytes: Uint8Array, file: PdfFile, streams: readonly IndirectLength[]): void {
  for (const { id, ref, start, end } of streams) {
    const label = `stream ${id} has /Length ${ref.num} ${ref.gen} R`;
    const lengths = file.resolve(ref);
    if (lengths === null) throw new PdfSyntaxError(`${label}, which this check cannot resolve`);
    for (const length of lengths) {
      if (length.kind !== 'number' || !Number.isInteger(length.value) || length.value < 0) continue;
      const there = endstreamAfter(bytes, start + length.value);
      if (there >= 0 && there !== endstreamAfter(bytes, end)) {
        throw new PdfSyntaxError(`${label}, which ends it at byte ${start + length.value}, not at its first "endstream" (byte ${end})`);
      }
    }
  }
}

/** Every object in the file, in order, with trailers and the contents of object streams; stream data is not read. */
export function readPdf(bytes: Uint8Array): PdfFile {
  const lx = new Lexer(bytes);
  const objects: PdfObject[] = [];
  const indirectLengths: IndirectLength[] = [];
  const pending: number[] = [];
  const budget = new InflateBudget(bytes.length);
  for (;;) {
    const value = readValue(lx);
    if (value === null) break;
    if (value.kind === 'number') {
      pending.push(value.value);
      continue;
    }
    if (value.kind === 'keyword' && value.word === 'obj' && pending.length >= 2) {
      const num = pending[pending.length - 2]!;
      const id = `${num} ${pending[pending.length - 1]}`;
      pending.length = 0;
      const body = readValue(lx);
      if (body === null) throw new PdfSyntaxError(`object ${id} is cut off`);
      objects.push({ id, num, value: body });
      const save = lx.pos;
      const next = lx.next();
      if (next.t === 'value' && next.value.kind === 'keyword' && next.value.word === 'stream') {
        if (body.kind !== 'dict') throw new PdfSyntaxError(`stream ${id} without a dictionary`);
        let start = lx.pos;
        if (bytes[start] === 0x0d) start++;
        if (bytes[start] === 0x0a) start++;
        const end = streamEnd(bytes, start, body);
        const length = entry(body, 'Length');
        if (length?.kind === 'ref') indirectLengths.push({ id, ref: length, start, end });
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
  const file = new PdfFile(objects);
  checkIndirectLengths(bytes, file, indirectLengths);
  return file;
}
