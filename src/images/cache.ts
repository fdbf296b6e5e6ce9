/**
 * Prepared images (convert.ts) by URL, so that ten renders of a README do
 * not fetch and convert its badges ten times. The store is a RenderCache
 * built in storage.ts: this instance's memory (LRU, RST2_IMAGE_CACHE_BYTES)
 * and, with Redis, the shared cache, both for RST2_IMAGE_CACHE_TTL. Only
 * images that worked are kept; a failure is tried again next time.
 */
import { createHash } from 'node:crypto';

import type { RenderCache } from '../cache/render-cache.js';
import type { Prepared } from './convert.js';

/** Redis key space of fetched images (renderings are under rst2:render:). */
export const IMAGE_KEY_PREFIX = 'rst2:image:';

// Bumped when convert.ts makes different files from the same bytes.
const VERSION = '1';

const TYPES: Readonly<Record<Prepared['ext'], string>> = { png: 'image/png', jpg: 'image/jpeg', pdf: 'application/pdf' };

export class ImageCache {
  constructor(private readonly store: RenderCache) {}

  private key(url: string): string {
    return createHash('sha256').update(`${VERSION}\n${url}`).digest('hex');
  }

  async get(url: string): Promise<Prepared | undefined> {
    const hit = await this.store.get(this.key(url));
    if (!hit) return undefined;
    const ext = (Object.keys(TYPES) as Prepared['ext'][]).find((e) => TYPES[e] === hit.type);
    return ext ? { bytes: new Uint8Array(hit.body), ext } : undefined;
  }

  async set(url: string, image: Prepared): Promise<void> {
    await this.store.set(this.key(url), { body: Buffer.from(image.bytes), type: TYPES[image.ext] });
  }
}
