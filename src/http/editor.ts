/**
 * Serves the editor page (built by scripts/build-web.mjs into dist/web/) at
 * `/`, and its bundled assets under /assets/. The files are small and only
 * change with a build, so they are read once at start and kept in memory.
 * Every other path falls through to the API routes (and their JSON 404).
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import type { Context, Next } from 'koa';

import type { Logger } from '../log.js';
import { Code, ServiceError } from '../errors.js';
import { EDITOR_CSP } from './csp.js';
import { etagMatches } from './etag.js';
import { CACHE_CONTROL } from './operation-entry.js';

// The page's policy lives with the others (csp.ts); the manual at /docs/ shares it.
export { EDITOR_CSP };

interface StaticFile {
  body: Buffer;
  type: string;
  etag: string;
  cacheControl: string;
  page: boolean;
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
};


function readFiles(dir: string): Map<string, StaticFile> {
  const files = new Map<string, StaticFile>();
  const add = (urlPath: string, file: string, cacheControl: string, page: boolean) => {
    const type = TYPES[path.extname(file)];
    if (!type) return;
    const body = fs.readFileSync(file);
    const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
    files.set(urlPath, { body, type, etag, cacheControl, page });
  };
  // The page names its assets by content hash, so they never change under a
  // name and can be cached for good; the page itself is revalidated.
  add('/', path.join(dir, 'index.html'), CACHE_CONTROL.revalidate, true);
  const assets = path.join(dir, 'assets');
  for (const name of fs.readdirSync(assets)) add(`/assets/${name}`, path.join(assets, name), 'public, max-age=31536000, immutable', false);
  return files;
}

export function editorPage(dir: string, log: Logger) {
  let files = new Map<string, StaticFile>();
  try {
    files = readFiles(dir);
  } catch (err) {
    log.warn('the editor page is not built; / answers 404 (run npm run build)', { dir, err: err instanceof Error ? err.message : String(err) });
  }

  return async (ctx: Context, next: Next): Promise<void> => {
    const file = files.get(ctx.path);
    if (!file) {
      if (ctx.path === '/') throw new ServiceError(Code.not_found, 'The editor page is not built on this server (npm run build builds it); the API lives under /1.0/rst2/.');
      return next();
    }
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') {
      ctx.set('Allow', 'GET, HEAD');
      throw new ServiceError(Code.method_not_allowed, `${ctx.method} is not allowed on ${ctx.path}; use GET, HEAD.`);
    }
    // For metrics and logs: one series for the page, one for all assets.
    ctx.state.route = file.page ? '/' : '/assets/*';
    ctx.set('X-Content-Type-Options', 'nosniff');
    ctx.set('Cache-Control', file.cacheControl);
    ctx.set('ETag', file.etag);
    if (file.page) {
      ctx.set('Content-Security-Policy', EDITOR_CSP);
      // A shared link carries its token in the query: never send it on.
      ctx.set('Referrer-Policy', 'no-referrer');
    }
    if (etagMatches(ctx, file.etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = file.type;
    ctx.body = file.body;
  };
}
