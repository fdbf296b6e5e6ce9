/**
 * The reusable parts of the OpenAPI description (openapi.ts): the
 * components its operations refer to (parameters, headers, schemas, the
 * answers of no operation) and the helpers that write references to them.
 * The paths, one per operation of the table, are openapi.ts's.
 */
import { TOKEN_PATTERN } from '../documents/document.js';
import { Code, ERRORS, httpCodes, httpStatus, STATUS_MEANING, type ErrorCode } from '../errors.js';
import { OPTIONS } from '../options.js';
import { HTML_PART_NAMES } from '../rendering.js';
import { RULE_PARAMETERS } from './rule-params.js';
import { DELETION_KEY_HEADER, DELETION_KEY_PATTERN } from '../store/deletion-key.js';
import type { Catalogue } from '../styles.js';
import type { Header, JsonSchema, Parameter, Reference, Response } from './openapi-types.js';
import type { Source } from './input.js';
import { CACHE_CONTROL } from './operation-entry.js';

export const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'responses', name: string): Reference => ({ $ref: `#/components/${kind}/${name}` });

export const TOKEN = TOKEN_PATTERN.source;

/** The media type without its parameters: OpenAPI's content key. */
export const mediaKey = (media: string): string => media.split(';')[0]!.trim();

export const required = (schema: JsonSchema, description?: string): Header => ({ ...(description ? { description } : {}), required: true, schema });

/** The JSON error shape, narrowed to the codes a response can carry; the description lists what each means. */
export function errorResponse(status: number, codes: readonly ErrorCode[], headers: Record<string, Reference> = {}): Response {
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

/** A source's component name: `rst` is `Rst`. */
export function capitalise(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

/** The parameters operations refer to: the document sources, the options, and two headers. */
export function parameters(catalogue: Catalogue, uriMaxBytes: number): Record<string, Parameter> {
  const options = Object.entries(OPTIONS).map(([component, o]): [string, Parameter] => [
    component,
    {
      name: o.name,
      in: 'query',
      description: `${o.description} An empty value means the default; another value is \`400 ${o.code}\`, listing the valid ones.`,
      schema: { type: 'string', enum: o.values(catalogue), default: o.default },
    },
  ]);
  for (const [component, p] of Object.entries(RULE_PARAMETERS)) options.push([component, { name: p.name, in: 'query', description: p.description, schema: { type: 'string' } }]);
  const sources: Record<Source, Parameter> = {
    rst: { name: 'rst', in: 'query', description: 'The document text (UTF-8).', schema: { type: 'string' } },
    uri: {
      name: 'uri',
      in: 'query',
      description: `An \`http\`/\`https\` URL the service fetches the document from (at most ${uriMaxBytes} bytes; public addresses only, unless the server allows private ones).`,
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

export const HEADERS: Record<string, Header> = {
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

export const SCHEMAS: Record<string, JsonSchema> = {
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
    required: ['message', 'type', 'line', 'column', 'context', 'rule'],
    additionalProperties: false,
    properties: {
      message: { type: 'string' },
      type: { type: 'string', enum: ['warning', 'error', 'severe'] },
      line: { type: ['integer', 'null'], minimum: 1, description: '`null` where docutils gives no line.' },
      column: {
        type: ['integer', 'null'],
        minimum: 1,
        description: 'Where on `line` the problem starts, from 1, in Unicode code points: the name at fault where the message quotes one, otherwise the line\'s first character that is not a space. `null` when `line` is.',
      },
      context: { type: 'string', description: 'The offending source lines, joined by `\\n`.' },
      rule: { type: 'string', description: 'The kebab-case name of the rule the problem breaks (docs/rules.rst lists them). A fix names itself in its own `rule`.' },
      fix: { $ref: '#/components/schemas/Fix' },
    },
  },
  Edit: {
    type: 'object',
    description: 'Replace the text from (`line`, `column`) up to, not including, (`endLine`, `endColumn`) with `text`. Lines and columns count from 1, columns in Unicode code points.',
    required: ['line', 'column', 'endLine', 'endColumn', 'text'],
    additionalProperties: false,
    properties: {
      line: { type: 'integer', minimum: 1 },
      column: { type: 'integer', minimum: 1 },
      endLine: { type: 'integer', minimum: 1 },
      endColumn: { type: 'integer', minimum: 1 },
      text: { type: 'string' },
    },
  },
  Fix: {
    type: 'object',
    description:
      'How to fix the problem, where a fix is known: `safe` when it cannot change what a correct part of the document means, `suggested` otherwise (a guess, such as the closest known name). `rule` names the rule (see the manual\'s fixes page).',
    required: ['description', 'applicability', 'edits', 'rule'],
    additionalProperties: false,
    properties: {
      description: { type: 'string' },
      applicability: { type: 'string', enum: ['safe', 'suggested'] },
      edits: { type: 'array', items: { $ref: '#/components/schemas/Edit' } },
      rule: { type: 'string' },
    },
  },
  FixResult: {
    type: 'object',
    required: ['text', 'fixes', 'messages'],
    additionalProperties: false,
    properties: {
      text: { type: 'string', description: 'The document with the fixes applied.' },
      fixes: { type: 'array', items: { $ref: '#/components/schemas/Fix' }, description: 'The fixes applied, in order.' },
      messages: { type: 'array', items: { $ref: '#/components/schemas/CheckItem' }, description: 'The problems left.' },
    },
  },
  HtmlParts: {
    type: 'object',
    description: "docutils 0.23's `publish_parts()` names for the html5 writer, each as the page holds it (after the safety pass), and the problems.",
    required: [...HTML_PART_NAMES, 'messages'],
    additionalProperties: false,
    properties: {
      ...Object.fromEntries(HTML_PART_NAMES.map((name) => [name, { type: 'string' }])),
      messages: {
        type: 'array',
        items: { $ref: '#/components/schemas/CheckItem' },
        description: 'The problems the page shows inside it, as check reports them (every dialect but pypi; pypi answers 422 pypi_refused instead).',
      },
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
        required: ['docutils', 'pygments', 'tex', 'shapingTex'],
        additionalProperties: false,
        properties: {
          docutils: { type: ['string', 'null'], description: "docutils' version, e.g. `0.23`" },
          pygments: { type: ['string', 'null'], description: "Pygments' version, e.g. `2.20.0`" },
          tex: { type: ['string', 'null'], description: 'The TeX engine and its version, e.g. `pdfTeX 1.40.24`; null where PDF is not built' },
          shapingTex: { type: ['string', 'null'], description: 'The TeX engine for the scripts pdfTeX cannot set (Arabic, Hebrew, Indic, Thai), e.g. `LuaHBTeX 1.15.0`; null where it is not built' },
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
export const UNMATCHED: Record<string, Response> = {
  NotFound: errorResponse(httpStatus(Code.not_found), [Code.not_found]),
  MethodNotAllowed: errorResponse(httpStatus(Code.method_not_allowed), [Code.method_not_allowed], { Allow: ref('headers', 'Allow') }),
  NotImplemented: errorResponse(httpStatus(Code.not_implemented), [Code.not_implemented]),
};
