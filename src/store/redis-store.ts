/**
 * Tokens in Redis, shared by every instance of the service: one string per
 * token under `rst2:token:<token>`. With a TTL, each save and each load
 * pushes the expiry back, so a link that is in use stays alive.
 */
import type { Redis } from 'ioredis';

import { TOKEN_PATTERN } from '../documents/document.js';
import type { TokenStore } from './token-store.js';

export const TOKEN_KEY_PREFIX = 'rst2:token:';

export class RedisStore implements TokenStore {
  /** @param ttlSeconds 0 keeps tokens forever. */
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {}

  private keyOf(token: string): string {
    // Tokens come from clients: only the exact shape is ever used in a key.
    if (!TOKEN_PATTERN.test(token)) throw new Error(`not a token: ${JSON.stringify(token).slice(0, 40)}`);
    return TOKEN_KEY_PREFIX + token;
  }

  async save(token: string, text: string): Promise<void> {
    const key = this.keyOf(token);
    // The same token always holds the same text, so overwriting is harmless
    // and (with a TTL) renews the expiry.
    if (this.ttlSeconds > 0) await this.redis.set(key, text, 'EX', this.ttlSeconds);
    else await this.redis.set(key, text);
  }

  async load(token: string): Promise<string | undefined> {
    const key = this.keyOf(token);
    const text = this.ttlSeconds > 0 ? await this.redis.getex(key, 'EX', this.ttlSeconds) : await this.redis.get(key);
    return text ?? undefined;
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  /** The connection may be shared with the cache: whoever made it closes it. */
  async close(): Promise<void> {}
}
