/**
 * What an image is, from its first bytes (never its name or Content-Type),
 * and how many pixels its header and each of its frames say it has, read
 * before anything is decoded so that a small file claiming a huge picture
 * (a decompression bomb) is refused for the price of a few bytes.
 */
import { gifLayout, jpegLayout, pngLayout, webpLayout, type Frame, type Layout } from './frames.js';
import { ImageRefused } from './problems.js';

export type ImageFormat = 'png' | 'jpeg' | 'gif' | 'webp' | 'pdf' | 'svg';

export interface Sniffed {
  format: ImageFormat;
  /** From the header; undefined for PDF and SVG (vector: their size is checked when drawn). */
  width?: number;
  height?: number;
  /** Every frame or bitstream in the file (frames.ts), each checked as the canvas is. */
  frames?: Frame[];
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const startsWith = (bytes: Uint8Array, prefix: readonly number[], at = 0): boolean =>
  prefix.every((b, i) => bytes[at + i] === b);
const ascii = (bytes: Uint8Array, at: number, length: number): string =>
  String.fromCharCode(...bytes.subarray(at, at + length));

const raster = (format: Sniffed['format'], { width, height, frames }: Layout): Sniffed => ({ format, width, height, frames });

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
  if (startsWith(bytes, PNG_SIGNATURE)) return raster('png', pngLayout(bytes));
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return raster('jpeg', jpegLayout(bytes));
  if (ascii(bytes, 0, 6) === 'GIF87a' || ascii(bytes, 0, 6) === 'GIF89a') return raster('gif', gifLayout(bytes));
  if (ascii(bytes, 0, 4) === 'RIFF' && ascii(bytes, 8, 4) === 'WEBP') return raster('webp', webpLayout(bytes));
  if (ascii(bytes, 0, 5) === '%PDF-') return { format: 'pdf' };
  if (isSvg(bytes)) return { format: 'svg' };
  throw new ImageRefused('not an image format the service knows (PNG, JPEG, GIF, WebP, PDF, SVG)');
}

/**
 * Refuses an image whose canvas or any frame has more pixels than
 * `maxPixels` (or whose canvas has none), or a frame placed outside the
 * canvas: decoders allocate for each, before any pixel is decoded.
 */
export function checkSize(sniffed: Sniffed, maxPixels: number): void {
  const { width, height, frames = [] } = sniffed;
  if (width === undefined || height === undefined) return;
  checkPixels(width, height, maxPixels);
  frames.forEach((frame, i) => {
    const name = `frame ${i + 1} of the ${sniffed.format.toUpperCase()}`;
    if (frame.width * frame.height > maxPixels) {
      throw new ImageRefused(`${name} is ${frame.width} × ${frame.height} pixels, more than the limit of ${maxPixels} pixels`);
    }
    const { left, top } = frame;
    if (left !== undefined && top !== undefined && (left + frame.width > width || top + frame.height > height)) {
      throw new ImageRefused(`${name} (${frame.width} × ${frame.height} at ${left}, ${top}) lies outside its ${width} × ${height} canvas`);
    }
  });
}

/** Refuses a picture with more pixels than `maxPixels`, or none. */
export function checkPixels(width: number, height: number, maxPixels: number): void {
  if (width <= 0 || height <= 0) throw new ImageRefused('the image has no pixels');
  if (width * height > maxPixels) {
    throw new ImageRefused(`the image is ${width} × ${height} pixels, more than the limit of ${maxPixels} pixels`);
  }
}
