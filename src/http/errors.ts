/**
 * The one error type of the service. Everything a client may see about a
 * failure is in here: an HTTP status, a stable machine code and a message that
 * is safe to show. Anything else (stacks, Python tracebacks, TeX logs beyond
 * the lines we pick) stays in the log.
 */
export class ServiceError extends Error {
  readonly status: number;
  readonly code: string;
  /** Extra response headers, e.g. Allow for 405 or Retry-After for 503. */
  readonly headers: Readonly<Record<string, string>>;
  /** Extra JSON fields placed next to code and message (e.g. the valid style names). */
  readonly details: Readonly<Record<string, unknown>> | undefined;

  constructor(
    status: number,
    code: string,
    message: string,
    options: { headers?: Record<string, string>; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ServiceError';
    this.status = status;
    this.code = code;
    this.headers = options.headers ?? {};
    this.details = options.details;
  }
}

export function isServiceError(value: unknown): value is ServiceError {
  return value instanceof ServiceError;
}
