/**
 * The route table of /1.0/rst2/*. A route knows HTTP (parameters, status,
 * headers); what it renders with is behind the Renderer.
 */
import Router from '@koa/router';
import type { Context } from 'koa';

import { tokenOf } from '../documents/document.js';
import { DEFAULT_DIALECT, DIALECTS, dialectOption } from '../dialects.js';
import type { Operation, Renderer } from '../renderer.js';
import type { Catalogue } from '../styles.js';
import type { TokenStore } from '../store/token-store.js';
import { ServiceError } from './errors.js';
import { RENDERED_HTML_CSP } from './csp.js';
import { etagMatches } from './etag.js';
import { checkKnown, choice, resolveDocument, tokenText, type InputDeps, type Source } from './input.js';
import { xmlList } from './lists.js';
import { OPENAPI_PATH } from './openapi.js';
import { openApiRoute } from './openapi-route.js';
import { readParams, type Params } from './params.js';

export interface RouteDeps extends InputDeps {
  renderer: Renderer;
  catalogue: Catalogue;
  store: TokenStore;
  maxBodyBytes: number;
  health: () => Promise<Record<string, unknown>>;
  ready: () => Promise<Record<string, unknown>>;
  metrics: () => Promise<{ body: string; type: string }>;
}

export const API_PREFIX = '/1.0/rst2';

const YES_NO = ['yes', 'no'] as const;

const dialect = (p: Params) => dialectOption(choice(p, 'dialect', DIALECTS, DEFAULT_DIALECT));


interface RenderRoute {
  op: Operation;
  sources: readonly Source[];
  options: readonly string[];
  readOptions: (params: Params, catalogue: Catalogue) => Record<string, string | boolean>;
}

const RENDER_ROUTES: Record<string, RenderRoute> = {
  html: {
    op: 'html',
    sources: ['rst', 'uri', 'token'],
    options: ['style', 'dialect'],
    readOptions: (p, c) => ({ style: choice(p, 'style', c.htmlStyles, 'default'), ...dialect(p) }),
  },
  pdf: {
    op: 'pdf',
    sources: ['rst', 'uri', 'token'],
    options: ['class', 'style', 'use-latex-toc', 'dialect'],
    readOptions: (p, c) => ({
      class: choice(p, 'class', c.latexClasses, 'article'),
      style: choice(p, 'style', c.latexStyles, 'default'),
      toc: choice(p, 'use-latex-toc', YES_NO, 'no') === 'yes',
      ...dialect(p),
    }),
  },
  check: {
    op: 'check',
    // `token` is accepted too, so a shared document can be checked by its link.
    sources: ['rst', 'uri', 'token'],
    options: ['dialect'],
    readOptions: (p) => dialect(p),
  },
};

export function buildRouter(deps: RouteDeps): Router {
  const router = new Router();

  for (const [path, route] of Object.entries(RENDER_ROUTES)) {
    const handler = async (ctx: Context) => {
      const params = await readParams(ctx, deps.maxBodyBytes);
      checkKnown(params, [...route.sources, ...route.options]);
      const options = route.readOptions(params, deps.catalogue);
      const { document, source } = await resolveDocument(params, route.sources, deps);
      const key = deps.renderer.key(route.op, options, document);
      const etag = `"${key.slice(0, 32)}"`;
      ctx.set('ETag', etag);
      // A token's document never changes; other inputs may, so clients revalidate.
      ctx.set('Cache-Control', source === 'token' ? 'public, max-age=86400' : 'no-cache');
      if (etagMatches(ctx, etag)) {
        ctx.status = 304;
        return;
      }
      const rendering = await deps.renderer.render(key, route.op, options, document);
      ctx.type = rendering.type;
      // Whether this instance found the rendering in its cache (local or shared).
      ctx.set('X-Cache', rendering.cache);
      if (rendering.filename) ctx.set('Content-Disposition', `inline; filename="${rendering.filename}"`);
      if (route.op === 'html') ctx.set('Content-Security-Policy', RENDERED_HTML_CSP);
      ctx.body = rendering.body;
    };
    router.get(`${API_PREFIX}/${path}`, handler);
    router.post(`${API_PREFIX}/${path}`, handler);
  }

  const token = async (ctx: Context) => {
    const params = await readParams(ctx, deps.maxBodyBytes);
    checkKnown(params, ['rst', 'uri']);
    const { document } = await resolveDocument(params, ['rst', 'uri'], deps);
    const value = tokenOf(document);
    try {
      await deps.store.save(value, document.text);
    } catch (err) {
      throw new ServiceError(503, 'store_unavailable', 'The token store cannot be written right now.', { headers: { 'Retry-After': '5' }, cause: err });
    }
    ctx.type = 'text/plain; charset=utf-8';
    ctx.body = value;
  };
  router.get(`${API_PREFIX}/token`, token);
  router.post(`${API_PREFIX}/token`, token);

  // A shared document's source, so a link can be opened again for editing.
  router.get(`${API_PREFIX}/token/:token`, async (ctx) => {
    checkKnown(await readParams(ctx, deps.maxBodyBytes), []);
    const value = ctx.params.token ?? '';
    const text = await tokenText(deps.store, value);
    const etag = `"${value}"`;
    ctx.set('ETag', etag);
    // The text under a token never changes.
    ctx.set('Cache-Control', 'public, max-age=86400');
    if (etagMatches(ctx, etag)) {
      ctx.status = 304;
      return;
    }
    ctx.type = 'text/x-rst; charset=utf-8';
    ctx.body = text;
  });

  const list = (container: 'styles' | 'classes', item: 'style' | 'class', names: () => readonly string[]) => (ctx: Context) => {
    ctx.type = 'application/xml; charset=utf-8';
    ctx.set('Cache-Control', 'public, max-age=300');
    ctx.body = xmlList(container, item, names());
  };
  router.get(`${API_PREFIX}/html/styles`, list('styles', 'style', () => deps.catalogue.htmlStyles));
  router.get(`${API_PREFIX}/pdf/styles`, list('styles', 'style', () => deps.catalogue.latexStyles));
  router.get(`${API_PREFIX}/pdf/classes`, list('classes', 'class', () => deps.catalogue.latexClasses));

  router.get(
    OPENAPI_PATH,
    openApiRoute({ apiPrefix: API_PREFIX, catalogue: deps.catalogue, maxBodyBytes: deps.maxBodyBytes, uriMaxBytes: deps.fetchPolicy.maxBytes }),
  );

  router.get('/health', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await deps.health();
  });
  router.get('/ready', async (ctx) => {
    ctx.set('Cache-Control', 'no-store');
    ctx.body = await deps.ready();
  });
  router.get('/metrics', async (ctx) => {
    const { body, type } = await deps.metrics();
    ctx.set('Cache-Control', 'no-store');
    ctx.type = type;
    ctx.body = body;
  });

  return router;
}
