/**
 * Serves the OpenAPI description: serialised once at start, revalidated by
 * ETag, and readable from any origin so API browsers on other hosts can load it.
 */
import { createHash } from 'node:crypto';

import type { Context } from 'koa';

import { etagMatches } from './etag.js';
import { buildOpenApi, type OpenApiSettings } from './openapi.js';
import { CACHE_CONTROL } from './operation-entry.js';

export function openApiRoute(settings: OpenApiSettings): (ctx: Context) => void {
  const body = JSON.stringify(buildOpenApi(settings));
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
  return (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    // Short: the description changes with each deployment.
    ctx.set('Cache-Control', CACHE_CONTROL.short);
    ctx.set('ETag', etag);
    if (etagMatches(ctx, etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = body;
  };
}
