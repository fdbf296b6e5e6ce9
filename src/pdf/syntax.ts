/**
 * PDF syntax, for the active-content check (safety.ts) by way of objects.ts:
 * the values a PDF is written in (names, strings, numbers, references,
 * arrays, dictionaries, keywords) read from bytes.
 *
 * A tokenizer tells names from strings and comments (so "(/JS)" in a string
 * or "% /JS" in a comment is no name), spells out names the way a reader
 * does (/J#61vaScript is /JavaScript), and nests dictionaries and arrays to
 * a bound. What a file holds (objects, streams, references between them) is
 * objects.ts's.
 */

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

export type Token =
  | { t: 'value'; value: PdfValue }
  | { t: 'open-dict' | 'close-dict' | 'open-array' | 'close-array' }
  | { t: 'eof' };

export class Lexer {
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
export function readValue(lx: Lexer, depth = 0): PdfValue | null {
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

export function entry(dict: PdfDict, key: string): PdfValue | undefined {
  return dict.entries.find(([k]) => k === key)?.[1];
}

export function nameOf(v: PdfValue | undefined): string | undefined {
  return v?.kind === 'name' ? v.name : undefined;
}
