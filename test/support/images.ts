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
