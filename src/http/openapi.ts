/**
 * The OpenAPI 3.1 description of the whole HTTP API, served at
 * GET /1.0/openapi.json. It is built once at start from the operation table
 * (operations.ts), the error catalogue (errors.ts), the running catalogue of
 * styles and classes, and the limits, so none of those can drift from what
 * the service does; test/openapi.test.ts checks it against the real answers
 * of a real server, in both directions.
 *
 * What is written here is what only a description needs: the prose, and
 * how the table's facts map onto OpenAPI paths; the components they refer
 * to (parameters, headers, the shapes of the JSON bodies) are in
 * openapi-components.ts.
 */
import { httpStatus, type ErrorCode } from '../errors.js';
import { DELETION_KEY_HEADER } from '../store/deletion-key.js';
import { RULE_PARAMETERS } from './rule-params.js';
import type { Catalogue } from '../styles.js';
import { MAX_MULTIPART_FIELDS, MAX_MULTIPART_FILES } from './multipart.js';
import { capitalise, errorResponse, HEADERS, mediaKey, parameters, ref, required, SCHEMAS, TOKEN, UNMATCHED } from './openapi-components.js';
import type { Header, JsonSchema, OpenApiDocument, Operation, Parameter, PathItem, Reference, RequestBody, Response } from './openapi-types.js';
import { OPERATIONS } from './operations.js';
import { CACHE_CONTROL, FIX_HEADERS, REPLACED_HEADERS, operationErrors, type Method, type OperationEntry, type RenderOperationEntry, type TokenOperationEntry } from './operation-entry.js';

export interface OpenApiSettings {
  /** The service's version (package.json). */
  version: string;
  catalogue: Catalogue;
  maxBodyBytes: number;
  uriMaxBytes: number;
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
  const { media, description, schema, alternatives = [] } = op.response;
  const content = Object.fromEntries([{ media, schema }, ...alternatives].map((m) => [mediaKey(m.media), m.schema ? { schema: m.schema } : {}]));
  return { description, headers: { ...headers, 'X-Request-Id': ref('headers', 'XRequestId') }, content };
}

function renderHeaders(op: RenderOperationEntry): Record<string, Header | Reference> {
  const headers: Record<string, Header | Reference> = { ETag: ref('headers', 'ETag'), 'Cache-Control': ref('headers', 'RenderCacheControl'), 'X-Cache': ref('headers', 'XCache') };
  for (const [name, value] of Object.entries(op.headers)) headers[name] = required({ type: 'string', const: value });
  if (op.disposition) headers['Content-Disposition'] = ref('headers', 'ContentDisposition');
  if (op.fixes) {
    for (const { name, description } of Object.values(FIX_HEADERS)) headers[name] = required({ type: 'string', pattern: '^(0|[1-9][0-9]*)$' }, description);
  }
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

/** Sources, then options, as references to components.parameters. */
function documentParameters(op: RenderOperationEntry | TokenOperationEntry): Reference[] {
  const options = op.kind === 'render' ? [...op.options.map((o) => o.component), ...(op.rules ? Object.keys(RULE_PARAMETERS) : [])].map((c) => ref('parameters', c)) : [];
  return [...op.sources.map((s) => ref('parameters', capitalise(s))), ...options, ...(op.kind === 'render' ? [ref('parameters', 'IfNoneMatch')] : [])];
}

function formProperties(op: RenderOperationEntry | TokenOperationEntry, params: Record<string, Parameter>, file: boolean): Record<string, JsonSchema> {
  const properties: Record<string, JsonSchema> = {};
  const names = [...op.sources.map(capitalise), ...(op.kind === 'render' ? [...op.options.map((o) => o.component), ...(op.rules ? Object.keys(RULE_PARAMETERS) : [])] : [])];
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

const DESCRIPTION = `reStructuredText to HTML and PDF, syntax checks, and tokens for shareable links.

Every operation that takes a document accepts it as **exactly one** of \`rst\`, \`uri\`, \`token\`, as a GET query
string or a POST body. A parameter the operation does not know, or one given twice, is \`400\`.

Every error is JSON (\`#/components/schemas/Error\`) and every response carries \`X-Request-Id\`. Besides the
answers listed per operation, a path that does not exist is \`404 not_found\`
(\`#/components/responses/NotFound\`), a method a path does not take is \`405 method_not_allowed\` with \`Allow\`
(\`#/components/responses/MethodNotAllowed\`), and a method unknown to the service is \`501 not_implemented\`.
HEAD is accepted wherever GET is, and OPTIONS on every path answers with \`Allow\`.`;

export function buildOpenApi(s: OpenApiSettings): OpenApiDocument {
  const params = parameters(s.catalogue, s.uriMaxBytes);
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
