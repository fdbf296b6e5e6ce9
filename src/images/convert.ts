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

import { findActiveContent } from '../pdf/safety.js';
import { encodePng } from './png-encode.js';
import { checkSize, type Sniffed } from './sniff.js';
import { ImageRefused } from './problems.js';
import { checkEmbeddedImages } from './svg-embedded.js';
import { checkFilters, type FilterLimits } from './svg-filters.js';
import { capWasmMemory } from './wasm-memory.js';

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

// Loaded once per thread, with the ceiling of the first job's options
// (every job of a service has the same).
function loadResvg(maxMemoryBytes: number): Promise<ResvgModule> {
  resvg ??= (async () => {
    const module = await import('@resvg/resvg-wasm');
    await module.initWasm(capWasmMemory(fs.readFileSync(require.resolve('@resvg/resvg-wasm/index_bg.wasm')), maxMemoryBytes));
    return module;
  })();
  return resvg;
}

/**
 * A decoder failed inside its WebAssembly or its own code (a trap, an
 * allocation past the ceiling, a panic): its state can no longer be
 * trusted, and the memory it grew stays with the thread, so the converter
 * worker that ran it is replaced (convert-worker.ts).
 */
export class DecoderFailed extends ImageRefused {
  override name = 'DecoderFailed';
}

const failed = (what: string, error: unknown): DecoderFailed =>
  new DecoderFailed(`${what} (${error instanceof Error ? error.message : String(error)})`.slice(0, 300));

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

/**
 * The zoom at which an SVG of `width` × `height` is drawn: twice its size
 * when that fits `limit` pixels, else as much as does, counting each side
 * as at least one pixel and rounded up (a 10 × 10⁸ SVG drawn at the zoom of
 * its area alone would be 1 × 6.3 million pixels); 0 when its shape cannot
 * fit at all.
 */
export function svgZoom(width: number, height: number, limit: number): number {
  const w = Math.ceil(width);
  const h = Math.ceil(height);
  const drawn = (zoom: number): number => Math.ceil(w * zoom + 1) * Math.ceil(h * zoom + 1);
  let zoom = Math.min(SVG_ZOOM, Math.sqrt(limit / (w * h)));
  for (let tries = 0; drawn(zoom) > limit && tries < 5000; tries++) zoom *= 0.995;
  // resvg refuses a side it would round to 0.
  return drawn(zoom) <= limit && Math.min(width, height) * zoom >= 1 ? zoom : 0;
}

async function svgToPng(bytes: Uint8Array, options: ConvertOptions): Promise<Prepared> {
  const { maxPixels, fontDir } = options;
  checkEmbeddedImages(Buffer.from(bytes).toString('utf8'), maxPixels);
  const { Resvg } = await loadResvg(options.svg.maxMemoryBytes);
  const fontBuffersNow = fontBuffers(fontDir);
  let drawing: InstanceType<ResvgModule['Resvg']> | undefined;
  try {
    const resvgOptions = { background: 'white', font: { fontBuffers: fontBuffersNow, defaultFontFamily: 'DejaVu Sans', sansSerifFamily: 'DejaVu Sans' } };
    const measured = new Resvg(bytes, resvgOptions);
    const { width, height } = measured;
    const tree = measured.toString();
    measured.free();
    if (!(width > 0 && height > 0)) throw new ImageRefused('the SVG has no size');
    // A vector image is never refused for the size it declares: it is drawn smaller.
    const zoom = svgZoom(width, height, Math.min(maxPixels, SVG_MAX_PIXELS));
    if (zoom <= 0) throw new ImageRefused(`the SVG's shape (${width} × ${height}) cannot be drawn in ${Math.min(maxPixels, SVG_MAX_PIXELS)} pixels`);
    checkFilters(tree, { width: Math.ceil(width * zoom), height: Math.ceil(height * zoom) }, options.svg.filters);
    drawing = new Resvg(bytes, { ...resvgOptions, fitTo: { mode: 'zoom', value: zoom } });
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
    throw failed('the SVG could not be drawn', error);
  } finally {
    try {
      drawing?.free();
    } catch {
      // A module that trapped may refuse to free ("recursive use of an object"); its thread is replaced anyway.
    }
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
    throw failed('the GIF could not be decoded', error);
  }
}

function webpToPng(bytes: Uint8Array): Prepared {
  // Loaded on first use: the module instantiates its WebAssembly on import.
  const webp = require('@cwasm/webp') as typeof import('@cwasm/webp');
  let decoded: { width: number; height: number; data: Uint8ClampedArray };
  try {
    decoded = webp.decode(bytes);
  } catch (error) {
    throw failed('the WebP could not be decoded', error);
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
  svg: {
    /** Ceiling of resvg's WebAssembly memory (wasm-memory.ts). */
    maxMemoryBytes: number;
    filters: FilterLimits;
  };
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
      return svgToPng(bytes, options);
    case 'gif':
      return gifToPng(bytes);
    case 'webp':
      return webpToPng(bytes);
  }
}
