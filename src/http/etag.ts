/** Conditional GET: whether the request's If-None-Match names this ETag. */
import type { Context } from 'koa';

// Evaluated whatever the request's Cache-Control says (unlike Koa's ctx.fresh):
// fetch() adds "Cache-Control: no-cache" to every conditional request, and
// an origin server should still answer 304 when the tag matches.
export function etagMatches(ctx: Context, etag: string): boolean {
  const header = ctx.get('If-None-Match');
  if (!header) return false;
  return header === '*' || header.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
