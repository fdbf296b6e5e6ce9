/**
 * Image files for the tests, made here from their definitions (no binary
 * fixtures): PNG written chunk by chunk, JPEG by jpeg-js, GIF by omggif's
 * writer, a lossless WebP whose one colour needs no pixel bits (so its
 * bitstream is a few header fields), and a shields-style SVG badge.
 */
import zlib from 'node:zlib';

import jpeg from 'jpeg-js';
import { GifWriter } from 'omggif';

import { pngChunk as chunk } from '../../src/images/png-encode.js';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function pngHeader(width: number, height: number, colourType = 2 /* RGB */): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bits per sample
  ihdr[9] = colourType;
  return chunk('IHDR', ihdr);
}

/** An 8-bit RGB PNG of one colour. */
export function png(width: number, height: number, rgb: readonly [number, number, number] = [200, 30, 30]): Buffer {
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => rgb).flat())]);
  const pixels = zlib.deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  return Buffer.concat([PNG_SIGNATURE, pngHeader(width, height), chunk('IDAT', pixels), chunk('IEND', Buffer.alloc(0))]);
}

/** A PNG whose header claims `width` × `height` but whose data is a few bytes: a decompression bomb's calling card. */
export function pngClaiming(width: number, height: number): Buffer {
  return Buffer.concat([PNG_SIGNATURE, pngHeader(width, height), chunk('IDAT', zlib.deflateSync(Buffer.alloc(16))), chunk('IEND', Buffer.alloc(0))]);
}

/** A PNG with a valid header and garbage image data: passes the sniffer, fails in pdfTeX. */
export function pngDamaged(width: number, height: number): Buffer {
  return Buffer.concat([PNG_SIGNATURE, pngHeader(width, height), chunk('IDAT', Buffer.from('not zlib data at all')), chunk('IEND', Buffer.alloc(0))]);
}

/** A PNG of colour type 5, which does not exist: libpng (and so pdfTeX) stops on it. */
export function pngBadColourType(width: number, height: number): Buffer {
  return Buffer.concat([PNG_SIGNATURE, pngHeader(width, height, 5), chunk('IDAT', zlib.deflateSync(Buffer.alloc(width * height))), chunk('IEND', Buffer.alloc(0))]);
}

export function jpegImage(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4);
  for (let i = 0; i < data.length; i += 4) data.set([30, 90, 200, 255], i);
  return jpeg.encode({ width, height, data }, 90).data;
}

export function gif(width: number, height: number): Buffer {
  const out = Buffer.alloc(1024 + width * height * 2);
  const writer = new GifWriter(out, width, height, { palette: [0x20c020, 0xffffff] });
  writer.addFrame(0, 0, width, height, new Array<number>(width * height).fill(0));
  return out.subarray(0, writer.end());
}

/** Bits, least significant first, as VP8L packs them. */
class BitWriter {
  private readonly bytes: number[] = [];
  private bit = 0;
  write(value: number, count: number): void {
    for (let i = 0; i < count; i++) {
      if (this.bit % 8 === 0) this.bytes.push(0);
      if ((value >>> i) & 1) this.bytes[this.bytes.length - 1]! |= 1 << this.bit % 8;
      this.bit++;
    }
  }
  done(): Buffer {
    return Buffer.from(this.bytes);
  }
}

/**
 * A lossless WebP of one colour: each of VP8L's five prefix codes is a
 * "simple" code of a single symbol, which costs no bits per pixel.
 */
export function webp(width: number, height: number, [r, g, b]: [number, number, number] = [240, 160, 0]): Buffer {
  const bits = new BitWriter();
  bits.write(0x2f, 8); // VP8L signature
  bits.write(width - 1, 14);
  bits.write(height - 1, 14);
  bits.write(0, 1); // no alpha
  bits.write(0, 3); // version
  bits.write(0, 1); // no transform
  bits.write(0, 1); // no colour cache
  bits.write(0, 1); // no meta prefix codes
  for (const symbol of [g, r, b, 255]) {
    bits.write(1, 1); // simple code
    bits.write(0, 1); // one symbol
    bits.write(1, 1); // of 8 bits
    bits.write(symbol, 8);
  }
  bits.write(1, 1); // distance code: simple, one symbol of 1 bit: 0
  bits.write(0, 1);
  bits.write(0, 1);
  bits.write(0, 1);
  let data = bits.done();
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  if (data.length % 2) data = Buffer.concat([data, Buffer.alloc(1)]);
  const body = Buffer.concat([Buffer.from('WEBP'), Buffer.from('VP8L'), size, data]);
  const riff = Buffer.alloc(4);
  riff.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), riff, body]);
}

/** A badge as shields.io draws one: two coloured boxes with text. */
export function badge(label: string, message: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?>
<!-- a comment before the root, as some generators write -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="90" height="20" role="img">
  <title>${label}: ${message}</title>
  <rect width="37" height="20" fill="#555"/><rect x="37" width="53" height="20" fill="#4c1"/>
  <image x="0" y="0" width="10" height="10" xlink:href="file:///etc/passwd"/>
  <image x="0" y="0" width="10" height="10" href="http://127.0.0.1:9/x.png"/>
  <g fill="#fff" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
    <text x="4" y="14">${label}</text><text x="41" y="14">${message}</text>
  </g>
</svg>
`;
}

/** An SVG showing one image, given by URI (a data: URI, to nest images in images). */
export function svgWithImage(href: string): string {
  return `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><image width="20" height="20" href="${href}"/></svg>`;
}

/** An APNG: `png(width, height)` with an animation control chunk and a frame control chunk per frame (placed at left, top). */
export function apng(width: number, height: number, frames: readonly { width: number; height: number; left?: number; top?: number }[]): Buffer {
  const still = png(width, height);
  const ihdrEnd = 8 + 12 + 13;
  const actl = Buffer.alloc(8);
  actl.writeUInt32BE(frames.length, 0);
  const fctls = frames.map((f, i) => {
    const data = Buffer.alloc(26);
    data.writeUInt32BE(i * 2, 0);
    data.writeUInt32BE(f.width, 4);
    data.writeUInt32BE(f.height, 8);
    data.writeUInt32BE(f.left ?? 0, 12);
    data.writeUInt32BE(f.top ?? 0, 16);
    data.writeUInt16BE(1, 22); // delay denominator
    return chunk('fcTL', data);
  });
  return Buffer.concat([still.subarray(0, ihdrEnd), chunk('acTL', actl), ...fctls, still.subarray(ihdrEnd)]);
}

function riffChunk(type: string, data: Buffer): Buffer {
  const size = Buffer.alloc(4);
  size.writeUInt32LE(data.length);
  return Buffer.concat([Buffer.from(type), size, data, Buffer.alloc(data.length % 2)]);
}

const uint24le = (n: number): Buffer => Buffer.from([n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff]);

/**
 * An extended WebP (VP8X) with a canvas of `width` × `height`: animated,
 * each frame an ANMF chunk placed at (left, top) holding a one-colour
 * lossless bitstream of its size; or, with `still`, that one bitstream.
 */
export function webpExtended(width: number, height: number, frames: readonly { width: number; height: number; left?: number; top?: number }[], still = false): Buffer {
  const bitstream = (w: number, h: number): Buffer => webp(w, h).subarray(12); // its VP8L chunk
  const vp8x = Buffer.concat([Buffer.from([still ? 0 : 0x02, 0, 0, 0]), uint24le(width - 1), uint24le(height - 1)]);
  const chunks = [riffChunk('VP8X', vp8x)];
  if (still) chunks.push(bitstream(frames[0]!.width, frames[0]!.height));
  else {
    chunks.push(riffChunk('ANIM', Buffer.alloc(6)));
    for (const f of frames) {
      const header = Buffer.concat([uint24le((f.left ?? 0) / 2), uint24le((f.top ?? 0) / 2), uint24le(f.width - 1), uint24le(f.height - 1), uint24le(100), Buffer.from([0])]);
      chunks.push(riffChunk('ANMF', Buffer.concat([header, bitstream(f.width, f.height)])));
    }
  }
  const body = Buffer.concat([Buffer.from('WEBP'), ...chunks]);
  const riff = Buffer.alloc(4);
  riff.writeUInt32LE(body.length);
  return Buffer.concat([Buffer.from('RIFF'), riff, body]);
}

/** A JPEG with a second frame header (progressive SOF2) claiming `width` × `height`, after its real one. */
export function jpegWithSecondFrame(width: number, height: number): Buffer {
  const real = jpegImage(16, 16);
  let at = 2;
  while (real[at + 1] !== 0xc0) at += 2 + real.readUInt16BE(at + 2);
  const end = at + 2 + real.readUInt16BE(at + 2);
  const sof = Buffer.from(real.subarray(at, end));
  sof[1] = 0xc2;
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([real.subarray(0, end), sof, real.subarray(end)]);
}
