/**
 * The router, built from the operation table (operations.ts): one handler per
 * kind of operation. A route knows HTTP (parameters, status, headers); what
 * it renders with is behind the Renderer.
 */
import Router from '@koa/router';
import type { Context } from 'koa';

import { TOKEN_PATTERN, tokenOf } from '../documents/document.js';
import { Code, ServiceError } from '../errors.js';
import { choose } from '../options.js';
import { ruleOptions } from './rule-params.js';
import type { Logger } from '../log.js';
import type { Renderer } from '../renderer.js';
import type { FixResult } from '../engines/python/contract.js';
import type { Catalogue } from '../styles.js';
import { DELETION_KEY_HEADER, DELETION_KEY_PATTERN, hashDeletionKey, makeDeletionKey } from '../store/deletion-key.js';
import type { TokenStore } from '../store/token-store.js';
import { etagMatches } from './etag.js';
import { OPERATIONS, routerPath } from './operations.js';
import { acceptedParameters, CACHE_CONTROL, FIX_HEADERS, REPLACED_HEADERS, type OperationEntry, type RenderOperationEntry, type TokenOperationEntry } from './operation-entry.js';
import { checkKnown, resolveDocument, tokenText, type InputDeps } from './input.js';
import { xmlList } from './lists.js';
import { openApiRoute } from './openapi-route.js';
import { readParams } from './params.js';

export { API_PREFIX } from './operations.js';

export interface RouteDeps extends InputDeps {
  renderer: Renderer;
  catalogue: Catalogue;
  store: TokenStore;
  maxBodyBytes: number;
  /** The service's version, for the OpenAPI description. */
  version: string;
  health: () => Promise<object>;
  ready: () => Promise<object>;
  metrics: () => Promise<{ body: string; type: string }>;
}

type Handler = (ctx: Context) => Promise<void> | void;

function renderHandler(op: RenderOperationEntry, deps: RouteDeps): Handler {
  return async (ctx) => {
    const params = await readParams(ctx, deps.maxBodyBytes);
    checkKnown(params, acceptedParameters(op));
    const chosen = op.options.map((o) => [o, choose(o, params.get(o.name), deps.catalogue)] as const).filter(([o, value]) => !(o.keyedWhenGiven && value === o.default));
    const options = { ...Object.fromEntries(chosen.map(([o, value]) => [o.name, value])), ...(op.rules ? ruleOptions(params) : {}) };
    const { document, source } = await resolveDocument(params, op.sources, deps);
    const key = deps.renderer.key(op.render, options, document);
    const etag = `"${key.slice(0, 32)}"`;
    ctx.set('ETag', etag);
    // A token's document never changes; other inputs may, so clients revalidate.
    ctx.set('Cache-Control', source === 'token' ? CACHE_CONTROL.immutable : CACHE_CONTROL.revalidate);
    if (etagMatches(ctx, etag)) {
      ctx.status = 304;
      return;
    }
    const log = ctx.state.log as Logger;
    const rendering = await deps.renderer.render(key, op.render, options, document, (problem) =>
      // A data: URI may be megabytes long; its start says enough.
      log.warn('image replaced by a placeholder', { uri: problem.uri.slice(0, 300), reason: problem.reason }),
    );
    ctx.type = rendering.type;
    if (rendering.transient) {
      // Its ETag names what a later request would make with the images there.
      ctx.remove('ETag');
      ctx.set('Cache-Control', CACHE_CONTROL.none);
    }
    // Whether this instance found the rendering in its cache (local or shared).
    ctx.set('X-Cache', rendering.cache);
    if (op.disposition && rendering.filename) ctx.set('Content-Disposition', `inline; filename="${rendering.filename}"`);
    for (const [name, value] of Object.entries(op.headers)) ctx.set(name, value);
    for (const kind of op.replaces) {
      const count = rendering.replaced?.[kind];
      if (count) ctx.set(REPLACED_HEADERS[kind].name, String(count));
    }
    ctx.body = rendering.body;
    if (op.fixes) serveFixResult(ctx, rendering.body, options['format']);
  };
}

/** A fix result (the JSON the engine answers and the cache keeps) as its counts' headers, and as the fixed text unless JSON was asked for. */
function serveFixResult(ctx: Context, body: Buffer, format: string | undefined): void {
  const result = JSON.parse(body.toString('utf8')) as FixResult;
  ctx.set(FIX_HEADERS.applied.name, String(result.fixes.length));
  ctx.set(FIX_HEADERS.left.name, String(result.messages.length));
  if (format !== 'json') {
    ctx.type = 'text/x-rst; charset=utf-8';
    ctx.body = result.text;
  }
}

function tokenHandler(op: TokenOperationEntry, deps: RouteDeps): Handler {
  return async (ctx) => {
    const params = await readParams(ctx, deps.maxBodyBytes);
    checkKnown(params, acceptedParameters(op));
    const { document } = await resolveDocument(params, op.sources, deps);
    const value = tokenOf(document);
    // Each creation its own key, even for a document stored before (token-store.ts).
    const key = makeDeletionKey();
    try {
      await deps.store.save(value, document.text, hashDeletionKey(key));
    } catch (err) {
      throw new ServiceError(Code.store_unavailable, 'The token store cannot be written right now.', { cause: err });
    }
    ctx.type = op.response.media;
    // The key is for this client alone: no cache may keep the answer and hand it to another.
    ctx.set('Cache-Control', CACHE_CONTROL.none);
    ctx.set(DELETION_KEY_HEADER, key);
    ctx.body = value;
  };
}

/** A shared document's source, so a link can be opened again for editing. */
function tokenSourceHandler(op: OperationEntry, deps: RouteDeps): Handler {
  return async (ctx) => {
    checkKnown(await readParams(ctx, deps.maxBodyBytes), []);
    const value = (ctx.params as Record<string, string | undefined>).token ?? '';
    const text = await tokenText(deps.store, value);
    const etag = `"${value}"`;
    ctx.set('ETag', etag);
    // The text under a token never changes.
    ctx.set('Cache-Control', CACHE_CONTROL.immutable);
    if (etagMatches(ctx, etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = op.response.media;
    ctx.body = text;
  };
}

/**
 * Ends one creation of a token, given its deletion key. Whatever the reason
 * a key does not fit (wrong, used already, no such token), the answer is the
 * same 404, so trying keys or tokens teaches nothing.
 */
function tokenDeleteHandler(deps: RouteDeps): Handler {
  return async (ctx) => {
    checkKnown(await readParams(ctx, deps.maxBodyBytes), []);
    ctx.set('Cache-Control', CACHE_CONTROL.none);
    const token = (ctx.params as Record<string, string | undefined>).token ?? '';
    if (!TOKEN_PATTERN.test(token)) throw new ServiceError(Code.token_invalid, 'A token is 32 lowercase hexadecimal characters.');
    const key = ctx.get(DELETION_KEY_HEADER);
    if (!DELETION_KEY_PATTERN.test(key)) {
      throw new ServiceError(Code.deletion_key_invalid, `Send the deletion key that creating the token answered, in the ${DELETION_KEY_HEADER} header (43 base64url characters).`);
    }
    let removed: boolean;
    try {
      removed = await deps.store.remove(token, hashDeletionKey(key));
    } catch (err) {
      throw new ServiceError(Code.store_unavailable, 'The token store cannot be written right now.', { cause: err });
    }
    if (!removed) throw new ServiceError(Code.deletion_key_unknown, `No creation of the token ${token} has this deletion key.`);
    ctx.status = 204;
  };
}

/** A JSON answer from the service itself, never kept by a cache. */
function statusHandler(answer: () => Promise<object>): Handler {
  return async (ctx) => {
    ctx.set('Cache-Control', CACHE_CONTROL.none);
    ctx.body = await answer();
  };
}

function handlerFor(op: OperationEntry, deps: RouteDeps): Handler | undefined {
  switch (op.kind) {
    case 'render':
      return renderHandler(op, deps);
    case 'token':
      return tokenHandler(op, deps);
    case 'token-source':
      return tokenSourceHandler(op, deps);
    case 'token-delete':
      return tokenDeleteHandler(deps);
    case 'list':
      return (ctx) => {
        ctx.type = op.response.media;
        ctx.set('Cache-Control', CACHE_CONTROL.short);
        ctx.body = xmlList(op.container, op.item, op.names(deps.catalogue));
      };
    case 'health':
      return statusHandler(deps.health);
    case 'ready':
      return statusHandler(deps.ready);
    case 'metrics':
      return async (ctx) => {
        const { body, type } = await deps.metrics();
        ctx.set('Cache-Control', CACHE_CONTROL.none);
        ctx.type = type;
        ctx.body = body;
      };
    case 'description':
      return openApiRoute({ catalogue: deps.catalogue, maxBodyBytes: deps.maxBodyBytes, uriMaxBytes: deps.fetchPolicy.maxBytes, version: deps.version });
    case 'page':
      // Served by the editor middleware (editor.ts), with its assets.
      return undefined;
    case 'manual':
      // Served by the docs middleware (docs.ts).
      return undefined;
  }
}

export function buildRouter(deps: RouteDeps): Router {
  const router = new Router();
  for (const op of OPERATIONS) {
    const handler = handlerFor(op, deps);
    if (!handler) continue;
    for (const method of op.methods) router[method](routerPath(op.path), handler);
  }
  return router;
}
