/**
 * The shared render cache in Redis: one binary string per rendering under
 * `rst2:render:<key>`, written with an expiry so Redis memory stays bounded
 * by what was rendered within the TTL. Layout of a value:
 *
 *   [4 bytes: header length n, big-endian][n bytes: JSON {type, filename?, replaced?}][body]
 *
 * One GET and one SET per rendering (a hash would need a second command for
 * the expiry), and the body is stored as raw bytes, not re-encoded.
 */
import type { Redis } from 'ioredis';

import type { RenderCache, Rendering, Replaced } from './render-cache.js';

export const RENDER_KEY_PREFIX = 'rst2:render:';

interface Header {
  type: string;
  filename?: string;
  replaced?: Replaced;
}

export function encodeRendering(value: Rendering): Buffer {
  const header: Header = { type: value.type };
  if (value.filename !== undefined) header.filename = value.filename;
  if (value.replaced !== undefined) header.replaced = value.replaced;
  const json = Buffer.from(JSON.stringify(header), 'utf8');
  const length = Buffer.alloc(4);
  length.writeUInt32BE(json.length);
  return Buffer.concat([length, json, value.body]);
}

/** The rendering, or undefined for a value that is not one (treated as a miss). */
export function decodeRendering(raw: Buffer): Rendering | undefined {
  if (raw.length < 4) return undefined;
  const n = raw.readUInt32BE(0);
  if (4 + n > raw.length) return undefined;
  let header: Partial<Header>;
  try {
    header = JSON.parse(raw.subarray(4, 4 + n).toString('utf8')) as Partial<Header>;
  } catch {
    return undefined;
  }
  if (typeof header.type !== 'string') return undefined;
  const body = Buffer.from(raw.subarray(4 + n));
  const rendering: Rendering = { body, type: header.type };
  if (typeof header.filename === 'string') rendering.filename = header.filename;
  const replaced = replacedOf(header.replaced);
  if (replaced) rendering.replaced = replaced;
  return rendering;
}

/** Only whole non-negative counts survive a round trip through Redis. */
function replacedOf(value: unknown): Replaced | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const out: Replaced = {};
  for (const kind of ['images', 'characters'] as const) {
    const n = (value as Record<string, unknown>)[kind];
    if (typeof n === 'number' && Number.isSafeInteger(n) && n > 0) out[kind] = n;
  }
  return Object.keys(out).length ? out : undefined;
}

export class RedisCache implements RenderCache {
  constructor(
    private readonly redis: Redis,
    /** `prefix`: the key space, RENDER_KEY_PREFIX unless given (fetched images have their own). */
    private readonly options: { ttlSeconds: number; maxEntryBytes: number; prefix?: string },
  ) {}

  private keyOf(key: string): string {
    return (this.options.prefix ?? RENDER_KEY_PREFIX) + key;
  }

  async get(key: string): Promise<Rendering | undefined> {
    const raw = await this.redis.getBuffer(this.keyOf(key));
    return raw ? decodeRendering(raw) : undefined;
  }

  async set(key: string, value: Rendering): Promise<void> {
    if (value.body.length > this.options.maxEntryBytes) return;
    await this.redis.set(this.keyOf(key), encodeRendering(value), 'EX', this.options.ttlSeconds);
  }
}
