/**
 * Closes the connection after any response to a request whose body the
 * service did not read to its end, whatever the reason: a size limit, a
 * refusal decided before the body was needed (415, a bad query, 404, 405),
 * a multipart error. The unread rest of that body would otherwise sit in
 * front of the client's next request on the same connection, and behind a
 * pooling proxy that next request may be another user's.
 *
 * "Read to its end" means the request stream ended ('end' was emitted), not
 * that the HTTP parser has received every byte (`req.complete`): a reader
 * that gave up half way may leave the stream paused with bytes in it, and
 * Node drains a body after the response only when nobody started reading
 * it. Such a paused request keeps the socket paused too once its buffer is
 * full. Before, a request counted as read once the parser had it all,
 * checked one turn after the answer: whether a refused body got a
 * keep-alive answer depended on how fast its last bytes came (issue 19).
 * A body refused while being read (params.ts) always closes: see
 * refuseRestOfBody.
 *
 * Marking the response `Connection: close` is enough: Node then sends it
 * and ends the socket, without reading what is left.
 */
import type { IncomingMessage } from 'node:http';
import { setImmediate as nextTurn } from 'node:timers/promises';

import type { Context, Next } from 'koa';

/** Whether the request announced a body (RFC 9112 section 6.3: Transfer-Encoding, or a Content-Length above 0). */
function hasBody(req: IncomingMessage): boolean {
  if (req.headers['transfer-encoding'] !== undefined) return true;
  const length = req.headers['content-length'];
  return length !== undefined && length !== '0';
}

/** True once the body was read to its end, or when there was none. */
async function bodyConsumed(req: IncomingMessage): Promise<boolean> {
  if (req.readableEnded || !hasBody(req)) return true;
  // formidable finishes at the closing boundary, a moment before the stream
  // it reads emits 'end': a stream still flowing gets one turn to get
  // there. A paused one, or one that needs longer, closes (the safe side).
  if (req.readableFlowing === true) await nextTurn();
  return req.readableEnded;
}

export function closeUnreadBodies() {
  return async (ctx: Context, next: Next): Promise<void> => {
    try {
      await next();
    } finally {
      if (!(await bodyConsumed(ctx.req))) ctx.set('Connection', 'close');
    }
  };
}

/**
 * For a body refused while being read: the answer closes the connection
 * even when the refusal came after the last byte (the rest is discarded
 * by then, but what the reader did with the stream is not this layer's to
 * trust).
 */
export function refuseRestOfBody(ctx: Context): void {
  ctx.set('Connection', 'close');
}
