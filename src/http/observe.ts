/**
 * The outermost middleware: gives every request an id (returned as
 * X-Request-Id and put on every log line about it), writes one access log
 * line, and counts the request for /metrics once its final status is known.
 */
import { randomUUID } from 'node:crypto';

import type { Context, Next } from 'koa';

import type { Logger } from '../log.js';
import type { Metrics } from '../metrics.js';
import { operationOf } from './operations.js';
import { pathShape } from './path-shape.js';

// An id from a proxy or client is kept so one request can be followed across
// systems, but only when it is short and plain: it goes into logs and headers.
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function observe(log: Logger, metrics: Metrics) {
  return async (ctx: Context, next: Next): Promise<void> => {
    const incoming = ctx.get('X-Request-Id');
    const requestId = INCOMING_ID.test(incoming) ? incoming : randomUUID();
    ctx.state.requestId = requestId;
    ctx.state.log = log.child({ requestId });
    ctx.set('X-Request-Id', requestId);
    // No response of ours is meant to be read as another type than it says.
    ctx.set('X-Content-Type-Options', 'nosniff');
    const started = performance.now();
    try {
      await next();
    } finally {
      const seconds = (performance.now() - started) / 1000;
      // Routes outside the router (the editor page) name themselves in ctx.state.route.
      const route = typeof ctx.state.route === 'string' ? ctx.state.route : typeof ctx._matchedRoute === 'string' ? ctx._matchedRoute : undefined;
      metrics.observeRequest(route ?? 'unmatched', ctx.method, ctx.status, operationOf(route), seconds);
      // Scrapes and probes every few seconds would drown the access log.
      const quiet = route === '/metrics' || route === '/health' || route === '/ready';
      (ctx.state.log as Logger)[quiet ? 'debug' : 'info']('request', {
        method: ctx.method,
        // A token is the key to a shared document, and a client may put it (or
        // a deletion key) anywhere in a path: only a route or a path's shape is logged.
        path: route ?? pathShape(ctx.path),
        route,
        status: ctx.status,
        ms: Math.round(seconds * 1000),
        bytes: ctx.length,
      });
    }
  };
}
