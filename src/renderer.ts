/**
 * The one rendering pipeline, for the routes and the command line alike: a
 * rendering of a document with options. Looks in the render cache first,
 * then runs the engines (docutils, and pdfTeX for PDF), and remembers the
 * result. The command line passes NO_CACHE (cache/render-cache.ts).
 */
import { createHash } from 'node:crypto';

import type { Rendering, RenderCache } from './cache/render-cache.js';
import { asDialect } from './dialects.js';
import type { Document } from './documents/document.js';
import type { Logger } from './log.js';
import type { CheckItem } from './engines/python/protocol.js';
import type { LatexOptions, PythonEngine } from './engines/python/engine.js';
import type { PdfEngine } from './engines/tex/pdf-engine.js';
import type { ImageProblem } from './images/problems.js';
import type { ImageResolver, ResolvedImages } from './images/resolve-images.js';
import { typesetWithImages } from './images/typeset.js';

export type RenderOperation = 'html' | 'pdf' | 'check';

/** Option values by name (the API's parameter names), already checked against the catalogue. */
export type RenderOptions = Readonly<Record<string, string>>;

/** The media type of each rendering. */
export const RENDERED_TYPE = {
  html: 'text/html; charset=utf-8',
  pdf: 'application/pdf',
  check: 'application/json; charset=utf-8',
} as const satisfies Record<RenderOperation, string>;

export interface RenderDeps {
  python: PythonEngine;
  pdf: PdfEngine;
  cache: RenderCache;
  /** Fetches and prepares the images of PDF documents; without it, every image is a placeholder. */
  images?: ImageResolver;
  /**
   * Mixed into every render key (and so every ETag): it changes whenever the
   * service, docutils or pdfTeX change (versions.ts), so renderings made by
   * older engines are never served.
   */
  renderKeySalt: string;
  /** Where replaced characters are reported (absent: not logged). */
  log?: Logger;
}

export function renderKey(renderKeySalt: string, op: RenderOperation, options: RenderOptions, doc: Document): string {
  // The base is part of what a rendering depends on (relative images and
  // links); documents without one keep the keys they always had.
  const parts: unknown[] = [renderKeySalt, op, Object.entries(options).sort(), doc.digest];
  if (doc.base !== undefined) parts.push(doc.base);
  const canonical = JSON.stringify(parts);
  return createHash('sha256').update(canonical).digest('hex');
}

export function fileName(title: string, extension: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^\w\s.-]/g, '')
    .trim()
    .replace(/\s+/g, '-')
    .slice(0, 80);
  return `${base || 'document'}.${extension}`;
}

/**
 * A rendering, and whether it came from the cache (for the X-Cache header);
 * `transient`: it has a placeholder that may not be needed next time, so it
 * was not cached and must not be kept or revalidated by clients either.
 */
export type Rendered = Rendering & { cache: 'hit' | 'miss'; transient?: boolean };

/** Told of each image that became a placeholder, as the rendering is made (not on a cache hit). */
export type ProblemReport = (problem: ImageProblem) => void;

const NO_IMAGES: ResolvedImages = { files: {}, problems: [] };

function option(options: RenderOptions, name: string): string {
  const value = options[name];
  // The operation table gives every option its default before this point.
  if (value === undefined) throw new Error(`the option ${name} is missing`);
  return value;
}

export class Renderer {
  constructor(private readonly deps: RenderDeps) {}

  key(op: RenderOperation, options: RenderOptions, doc: Document): string {
    return renderKey(this.deps.renderKeySalt, op, options, doc);
  }

  async render(key: string, op: RenderOperation, options: RenderOptions, doc: Document, report: ProblemReport = () => {}): Promise<Rendered> {
    const cached = await this.deps.cache.get(key);
    if (cached) return { ...cached, cache: 'hit' };
    const { rendering, transient } = await this.make(op, options, doc, report);
    // An image that timed out or whose server failed may be there next
    // time: such a PDF is served but not kept, so the next request tries
    // again instead of showing the placeholder for the cache's lifetime.
    if (!transient) await this.deps.cache.set(key, rendering);
    return { ...rendering, cache: 'miss', ...(transient ? { transient } : {}) };
  }

  private async make(op: RenderOperation, options: RenderOptions, doc: Document, report: ProblemReport): Promise<{ rendering: Rendering; transient: boolean }> {
    return op === 'pdf' ? this.makePdf(options, doc, report) : { rendering: await this.makeText(op, options, doc), transient: false };
  }

  private async makePdf(options: RenderOptions, doc: Document, report: ProblemReport): Promise<{ rendering: Rendering; transient: boolean }> {
    const latexOptions: LatexOptions = {
      documentClass: option(options, 'class'),
      style: option(options, 'style'),
      useLatexToc: option(options, 'use-latex-toc') === 'yes',
      dialect: asDialect(option(options, 'dialect')),
    };
    const latex = await this.deps.python.renderLatex(doc.text, latexOptions);
    const images = latex.images;
    const resolved =
      images.length === 0
        ? NO_IMAGES
        : this.deps.images
          ? await this.deps.images.resolve(images, doc.base)
          : { files: {}, problems: images.map((i) => ({ uri: i.uri, reason: 'images are not fetched here', transient: false })) };
    const { pdf, lostCharacters, problems } = await typesetWithImages(this.deps.pdf, latex, images, resolved);
    for (const problem of problems) report(problem);
    const rendering: Rendering = { body: pdf, type: RENDERED_TYPE.pdf, filename: fileName(latex.title, 'pdf') };
    const replaced: NonNullable<Rendering['replaced']> = {};
    if (problems.length > 0) replaced.images = problems.length;
    // Placeholders Python put in, and any character pdfTeX still found no glyph for (lost-characters.ts).
    const characters = latex.replaced_characters + lostCharacters;
    if (characters > 0) {
      replaced.characters = characters;
      this.deps.log?.info('characters replaced in a PDF', { count: characters, scripts: latex.scripts });
    }
    if (Object.keys(replaced).length > 0) rendering.replaced = replaced;
    return { rendering, transient: problems.some((p) => p.transient) };
  }

  private async makeText(op: 'html' | 'check', options: RenderOptions, doc: Document): Promise<Rendering> {
    const dialect = asDialect(option(options, 'dialect'));
    switch (op) {
      case 'html': {
        const out = await this.deps.python.renderHtml(doc.text, option(options, 'style'), dialect, doc.base);
        return { body: Buffer.from(out.html, 'utf8'), type: RENDERED_TYPE.html };
      }
      case 'check': {
        const items: CheckItem[] = await this.deps.python.check(doc.text, dialect);
        return { body: Buffer.from(JSON.stringify(items), 'utf8'), type: RENDERED_TYPE.check };
      }
    }
  }
}
