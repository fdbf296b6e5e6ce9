/**
 * What the routes ask for: a rendering of a document with options. Looks in
 * the render cache first, then runs the engines (docutils, and pdfTeX for
 * PDF), and remembers the result.
 */
import { createHash } from 'node:crypto';

import type { Rendering, RenderCache } from './cache/render-cache.js';
import { DEFAULT_DIALECT } from './dialects.js';
import type { Document } from './documents/document.js';
import type { CheckItem } from './engines/python/protocol.js';
import type { LatexOptions, PythonEngine } from './engines/python/engine.js';
import type { PdfEngine } from './engines/tex/pdf-engine.js';

export type Operation = 'html' | 'pdf' | 'check';

export interface RenderDeps {
  python: PythonEngine;
  pdf: PdfEngine;
  cache: RenderCache;
  /** Changes whenever an engine or its settings change, so old renderings are not reused. */
  engineVersion: string;
}

export function renderKey(engineVersion: string, op: Operation, options: Record<string, string | boolean>, doc: Document): string {
  const canonical = JSON.stringify([engineVersion, op, Object.entries(options).sort(), doc.digest]);
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

/** A rendering, and whether it came from the cache (for the X-Cache header). */
export type Rendered = Rendering & { cache: 'hit' | 'miss' };

export class Renderer {
  constructor(private readonly deps: RenderDeps) {}

  key(op: Operation, options: Record<string, string | boolean>, doc: Document): string {
    return renderKey(this.deps.engineVersion, op, options, doc);
  }

  async render(key: string, op: Operation, options: Record<string, string | boolean>, doc: Document): Promise<Rendered> {
    const cached = await this.deps.cache.get(key);
    if (cached) return { ...cached, cache: 'hit' };
    const made = await this.make(op, options, doc);
    await this.deps.cache.set(key, made);
    return { ...made, cache: 'miss' };
  }

  private async make(op: Operation, options: Record<string, string | boolean>, doc: Document): Promise<Rendering> {
    const dialect = String(options.dialect ?? DEFAULT_DIALECT);
    switch (op) {
      case 'html': {
        const out = await this.deps.python.renderHtml(doc.text, String(options.style), dialect);
        return { body: Buffer.from(out.html, 'utf8'), type: 'text/html; charset=utf-8' };
      }
      case 'check': {
        const items: CheckItem[] = await this.deps.python.check(doc.text, dialect);
        return { body: Buffer.from(JSON.stringify(items), 'utf8'), type: 'application/json; charset=utf-8' };
      }
      case 'pdf': {
        const latexOptions: LatexOptions = {
          documentClass: String(options.class),
          style: String(options.style),
          useLatexToc: options.toc === true,
          dialect,
        };
        const latex = await this.deps.python.renderLatex(doc.text, latexOptions);
        const pdf = await this.deps.pdf.compile(latex.latex, latex.format_preamble);
        return { body: pdf, type: 'application/pdf', filename: fileName(latex.title, 'pdf') };
      }
    }
  }
}
