/**
 * Builds the two things that outlive a request, the token store (store/) and
 * the render cache (cache/), from the configuration: the one place that
 * knows which implementations exist and that they may share a Redis
 * connection:
 * - no REDIS_URL: tokens in the folder store, renderings in memory;
 * - REDIS_URL: tokens in Redis; renderings in memory and in Redis
 *   (RST2_REDIS_CACHE_URL, when set, puts them in another Redis).
 * Fetched images of PDF documents are cached the same way, for their own TTL.
 */
import type { Redis } from 'ioredis';

import { MemoryCache } from './cache/memory-cache.js';
import { RedisCache } from './cache/redis-cache.js';
import { IMAGE_KEY_PREFIX } from './images/cache.js';
import type { RenderCache } from './cache/render-cache.js';
import { TieredCache } from './cache/tiered-cache.js';
import type { Config } from './config.js';
import type { Logger } from './log.js';
import { FolderStore } from './store/folder-store.js';
import { closeRedis, connectRedis, firstConnect } from './store/redis-connection.js';
import { RedisStore } from './store/redis-store.js';
import type { TokenStore } from './store/token-store.js';

export interface Storage {
  store: TokenStore;
  cache: RenderCache;
  /** Fetched images of PDF documents, by URL, for RST2_IMAGE_CACHE_TTL (images/cache.ts). */
  images: RenderCache;
  /** Where things live, for the start-up log line. */
  describe: { tokens: 'folder' | 'redis'; cache: 'memory' | 'memory+redis' };
  close(): Promise<void>;
}

export async function createStorage(config: Config, log: Logger): Promise<Storage> {
  const connections = new Map<string, Redis>();
  const connection = async (url: string, name: string): Promise<Redis> => {
    let client = connections.get(url);
    if (!client) {
      client = connectRedis({ url, timeoutMs: config.redisTimeoutMs, name, log });
      connections.set(url, client);
      await firstConnect(client, log, name);
    }
    return client;
  };

  const store: TokenStore = config.redisUrl
    ? new RedisStore(await connection(config.redisUrl, 'tokens'), config.tokenTtlSeconds)
    : await new FolderStore(config.dataDir).init();

  const local = new MemoryCache(config.cacheBytes);
  const cache: RenderCache = config.redisCacheUrl
    ? new TieredCache(
        local,
        new RedisCache(await connection(config.redisCacheUrl, 'cache'), { ttlSeconds: config.cacheTtlSeconds, maxEntryBytes: config.cacheMaxEntryBytes }),
        log,
      )
    : local;
  const localImages = new MemoryCache(config.imageCacheBytes, config.imageCacheTtlSeconds * 1000);
  const images: RenderCache = config.redisCacheUrl
    ? new TieredCache(
        localImages,
        new RedisCache(await connection(config.redisCacheUrl, 'cache'), {
          ttlSeconds: config.imageCacheTtlSeconds,
          maxEntryBytes: config.imageMaxBytes,
          prefix: IMAGE_KEY_PREFIX,
        }),
        log,
      )
    : localImages;

  return {
    store,
    cache,
    images,
    describe: { tokens: config.redisUrl ? 'redis' : 'folder', cache: config.redisCacheUrl ? 'memory+redis' : 'memory' },
    async close() {
      await store.close();
      await Promise.all([...connections.values()].map(closeRedis));
    },
  };
}
