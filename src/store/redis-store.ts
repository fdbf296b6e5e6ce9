/**
 * Tokens in Redis, shared by every instance of the service: one string per
 * token under `rst2:token:<token>`, and the creations still holding it (the
 * hashes of their deletion keys, or `keyless` for a text stored before keys
 * existed; see token-store.ts) as a set under `rst2:token-keys:<token>`.
 * With a TTL, each save and each load pushes both expiries back, so a link
 * that is in use stays alive and its keys with it.
 */
import type { Redis } from 'ioredis';

import { TOKEN_PATTERN } from '../documents/document.js';
import { KEY_HASH_PATTERN } from './deletion-key.js';
import { KEYLESS, type TokenStore } from './token-store.js';

export const TOKEN_KEY_PREFIX = 'rst2:token:';
export const TOKEN_HOLDERS_PREFIX = 'rst2:token-keys:';

// KEYS: text, holders. ARGV: text, key hash, TTL seconds (0: none).
// One script, so a save racing a delete of the same token sees all or none of it.
const SAVE = `
if redis.call('EXISTS', KEYS[1]) == 1 then
  if redis.call('EXISTS', KEYS[2]) == 0 then redis.call('SADD', KEYS[2], '${KEYLESS}') end
else
  redis.call('DEL', KEYS[2])
end
redis.call('SADD', KEYS[2], ARGV[2])
local ttl = tonumber(ARGV[3])
if ttl > 0 then
  redis.call('SET', KEYS[1], ARGV[1], 'EX', ttl)
  redis.call('EXPIRE', KEYS[2], ttl)
else
  redis.call('SET', KEYS[1], ARGV[1])
end
return 1
`;

// KEYS: text, holders. ARGV: the key's hash.
// A wrong key runs the same two lookups whether the token exists, is unknown
// or has thousands of creations: SISMEMBER looks the hash up in the set's
// hash table, it does not go through the members. 0 also when the creation
// is gone meanwhile (a concurrent delete): the same answer as a wrong key.
const REMOVE = `
local held = redis.call('SISMEMBER', KEYS[2], ARGV[1])
local stored = redis.call('EXISTS', KEYS[1])
if held == 0 or stored == 0 then return 0 end
redis.call('SREM', KEYS[2], ARGV[1])
if redis.call('SCARD', KEYS[2]) == 0 then redis.call('DEL', KEYS[1], KEYS[2]) end
return 1
`;

export class RedisStore implements TokenStore {
  /** @param ttlSeconds 0 keeps tokens forever. */
  constructor(
    private readonly redis: Redis,
    private readonly ttlSeconds: number,
  ) {}

  private keysOf(token: string): { text: string; holders: string } {
    // Tokens come from clients: only the exact shape is ever used in a key.
    if (!TOKEN_PATTERN.test(token)) throw new Error('not a token');
    return { text: TOKEN_KEY_PREFIX + token, holders: TOKEN_HOLDERS_PREFIX + token };
  }

  async save(token: string, text: string, keyHash: string): Promise<void> {
    const keys = this.keysOf(token);
    if (!KEY_HASH_PATTERN.test(keyHash)) throw new Error('not a key hash');
    // The same token always holds the same text, so overwriting is harmless
    // and (with a TTL) renews the expiry.
    await this.redis.eval(SAVE, 2, keys.text, keys.holders, text, keyHash, String(this.ttlSeconds));
  }

  async load(token: string): Promise<string | undefined> {
    const keys = this.keysOf(token);
    if (this.ttlSeconds === 0) return (await this.redis.get(keys.text)) ?? undefined;
    const replies = await this.redis.multi().getex(keys.text, 'EX', this.ttlSeconds).expire(keys.holders, this.ttlSeconds).exec();
    const [err, text] = replies?.[0] ?? [new Error('the transaction was discarded'), null];
    if (err) throw err;
    return typeof text === 'string' ? text : undefined;
  }

  async remove(token: string, keyHash: string): Promise<boolean> {
    const keys = this.keysOf(token);
    if (!KEY_HASH_PATTERN.test(keyHash)) throw new Error('not a key hash');
    return (await this.redis.eval(REMOVE, 2, keys.text, keys.holders, keyHash)) === 1;
  }

  async ping(): Promise<void> {
    await this.redis.ping();
  }

  /** The connection may be shared with the cache: whoever made it closes it. */
  async close(): Promise<void> {}
}
