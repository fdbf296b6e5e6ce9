/**
 * Whether a request's If-None-Match names this ETag. Unlike Koa's ctx.fresh
 * this ignores the request's Cache-Control: fetch() adds `no-cache` to every
 * conditional request, and an origin server may answer 304 to it all the same.
 */
import type { Context } from 'koa';

export function etagMatches(ctx: Context, etag: string): boolean {
  const header = ctx.get('If-None-Match');
  if (!header) return false;
  return header === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
