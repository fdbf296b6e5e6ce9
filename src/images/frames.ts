/**
 * Every picture a raster file holds, read from its structure without
 * decoding anything: a decoder allocates for the frame it decodes, not for
 * the canvas the file header declares, so a GIF whose screen is 1 × 1 and
 * whose first frame is 36000 × 36000 must be sized by its frame (it took
 * the service from 550 MB to 1.7 GB). sniff.ts names the format; this reads
 * its canvas and frames, and checkSize() refuses before any decoder runs.
 */
import { ImageRefused } from './problems.js';

/** One picture inside the file; `left`/`top` when it is placed on the canvas (GIF, APNG, animated WebP). */
export interface Frame {
  width: number;
  height: number;
  left?: number;
  top?: number;
}

export interface Layout {
  /** The canvas: what the file header declares. */
  width: number;
  height: number;
  /** Every frame or bitstream found, in file order; what decoders allocate for. */
  frames: Frame[];
}

const view = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
const ascii = (bytes: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(at, at + length));

export function truncated(format: string): ImageRefused {
  return new ImageRefused(`the ${format} header is truncated or damaged`);
}

/** PNG: IHDR, and each APNG frame control chunk (fcTL). */
export function pngLayout(bytes: Uint8Array): Layout {
  if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') throw truncated('PNG');
  const v = view(bytes);
  const layout: Layout = { width: v.getUint32(16), height: v.getUint32(20), frames: [] };
  for (let at = 8; at + 8 <= bytes.length; ) {
    const length = v.getUint32(at);
    const type = ascii(bytes, at + 4, 4);
    if (type === 'fcTL') {
      if (length < 20 || at + 28 > bytes.length) throw truncated('PNG');
      layout.frames.push({ width: v.getUint32(at + 12), height: v.getUint32(at + 16), left: v.getUint32(at + 20), top: v.getUint32(at + 24) });
    }
    if (type === 'IEND') break;
    at += 12 + length;
  }
  return layout;
}

// Start-of-frame markers: C0-CF except DHT (C4), JPG (C8) and DAC (CC);
// DHP (DE) gives a hierarchical image's size the same way.
const isStartOfFrame = (marker: number): boolean =>
  (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) || marker === 0xde;

/** JPEG: every frame header (SOFn, DHP), the entropy-coded data between scans skipped. */
export function jpegLayout(bytes: Uint8Array): Layout {
  const v = view(bytes);
  const frames: Frame[] = [];
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) break;
    const marker = bytes[at + 1]!;
    // Fill bytes, and markers without a length (RSTn, TEM).
    if (marker === 0xff) { at += 1; continue; }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) { at += 2; continue; }
    if (marker === 0xd9) break; // end of image
    const length = v.getUint16(at + 2);
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) break;
      frames.push({ height: v.getUint16(at + 5), width: v.getUint16(at + 7) });
    }
    at += 2 + length;
    if (marker === 0xda) {
      // Entropy-coded data: it ends at a marker, i.e. 0xFF followed by neither a stuffed 0 nor RSTn.
      for (;;) {
        at = bytes.indexOf(0xff, at);
        if (at < 0 || at + 1 >= bytes.length) return done();
        const next = bytes[at + 1]!;
        if (next !== 0 && next !== 0xff && !(next >= 0xd0 && next <= 0xd7)) break;
        at += next === 0xff ? 1 : 2;
      }
    }
  }
  return done();

  function done(): Layout {
    // The first frame is the image; a file with none has nothing to show.
    const first = frames[0];
    if (!first) throw truncated('JPEG');
    return { width: first.width, height: first.height, frames };
  }
}

/** GIF: the logical screen, and every image descriptor with its place on the screen. */
export function gifLayout(bytes: Uint8Array): Layout {
  if (bytes.length < 13) throw truncated('GIF');
  const v = view(bytes);
  const layout: Layout = { width: v.getUint16(6, true), height: v.getUint16(8, true), frames: [] };
  const colourTable = (flags: number): number => (flags & 0x80 ? 3 * (2 << (flags & 7)) : 0);
  let at = 13 + colourTable(bytes[10]!);
  // Data sub-blocks: a length byte, that many bytes, until a zero length.
  const skipSubBlocks = (): boolean => {
    while (at < bytes.length) {
      const size = bytes[at]!;
      at += 1 + size;
      if (size === 0) return true;
    }
    return false;
  };
  while (at < bytes.length) {
    const block = bytes[at]!;
    if (block === 0x3b) break; // trailer
    if (block === 0x21) {
      at += 2; // introducer, label
      if (!skipSubBlocks()) break;
    } else if (block === 0x2c) {
      if (at + 10 > bytes.length) throw truncated('GIF');
      layout.frames.push({ left: v.getUint16(at + 1, true), top: v.getUint16(at + 3, true), width: v.getUint16(at + 5, true), height: v.getUint16(at + 7, true) });
      at += 10 + colourTable(bytes[at + 9]!) + 1; // descriptor, local colour table, LZW minimum code size
      if (!skipSubBlocks()) break;
    } else {
      // The decoder stops here too (omggif: "Unknown gif block").
      throw new ImageRefused(`the GIF has an unknown block (0x${block.toString(16)}) at byte ${at}`);
    }
  }
  if (layout.frames.length === 0) throw new ImageRefused('the GIF has no image in it');
  return layout;
}

/** The size a VP8 or VP8L bitstream chunk declares, its data at `at`. */
function webpBitstream(bytes: Uint8Array, type: string, at: number, size: number): Frame {
  const v = view(bytes);
  if (type === 'VP8 ') {
    // Frame tag (3 bytes), start code 9d 01 2a, then 14-bit width and height.
    if (size < 10 || at + 10 > bytes.length || bytes[at + 3] !== 0x9d || bytes[at + 4] !== 0x01 || bytes[at + 5] !== 0x2a) throw truncated('WebP');
    return { width: v.getUint16(at + 6, true) & 0x3fff, height: v.getUint16(at + 8, true) & 0x3fff };
  }
  // VP8L: signature 0x2f, then width - 1 and height - 1 in 14 bits each.
  if (size < 5 || at + 5 > bytes.length || bytes[at] !== 0x2f) throw truncated('WebP');
  const bits = v.getUint32(at + 1, true);
  return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
}

const uint24 = (bytes: Uint8Array, at: number): number => bytes[at]! | (bytes[at + 1]! << 8) | (bytes[at + 2]! << 16);

/**
 * WebP: a simple file's one bitstream; an extended one's canvas (VP8X),
 * each animation frame's rectangle (ANMF) and every bitstream inside.
 */
export function webpLayout(bytes: Uint8Array): Layout {
  if (bytes.length < 30) throw truncated('WebP');
  const v = view(bytes);
  const first = ascii(bytes, 12, 4);
  if (first === 'VP8 ' || first === 'VP8L') {
    const frame = webpBitstream(bytes, first, 20, v.getUint32(16, true));
    return { width: frame.width, height: frame.height, frames: [frame] };
  }
  if (first !== 'VP8X') throw truncated('WebP');
  const layout: Layout = { width: uint24(bytes, 24) + 1, height: uint24(bytes, 27) + 1, frames: [] };
  // Chunks are padded to an even size.
  const walk = (from: number, to: number, inFrame: boolean): void => {
    for (let at = from; at + 8 <= to; ) {
      const type = ascii(bytes, at, 4);
      const size = v.getUint32(at + 4, true);
      const data = at + 8;
      if (type === 'VP8 ' || type === 'VP8L') layout.frames.push(webpBitstream(bytes, type, data, size));
      else if (type === 'ANMF' && !inFrame) {
        if (size < 16 || data + 16 > bytes.length) throw truncated('WebP');
        layout.frames.push({ left: uint24(bytes, data) * 2, top: uint24(bytes, data + 3) * 2, width: uint24(bytes, data + 6) + 1, height: uint24(bytes, data + 9) + 1 });
        walk(data + 16, Math.min(to, data + size), true);
      }
      at = data + size + (size % 2);
    }
  };
  const vp8xSize = v.getUint32(16, true);
  walk(20 + vp8xSize + (vp8xSize % 2), bytes.length, false);
  return layout;
}
