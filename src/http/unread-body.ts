/**
 * Closes the connection after any response to a request whose body was not
 * read to the end, whatever the reason: a size limit, a refusal decided
 * before the body was needed (415, a bad query, 404, 405), a multipart
 * error. The unread rest of that body would otherwise sit in front of the
 * client's next request on the same connection: Node either has to swallow
 * it, however large, or the connection hangs until a timeout, and behind a
 * pooling proxy that next request may be another user's.
 *
 * Marking the response `Connection: close` is enough: Node then sends it
 * and ends the socket, without reading what is left.
 */
import type { IncomingMessage } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';

import type { Context, Next } from 'koa';

/**
 * `complete` turns true once the HTTP parser has seen the whole body (at
 * once for a request without one), whether or not a route read it; what
 * arrived but was not read, Node discards before the next request.
 */
async function bodyReceived(req: IncomingMessage): Promise<boolean> {
  if (req.complete || req.destroyed) return req.complete;
  // A parser may still be between the last body bytes and the end of the
  // message: a route that read those bytes (formidable, which stops at the
  // closing boundary) can finish before the parser reports completion.
  await nextTurn();
  return req.complete;
}

export function closeUnreadBodies() {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } finally {
      if (!(await bodyReceived(ctx.req))) ctx.set('Connection', 'close');
    }
  };
}
