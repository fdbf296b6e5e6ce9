/**
 * Serves the OpenAPI description: serialised once at start, revalidated by
 * ETag, and readable from any origin so API browsers on other hosts can load it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import type { Context } from 'koa';

import { projectRoot } from '../paths.js';
import { etagMatches } from './etag.js';
import { buildOpenApi, type OpenApiSettings } from './openapi.js';

function packageVersion(): string {
  return (JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { version: string }).version;
}

export function openApiRoute(settings: Omit<OpenApiSettings, 'version'>): (ctx: Context) => void {
  const body = JSON.stringify(buildOpenApi({ ...settings, version: packageVersion() }));
  const etag = `"${createHash('sha256').update(body).digest('hex').slice(0, 32)}"`;
  return (ctx) => {
    ctx.set('Access-Control-Allow-Origin', '*');
    // Short: the description changes with each deployment.
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.set('ETag', etag);
    if (etagMatches(ctx, etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'application/json; charset=utf-8';
    ctx.body = body;
  };
}
