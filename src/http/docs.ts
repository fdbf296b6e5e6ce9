/**
 * Serves the manual (docs/*.rst) at /docs/: the index at /docs/ (and
 * /docs/index.html), each page NAME.rst at /docs/NAME.html, rendered by the
 * service's own engine as any document is (the html operation, style
 * `default`, dialect `docutils`). The sources are read once at start, so the
 * single binary, which carries docs/ in its payload, has its manual offline;
 * a page is rendered on its first request and kept in memory (a failed render
 * is not kept: the next request tries again). The pages link to each other
 * relatively (`api.html`), so /docs redirects to /docs/.
 *
 * Served under the editor page's Content-Security-Policy (csp.ts). Every
 * other path falls through to the routes (and their JSON 404); an unknown page
 * under /docs/ is that same `404 not_found`.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import type { Context, Next } from 'koa';

import { makeDocument } from '../documents/document.js';
import { Code, ServiceError } from '../errors.js';
import type { Logger } from '../log.js';
import type { Renderer } from '../renderer.js';
import { EDITOR_CSP } from './csp.js';
import { etagMatches } from './etag.js';
import { DOCS_PAGE_PATTERN, DOCS_PREFIX } from './operations.js';
import { CACHE_CONTROL } from './operation-entry.js';

/** How a manual page is rendered: plain docutils, the default style. */
export const DOCS_OPTIONS = { style: 'default', dialect: 'docutils' } as const;

interface Page {
  body: Buffer;
  etag: string;
}

/** The page names (NAME of docs/NAME.rst) and their sources, read once. */
export function readManual(dir: string): Map<string, string> {
  const sources = new Map<string, string>();
  for (const file of fs.readdirSync(dir).sort()) {
    const name = file.slice(0, -'.rst'.length);
    if (file.endsWith('.rst') && DOCS_PAGE_PATTERN.test(name)) sources.set(name, fs.readFileSync(path.join(dir, file), 'utf8'));
  }
  return sources;
}

/**
 * docutils' page as it is, but for an empty icon (as the editor page has):
 * without one a browser asks for /favicon.ico and logs the 404 as an error.
 */
function withoutFavicon(html: Buffer): Buffer {
  const text = html.toString('utf8');
  const at = text.indexOf('<head>');
  return at < 0 ? html : Buffer.from(`${text.slice(0, at + 6)}\n<link rel="icon" href="data:,">${text.slice(at + 6)}`, 'utf8');
}

/** The page a path names, or undefined when the path is not the manual's. */
function pageOf(urlPath: string): string | undefined {
  if (urlPath === DOCS_PREFIX) return 'index';
  if (!urlPath.startsWith(DOCS_PREFIX)) return undefined;
  const rest = urlPath.slice(DOCS_PREFIX.length);
  return rest.endsWith('.html') ? rest.slice(0, -'.html'.length) : `\0${rest}`;
}

export function docsPages(dir: string, renderer: Renderer, log: Logger) {
  let sources = new Map<string, string>();
  try {
    sources = readManual(dir);
  } catch (err) {
    log.warn('the manual is missing; /docs/ answers 404', { dir, err: err instanceof Error ? err.message : String(err) });
  }
  const rendered = new Map<string, Promise<Page>>();

  const render = (name: string, text: string): Promise<Page> => {
    let page = rendered.get(name);
    if (!page) {
      const doc = makeDocument(text);
      page = renderer.render(renderer.key('html', DOCS_OPTIONS, doc), 'html', DOCS_OPTIONS, doc).then((r) => {
        const body = withoutFavicon(r.body);
        return { body, etag: `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"` };
      });
      // An overloaded pool or a crashed worker is no reason to keep failing.
      page.catch(() => rendered.delete(name));
      rendered.set(name, page);
    }
    return page;
  };

  return async (ctx: Context, next: Next): Promise<void> => {
    if (ctx.path === DOCS_PREFIX.slice(0, -1)) {
      // Relative links between pages need the trailing slash.
      if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next();
      ctx.state.route = DOCS_PREFIX;
      ctx.status = 301;
      ctx.redirect(DOCS_PREFIX);
      return;
    }
    const name = pageOf(ctx.path);
    if (name === undefined) return next();
    ctx.state.route = name === 'index' && ctx.path === DOCS_PREFIX ? DOCS_PREFIX : `${DOCS_PREFIX}:page`;
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new ServiceError(Code.method_not_allowed, `${ctx.method} is not allowed on ${ctx.path}; use GET, HEAD.`);
    }
    const text = sources.get(name);
    if (text === undefined) {
      const pages = [...sources.keys()].map((n) => `${n}.html`).join(', ');
      throw new ServiceError(Code.not_found, sources.size > 0 ? `The manual has no page ${ctx.path}; its pages are ${DOCS_PREFIX} and ${pages}.` : 'The manual is not installed on this server.');
    }
    const page = await render(name, text);
    ctx.set('Cache-Control', CACHE_CONTROL.revalidate);
    ctx.set('ETag', page.etag);
    ctx.set('Content-Security-Policy', EDITOR_CSP);
    if (etagMatches(ctx, page.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'text/html; charset=utf-8';
    ctx.body = page.body;
  };
}
