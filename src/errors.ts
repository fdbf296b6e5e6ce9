/**
 * The error catalogue: every machine code the service or the command line can
 * answer with, once, with what it means and how it is answered. Lower layers
 * (engines, the fetcher, the store, the commands) throw a ServiceError that
 * carries a code and safe details, never a status; the HTTP edge (the error
 * middleware) and the CLI (its exit status) read the rest from here.
 *
 * Code elsewhere names a code as `Code.overloaded`, not as a string, so a
 * code exists in one place and a typo does not compile. The OpenAPI
 * description and the API reference's error table (docs/api.rst) are checked against this table by
 * test/unit/errors.test.ts.
 */

export interface ErrorEntry {
  /** The HTTP status; null for a code only the command line gives (no HTTP request can cause it). */
  status: number | null;
  /** Seconds for Retry-After: the answer is "try again later", not "this request is wrong". */
  retryAfter?: number;
  /** The command line's exit status when it is not 1: 2 for a wrong invocation, as for usage errors. */
  exit?: 2;
  /** One line of Markdown, for the OpenAPI description and (as reStructuredText) the docs' error table. */
  meaning: string;
  /** The JSON fields the error carries next to code and message. */
  details?: readonly string[];
  /**
   * The document itself is at fault: sending it again will not help. Only
   * such a code is taken from an engine's worker as it is (documentErrorCode).
   */
  document?: true;
}

// Grouped by status, in the order docs/api.rst lists them.
const CATALOGUE = {
  input_missing: { status: 400, meaning: 'none of `rst`, `uri`, `token` was given', details: ['accepted'] },
  input_ambiguous: { status: 400, meaning: 'more than one of `rst`, `uri`, `token` was given', details: ['given'] },
  unknown_parameter: { status: 400, meaning: 'a parameter the operation does not take', details: ['parameter', 'accepted'] },
  duplicate_parameter: { status: 400, meaning: 'a parameter given twice, in the query string or body or across both', details: ['parameter'] },
  unknown_style: { status: 400, exit: 2, meaning: 'a `style` that is not in the list', details: ['style', 'valid'] },
  unknown_class: { status: 400, exit: 2, meaning: 'a `class` that is not in the list', details: ['class', 'valid'] },
  unknown_dialect: { status: 400, exit: 2, meaning: 'a `dialect` other than `docutils`, `sphinx`, `pypi` or `github`', details: ['dialect', 'valid'] },
  unknown_use_latex_toc: { status: 400, exit: 2, meaning: '`use-latex-toc` other than `yes` or `no`', details: ['use-latex-toc', 'valid'] },
  unknown_tagged: { status: 400, exit: 2, meaning: '`tagged` other than `yes` or `no`', details: ['tagged', 'valid'] },
  unknown_unsafe: { status: 400, exit: 2, meaning: '`fix`: `unsafe` other than `0` or `1`', details: ['unsafe', 'valid'] },
  unknown_html_format: { status: 400, exit: 2, meaning: '`html`: `format` other than `page`, `parts` or `fragment`', details: ['format', 'valid'] },
  unknown_fix_format: { status: 400, exit: 2, meaning: '`fix`: `format` other than `text` or `json`', details: ['format', 'valid'] },
  invalid_line_length: { status: 400, exit: 2, meaning: '`line_length` (or `--line-length`) that is not a whole number from 1 to 1000', details: ['line_length'] },
  unknown_rule: { status: 400, exit: 2, meaning: '`select` or `ignore` names no rule: not a rule, a prefix of rules ending at a hyphen, `ALL` or `DEFAULT`', details: ['rule'] },
  token_invalid: { status: 400, meaning: 'a token that is not 32 lowercase hexadecimal characters' },
  deletion_key_invalid: { status: 400, meaning: 'a token DELETE without an `X-Rst2-Deletion-Key` header of 43 base64url characters' },
  invalid_utf8: { status: 400, meaning: 'bytes that are not valid UTF-8, in the query string, a form field, a file or the body' },
  bad_request: { status: 400, meaning: 'a malformed percent-escape in the query string or form' },
  bad_multipart: { status: 400, meaning: 'multipart form data that cannot be parsed, or with more files or fields than allowed', details: ['maxFiles', 'maxFields'] },
  uri_invalid: { status: 400, meaning: '`uri` (or a redirect) is not an absolute http/https URL without credentials' },
  uri_forbidden_address: { status: 400, meaning: '`uri` (or a redirect) leads to an address that is not public; link-local and cloud metadata addresses only with `RST2_ALLOW_LINK_LOCAL_URI`', details: ['addressClass'] },
  uri_not_utf8: { status: 400, meaning: 'the document at `uri` is not valid UTF-8' },
  token_not_found: { status: 404, meaning: 'no document is stored under the token' },
  deletion_key_unknown: {
    status: 404,
    meaning: 'no creation of the token has this deletion key: a wrong key, one already used and an unknown token get this same answer',
  },
  not_found: { status: 404, meaning: 'no such path' },
  method_not_allowed: { status: 405, meaning: 'the path does not take this method (with `Allow`)' },
  body_too_large: { status: 413, meaning: 'the request body is larger than `RST2_MAX_BODY_BYTES`', details: ['maxBytes'] },
  uri_too_large: { status: 413, meaning: 'the document at `uri` is larger than `RST2_URI_MAX_BYTES`', details: ['maxBytes'] },
  unsupported_media_type: { status: 415, meaning: 'a POST body that is not urlencoded, multipart, text/x-rst or text/plain' },
  unsupported_charset: { status: 415, meaning: 'a raw body with a charset other than UTF-8' },
  render_timeout: { status: 422, document: true, meaning: 'rendering took longer than `RST2_RENDER_TIMEOUT_MS` (typesetting: `RST2_PDF_TIMEOUT_MS`, or no progress for `RST2_PDF_STALL_MS`)' },
  document_too_deep: { status: 422, document: true, meaning: "more levels of indentation than `RST2_MAX_NESTING_DEPTH`, or Python's recursion limit" },
  document_too_large: { status: 422, document: true, meaning: 'the document needs more memory than a render may use' },
  output_too_large: { status: 422, document: true, meaning: 'the rendering, or what the substitutions would expand to, is over `RST2_MAX_OUTPUT_BYTES`' },
  docutils_failed: { status: 422, document: true, meaning: 'docutils itself raised on this input: a docutils bug the document triggers' },
  pypi_refused: { status: 422, document: true, meaning: '`dialect=pypi` on `html` or `pdf`: PyPI would refuse the description (the message names the first problem; `check` lists all)' },
  pdf_unsafe: { status: 422, document: true, meaning: 'the PDF would carry active content (the message names what was found; see Security), so it is not served' },
  latex_failed: { status: 422, document: true, meaning: 'LaTeX could not typeset the document (the message has the relevant TeX log lines)' },
  render_failed: { status: 500, meaning: 'the renderer failed on this document: a bug, logged with the Python trace' },
  pdf_failed: { status: 500, meaning: 'the PDF engine failed on this document: a bug, logged' },
  internal: { status: 500, meaning: 'any other bug: the log has the details under the request id' },
  not_implemented: { status: 501, meaning: 'a method the service does not know at all' },
  uri_unreachable: { status: 502, meaning: 'the server of `uri` cannot be reached (DNS or connection)' },
  uri_upstream_status: { status: 502, meaning: 'the server of `uri` answered with an error status', details: ['upstreamStatus'] },
  uri_too_many_redirects: { status: 502, meaning: 'the server of `uri` redirects more than `RST2_URI_MAX_REDIRECTS` times', details: ['maxRedirects'] },
  overloaded: { status: 503, retryAfter: 1, meaning: 'every worker of the engine is busy and its queue is full (`RST2_QUEUE_LIMIT`)' },
  engine_crashed: { status: 503, retryAfter: 1, meaning: 'the worker rendering the document failed and has been replaced' },
  shutting_down: { status: 503, retryAfter: 1, meaning: 'the instance is stopping' },
  store_unavailable: { status: 503, retryAfter: 5, meaning: 'the token store cannot be read or written now' },
  unhealthy: { status: 503, retryAfter: 5, meaning: '`/health`: a document does not render now' },
  not_ready: { status: 503, retryAfter: 2, meaning: '`/ready`: starting, stopping, or the token store is unreachable', details: ['problems'] },
  pdf_unavailable: { status: 503, retryAfter: 5, meaning: 'pdfTeX is not built on this server (`Retry-After: 3600`) or not started' },
  uri_timeout: { status: 504, meaning: 'the server of `uri` took longer than `RST2_URI_TIMEOUT_MS`', details: ['timeoutMs'] },
  // Only the command line gives these.
  unreadable: { status: null, meaning: 'the input file cannot be read' },
  unwritable: { status: null, meaning: 'the output file cannot be written' },
  unknown_format: { status: null, exit: 2, meaning: '`check --format` other than `text`, `json`, `github`, `sarif` or `junit`' },
  config_invalid: {
    status: null,
    exit: 2,
    meaning: 'a project configuration file (`pyproject.toml`, `rst2.toml`, `.rst2.toml`, `--config`) that cannot be read or parsed, or has an unknown key, a value of the wrong type, or an unknown rule or dialect',
    details: ['file', 'key', 'expected'],
  },
} as const satisfies Record<string, ErrorEntry>;

export type ErrorCode = keyof typeof CATALOGUE;

/** What an answer with each status tells the client, whatever its code. */
export const STATUS_MEANING: Readonly<Record<number, string>> = {
  400: 'The request is wrong.',
  404: 'Not found.',
  405: 'The path does not take this method; `Allow` lists those it takes.',
  413: 'Too large.',
  415: 'The body is not one of the accepted media types, or declares a charset other than UTF-8.',
  422: 'The document cannot be rendered; sending it again will not help.',
  500: 'A bug: the log has the details under the request id.',
  501: 'The method is not one the service knows at all.',
  502: 'The server of `uri` failed.',
  503: 'Try again later, after `Retry-After` seconds.',
  504: 'The server of `uri` was too slow.',
};

export const ERRORS: Readonly<Record<ErrorCode, ErrorEntry>> = CATALOGUE;

/** Every code by name: `Code.overloaded` is `'overloaded'`, checked by the compiler. */
export const Code = Object.freeze(Object.fromEntries(Object.keys(CATALOGUE).map((c) => [c, c]))) as { readonly [C in ErrorCode]: C };

export function isErrorCode(value: string): value is ErrorCode {
  return Object.hasOwn(CATALOGUE, value);
}

/**
 * A failure with a code from the catalogue and a message that is safe to
 * show. Anything else (stacks, Python tracebacks, TeX logs beyond the lines
 * we pick) stays in the log.
 */
export class ServiceError extends Error {
  readonly code: ErrorCode;
  /** Extra JSON fields placed next to code and message (e.g. the valid style names). */
  readonly details: Readonly<Record<string, unknown>> | undefined;
  /** This occurrence's Retry-After when it differs from the catalogue's (a missing engine: an hour). */
  readonly retryAfterSeconds: number | undefined;

  constructor(code: ErrorCode, message: string, options: { details?: Record<string, unknown>; retryAfterSeconds?: number; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ServiceError';
    this.code = code;
    this.details = options.details;
    this.retryAfterSeconds = options.retryAfterSeconds;
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}

/** The HTTP status of a code; a command-line-only code reaching HTTP is a bug, so 500. */
export function httpStatus(code: ErrorCode): number {
  return ERRORS[code].status ?? 500;
}

/** Seconds for Retry-After, or undefined when the error is not a "try again later". */
export function retryAfter(err: ServiceError): number | undefined {
  return err.retryAfterSeconds ?? ERRORS[err.code].retryAfter;
}

/** The command line's exit status for a failure with this code. */
export function exitStatus(code: ErrorCode): 1 | 2 {
  return ERRORS[code].exit ?? 1;
}

/**
 * A code an engine's worker reports for the document itself: one the
 * catalogue marks `document`. Anything else a worker reports is taken for a
 * bug in the renderer.
 */
export function documentErrorCode(code: string): ErrorCode | undefined {
  return isErrorCode(code) && ERRORS[code].document === true ? code : undefined;
}

/** The codes an HTTP request can be answered with, in catalogue order. */
export function httpCodes(): ErrorCode[] {
  return (Object.keys(CATALOGUE) as ErrorCode[]).filter((c) => ERRORS[c].status !== null);
}
