/**
 * The operation table: every path the service answers, with its methods,
 * inputs, options, response media type, cache policy and the error codes its
 * parts can give. The router (routes.ts) registers its handlers from it and
 * the OpenAPI builder (openapi.ts) describes it, so an option or a code is
 * added in one place and the description cannot drift from the routes.
 */
import { TOKEN_PATTERN } from '../documents/document.js';
import { Code } from '../errors.js';
import { OPTIONS } from '../options.js';
import { PARTS_TYPE, RENDERED_TYPE } from '../rendering.js';
import { DELETION_KEY_HEADER } from '../store/deletion-key.js';
import { RENDERED_HTML_CSP } from './csp.js';
import { PDF_ERRORS, POOL_ERRORS, PYTHON_ERRORS, type ListOperationEntry, type OperationEntry } from './operation-entry.js';
import type { JsonSchema } from './openapi-types.js';

export const API_PREFIX = '/1.0/rst2';
export const OPENAPI_PATH = '/1.0/openapi.json';
/** The manual, docs/NAME.rst served as NAME.html under this prefix (docs.ts). */
export const DOCS_PREFIX = '/docs/';
/** The NAME of a manual page. */
export const DOCS_PAGE_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

const options = <K extends keyof typeof OPTIONS>(...names: K[]) => names.map((name) => ({ ...OPTIONS[name], component: name }));

/** A list from the catalogue, as the reference shows it. */
function list(path: string, id: string, summary: string, container: ListOperationEntry['container'], item: ListOperationEntry['item'], names: ListOperationEntry['names']): ListOperationEntry {
  const description = `\`<${container}><${item} name="…"/>…</${container}>\`, in the order to offer them (\`default\` first where there is one).`;
  return { kind: 'list', path, methods: ['get'], id, summary, tag: 'lists', container, item, names, response: { media: 'application/xml; charset=utf-8', description }, errors: [] };
}

const TOKEN_SCHEMA: JsonSchema = { type: 'string', pattern: TOKEN_PATTERN.source };

export const OPERATIONS: readonly OperationEntry[] = [
  {
    kind: 'render',
    path: `${API_PREFIX}/html`,
    methods: ['get', 'post'],
    id: 'Html',
    summary: 'Render HTML',
    description:
      "A complete HTML5 page with its stylesheet embedded; docutils' problem reports appear inside the page. " +
      "With `dialect=pypi`, the page's body is the description exactly as PyPI would show it, or `422 pypi_refused` where PyPI would refuse it. " +
      "`format=parts` answers docutils' `publish_parts()` names instead, for a site generator that lays out its own page, and " +
      '`format=fragment` the bare body; every part went through the same safety pass as the page. With `dialect=pypi`, `fragment` is ' +
      "the description as PyPI shows it (readme_renderer's cleaned `docinfo` + `fragment`) and the other body parts pass PyPI's allow-list too.",
    tag: 'render',
    render: 'html',
    sources: ['rst', 'uri', 'token'],
    options: options('HtmlStyle', 'Dialect', 'HtmlFormat'),
    response: {
      media: RENDERED_TYPE.html,
      description: 'The HTML page (`format=page`), or its bare body (`format=fragment`); `format=parts` answers the parts as JSON.',
      schema: { type: 'string' },
      alternatives: [{ media: PARTS_TYPE, schema: { $ref: '#/components/schemas/HtmlParts' } }],
    },
    headers: { 'Content-Security-Policy': RENDERED_HTML_CSP },
    disposition: false,
    replaces: [],
    errors: [...PYTHON_ERRORS, Code.pypi_refused],
  },
  list(`${API_PREFIX}/html/styles`, 'ListHtmlStyles', 'List HTML styles', 'styles', 'style', (c) => c.htmlStyles),
  {
    kind: 'render',
    path: `${API_PREFIX}/pdf`,
    methods: ['get', 'post'],
    id: 'Pdf',
    summary: 'Render PDF',
    description:
      'docutils writes LaTeX, pdfTeX typesets it. Images (`image`, `figure`, substitution images) come from http(s) URLs, fetched by ' +
      'the service under the same address policy as `uri` and with their own limits, from `data:` URIs, or, for a document given by ' +
      '`uri`, from paths relative to its URL; never from the service\'s files. PNG, JPEG and PDF are used as they are; SVG, GIF (first ' +
      'frame) and WebP are converted. An image that cannot be had (refused address, unreachable, 404, too large, too many pixels, ' +
      'unknown format, relative path without a base, past the time budget) becomes a framed placeholder with its alt text or URL, ' +
      'the PDF is still `200`, and `X-Rst2-Image-Problems` counts such images (each is logged with its reason). A PDF that would ' +
      'carry active content (JavaScript, launch or file actions, non-web links, embedded files, forms) is not served: `422 pdf_unsafe`.',
    tag: 'render',
    render: 'pdf',
    sources: ['rst', 'uri', 'token'],
    options: options('LatexClass', 'LatexStyle', 'UseLatexToc', 'Dialect', 'Tagged'),
    response: { media: RENDERED_TYPE.pdf, description: 'The PDF, named after the document title.' },
    headers: {},
    disposition: true,
    replaces: ['images', 'characters'],
    errors: [...PDF_ERRORS, Code.pypi_refused],
  },
  list(`${API_PREFIX}/pdf/classes`, 'ListLatexClasses', 'List LaTeX classes', 'classes', 'class', (c) => c.latexClasses),
  list(`${API_PREFIX}/pdf/styles`, 'ListLatexStyles', 'List LaTeX styles', 'styles', 'style', (c) => c.latexStyles),
  {
    kind: 'token',
    path: `${API_PREFIX}/token`,
    methods: ['get', 'post'],
    id: 'Token',
    summary: 'Create a token',
    description:
      'Stores the document (for `uri`, what was fetched) under the first 128 bits of its SHA-256; the same document always gets the same token. ' +
      `Each creation also gets its own deletion key, in the \`${DELETION_KEY_HEADER}\` header of this answer only (never stored: the service keeps its hash); ` +
      '`DELETE` on the token with it ends this creation, and the document goes when every creation of it is deleted.',
    tag: 'tokens',
    sources: ['rst', 'uri'],
    response: { media: 'text/plain; charset=utf-8', description: 'The token: 32 lowercase hexadecimal characters, no newline.', schema: TOKEN_SCHEMA },
    errors: [Code.store_unavailable],
  },
  {
    kind: 'render',
    path: `${API_PREFIX}/check`,
    methods: ['get', 'post'],
    id: 'Check',
    summary: 'Check syntax',
    description:
      "docutils' system messages of level warning and above, from parsing and transforms; `[]` when the document is correct. " +
      'With `dialect=pypi`, every problem that would make PyPI refuse the description (the HTML writer runs too, as on PyPI), and `[]` exactly when PyPI accepts it.',
    tag: 'check',
    render: 'check',
    // `token` is accepted too, so a shared document can be checked by its link.
    sources: ['rst', 'uri', 'token'],
    options: options('Dialect', 'Tagged'),
    rules: true,
    response: {
      media: RENDERED_TYPE.check,
      description: 'The problems found (a document full of errors is still 200).',
      schema: { type: 'array', items: { $ref: '#/components/schemas/CheckItem' } },
    },
    headers: {},
    disposition: false,
    replaces: [],
    errors: PYTHON_ERRORS,
  },
  {
    kind: 'render',
    path: `${API_PREFIX}/fix`,
    methods: ['get', 'post'],
    id: 'Fix',
    summary: 'Fix what check finds (our addition)',
    description:
      'The document with the fixes of its problems applied: the safe ones (they cannot change what a correct part of the document means), ' +
      'and with `unsafe=1` the suggested ones too. Fixes are applied in passes until nothing more changes (at most sixteen), and a pass that ' +
      'would leave more problems than it found is not kept. `format=json` answers the fixed text, the fixes applied and the problems left.',
    tag: 'check',
    render: 'fix',
    sources: ['rst', 'uri', 'token'],
    options: options('Dialect', 'Unsafe', 'FixFormat'),
    rules: true,
    response: {
      media: 'text/x-rst; charset=utf-8',
      description: 'The fixed document (`format=text`), or the fix result (`format=json`).',
      schema: { type: 'string' },
      alternatives: [{ media: RENDERED_TYPE.fix, schema: { $ref: '#/components/schemas/FixResult' } }],
    },
    headers: {},
    disposition: false,
    replaces: [],
    fixes: true,
    errors: PYTHON_ERRORS,
  },
  {
    kind: 'token-source',
    path: `${API_PREFIX}/token/{token}`,
    methods: ['get'],
    id: 'TokenSource',
    summary: "A token's stored document text (our addition, so a shared link can be edited again)",
    tag: 'tokens',
    cache: 'immutable',
    headers: ['ETag'],
    response: { media: 'text/x-rst; charset=utf-8', description: 'The document exactly as stored.', schema: { type: 'string' } },
    errors: [Code.token_invalid, Code.token_not_found, Code.store_unavailable],
  },
  {
    kind: 'token-delete',
    path: `${API_PREFIX}/token/{token}`,
    methods: ['delete'],
    id: 'Token',
    summary: 'Delete a token (our addition): end one creation, with its deletion key',
    description:
      `The deletion key goes in the \`${DELETION_KEY_HEADER}\` header, never in the URL (URLs are logged). Two people who store the same ` +
      'document get the same token but each their own key: deleting one creation leaves the document to the others, and it is deleted ' +
      'from the store with the last one. A wrong key, a key already used and an unknown token are one answer, `404 deletion_key_unknown`, ' +
      'so a guess learns nothing, not even whether the token exists. Renderings fetched before may still be held by HTTP caches for ' +
      'their `Cache-Control` lifetime (a day).',
    tag: 'tokens',
    cache: 'none',
    response: { media: '', description: 'Deleted: this creation is gone, and the document with it when it was the last.' },
    errors: [Code.token_invalid, Code.deletion_key_invalid, Code.deletion_key_unknown, Code.store_unavailable],
  },
  {
    kind: 'page',
    path: '/',
    methods: ['get'],
    id: 'Editor',
    summary: 'The editor page (a browser application; its assets live under /assets/)',
    tag: 'service',
    cache: 'revalidate',
    headers: ['Content-Security-Policy'],
    response: { media: 'text/html; charset=utf-8', description: 'The editor page: CodeMirror source pane, live preview, problems list, PDF and share buttons.', schema: { type: 'string' } },
    // Only on a server where the page was never built.
    errors: [Code.not_found],
  },
  {
    kind: 'manual',
    path: DOCS_PREFIX,
    methods: ['get'],
    id: 'Manual',
    summary: "The manual's index (docs/index.rst rendered by this service; /docs redirects here)",
    tag: 'service',
    cache: 'revalidate',
    headers: ['ETag', 'Content-Security-Policy'],
    response: { media: 'text/html; charset=utf-8', description: "The manual's index page: docutils' HTML with the default style, linking to every page.", schema: { type: 'string' } },
    // Rendered on the first request, by the same workers as documents; 404 only where docs/ is missing.
    errors: [Code.not_found, ...POOL_ERRORS],
  },
  {
    kind: 'manual',
    path: `${DOCS_PREFIX}{page}`,
    methods: ['get'],
    id: 'ManualPage',
    summary: 'A page of the manual (docs/NAME.rst rendered by this service, as NAME.html)',
    tag: 'service',
    cache: 'revalidate',
    headers: ['ETag', 'Content-Security-Policy'],
    pathParameter: { description: 'A page of the manual: `NAME.html` for `docs/NAME.rst`.', pattern: `^${DOCS_PAGE_PATTERN.source.slice(1, -1)}\\.html$` },
    response: { media: 'text/html; charset=utf-8', description: "The page: docutils' HTML with the default style.", schema: { type: 'string' } },
    errors: [Code.not_found, ...POOL_ERRORS],
  },
  {
    kind: 'health',
    path: '/health',
    methods: ['get'],
    id: 'Health',
    summary: 'Whether a document renders now',
    tag: 'service',
    cache: 'none',
    response: {
      media: 'application/json; charset=utf-8',
      // Liveness only: restarting the process would not bring an unreachable token store back (see probes.ts).
      description: 'A document rendered now: HTML, and PDF where pdfTeX is built. The token store is left to `/ready`.',
      schema: { $ref: '#/components/schemas/Health' },
    },
    errors: [Code.unhealthy],
  },
  {
    kind: 'ready',
    path: '/ready',
    methods: ['get'],
    id: 'Ready',
    summary: 'Whether this instance should take traffic (cheap; renders nothing)',
    tag: 'service',
    cache: 'none',
    response: {
      media: 'application/json; charset=utf-8',
      description: 'A worker of each engine is warm and the token store is reachable.',
      schema: { type: 'object', required: ['status'], additionalProperties: false, properties: { status: { type: 'string', const: 'ready' } } },
    },
    errors: [Code.not_ready],
  },
  {
    kind: 'metrics',
    path: '/metrics',
    methods: ['get'],
    id: 'Metrics',
    summary: 'Prometheus metrics of this instance',
    tag: 'service',
    cache: 'none',
    response: {
      media: 'text/plain; version=0.0.4; charset=utf-8',
      description: 'Prometheus text exposition format 0.0.4 (see /docs/operations.html for the series).',
      schema: { type: 'string', pattern: '^# HELP rst2_' },
    },
    errors: [],
  },
  {
    kind: 'description',
    path: OPENAPI_PATH,
    methods: ['get'],
    id: 'OpenApi',
    summary: 'This description',
    tag: 'service',
    cache: 'short',
    headers: ['ETag', 'Access-Control-Allow-Origin'],
    response: {
      media: 'application/json; charset=utf-8',
      description: 'The OpenAPI 3.1 description of the API.',
      schema: {
        type: 'object',
        required: ['openapi', 'info', 'paths'],
        properties: { openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' }, info: { type: 'object' }, paths: { type: 'object' } },
      },
    },
    errors: [],
  },
];

/** Koa's form of an OpenAPI path: `{token}` → `:token`. */
export function routerPath(openApiPath: string): string {
  return openApiPath.replace(/\{(\w+)\}/g, ':$1');
}

/** The `operation` label of the request metrics: the rendering, or what kind of answer. */
function metricLabel(op: OperationEntry): string {
  switch (op.kind) {
    case 'render':
      return op.render;
    case 'token':
    case 'token-source':
    case 'token-delete':
      return 'token';
    case 'description':
      return 'openapi';
    case 'page':
      return 'editor';
    case 'manual':
      return 'docs';
    default:
      return op.kind;
  }
}

const LABELS = new Map(OPERATIONS.map((op) => [routerPath(op.path), metricLabel(op)]));
// The editor's assets are served next to its page (editor.ts).
LABELS.set('/assets/*', 'editor');

/** The metrics label of a matched route (Koa's form, `:token`); `unmatched` when nothing matched. */
export function operationOf(route: string | undefined): string {
  if (!route) return 'unmatched';
  return LABELS.get(route) ?? 'other';
}
