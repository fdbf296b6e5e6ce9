/**
 * CORS for browsers calling the API from other sites. No credentials are
 * ever allowed: the API has no cookies or sessions, so `*` exposes nothing a
 * plain server-side client could not already get.
 */
import type { Context, Next } from 'koa';

import { DELETION_KEY_HEADER } from '../store/deletion-key.js';
import { REPLACED_HEADERS } from './operation-entry.js';

/** `*`, a list of exact origins, or empty (no CORS headers at all). */
export type CorsOrigins = '*' | readonly string[];

// Headers a browser script may read; the others stay hidden by default.
const EXPOSED = ['ETag', 'X-Request-Id', 'Content-Disposition', 'Retry-After', 'X-Cache', DELETION_KEY_HEADER, ...Object.values(REPLACED_HEADERS).map((h) => h.name)].join(', ');
const ALLOWED_HEADERS = ['Content-Type', 'If-None-Match', 'X-Request-Id', DELETION_KEY_HEADER].join(', ');
const PREFLIGHT_MAX_AGE_S = '600';

export function cors(origins: CorsOrigins) {
  const any = origins === '*';
  const listed = new Set(any ? [] : origins);
  return async (ctx: Context, next: Next): Promise<void> => {
    const origin = ctx.get('Origin');
    const allowed = any ? '*' : listed.has(origin) ? origin : undefined;
    // With a list, the answer depends on Origin: caches must keep them apart.
    if (!any && listed.size > 0) ctx.vary('Origin');
    if (!origin || !allowed) return next();

    ctx.set('Access-Control-Allow-Origin', allowed);
    const preflight = ctx.method === 'OPTIONS' && ctx.get('Access-Control-Request-Method') !== '';
    if (!preflight) {
      ctx.set('Access-Control-Expose-Headers', EXPOSED);
      return next();
    }
    ctx.set('Access-Control-Allow-Methods', 'GET, HEAD, POST, DELETE');
    ctx.set('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    ctx.set('Access-Control-Max-Age', PREFLIGHT_MAX_AGE_S);
    ctx.status = 204;
  };
}
