/**
 * The OpenAPI 3.1 description of the whole HTTP API, served at
 * GET /1.0/openapi.json. It is built once at start from the real catalogue
 * and limits, so the enums of styles and classes and the byte limits never
 * drift from what the service accepts; test/openapi.test.ts checks it against
 * the real answers of a real server, in both directions.
 *
 * Adding a path is one entry in `paths` at the end of buildOpenApi(); an
 * operation that is not about a document can be made with simpleGet().
 */
import { DEFAULT_DIALECT, DIALECTS } from '../dialects.js';
import { TOKEN_PATTERN } from '../documents/document.js';
import type { Catalogue } from '../styles.js';
import { RENDERED_HTML_CSP } from './csp.js';
import { MAX_MULTIPART_FIELDS, MAX_MULTIPART_FILES } from './multipart.js';
import type { Header, JsonSchema, OpenApiDocument, Operation, Parameter, PathItem, Reference, RequestBody, Response } from './openapi-types.js';

export const OPENAPI_PATH = '/1.0/openapi.json';

export interface OpenApiSettings {
  /** Where the document operations live, e.g. /1.0/rst2. */
  apiPrefix: string;
  /** The service's version (package.json). */
  version: string;
  catalogue: Catalogue;
  maxBodyBytes: number;
  uriMaxBytes: number;
}

type Source = 'rst' | 'uri' | 'token';

const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string): Reference => ({ $ref: `#/components/${kind}/${name}` });

const TOKEN = TOKEN_PATTERN.source;

/** Which answers a document operation can give; its error codes are derived from these. */
interface DocumentRoute {
  /** Used in operation ids: get<Id>, post<Id>. */
  id: string;
  summary: string;
  description: string;
  tag: string;
  sources: readonly Source[];
  /** Names of the option parameters in components.parameters. */
  options: readonly string[];
  /** The 400 codes the options can give. */
  optionCodes: readonly string[];
  ok: Response;
  /** A rendering: carries an ETag and answers a matching If-None-Match with 304. */
  cached: boolean;
  /** Codes of the engines behind the route, by status (422, 500, 503). */
  engineCodes: Partial<Record<422 | 500 | 503, readonly string[]>>;
}

const URI_CODES = {
  400: ['uri_invalid', 'uri_forbidden_address', 'uri_not_utf8'],
  413: ['uri_too_large'],
  502: ['uri_unreachable', 'uri_upstream_status', 'uri_too_many_redirects'],
  504: ['uri_timeout'],
} as const;
const PARAM_CODES = ['unknown_parameter', 'duplicate_parameter', 'invalid_utf8', 'bad_request', 'input_missing', 'input_ambiguous'] as const;
const DOCUTILS_422 = ['render_timeout', 'document_too_deep', 'document_too_large', 'output_too_large', 'docutils_failed'] as const;
const POOL_503 = ['overloaded', 'engine_crashed', 'shutting_down'] as const;

/** The JSON error shape, narrowed to the codes a response can carry. */
function errorResponse(description: string, codes: readonly string[], headers: Record<string, Reference> = {}): Response {
  return {
    description: `${description} Codes: ${codes.map((c) => `\`${c}\``).join(', ')}.`,
    headers: { 'X-Request-Id': ref('headers', 'XRequestId'), ...headers },
    content: {
      'application/json': {
        schema: { allOf: [ref('schemas', 'Error'), { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: [...codes] } } } } }] },
      },
    },
  };
}

const unique = (codes: readonly string[]): string[] => [...new Set(codes)];

function documentResponses(route: DocumentRoute, method: 'get' | 'post'): Record<string, Response | Reference> {
  const post = method === 'post';
  const token = route.sources.includes('token');
  const retry = { 'Retry-After': ref('headers', 'RetryAfter') };
  const responses: Record<string, Response | Reference> = { '200': route.ok };
  if (route.cached) {
    responses['304'] = {
      description: 'Not Modified: `If-None-Match` matched the rendering\'s ETag; nothing was rendered.',
      headers: { ETag: ref('headers', 'ETag'), 'Cache-Control': ref('headers', 'RenderCacheControl'), 'X-Request-Id': ref('headers', 'XRequestId') },
    };
  }
  responses['400'] = errorResponse(
    'The request is wrong.',
    unique([...PARAM_CODES, ...URI_CODES[400], ...(token ? ['token_invalid'] : []), ...route.optionCodes, ...(post ? ['bad_multipart'] : [])]),
  );
  if (token) responses['404'] = errorResponse('No document is stored under the token.', ['token_not_found']);
  responses['413'] = errorResponse('Too large.', [...(post ? ['body_too_large'] : []), ...URI_CODES[413]]);
  if (post) responses['415'] = errorResponse('The body is not one of the accepted media types, or declares a charset other than UTF-8.', ['unsupported_media_type', 'unsupported_charset']);
  if (route.engineCodes[422]) responses['422'] = errorResponse('The document cannot be rendered; sending it again will not help.', route.engineCodes[422]);
  responses['500'] = errorResponse('A bug: the log has the details under the request id.', ['internal', ...(route.engineCodes[500] ?? [])]);
  responses['502'] = errorResponse('The server of `uri` failed.', URI_CODES[502]);
  const unavailable = [...(route.engineCodes[503] ?? []), ...(token ? ['store_unavailable'] : [])];
  if (unavailable.length > 0) responses['503'] = errorResponse('Try again later, after `Retry-After` seconds.', unique(unavailable), retry);
  responses['504'] = errorResponse('The server of `uri` was too slow.', URI_CODES[504]);
  return responses;
}

function formProperties(route: DocumentRoute, params: Record<string, Parameter>, file: boolean): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  for (const name of [...route.sources.map(capitalise), ...route.options]) {
    const param = params[name]!;
    properties[param.name] = { ...param.schema, description: param.description };
  }
  if (file) properties.rst = { ...properties.rst, description: 'The document text: a text field, or an uploaded file (UTF-8).' };
  return properties;
}

function documentBody(route: DocumentRoute, params: Record<string, Parameter>, maxBodyBytes: number): RequestBody {
  const raw: JsonSchema = { type: 'string', description: 'The whole body is the document (`rst`); options go in the query string.' };
  return {
    description:
      'The parameters as a form (urlencoded or multipart, where `rst` may be an uploaded file), or the document itself as the raw body ' +
      '(`charset`, if given, must be UTF-8) with the options in the query string. Parameters may be split between query string and body, ' +
      `but none may be given twice. At most ${maxBodyBytes} bytes (\`413 body_too_large\`); a multipart body carries at most ` +
      `${MAX_MULTIPART_FILES} files and ${MAX_MULTIPART_FIELDS} fields (\`400 bad_multipart\`).`,
    required: false,
    content: {
      'application/x-www-form-urlencoded': { schema: { type: 'object', properties: formProperties(route, params, false), additionalProperties: false } },
      'multipart/form-data': {
        schema: { type: 'object', properties: formProperties(route, params, true), additionalProperties: false },
        encoding: { rst: { contentType: 'text/plain, text/x-rst, application/octet-stream' } },
      },
      'text/x-rst': { schema: raw },
      'text/plain': { schema: raw },
      'text/prs.fallenstein.rst': { schema: raw },
    },
  };
}

function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

function documentPath(route: DocumentRoute, params: Record<string, Parameter>, maxBodyBytes: number): PathItem {
  const operation = (method: 'get' | 'post'): Operation => ({
    operationId: `${method}${route.id}`,
    summary: route.summary,
    description: `${route.description} The document is exactly one of ${route.sources.map((s) => `\`${s}\``).join(', ')}.`,
    tags: [route.tag],
    responses: documentResponses(route, method),
    ...(method === 'post' ? { requestBody: documentBody(route, params, maxBodyBytes) } : {}),
  });
  return {
    // Shared by GET and POST: a POST may carry any of them in its query string too.
    parameters: [...route.sources.map((s) => ref('parameters', capitalise(s))), ...route.options.map((o) => ref('parameters', o)), ...(route.cached ? [ref('parameters', 'IfNoneMatch')] : [])],
    get: operation('get'),
    post: operation('post'),
  };
}

/** A GET that takes no parameters, e.g. a list or a status. */
function simpleGet(operationId: string, summary: string, tag: string, responses: Record<string, Response | Reference>): PathItem {
  return {
    get: {
      operationId,
      summary,
      tags: [tag],
      responses: { ...responses, '500': errorResponse('A bug: the log has the details under the request id.', ['internal']) },
    },
  };
}

function xmlListSchema(container: 'styles' | 'classes', item: 'style' | 'class', names: readonly string[]): JsonSchema {
  return {
    type: 'object',
    xml: { name: container },
    required: [item],
    additionalProperties: false,
    properties: {
      [item]: {
        type: 'array',
        items: {
          type: 'object',
          xml: { name: item },
          required: ['name'],
          additionalProperties: false,
          properties: { name: { type: 'string', enum: names, xml: { attribute: true } } },
        },
      },
    },
  };
}

function listPath(operationId: string, summary: string, container: 'styles' | 'classes', item: 'style' | 'class', names: readonly string[]): PathItem {
  return simpleGet(operationId, summary, 'lists', {
    '200': {
      description: `\`<${container}><${item} name="…"/>…</${container}>\`, in the order to offer them (\`default\` first where there is one).`,
      headers: { 'Cache-Control': ref('headers', 'ListCacheControl'), 'X-Request-Id': ref('headers', 'XRequestId') },
      content: { 'application/xml': { schema: xmlListSchema(container, item, names) } },
    },
  });
}

function parameters(s: OpenApiSettings): Record<string, Parameter> {
  const choice = (name: string, description: string, values: readonly string[], fallback: string): Parameter => ({
    name,
    in: 'query',
    description: `${description} An empty value means the default; another value is \`400 unknown_${name.replace(/-/g, '_')}\`, listing the valid ones.`,
    schema: { type: 'string', enum: values, default: fallback },
  });
  return {
    Rst: { name: 'rst', in: 'query', description: 'The document text (UTF-8).', schema: { type: 'string' } },
    Uri: {
      name: 'uri',
      in: 'query',
      description: `An \`http\`/\`https\` URL the service fetches the document from (at most ${s.uriMaxBytes} bytes; public addresses only, unless the server allows private ones).`,
      schema: { type: 'string', format: 'uri' },
    },
    Token: { name: 'token', in: 'query', description: 'A token from the token operation.', schema: { type: 'string', pattern: TOKEN } },
    HtmlStyle: choice('style', 'The HTML style.', s.catalogue.htmlStyles, 'default'),
    LatexStyle: choice('style', 'The LaTeX style.', s.catalogue.latexStyles, 'default'),
    LatexClass: choice('class', 'The LaTeX document class.', s.catalogue.latexClasses, 'article'),
    UseLatexToc: choice('use-latex-toc', "`yes` prints LaTeX's `\\tableofcontents` after the title.", ['yes', 'no'], 'no'),
    Dialect: choice(
      'dialect',
      'What the document is written for. `docutils`: plain docutils. `sphinx`: Sphinx\'s standard roles and directives are known ' +
        '(references resolve within the document, autodoc and includes become placeholders). `pypi`: as PyPI renders a package ' +
        'description with readme_renderer: any warning makes PyPI refuse it (`check` lists every such problem, `html` and `pdf` ' +
        'answer `422 pypi_refused`), and the HTML keeps only what PyPI\'s allow-list lets through.',
      DIALECTS,
      DEFAULT_DIALECT,
    ),
    IfNoneMatch: {
      name: 'If-None-Match',
      in: 'header',
      description: 'ETags of renderings the client holds; a match is answered `304` without rendering.',
      schema: { type: 'string' },
    },
  };
}

const HEADERS: Record<string, Header> = {
  XRequestId: {
    description: 'Identifies the request in the log; on every response. A plain incoming `X-Request-Id` is kept, otherwise a UUID is made.',
    required: true,
    schema: { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
  },
  XCache: { description: 'Whether the rendering came from the render cache (this instance\'s or the shared Redis one).', required: true, schema: { type: 'string', enum: ['hit', 'miss'] } },
  ETag: {
    description: 'Derived from the operation, options, document and engine versions.',
    required: true,
    schema: { type: 'string', pattern: '^"[0-9a-f]{32}"$' },
  },
  RenderCacheControl: {
    description: 'A `token` document never changes, so its renderings are cached for a day; other inputs may change, so clients revalidate.',
    required: true,
    schema: { type: 'string', enum: ['public, max-age=86400', 'no-cache'] },
  },
  ListCacheControl: { required: true, schema: { type: 'string', const: 'public, max-age=300' } },
  NoStore: { required: true, schema: { type: 'string', const: 'no-store' } },
  DescriptionCacheControl: { required: true, schema: { type: 'string', const: 'public, max-age=300' } },
  DescriptionETag: { required: true, schema: { type: 'string', pattern: '^"[0-9a-f]{32}"$' } },
  AllowAnyOrigin: { description: 'Readable from any origin, e.g. by an API browser.', required: true, schema: { type: 'string', const: '*' } },
  ContentDisposition: { required: true, schema: { type: 'string', pattern: '^inline; filename="[^"/\\\\]+\\.pdf"$' } },
  RetryAfter: { description: 'Seconds to wait before trying again.', required: true, schema: { type: 'integer', minimum: 0 } },
  Allow: { description: 'The methods the path accepts.', required: true, schema: { type: 'string' } },
};

const SCHEMAS: Record<string, JsonSchema> = {
  Error: {
    type: 'object',
    required: ['error'],
    additionalProperties: false,
    properties: {
      error: {
        type: 'object',
        required: ['code', 'message'],
        additionalProperties: false,
        properties: {
          code: { type: 'string', pattern: '^[a-z][a-z0-9_]*$', description: 'Stable, for programs.' },
          message: { type: 'string', description: 'For people; safe to show.' },
          parameter: { type: 'string', description: '`unknown_parameter`, `duplicate_parameter`: the parameter.' },
          accepted: { type: 'array', items: { type: 'string' }, description: '`unknown_parameter`, `input_missing`: the parameters accepted.' },
          given: { type: 'array', items: { type: 'string' }, description: '`input_ambiguous`: the inputs given.' },
          valid: { type: 'array', items: { type: 'string' }, description: '`unknown_style`, `unknown_class`, `unknown_use_latex_toc`, `unknown_dialect`: the valid values.' },
          dialect: { type: 'string', description: '`unknown_dialect`: the value given.' },
          style: { type: 'string', description: '`unknown_style`: the value given (at most 100 characters).' },
          class: { type: 'string', description: '`unknown_class`: the value given.' },
          'use-latex-toc': { type: 'string', description: '`unknown_use_latex_toc`: the value given.' },
          maxBytes: { type: 'integer', description: '`body_too_large`, `uri_too_large`: the limit.' },
          maxFiles: { type: 'integer', description: '`bad_multipart` for too many uploaded files: the limit.' },
          maxFields: { type: 'integer', description: '`bad_multipart` for too many form fields: the limit.' },
          addressClass: { type: 'string', description: '`uri_forbidden_address`: the kind of address refused, e.g. `loopback`.' },
          upstreamStatus: { type: 'integer', description: '`uri_upstream_status`: the status of the `uri` server.' },
          maxRedirects: { type: 'integer', description: '`uri_too_many_redirects`: the limit.' },
          timeoutMs: { type: 'integer', description: '`uri_timeout`: the limit.' },
          problems: { type: 'array', items: { type: 'string' }, description: '`not_ready`: what keeps the instance from taking traffic.' },
        },
      },
    },
  },
  CheckItem: {
    type: 'object',
    required: ['message', 'type', 'line', 'context'],
    additionalProperties: false,
    properties: {
      message: { type: 'string' },
      type: { type: 'string', enum: ['warning', 'error', 'severe'] },
      line: { type: ['integer', 'null'], minimum: 1, description: '`null` where docutils gives no line.' },
      context: { type: 'string', description: 'The offending source lines, joined by `\\n`.' },
    },
  },
  PoolStats: {
    type: 'object',
    required: ['size', 'ready', 'busy', 'starting', 'queued', 'restarts', 'recycled'],
    properties: {
      size: { type: 'integer', minimum: 0 },
      ready: { type: 'integer', minimum: 0 },
      busy: { type: 'integer', minimum: 0 },
      starting: { type: 'integer', minimum: 0 },
      queued: { type: 'integer', minimum: 0 },
      restarts: { type: 'integer', minimum: 0, description: 'Workers replaced after a crash, a deadline or a failed start.' },
      recycled: { type: 'integer', minimum: 0, description: 'Workers replaced after a job because their heap passed the budget (`RST2_WORKER_HEAP_BUDGET_BYTES`).' },
    },
  },
  Health: {
    type: 'object',
    required: ['status', 'python', 'pdf'],
    properties: {
      status: { type: 'string', const: 'ok' },
      python: ref('schemas', 'PoolStats'),
      pdf: {
        anyOf: [
          ref('schemas', 'PoolStats'),
          { type: 'object', required: ['available', 'reason'], properties: { available: { type: 'boolean', const: false }, reason: { type: 'string' } } },
        ],
      },
    },
  },
};

/** Answers that belong to no operation: the router gives them for paths or methods the API does not have. */
const UNMATCHED: Record<string, Response> = {
  NotFound: errorResponse('There is no such path.', ['not_found']),
  MethodNotAllowed: errorResponse('The path does not take this method; `Allow` lists those it takes.', ['method_not_allowed'], { Allow: ref('headers', 'Allow') }),
  NotImplemented: errorResponse('The method is not one the service knows at all.', ['not_implemented']),
};

const DESCRIPTION = `reStructuredText to HTML and PDF, syntax checks, and tokens for shareable links.

Every operation that takes a document accepts it as **exactly one** of \`rst\`, \`uri\`, \`token\`, as a GET query
string or a POST body. A parameter the operation does not know, or one given twice, is \`400\`.

Every error is JSON (\`#/components/schemas/Error\`) and every response carries \`X-Request-Id\`. Besides the
answers listed per operation, a path that does not exist is \`404 not_found\`
(\`#/components/responses/NotFound\`), a method a path does not take is \`405 method_not_allowed\` with \`Allow\`
(\`#/components/responses/MethodNotAllowed\`), and a method unknown to the service is \`501 not_implemented\`.
HEAD is accepted wherever GET is, and OPTIONS on every path answers with \`Allow\`.`;

export function buildOpenApi(s: OpenApiSettings): OpenApiDocument {
  const params = parameters(s);
  const json = (schema: JsonSchema) => ({ 'application/json': { schema } });
  const renderHeaders = {
    ETag: ref('headers', 'ETag'),
    'Cache-Control': ref('headers', 'RenderCacheControl'),
    'X-Cache': ref('headers', 'XCache'),
    'X-Request-Id': ref('headers', 'XRequestId'),
  };

  const html: DocumentRoute = {
    id: 'Html',
    summary: 'Render HTML',
    description:
      "A complete HTML5 page with its stylesheet embedded; docutils' problem reports appear inside the page. " +
      "With `dialect=pypi`, the page's body is the description exactly as PyPI would show it, or `422 pypi_refused` where PyPI would refuse it.",
    tag: 'render',
    sources: ['rst', 'uri', 'token'],
    options: ['HtmlStyle', 'Dialect'],
    optionCodes: ['unknown_style', 'unknown_dialect'],
    ok: {
      description: 'The HTML page.',
      headers: { ...renderHeaders, 'Content-Security-Policy': { required: true, schema: { type: 'string', const: RENDERED_HTML_CSP } } },
      content: { 'text/html': { schema: { type: 'string' } } },
    },
    cached: true,
    engineCodes: { 422: [...DOCUTILS_422, 'pypi_refused'], 500: ['render_failed'], 503: POOL_503 },
  };
  const pdf: DocumentRoute = {
    id: 'Pdf',
    summary: 'Render PDF',
    description:
      'docutils writes LaTeX, pdfTeX typesets it. Documents with images are `422 images_unsupported`. A PDF that would carry active content (JavaScript, launch or file actions, non-web links, embedded files, forms) is not served: `422 pdf_unsafe`.',
    tag: 'render',
    sources: ['rst', 'uri', 'token'],
    options: ['LatexClass', 'LatexStyle', 'UseLatexToc', 'Dialect'],
    optionCodes: ['unknown_class', 'unknown_style', 'unknown_use_latex_toc', 'unknown_dialect'],
    ok: {
      description: 'The PDF, named after the document title.',
      headers: { ...renderHeaders, 'Content-Disposition': ref('headers', 'ContentDisposition') },
      content: { 'application/pdf': {} },
    },
    cached: true,
    engineCodes: {
      422: [...DOCUTILS_422, 'images_unsupported', 'latex_failed', 'pypi_refused', 'pdf_unsafe'],
      500: ['render_failed', 'pdf_failed'],
      503: [...POOL_503, 'pdf_unavailable'],
    },
  };
  const check: DocumentRoute = {
    id: 'Check',
    summary: 'Check syntax',
    description:
      "docutils' system messages of level warning and above, from parsing and transforms; `[]` when the document is correct. " +
      'With `dialect=pypi`, every problem that would make PyPI refuse the description (the HTML writer runs too, as on PyPI), and `[]` exactly when PyPI accepts it.',
    tag: 'check',
    sources: ['rst', 'uri', 'token'],
    options: ['Dialect'],
    optionCodes: ['unknown_dialect'],
    ok: { description: 'The problems found (a document full of errors is still 200).', headers: renderHeaders, content: json({ type: 'array', items: ref('schemas', 'CheckItem') }) },
    cached: true,
    engineCodes: { 422: DOCUTILS_422, 500: ['render_failed'], 503: POOL_503 },
  };
  const token: DocumentRoute = {
    id: 'Token',
    summary: 'Create a token',
    description: 'Stores the document (for `uri`, what was fetched) under the first 128 bits of its SHA-256; the same document always gets the same token.',
    tag: 'tokens',
    sources: ['rst', 'uri'],
    options: [],
    optionCodes: [],
    ok: {
      description: 'The token: 32 lowercase hexadecimal characters, no newline.',
      headers: { 'X-Request-Id': ref('headers', 'XRequestId') },
      content: { 'text/plain': { schema: { type: 'string', pattern: TOKEN } } },
    },
    cached: false,
    engineCodes: { 503: ['store_unavailable'] },
  };

  const p = s.apiPrefix;
  const { htmlStyles, latexStyles, latexClasses } = s.catalogue;
  return {
    openapi: '3.1.0',
    info: { title: 'rst2', version: s.version, summary: 'reStructuredText to HTML and PDF, as a service', description: DESCRIPTION, license: { name: 'MIT', identifier: 'MIT' } },
    tags: [
      { name: 'render', description: 'Render a document' },
      { name: 'check', description: 'Check a document' },
      { name: 'tokens', description: 'Store a document for shareable links' },
      { name: 'lists', description: 'The styles and classes to choose from' },
      { name: 'service', description: 'The service itself' },
    ],
    paths: {
      [`${p}/html`]: documentPath(html, params, s.maxBodyBytes),
      [`${p}/html/styles`]: listPath('listHtmlStyles', 'List HTML styles', 'styles', 'style', htmlStyles),
      [`${p}/pdf`]: documentPath(pdf, params, s.maxBodyBytes),
      [`${p}/pdf/classes`]: listPath('listLatexClasses', 'List LaTeX classes', 'classes', 'class', latexClasses),
      [`${p}/pdf/styles`]: listPath('listLatexStyles', 'List LaTeX styles', 'styles', 'style', latexStyles),
      [`${p}/token`]: documentPath(token, params, s.maxBodyBytes),
      [`${p}/check`]: documentPath(check, params, s.maxBodyBytes),
      [`${p}/token/{token}`]: {
        parameters: [{ name: 'token', in: 'path', required: true, description: 'A token from the token operation.', schema: { type: 'string', pattern: TOKEN } }],
        get: {
          operationId: 'getTokenSource',
          summary: "A token's stored document text (our addition, so a shared link can be edited again)",
          tags: ['tokens'],
          parameters: [ref('parameters', 'IfNoneMatch')],
          responses: {
            '200': {
              description: 'The document exactly as stored.',
              headers: {
                ETag: { required: true, schema: { type: 'string', pattern: `^"${TOKEN.replace(/^\^|\$$/g, '')}"$` } },
                'Cache-Control': { required: true, schema: { type: 'string', const: 'public, max-age=86400' } },
                'X-Request-Id': ref('headers', 'XRequestId'),
              },
              content: { 'text/x-rst': { schema: { type: 'string' } } },
            },
            '304': { description: 'Not Modified: the text under a token never changes.', headers: { 'X-Request-Id': ref('headers', 'XRequestId') } },
            '400': errorResponse('The token is malformed, or a parameter was given.', ['token_invalid', 'unknown_parameter', 'bad_request']),
            '404': errorResponse('No document is stored under the token.', ['token_not_found']),
            '503': errorResponse('The token store cannot be read now.', ['store_unavailable'], { 'Retry-After': ref('headers', 'RetryAfter') }),
            '500': errorResponse('A bug: the log has the details under the request id.', ['internal']),
          },
        },
      },
      '/': simpleGet('getEditor', 'The editor page (a browser application; its assets live under /assets/)', 'service', {
        '200': {
          description: 'The editor page: CodeMirror source pane, live preview, problems list, PDF and share buttons.',
          headers: { 'Content-Security-Policy': { required: true, schema: { type: 'string' } }, 'X-Request-Id': ref('headers', 'XRequestId') },
          content: { 'text/html': { schema: { type: 'string' } } },
        },
        '404': errorResponse('The page was not built on this server.', ['not_found']),
      }),
      '/health': simpleGet('getHealth', 'Whether a document renders now', 'service', {
        '200': {
          description: 'A document rendered now (HTML, and PDF where pdfTeX is built), and the token store answers.',
          headers: { 'Cache-Control': ref('headers', 'NoStore'), 'X-Request-Id': ref('headers', 'XRequestId') },
          content: json(ref('schemas', 'Health')),
        },
        '503': errorResponse('The service cannot render now.', ['unhealthy'], { 'Retry-After': ref('headers', 'RetryAfter') }),
      }),
      '/ready': simpleGet('getReady', 'Whether this instance should take traffic (cheap; renders nothing)', 'service', {
        '200': {
          description: 'A worker of each engine is warm and the token store is reachable.',
          headers: { 'Cache-Control': ref('headers', 'NoStore'), 'X-Request-Id': ref('headers', 'XRequestId') },
          content: json({ type: 'object', required: ['status'], additionalProperties: false, properties: { status: { type: 'string', const: 'ready' } } }),
        },
        '503': errorResponse('Starting, stopping, or the token store is unreachable; `problems` says which.', ['not_ready'], { 'Retry-After': ref('headers', 'RetryAfter') }),
      }),
      '/metrics': simpleGet('getMetrics', 'Prometheus metrics of this instance', 'service', {
        '200': {
          description: 'Prometheus text exposition format 0.0.4 (see the README, "Operations", for the series).',
          headers: { 'Cache-Control': ref('headers', 'NoStore'), 'X-Request-Id': ref('headers', 'XRequestId') },
          content: { 'text/plain': { schema: { type: 'string', pattern: '^# HELP rst2_' } } },
        },
      }),
      [OPENAPI_PATH]: simpleGet('getOpenApi', 'This description', 'service', {
        '200': {
          description: 'The OpenAPI 3.1 description of the API.',
          headers: {
            ETag: ref('headers', 'DescriptionETag'),
            'Cache-Control': ref('headers', 'DescriptionCacheControl'),
            'Access-Control-Allow-Origin': ref('headers', 'AllowAnyOrigin'),
            'X-Request-Id': ref('headers', 'XRequestId'),
          },
          content: json({
            type: 'object',
            required: ['openapi', 'info', 'paths'],
            properties: { openapi: { type: 'string', pattern: '^3\\.1\\.\\d+$' }, info: { type: 'object' }, paths: { type: 'object' } },
          }),
        },
        '304': {
          description: 'Not Modified: `If-None-Match` matched.',
          headers: {
            ETag: ref('headers', 'DescriptionETag'),
            'Cache-Control': ref('headers', 'DescriptionCacheControl'),
            'Access-Control-Allow-Origin': ref('headers', 'AllowAnyOrigin'),
            'X-Request-Id': ref('headers', 'XRequestId'),
          },
        },
      }),
    },
    components: { schemas: SCHEMAS, parameters: params, headers: HEADERS, responses: UNMATCHED },
  };
}
