/**
 * The OpenAPI 3.1 description of the whole HTTP API, served at
 * GET /1.0/openapi.json. It is built once at start from the operation table
 * (operations.ts), the error catalogue (errors.ts), the running catalogue of
 * styles and classes, and the limits, so none of those can drift from what
 * the service does; test/openapi.test.ts checks it against the real answers
 * of a real server, in both directions.
 *
 * What is written here is what only a description needs: the shapes of the
 * JSON bodies, the prose, and how the table's facts map onto OpenAPI.
 */
import { TOKEN_PATTERN } from '../documents/document.js';
import { Code, ERRORS, httpCodes, httpStatus, STATUS_MEANING, type ErrorCode } from '../errors.js';
import { OPTIONS } from '../options.js';
import { DELETION_KEY_HEADER, DELETION_KEY_PATTERN } from '../store/deletion-key.js';
import type { Catalogue } from '../styles.js';
import { MAX_MULTIPART_FIELDS, MAX_MULTIPART_FILES } from './multipart.js';
import type { Header, JsonSchema, OpenApiDocument, Operation, Parameter, PathItem, Reference, RequestBody, Response } from './openapi-types.js';
import type { Source } from './input.js';
import {
  CACHE_CONTROL,
  OPERATIONS,
  REPLACED_HEADERS,
  operationErrors,
  type Method,
  type OperationEntry,
  type RenderOperationEntry,
  type TokenOperationEntry,
} from './operations.js';

export interface OpenApiSettings {
  /** The service's version (package.json). */
  version: string;
  catalogue: Catalogue;
  maxBodyBytes: number;
  uriMaxBytes: number;
}

const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string): Reference => ({ $ref: `#/components/${kind}/${name}` });

const TOKEN = TOKEN_PATTERN.source;

/** The media type without its parameters: OpenAPI's content key. */
const mediaKey = (media: string): string => media.split(';')[0]!.trim();

const required = (schema: JsonSchema, description?: string): Header => ({ ...(description ? { description } : {}), required: true, schema });

/** The JSON error shape, narrowed to the codes a response can carry; the description lists what each means. */
function errorResponse(status: number, codes: readonly ErrorCode[], headers: Record<string, Reference> = {}): Response {
  const retry: Record<string, Reference> = codes.some((c) => ERRORS[c].retryAfter !== undefined) ? { 'Retry-After': ref('headers', 'RetryAfter') } : {};
  const meanings = codes.map((c) => `\`${c}\`: ${ERRORS[c].meaning}`).join('; ');
  return {
    description: `${STATUS_MEANING[status] ?? ''} ${meanings}.`.trim(),
    headers: { 'X-Request-Id': ref('headers', 'XRequestId'), ...retry, ...headers },
    content: {
      'application/json': {
        schema: { allOf: [ref('schemas', 'Error'), { type: 'object', properties: { error: { type: 'object', properties: { code: { enum: [...codes] } } } } }] },
      },
    },
  };
}

/** The error answers of an operation, one per status, from the codes its parts can give. */
function errorResponses(op: OperationEntry, method: Method): Record<string, Response> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of operationErrors(op, method)) {
    const status = httpStatus(code);
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries([...byStatus].sort(([a], [b]) => a - b).map(([status, codes]) => [String(status), errorResponse(status, codes)]));
}

function successResponse(op: OperationEntry, headers: Record<string, Header | Reference>): Response {
  const { media, description, schema } = op.response;
  return { description, headers: { ...headers, 'X-Request-Id': ref('headers', 'XRequestId') }, content: { [mediaKey(media)]: schema ? { schema } : {} } };
}

function renderHeaders(op: RenderOperationEntry): Record<string, Header | Reference> {
  const headers: Record<string, Header | Reference> = { ETag: ref('headers', 'ETag'), 'Cache-Control': ref('headers', 'RenderCacheControl'), 'X-Cache': ref('headers', 'XCache') };
  for (const [name, value] of Object.entries(op.headers)) headers[name] = required({ type: 'string', const: value });
  if (op.disposition) headers['Content-Disposition'] = ref('headers', 'ContentDisposition');
  for (const kind of op.replaces) {
    const { name, description } = REPLACED_HEADERS[kind];
    headers[name] = { description, schema: { type: 'string', pattern: '^[1-9][0-9]*$' } };
  }
  if (op.replaces.includes('images')) {
    // A rendering with an image problem that may pass (a timeout, an upstream
    // 5xx) is kept by nobody: no ETag, no-store (routes.ts).
    const transient = 'Absent, with `Cache-Control: no-store`, when an image problem may pass (a timeout, an unreachable host, an upstream 5xx): such a PDF is not kept, so the next request tries again.';
    headers.ETag = { description: `${HEADERS.ETag!.description} ${transient}`, schema: HEADERS.ETag!.schema };
    headers['Cache-Control'] = required(
      { type: 'string', enum: [CACHE_CONTROL.immutable, CACHE_CONTROL.revalidate, CACHE_CONTROL.none] },
      `${HEADERS.RenderCacheControl!.description} \`no-store\`: see ETag.`,
    );
  }
  return headers;
}

/** The headers the table names for a service operation. */
const SERVICE_HEADERS: Record<string, Header | Reference> = {
  ETag: ref('headers', 'ETag'),
  'Access-Control-Allow-Origin': required({ type: 'string', const: '*' }, 'Readable from any origin, e.g. by an API browser.'),
  'Content-Security-Policy': required({ type: 'string' }),
};

const NOT_MODIFIED = 'Not Modified: `If-None-Match` matched the ETag; nothing was sent again.';

function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** Sources, then options, as references to components.parameters. */
function documentParameters(op: RenderOperationEntry | TokenOperationEntry): Reference[] {
  const options = op.kind === 'render' ? op.options.map((o) => ref('parameters', o.component)) : [];
  return [...op.sources.map((s) => ref('parameters', capitalise(s))), ...options, ...(op.kind === 'render' ? [ref('parameters', 'IfNoneMatch')] : [])];
}

function formProperties(op: RenderOperationEntry | TokenOperationEntry, params: Record<string, Parameter>, file: boolean): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  const names = [...op.sources.map(capitalise), ...(op.kind === 'render' ? op.options.map((o) => o.component) : [])];
  for (const name of names) {
    const param = params[name]!;
    properties[param.name] = { ...param.schema, description: param.description };
  }
  if (file) properties.rst = { ...properties.rst, description: 'The document text: a text field, or an uploaded file (UTF-8).' };
  return properties;
}

function documentBody(op: RenderOperationEntry | TokenOperationEntry, params: Record<string, Parameter>, maxBodyBytes: number): RequestBody {
  const raw: JsonSchema = { type: 'string', description: 'The whole body is the document (`rst`); options go in the query string.' };
  return {
    description:
      'The parameters as a form (urlencoded or multipart, where `rst` may be an uploaded file), or the document itself as the raw body ' +
      '(`charset`, if given, must be UTF-8) with the options in the query string. Parameters may be split between query string and body, ' +
      `but none may be given twice. At most ${maxBodyBytes} bytes (\`413 body_too_large\`); a multipart body carries at most ` +
      `${MAX_MULTIPART_FILES} files and ${MAX_MULTIPART_FIELDS} fields (\`400 bad_multipart\`).`,
    required: false,
    content: {
      'application/x-www-form-urlencoded': { schema: { type: 'object', properties: formProperties(op, params, false), additionalProperties: false } },
      'multipart/form-data': {
        schema: { type: 'object', properties: formProperties(op, params, true), additionalProperties: false },
        encoding: { rst: { contentType: 'text/plain, text/x-rst, application/octet-stream' } },
      },
      'text/x-rst': { schema: raw },
      'text/plain': { schema: raw },
      'text/prs.fallenstein.rst': { schema: raw },
    },
  };
}

function documentPath(op: RenderOperationEntry | TokenOperationEntry, params: Record<string, Parameter>, maxBodyBytes: number): PathItem {
  const operation = (method: Method): Operation => {
    const responses: Record<string, Response | Reference> = {};
    if (op.kind === 'render') {
      responses['200'] = successResponse(op, renderHeaders(op));
      responses['304'] = {
        description: NOT_MODIFIED,
        headers: { ETag: ref('headers', 'ETag'), 'Cache-Control': ref('headers', 'RenderCacheControl'), 'X-Request-Id': ref('headers', 'XRequestId') },
      };
    } else {
      responses['200'] = successResponse(op, {
        'Cache-Control': required({ type: 'string', const: CACHE_CONTROL.none }, 'The answer carries a key for this client alone: no cache keeps it.'),
        [DELETION_KEY_HEADER]: ref('headers', 'XRst2DeletionKey'),
      });
    }
    return {
      operationId: `${method}${op.id}`,
      summary: op.summary,
      description: `${op.description ?? ''} The document is exactly one of ${op.sources.map((s) => `\`${s}\``).join(', ')}.`.trim(),
      tags: [op.tag],
      responses: { ...responses, ...errorResponses(op, method) },
      ...(method === 'post' ? { requestBody: documentBody(op, params, maxBodyBytes) } : {}),
    };
  };
  // Shared by GET and POST: a POST may carry any of them in its query string too.
  const item: PathItem = { parameters: documentParameters(op) };
  for (const method of op.methods) item[method] = operation(method);
  return item;
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

/** Lists and the service's own paths: GET only, no document. */
function servicePath(op: Exclude<OperationEntry, RenderOperationEntry | TokenOperationEntry>, catalogue: Catalogue): PathItem {
  const responses: Record<string, Response | Reference> = {};
  if (op.kind === 'list') {
    const names = op.names(catalogue);
    responses['200'] = {
      description: op.response.description,
      headers: { 'Cache-Control': required({ type: 'string', const: CACHE_CONTROL.short }), 'X-Request-Id': ref('headers', 'XRequestId') },
      content: { [mediaKey(op.response.media)]: { schema: xmlListSchema(op.container, op.item, names) } },
    };
  } else if (op.kind !== 'token-delete') {
    const headers: Record<string, Header | Reference> = { 'Cache-Control': required({ type: 'string', const: CACHE_CONTROL[op.cache] }) };
    for (const name of op.headers ?? []) headers[name] = SERVICE_HEADERS[name]!;
    responses['200'] = successResponse(op, headers);
    // What carries an ETag answers a matching If-None-Match with 304.
    if (headers.ETag) responses['304'] = { description: NOT_MODIFIED, headers: { ...headers, 'X-Request-Id': ref('headers', 'XRequestId') } };
  }
  if (op.kind === 'token-delete') {
    responses['204'] = {
      description: op.response.description,
      headers: { 'Cache-Control': required({ type: 'string', const: CACHE_CONTROL.none }), 'X-Request-Id': ref('headers', 'XRequestId') },
    };
  }
  const custom = op.kind === 'list' ? undefined : op.pathParameter;
  const pathParameters: Parameter[] = [...op.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name: name!,
    in: 'path',
    required: true,
    description: custom?.description ?? 'A token from the token operation.',
    schema: { type: 'string', pattern: custom?.pattern ?? TOKEN },
  }));
  const method = op.kind === 'token-delete' ? 'delete' : 'get';
  const headerParameters: Array<Parameter | Reference> = [
    ...(responses['304'] ? [ref('parameters', 'IfNoneMatch')] : []),
    ...(op.kind === 'token-delete' ? [ref('parameters', 'DeletionKey')] : []),
  ];
  return {
    ...(pathParameters.length > 0 ? { parameters: pathParameters } : {}),
    [method]: {
      operationId: `${method}${op.id}`,
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      tags: [op.tag],
      ...(headerParameters.length > 0 ? { parameters: headerParameters } : {}),
      responses: { ...responses, ...errorResponses(op, method) },
    },
  };
}

function parameters(s: OpenApiSettings): Record<string, Parameter> {
  const options = Object.entries(OPTIONS).map(([component, o]): [string, Parameter] => [
    component,
    {
      name: o.name,
      in: 'query',
      description: `${o.description} An empty value means the default; another value is \`400 ${o.code}\`, listing the valid ones.`,
      schema: { type: 'string', enum: o.values(s.catalogue), default: o.default },
    },
  ]);
  const sources: Record<Source, Parameter> = {
    rst: { name: 'rst', in: 'query', description: 'The document text (UTF-8).', schema: { type: 'string' } },
    uri: {
      name: 'uri',
      in: 'query',
      description: `An \`http\`/\`https\` URL the service fetches the document from (at most ${s.uriMaxBytes} bytes; public addresses only, unless the server allows private ones).`,
      schema: { type: 'string', format: 'uri' },
    },
    token: { name: 'token', in: 'query', description: 'A token from the token operation.', schema: { type: 'string', pattern: TOKEN } },
  };
  return {
    ...Object.fromEntries(Object.entries(sources).map(([name, p]) => [capitalise(name), p])),
    ...Object.fromEntries(options),
    DeletionKey: {
      name: DELETION_KEY_HEADER,
      in: 'header',
      required: true,
      description: 'The deletion key that creating the token answered (a header, so it stays out of URLs and their logs).',
      schema: { type: 'string', pattern: DELETION_KEY_PATTERN.source },
    },
    IfNoneMatch: {
      name: 'If-None-Match',
      in: 'header',
      description: 'ETags the client holds; a match is answered `304` without rendering or sending anything again.',
      schema: { type: 'string' },
    },
  };
}

const HEADERS: Record<string, Header> = {
  XRequestId: required(
    { type: 'string', pattern: '^[A-Za-z0-9._:-]{1,128}$' },
    'Identifies the request in the log; on every response. A plain incoming `X-Request-Id` is kept, otherwise a UUID is made.',
  ),
  XCache: required({ type: 'string', enum: ['hit', 'miss'] }, "Whether the rendering came from the render cache (this instance's or the shared Redis one)."),
  ETag: required(
    { type: 'string', pattern: '^"[0-9a-f]{32}"$' },
    "For a rendering, derived from the operation, options, document and engine versions; for a token's text, the token.",
  ),
  RenderCacheControl: required(
    { type: 'string', enum: [CACHE_CONTROL.immutable, CACHE_CONTROL.revalidate] },
    'A `token` document never changes, so its renderings are cached for a day; other inputs may change, so clients revalidate.',
  ),
  ContentDisposition: required({ type: 'string', pattern: '^inline; filename="[^"/\\\\]+\\.pdf"$' }),
  RetryAfter: required({ type: 'integer', minimum: 0 }, 'Seconds to wait before trying again.'),
  Allow: required({ type: 'string' }, 'The methods the path accepts.'),
  XRst2DeletionKey: required(
    { type: 'string', pattern: DELETION_KEY_PATTERN.source },
    "This creation's deletion key (random, 256 bits): only this answer ever carries it, and the service keeps only its hash. Send it back in this header on `DELETE` of the token to delete this creation.",
  ),
};

/** The details fields errors carry (errors.ts), by name: their type and what they hold. */
const DETAIL_FIELDS: Record<string, JsonSchema> = {
  parameter: { type: 'string', description: 'the parameter' },
  accepted: { type: 'array', items: { type: 'string' }, description: 'the parameters accepted' },
  given: { type: 'array', items: { type: 'string' }, description: 'the inputs given' },
  valid: { type: 'array', items: { type: 'string' }, description: 'the valid values' },
  maxBytes: { type: 'integer', description: 'the limit' },
  maxFiles: { type: 'integer', description: 'the limit of uploaded files' },
  maxFields: { type: 'integer', description: 'the limit of form fields' },
  addressClass: { type: 'string', description: 'the kind of address refused, e.g. `loopback`' },
  upstreamStatus: { type: 'integer', description: 'the status of the `uri` server' },
  maxRedirects: { type: 'integer', description: 'the limit' },
  timeoutMs: { type: 'integer', description: 'the limit' },
  problems: { type: 'array', items: { type: 'string' }, description: 'what keeps the instance from taking traffic' },
};

/** Every details field of the catalogue, described with the codes that carry it; an option's own field holds the value given. */
function errorDetails(): Record<string, JsonSchema> {
  const carriers = new Map<string, ErrorCode[]>();
  for (const code of httpCodes()) for (const field of ERRORS[code].details ?? []) carriers.set(field, [...(carriers.get(field) ?? []), code]);
  return Object.fromEntries(
    [...carriers].map(([field, codes]) => {
      const { description = 'the value given (at most 100 characters)', ...schema } = DETAIL_FIELDS[field] ?? { type: 'string' };
      return [field, { ...schema, description: `${codes.map((c) => `\`${c}\``).join(', ')}: ${description}.` }];
    }),
  );
}

const POOL_STATS: JsonSchema = {
  type: 'object',
  required: ['size', 'ready', 'busy', 'starting', 'queued', 'restarts', 'recycled'],
  properties: {
    ...Object.fromEntries(['size', 'ready', 'busy', 'starting', 'queued'].map((n) => [n, { type: 'integer', minimum: 0 } satisfies JsonSchema])),
    restarts: { type: 'integer', minimum: 0, description: 'Workers replaced after a crash, a deadline or a failed start.' },
    recycled: { type: 'integer', minimum: 0, description: 'Workers replaced after a job because their heap passed the budget (`RST2_WORKER_HEAP_BUDGET_BYTES`).' },
  },
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
          ...errorDetails(),
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
  PoolStats: POOL_STATS,
  Health: {
    type: 'object',
    required: ['status', 'python', 'pdf', 'versions'],
    properties: {
      status: { type: 'string', const: 'ok' },
      versions: {
        type: 'object',
        description: 'The engines this instance renders with, as built (null: not built).',
        required: ['docutils', 'pygments', 'tex'],
        additionalProperties: false,
        properties: {
          docutils: { type: ['string', 'null'], description: "docutils' version, e.g. `0.23`" },
          pygments: { type: ['string', 'null'], description: "Pygments' version, e.g. `2.20.0`" },
          tex: { type: ['string', 'null'], description: 'The TeX engine and its version, e.g. `pdfTeX 1.40.24`; null where PDF is not built' },
        },
      },
      python: ref('schemas', 'PoolStats'),
      pdf: {
        anyOf: [
          ref('schemas', 'PoolStats'),
          // Where pdfTeX is not built; PDF requests then answer `503 pdf_unavailable`.
          { type: 'object', required: ['available'], additionalProperties: false, properties: { available: { type: 'boolean', const: false } } },
        ],
      },
    },
  },
};

/** Answers that belong to no operation: the router gives them for paths or methods the API does not have. */
const UNMATCHED: Record<string, Response> = {
  NotFound: errorResponse(httpStatus(Code.not_found), [Code.not_found]),
  MethodNotAllowed: errorResponse(httpStatus(Code.method_not_allowed), [Code.method_not_allowed], { Allow: ref('headers', 'Allow') }),
  NotImplemented: errorResponse(httpStatus(Code.not_implemented), [Code.not_implemented]),
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
  const paths: Record<string, PathItem> = {};
  for (const op of OPERATIONS) {
    // Several operations may share a path, each with its own methods (a token's text: GET; its deletion: DELETE).
    paths[op.path] = { ...paths[op.path], ...(op.kind === 'render' || op.kind === 'token' ? documentPath(op, params, s.maxBodyBytes) : servicePath(op, s.catalogue)) };
  }
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
    paths,
    components: { schemas: SCHEMAS, parameters: params, headers: HEADERS, responses: UNMATCHED },
  };
}
