/**
 * The one place errors become responses: {"error":{"code","message",...}}
 * with the status and Retry-After the catalogue gives the code. Unexpected
 * errors are logged with their stack and answered with a generic 500;
 * nothing internal leaks.
 */
import { randomUUID } from 'node:crypto';

import type { Context, Next } from 'koa';

import { errorFields, type Logger } from '../log.js';
import { Code, httpStatus, isServiceError, retryAfter, ServiceError } from '../errors.js';
import { pathShape } from './path-shape.js';

// Set by a route before it failed; they describe a rendering, not an error.
const SUCCESS_ONLY_HEADERS = ['ETag', 'Content-Disposition', 'X-Cache', 'Content-Security-Policy'];

function send(ctx: Context, err: ServiceError): void {
  for (const name of SUCCESS_ONLY_HEADERS) ctx.remove(name);
  // An error (a 503 above all) must never be kept by a cache in place of the document.
  ctx.set('Cache-Control', 'no-store');
  ctx.status = httpStatus(err.code);
  const seconds = retryAfter(err);
  if (seconds !== undefined) ctx.set('Retry-After', String(seconds));
  ctx.type = 'application/json';
  ctx.body = { error: { code: err.code, message: err.message, ...err.details } };
}

export function errorMiddleware(log: Logger) {
  return async (ctx: Context, next: Next): Promise<void> => {
    // observe() normally set these; the fallback keeps this usable alone.
    const requestId = typeof ctx.state.requestId === 'string' ? ctx.state.requestId : randomUUID();
    if (!ctx.state.requestId) {
      ctx.state.requestId = requestId;
      ctx.set('X-Request-Id', requestId);
    }
    const reqLog = (ctx.state.log as Logger | undefined) ?? log.child({ requestId });
    try {
      await next();
      if (ctx.body === undefined || ctx.body === null) {
        // Routing answered with a bare status: give it the same JSON shape.
        if (ctx.status === 404) send(ctx, new ServiceError(Code.not_found, `There is no ${ctx.path}; the API lives under /1.0/rst2/.`));
        else if (ctx.status === 405) {
          send(ctx, new ServiceError(Code.method_not_allowed, `${ctx.method} is not allowed on ${ctx.path}; use ${ctx.response.get('Allow')}.`));
        } else if (ctx.status === 501) send(ctx, new ServiceError(Code.not_implemented, `${ctx.method} is not implemented.`));
      }
    } catch (err) {
      if (isServiceError(err)) {
        if (httpStatus(err.code) >= 500) reqLog.warn('request failed', { code: err.code, ...(err.cause ? errorFields(err.cause) : {}) });
        send(ctx, err);
      } else {
        // A path may hold a token or a deletion key: the log names its route or shape.
        const route = typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : pathShape(ctx.path);
        reqLog.error('unexpected error', { method: ctx.method, path: route, ...errorFields(err) });
        send(ctx, new ServiceError(Code.internal, `Something went wrong inside the service; the request id is ${requestId}.`));
      }
    }
  };
}
