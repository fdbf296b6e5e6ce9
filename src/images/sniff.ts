/**
 * What an image is, from its first bytes (never its name or Content-Type),
 * and how many pixels its header says it has, read before anything is
 * decoded so that a small file claiming a huge picture (a decompression
 * bomb) is refused for the price of a few bytes.
 */
import { ImageRefused } from './problems.js';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'pdf' | 'svg';

export interface Sniffed {
  format: ImageFormat;
  /** From the header; undefined for PDF and SVG (vector: their size is checked when drawn). */
  width?: number;
  height?: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  prefix.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(at, at + length));
const view = (bytes: Uint8Array): DataView => new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

function truncated(format: string): ImageRefused {
  return new ImageRefused(`the ${format} header is truncated or damaged`);
}

function png(bytes: Uint8Array): Sniffed {
  if (bytes.length < 24 || ascii(bytes, 12, 4) !== 'IHDR') throw truncated('PNG');
  const v = view(bytes);
  return { format: 'png', width: v.getUint32(16), height: v.getUint32(20) };
}

// Start-of-frame markers: C0-CF except DHT (C4), JPG (C8) and DAC (CC).
const isStartOfFrame = (marker: number): boolean =>
  marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;

function jpeg(bytes: Uint8Array): Sniffed {
  const v = view(bytes);
  let at = 2;
  while (at + 4 <= bytes.length) {
    if (bytes[at] !== 0xff) throw truncated('JPEG');
    const marker = bytes[at + 1]!;
    // Fill bytes, and markers without a length (RSTn, TEM).
    if (marker === 0xff) { at += 1; continue; }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) { at += 2; continue; }
    const length = v.getUint16(at + 2);
    if (isStartOfFrame(marker)) {
      if (at + 9 > bytes.length) break;
      return { format: 'jpeg', height: v.getUint16(at + 5), width: v.getUint16(at + 7) };
    }
    if (marker === 0xd9 || marker === 0xda) break; // end of image, or the scan before any frame
    at += 2 + length;
  }
  throw truncated('JPEG');
}

function gif(bytes: Uint8Array): Sniffed {
  if (bytes.length < 10) throw truncated('GIF');
  const v = view(bytes);
  return { format: 'gif', width: v.getUint16(6, true), height: v.getUint16(8, true) };
}

function webp(bytes: Uint8Array): Sniffed {
  if (bytes.length < 30) throw truncated('WebP');
  const v = view(bytes);
  const chunk = ascii(bytes, 12, 4);
  if (chunk === 'VP8 ') return { format: 'webp', width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
  if (chunk === 'VP8L') {
    const bits = v.getUint32(21, true);
    return { format: 'webp', width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X') {
    const w = bytes[24]! | (bytes[25]! << 8) | (bytes[26]! << 16);
    const h = bytes[27]! | (bytes[28]! << 8) | (bytes[29]! << 16);
    return { format: 'webp', width: w + 1, height: h + 1 };
  }
  throw truncated('WebP');
}

/**
 * SVG: text whose root element is <svg>, after an optional BOM, XML
 * declaration, comments and a DOCTYPE without an internal subset (entities
 * there could expand without bound).
 */
function isSvg(bytes: Uint8Array): boolean {
  let text = new TextDecoder('utf-8').decode(bytes.subarray(0, 4096)).replace(/^\uFEFF/, '');
  for (;;) {
    text = text.trimStart();
    if (text.startsWith('<?')) {
      const end = text.indexOf('?>');
      if (end < 0) return false;
      text = text.slice(end + 2);
    } else if (text.startsWith('<!--')) {
      const end = text.indexOf('-->');
      if (end < 0) return false;
      text = text.slice(end + 3);
    } else if (/^<!DOCTYPE/i.test(text)) {
      const end = text.indexOf('>');
      if (end < 0 || text.slice(0, end).includes('[')) return false;
      text = text.slice(end + 1);
    } else {
      return /^<svg[\s>/]/.test(text);
    }
  }
}

/** The format and header size of an image, or ImageRefused for anything else. */
export function sniff(bytes: Uint8Array): Sniffed {
  if (startsWith(bytes, PNG_SIGNATURE)) return png(bytes);
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return jpeg(bytes);
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return gif(bytes);
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return webp(bytes);
  if (ascii(bytes, 0, 5) === '%PDF-') return { format: 'pdf' };
  if (isSvg(bytes)) return { format: 'svg' };
  throw new ImageRefused('not an image format the service knows (PNG, JPEG, GIF, WebP, PDF, SVG)');
}

/** Refuses a picture with more pixels than `maxPixels`, or none. */
export function checkPixels(width: number, height: number, maxPixels: number): void {
  if (width <= 0 || height <= 0) throw new ImageRefused('the image has no pixels');
  if (width * height > maxPixels) {
    throw new ImageRefused(`the image is ${width} × ${height} pixels, more than the limit of ${maxPixels} pixels`);
  }
}
