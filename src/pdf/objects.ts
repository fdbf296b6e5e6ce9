/**
 * A PDF read as objects, for the active-content check (safety.ts); the
 * values they hold are read by syntax.ts.
 *
 * The file is read as PDF objects, not searched as text: every `n g obj`
 * in the file is read in order (so an object the cross-reference table
 * does not list is read too). Stream data is skipped, except object
 * streams (/ObjStm), which hold objects and are inflated.
 *
 * References are resolved the way a reader would, only more widely: by
 * object number to every version the file holds (an update may replace an
 * object, and the cross-reference table decides which one a reader takes),
 * through chains, with a bound. A caller that judges a value it reached
 * through a reference sees every candidate, or learns that there is none.
 */
import zlib from 'node:zlib';

import { entry, Lexer, nameOf, PdfSyntaxError, readValue, type PdfDict, type PdfValue } from './syntax.js';

export interface PdfObject {
  /** How messages name it: "6 0", "7 0 in object stream 5 0", "trailer". */
  id: string;
  /** Its object number; none for a trailer. */
  num?: number;
  value: PdfValue;
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
