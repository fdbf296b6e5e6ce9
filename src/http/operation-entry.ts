/**
 * What an entry of the operation table (operations.ts) is: its kinds and
 * fields, the cache policies, and the error codes each part of a request
 * can give (parameters, body, input, source, engines), from which an
 * operation's full list of codes is made. The table itself, and what is
 * derived from its paths, stay in operations.ts.
 */
import type { Replaced } from '../cache/render-cache.js';
import { Code, type ErrorCode } from '../errors.js';
import type { OptionSpec } from '../options.js';
import type { RenderOperation } from '../rendering.js';
import type { Source } from './input.js';
import type { JsonSchema } from './openapi-types.js';
import { RULE_PARAMETERS } from './rule-params.js';

export type Method = 'get' | 'post' | 'delete';

/** Cache-Control values, by what the answer is. */
export const CACHE_CONTROL = {
  /** A token's text never changes, nor do renderings of it. */
  immutable: 'public, max-age=86400',
  /** Other inputs may change: clients revalidate with the ETag. */
  revalidate: 'no-cache',
  /** Lists and the description change with a deployment only. */
  short: 'public, max-age=300',
  /** Probes, metrics, and every error (see error-middleware.ts). */
  none: 'no-store',
} as const;

/** What reading any request's parameters can answer (params.ts, input.ts). */
export const PARAMETER_ERRORS: readonly ErrorCode[] = [Code.unknown_parameter, Code.duplicate_parameter, Code.invalid_utf8, Code.bad_request];
/** ... and a POST's body besides. */
export const BODY_ERRORS: readonly ErrorCode[] = [Code.bad_multipart, Code.body_too_large, Code.unsupported_media_type, Code.unsupported_charset];
/** Choosing among `rst`, `uri`, `token`, and what each of them can give. */
export const INPUT_ERRORS: readonly ErrorCode[] = [Code.input_missing, Code.input_ambiguous];
export const SOURCE_ERRORS: Readonly<Record<Source, readonly ErrorCode[]>> = {
  rst: [],
  uri: [
    Code.uri_invalid,
    Code.uri_forbidden_address,
    Code.uri_not_utf8,
    Code.uri_too_large,
    Code.uri_unreachable,
    Code.uri_upstream_status,
    Code.uri_too_many_redirects,
    Code.uri_timeout,
  ],
  token: [Code.token_invalid, Code.token_not_found, Code.store_unavailable],
};

/** The engines behind an operation (their pool and their workers). */
export const POOL_ERRORS: readonly ErrorCode[] = [Code.overloaded, Code.engine_crashed, Code.shutting_down];
export const PYTHON_ERRORS: readonly ErrorCode[] = [
  Code.render_timeout,
  Code.document_too_deep,
  Code.document_too_large,
  Code.output_too_large,
  Code.docutils_failed,
  Code.render_failed,
  ...POOL_ERRORS,
];
export const PDF_ERRORS: readonly ErrorCode[] = [...PYTHON_ERRORS, Code.latex_failed, Code.pdf_unsafe, Code.pdf_failed, Code.pdf_unavailable];

interface Common {
  /** The OpenAPI path (`{name}` for a path parameter). */
  path: string;
  methods: readonly Method[];
  /** Used in operation ids: get<Id>, post<Id>. */
  id: string;
  summary: string;
  description?: string;
  tag: 'render' | 'check' | 'tokens' | 'lists' | 'service';
  /** The success answer. */
  response: { media: string; description: string; schema?: JsonSchema; alternatives?: ReadonlyArray<{ media: string; schema?: JsonSchema }> };
  /** Error codes beyond those of reading parameters and the document. */
  errors: readonly ErrorCode[];
}

/** Renders a document given as one of `sources`; ETag, X-Cache, 304. */
export interface RenderOperationEntry extends Common {
  kind: 'render';
  render: RenderOperation;
  sources: readonly Source[];
  options: readonly (OptionSpec & { component: string })[];
  /** Headers set on every rendering, as they are. */
  headers: Readonly<Record<string, string>>;
  /** The rendering names itself in Content-Disposition. */
  disposition: boolean;
  /** Kinds of placeholders this rendering may carry, each announced by its REPLACED_HEADERS header. */
  replaces: readonly (keyof Replaced)[];
  /** The rendering is a fix result: served as the fixed text or as JSON (`format`), with the FIX_HEADERS. */
  fixes?: true;
  /** The rules reported can be chosen with `select` and `ignore` (rule-params.ts). */
  rules?: true;
}

/** The headers of every `fix` answer (routes.ts sets them, openapi.ts describes them). */
export const FIX_HEADERS = {
  applied: { name: 'X-Rst2-Fixes-Applied', description: 'How many fixes were applied (safe ones; suggested ones too with `unsafe=1`).' },
  left: { name: 'X-Rst2-Problems-Left', description: 'How many problems `check` still reports in the fixed document.' },
} as const;

/**
 * A count of placeholders in a rendering, one header per kind; absent when
 * nothing of that kind was replaced. Cached with the rendering, so a hit
 * says what the miss said.
 */
export const REPLACED_HEADERS = {
  images: { name: 'X-Rst2-Image-Problems', description: 'How many images could not be had and are shown as framed placeholders (each is logged with its URL and reason under the request id). Absent when there were none.' },
  characters: { name: 'X-Rst2-Replaced-Characters', description: 'How many characters no shipped font has and are shown as boxed code points. Absent when there were none.' },
} as const satisfies Record<keyof Replaced, { name: string; description: string }>;

/** Stores a document and answers its token. */
export interface TokenOperationEntry extends Common {
  kind: 'token';
  sources: readonly Source[];
}

/** A list from the catalogue, as XML. */
export interface ListOperationEntry extends Common {
  kind: 'list';
  container: 'styles' | 'classes';
  item: 'style' | 'class';
  names: OptionSpec['values'];
}

/** Everything else: handled by name in routes.ts (`page` by the editor middleware, `manual` by the docs middleware). */
export interface ServiceOperationEntry extends Common {
  kind: 'token-source' | 'token-delete' | 'health' | 'ready' | 'metrics' | 'description' | 'page' | 'manual';
  cache: keyof typeof CACHE_CONTROL;
  /** Response headers beyond X-Request-Id and Cache-Control, for the description. */
  headers?: readonly string[];
  /** The path parameter, for the description; absent: `{token}`, a token. */
  pathParameter?: { description: string; pattern: string };
}

export type OperationEntry = RenderOperationEntry | TokenOperationEntry | ListOperationEntry | ServiceOperationEntry;

/** The names a document operation accepts: its sources, then its options. */
export function acceptedParameters(op: RenderOperationEntry | TokenOperationEntry): string[] {
  return [...op.sources, ...(op.kind === 'render' ? [...op.options.map((o) => o.name), ...(op.rules ? Object.values(RULE_PARAMETERS).map((p) => p.name) : [])] : [])];
}

/** Every error code an operation can answer with, for one method. */
export function operationErrors(op: OperationEntry, method: Method): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (op.kind === 'render' || op.kind === 'token') {
    codes.push(...PARAMETER_ERRORS, ...INPUT_ERRORS, ...op.sources.flatMap((s) => SOURCE_ERRORS[s]));
    if (op.kind === 'render') codes.push(...op.options.map((o) => o.code), ...(op.rules ? [Code.unknown_rule, Code.invalid_line_length] : []));
    if (method === 'post') codes.push(...BODY_ERRORS);
  } else if (op.kind === 'token-source' || op.kind === 'token-delete') codes.push(...PARAMETER_ERRORS);
  codes.push(...op.errors, Code.internal);
  return [...new Set(codes)];
}

