/**
 * Turns a request into a flat set of named text parameters, whatever its
 * form: a GET query, an urlencoded or multipart POST (with `rst` as a field
 * or an uploaded file), or a raw text/x-rst or text/plain body (`rst`).
 *
 * Every byte is decoded as strict UTF-8: invalid bytes are a 400, never
 * silently replaced, so no client gets a quietly corrupted document.
 */
import type { Context } from 'koa';

import { Code, ServiceError } from '../errors.js';
import { bodyTooLarge } from './body-limit.js';
import { readMultipart, type MultipartBody } from './multipart.js';
import { refuseRestOfBody } from './unread-body.js';

export type Params = Map<string, string>;

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function decodeUtf8(bytes: Uint8Array, what: string): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new ServiceError(Code.invalid_utf8, `${what} is not valid UTF-8.`);
  }
}

function percentDecode(text: string, what: string): string {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x25 /* % */) {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9a-fA-F]{2}$/.test(hex)) throw new ServiceError(Code.bad_request, `${what} has a malformed percent-escape near ${JSON.stringify(text.slice(i, i + 3))}.`);
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if (c === 0x2b /* + */) bytes.push(0x20);
    else bytes.push(c & 0xff);
  }
  return decodeUtf8(Uint8Array.from(bytes), what);
}

/** application/x-www-form-urlencoded, from raw bytes (a body, or a query string read as latin1). */
export function parseUrlencoded(raw: Buffer, what: string): Array<[string, string]> {
  const text = raw.toString('latin1');
  const pairs: Array<[string, string]> = [];
  for (const part of text.split('&')) {
    if (part === '') continue;
    const eq = part.indexOf('=');
    const name = percentDecode(eq < 0 ? part : part.slice(0, eq), what);
    const value = eq < 0 ? '' : percentDecode(part.slice(eq + 1), `${what} parameter "${name}"`);
    pairs.push([name, value]);
  }
  return pairs;
}

/** A body refused while being read closes its connection, whenever the refusal comes (unread-body.ts). */
async function reading<T>(ctx: Context, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (err) {
    refuseRestOfBody(ctx);
    throw err;
  }
}

function readBody(ctx: Context, maxBytes: number): Promise<Buffer> {
  return reading(ctx, () => readWholeBody(ctx, maxBytes));
}

async function readWholeBody(ctx: Context, maxBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || NaN);
  if (declared > maxBytes) throw bodyTooLarge(maxBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of ctx.req as AsyncIterable<Buffer>) {
    total += chunk.length;
    // The rest of the body stays unread; closeUnreadBodies ends the connection.
    if (total > maxBytes) throw bodyTooLarge(maxBytes);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

function addAll(params: Params, pairs: Iterable<[string, string]>): void {
  for (const [name, value] of pairs) {
    if (params.has(name)) throw new ServiceError(Code.duplicate_parameter, `The parameter "${name}" is given more than once.`, { details: { parameter: name } });
    params.set(name, value);
  }
}

async function multipart(ctx: Context, maxBytes: number): Promise<Array<[string, string]>> {
  const { fields, files } = await reading<MultipartBody>(ctx, () => readMultipart(ctx, maxBytes));
  for (const [name, value] of fields) {
    // formidable has already decoded fields, replacing invalid bytes with
    // U+FFFD; seeing one is our only sign that the client sent bad bytes.
    if (value.includes('\uFFFD')) throw new ServiceError(Code.invalid_utf8, `The form field "${name}" is not valid UTF-8.`);
  }
  return [...fields, ...files.map(([name, bytes]): [string, string] => [name, decodeUtf8(bytes, `The uploaded file "${name}"`)])];
}

/** All parameters of a request; a POST may also carry options in its query string. */
export async function readParams(ctx: Context, maxBodyBytes: number): Promise<Params> {
  const params: Params = new Map();
  addAll(params, parseUrlencoded(Buffer.from(ctx.querystring, 'latin1'), 'The query string'));
  if (ctx.method !== 'POST') return params;

  const type = ctx.request.type; // media type without parameters, lowercased
  if (type === 'multipart/form-data') addAll(params, await multipart(ctx, maxBodyBytes));
  else if (type === 'application/x-www-form-urlencoded') addAll(params, parseUrlencoded(await readBody(ctx, maxBodyBytes), 'The form body'));
  else if (type === 'text/x-rst' || type === 'text/plain' || type === 'text/prs.fallenstein.rst') {
    const charset = (ctx.request.charset || 'utf-8').toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8') {
      throw new ServiceError(Code.unsupported_charset, `Only UTF-8 bodies are accepted, not ${JSON.stringify(charset)}.`);
    }
    addAll(params, [['rst', decodeUtf8(await readBody(ctx, maxBodyBytes), 'The request body')]]);
  } else if (type === '' && Number(ctx.get('content-length') || 0) === 0) {
    // A POST with nothing in it: only the query string counts.
  } else {
    throw new ServiceError(Code.unsupported_media_type,
      `POST bodies must be application/x-www-form-urlencoded, multipart/form-data, text/x-rst or text/plain, not ${JSON.stringify(type || 'none')}.`,
    );
  }
  return params;
}
