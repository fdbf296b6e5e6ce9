/**
 * The one rendering pipeline, for the routes and the command line alike: a
 * rendering of a document with options. Looks in the render cache first,
 * then runs the engines, and remembers the result. HTML and check are one
 * call to docutils each (below); a PDF is a pipeline of its own, read top to
 * bottom in pdf/pipeline.ts. The command line passes NO_CACHE
 * (cache/render-cache.ts).
 */
import { createHash } from 'node:crypto';

import type { Rendering, RenderCache } from './cache/render-cache.js';
import { asDialect } from './dialects.js';
import type { Document } from './documents/document.js';
import type { CheckItem } from './engines/python/protocol.js';
import { renderPdf, type PdfDeps } from './pdf/pipeline.js';
import { HTML_FORMATS } from './options.js';
import { PARTS_TYPE, projectOptions, option, RENDERED_TYPE, type ProblemReport, type RenderOperation, type RenderOptions } from './rendering.js';

export interface RenderDeps extends PdfDeps {
  cache: RenderCache;
  /**
   * Mixed into every render key (and so every ETag): it changes whenever the
   * service, docutils or pdfTeX change (versions.ts), so renderings made by
   * older engines are never served.
   */
  renderKeySalt: string;
}

export function renderKey(renderKeySalt: string, op: RenderOperation, options: RenderOptions, doc: Document): string {
  // The base is part of what a rendering depends on (relative images and
  // links); documents without one keep the keys they always had.
  const parts: unknown[] = [renderKeySalt, op, Object.entries(options).sort(), doc.digest];
  if (doc.base !== undefined) parts.push(doc.base);
  const canonical = JSON.stringify(parts);
  return createHash('sha256').update(canonical).digest('hex');
}

/**
 * A rendering, and whether it came from the cache (for the X-Cache header);
 * `transient`: it has a placeholder that may not be needed next time, so it
 * was not cached and must not be kept or revalidated by clients either.
 */
export type Rendered = Rendering & { cache: 'hit' | 'miss'; transient?: boolean };

export class Renderer {
  constructor(private readonly deps: RenderDeps) {}

  key(op: RenderOperation, options: RenderOptions, doc: Document): string {
    return renderKey(this.deps.renderKeySalt, op, options, doc);
  }

  async render(key: string, op: RenderOperation, options: RenderOptions, doc: Document, report: ProblemReport = () => {}): Promise<Rendered> {
    const cached = await this.deps.cache.get(key);
    if (cached) return { ...cached, cache: 'hit' };
    const { rendering, transient } = op === 'pdf' ? await renderPdf(this.deps, options, doc, report) : { rendering: await this.makeText(op, options, doc), transient: false };
    // An image that timed out or whose server failed may be there next
    // time: such a PDF is served but not kept, so the next request tries
    // again instead of showing the placeholder for the cache's lifetime.
    if (!transient) await this.deps.cache.set(key, rendering);
    return { ...rendering, cache: 'miss', ...(transient ? { transient } : {}) };
  }

  private async makeText(op: 'html' | 'check' | 'fix', options: RenderOptions, doc: Document): Promise<Rendering> {
    const dialect = asDialect(option(options, 'dialect'));
    switch (op) {
      case 'html': {
        // Present only when given and not `page` (options.ts keyedWhenGiven).
        const format = HTML_FORMATS.find((f) => f === options['format']) ?? 'page';
        const out = await this.deps.python.renderHtml(doc.text, option(options, 'style'), dialect, doc.base, format);
        if (format === 'parts') {
          if (!out.parts || !out.messages) throw new Error('the Python engine answered no parts for format=parts');
          return { body: Buffer.from(JSON.stringify({ ...out.parts, messages: out.messages }), 'utf8'), type: PARTS_TYPE };
        }
        return { body: Buffer.from(out.html, 'utf8'), type: RENDERED_TYPE.html };
      }
      case 'check': {
        // `tagged` is present only when given and not `no` (options.ts keyedWhenGiven).
        const tagged = options['tagged'] === 'yes' ? { tagged: true } : {};
        const items: CheckItem[] = await this.deps.python.check(doc.text, dialect, { ...projectOptions(options), ...tagged });
        return { body: Buffer.from(JSON.stringify(items), 'utf8'), type: RENDERED_TYPE.check };
      }
      case 'fix': {
        const fixed = await this.deps.python.fix(doc.text, dialect, option(options, 'unsafe') === '1', projectOptions(options));
        return { body: Buffer.from(JSON.stringify(fixed), 'utf8'), type: RENDERED_TYPE.fix };
      }
    }
  }
}
