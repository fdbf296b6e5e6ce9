/**
 * Turns an image into a file pdfTeX can include: PNG, JPEG and PDF as they
 * are; SVG drawn to PNG by resvg (WebAssembly, inside its npm package) with
 * the DejaVu Sans we ship (scripts/setup-fonts.mjs) and nothing else: resvg
 * in WebAssembly has no file system or network, and we never hand it the
 * external images it asks for, so an SVG's hrefs stay unresolved. GIF
 * (first frame) and WebP are decoded and written as PNG. Pixel counts are
 * checked, canvas and every frame, before anything is decoded (sniff.ts).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { findActiveContent } from '../engines/tex/pdf-safety.js';
import { encodePng } from './png-encode.js';
import { checkSize, type Sniffed } from './sniff.js';
import { ImageRefused } from './problems.js';
import { checkEmbeddedImages } from './svg-embedded.js';

/** A file for pdfTeX: image N of the LaTeX is `rst2img-N.<ext>` (python/rst2/latex_images.py). */
export interface Prepared {
  bytes: Uint8Array;
  ext: 'png' | 'jpg' | 'pdf';
}

const require = createRequire(import.meta.url);

// SVGs are drawn at twice their size (print wants more than screen pixels)
// and marked 144 dpi, so that they keep their size on the page; on white,
// the page's colour, so that the PNG needs no alpha channel (png-encode.ts).
const SVG_ZOOM = 2;

type ResvgModule = typeof import('@resvg/resvg-wasm');
let resvg: Promise<ResvgModule> | undefined;

function loadResvg(): Promise<ResvgModule> {
  resvg ??= (async () => {
    const module = await import('@resvg/resvg-wasm');
    await module.initWasm(fs.readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')));
    return module;
  })();
  return resvg;
}

let fonts: Uint8Array[] | undefined;

function fontBuffers(fontDir: string): Uint8Array[] {
  fonts ??= ['DejaVuSans.ttf', 'DejaVuSans-Bold.ttf']
    .map((name) => path.join(fontDir, name))
    .filter((file) => fs.existsSync(file))
    .map((file) => fs.readFileSync(file));
  return fonts;
}

// resvg's memory is this process's (WebAssembly memory only grows): an SVG
// is drawn with at most this many pixels, however large it says it is.
const SVG_MAX_PIXELS = 4_000_000;
// The size an SVG may have on the page, in points (TeX's dimensions end at
// 16383 pt): the LaTeX shrinks images to the line anyway, and one declaring
// a larger size is marked with a higher resolution instead.
const SVG_MAX_POINTS = 5000;

async function svgToPng(bytes: Uint8Array, maxPixels: number, fontDir: string): Promise<Prepared> {
  checkEmbeddedImages(Buffer.from(bytes).toString('utf8'), maxPixels);
  const { Resvg } = await loadResvg();
  const fontBuffersNow = fontBuffers(fontDir);
  let drawing: InstanceType<ResvgModule['Resvg']> | undefined;
  try {
    const options = { background: 'white', font: { fontBuffers: fontBuffersNow, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' } };
    const measured = new Resvg(bytes, options);
    const { width, height } = measured;
    measured.free();
    if (!(width > 0 && height > 0)) throw new ImageRefused('the SVG has no size');
    // Twice the size when that fits the pixel limit, else as much as does:
    // a vector image is never refused for the size it declares.
    const zoom = Math.min(SVG_ZOOM, Math.sqrt(Math.min(maxPixels, SVG_MAX_PIXELS) / (Math.ceil(width) * Math.ceil(height))));
    drawing = new Resvg(bytes, { ...options, fitTo: { mode: 'zoom', value: zoom } });
    const rendered = drawing.render();
    try {
      // Opaque (drawn on white), so premultiplied pixels are straight ones.
      const dpi = 72 * zoom * Math.max(1, Math.max(width, height) / SVG_MAX_POINTS);
      return { bytes: encodePng(rendered.width, rendered.height, rendered.pixels, dpi), ext: 'png' };
    } finally {
      rendered.free();
    }
  } catch (error) {
    if (error instanceof ImageRefused) throw error;
    throw new ImageRefused(`the SVG could not be drawn (${error instanceof Error ? error.message : String(error)})`.slice(0, 300));
  } finally {
    drawing?.free();
  }
}

function rgbaToPng(width: number, height: number, data: Uint8Array): Prepared {
  return { bytes: encodePng(width, height, data), ext: 'png' };
}

function gifToPng(bytes: Uint8Array): Prepared {
  const { GifReader } = require('omggif') as typeof import('omggif');
  try {
    const reader = new GifReader(bytes);
    const pixels = new Uint8Array(reader.width * reader.height * 4);
    reader.decodeAndBlitFrameRGBA(0, pixels);
    return rgbaToPng(reader.width, reader.height, pixels);
  } catch (error) {
    throw new ImageRefused(`the GIF could not be decoded (${error instanceof Error ? error.message : String(error)})`.slice(0, 300));
  }
}

function webpToPng(bytes: Uint8Array): Prepared {
  // Loaded on first use: the module instantiates its WebAssembly on import.
  const webp = require('@cwasm/webp') as typeof import('@cwasm/webp');
  let decoded: { width: number; height: number; data: Uint8ClampedArray };
  try {
    decoded = webp.decode(bytes);
  } catch (error) {
    throw new ImageRefused(`the WebP could not be decoded (${error instanceof Error ? error.message : String(error)})`.slice(0, 300));
  }
  return rgbaToPng(decoded.width, decoded.height, new Uint8Array(decoded.data.buffer, decoded.data.byteOffset, decoded.data.byteLength));
}

function checkedPdf(bytes: Uint8Array): Prepared {
  const found = findActiveContent(bytes);
  // Whatever the image carries would end up in the document's PDF, which
  // would then be refused whole (pdf_unsafe): refuse just the image.
  if (found.length > 0) throw new ImageRefused(`the PDF carries active content (${found.slice(0, 3).join('; ')})`);
  return { bytes, ext: 'pdf' };
}

export interface ConvertOptions {
  maxPixels: number;
  /** Where DejaVu Sans is (paths.fonts). */
  fontDir: string;
}

/** The file for pdfTeX, or ImageRefused. */
export async function prepareImage(bytes: Uint8Array, sniffed: Sniffed, options: ConvertOptions): Promise<Prepared> {
  checkSize(sniffed, options.maxPixels);
  switch (sniffed.format) {
    case 'png':
      return { bytes, ext: 'png' };
    case 'jpeg':
      return { bytes, ext: 'jpg' };
    case 'pdf':
      return checkedPdf(bytes);
    case 'svg':
      return svgToPng(bytes, options.maxPixels, options.fontDir);
    case 'gif':
      return gifToPng(bytes);
    case 'webp':
      return webpToPng(bytes);
  }
}
