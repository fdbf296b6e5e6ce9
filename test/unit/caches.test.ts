/**
 * The render caches: the memory cache's byte budget and recency order, and
 * the tiered cache's way of living with a shared cache that fails.
 */
import { expect } from 'chai';

import { MemoryCache } from '../../src/cache/memory-cache.js';
import { decodeRendering, encodeRendering } from '../../src/cache/redis-cache.js';
import { NO_CACHE, type RenderCache, type Rendering } from '../../src/cache/render-cache.js';
import { TieredCache } from '../../src/cache/tiered-cache.js';
import { createLogger } from '../../src/log.js';

const rendering = (bytes: number, fill = 1): Rendering => ({ body: Buffer.alloc(bytes, fill), type: 'text/html; charset=utf-8' });

/** A shared cache that can be switched off, as Redis going away would. */
class SwitchableCache implements RenderCache {
  down = false;
  readonly inner = new MemoryCache(1 << 20);
  async get(key: string): Promise<Rendering | undefined> {
    if (this.down) throw new Error('connection refused');
    return this.inner.get(key);
  }
  async set(key: string, value: Rendering): Promise<void> {
    if (this.down) throw new Error('connection refused');
    await this.inner.set(key, value);
  }
}

describe('memory cache', () => {
  it('keeps renderings within its byte budget, dropping the least recently used first', async () => {
    const cache = new MemoryCache(300);
    await cache.set('a', rendering(100));
    await cache.set('b', rendering(100));
    await cache.set('c', rendering(100));
    expect(await cache.get('a')).to.not.equal(undefined); // a is now the most recent
    await cache.set('d', rendering(100));
    expect(await cache.get('b')).to.equal(undefined);
    expect(await cache.get('a')).to.not.equal(undefined);
    expect(await cache.get('d')).to.not.equal(undefined);
    expect(cache.size()).to.deep.equal({ entries: 3, bytes: 300 });
  });

  it('never keeps a rendering larger than the whole budget, and replaces a key without counting it twice', async () => {
    const cache = new MemoryCache(100);
    await cache.set('huge', rendering(101));
    expect(await cache.get('huge')).to.equal(undefined);
    await cache.set('k', rendering(60, 1));
    await cache.set('k', rendering(80, 2));
    expect(cache.size()).to.deep.equal({ entries: 1, bytes: 80 });
    expect((await cache.get('k'))?.body[0]).to.equal(2);
  });

  it('with a budget of 0 keeps nothing', async () => {
    const cache = new MemoryCache(0);
    await cache.set('k', rendering(1));
    expect(cache.size()).to.deep.equal({ entries: 0, bytes: 0 });
  });

  it('with a maximum age (fetched images), an older entry is a miss and its bytes are given back', async () => {
    const cache = new MemoryCache(1000, 5);
    await cache.set('fresh', rendering(10));
    expect(await cache.get('fresh')).to.not.equal(undefined);
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(await cache.get('fresh')).to.equal(undefined);
    expect(cache.size()).to.deep.equal({ entries: 0, bytes: 0 });
  });
});

describe('tiered cache', () => {
  it('reads near then far, and brings a far hit near', async () => {
    const near = new MemoryCache(1000);
    const far = new SwitchableCache();
    const cache = new TieredCache(near, far, createLogger('silent'));
    await far.inner.set('k', rendering(10));
    expect(await near.get('k')).to.equal(undefined);
    expect(await cache.get('k')).to.deep.equal(rendering(10));
    expect(await near.get('k')).to.deep.equal(rendering(10));
    await cache.set('n', rendering(5));
    expect(await far.inner.get('n')).to.deep.equal(rendering(5));
  });

  it('takes a failing shared cache for misses, logging the outage once and its end once', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const far = new SwitchableCache();
    const cache = new TieredCache(new MemoryCache(1000), far, createLogger('info', (l) => lines.push(JSON.parse(l) as Record<string, unknown>)));
    far.down = true;
    expect(await cache.get('x')).to.equal(undefined);
    await cache.set('y', rendering(3));
    expect(await cache.get('z')).to.equal(undefined);
    // The local copy still serves while the shared cache is down.
    expect(await cache.get('y')).to.deep.equal(rendering(3));
    far.down = false;
    expect(await cache.get('w')).to.equal(undefined);
    expect(lines.map((l) => l.msg)).to.deep.equal(['shared render cache unavailable; using the local cache only', 'shared render cache available again']);
  });
});

describe('the shared cache layout and the no-op cache', () => {
  it('round-trips a rendering with its type and filename, and refuses what is not one', () => {
    const value: Rendering = { body: Buffer.from([0, 1, 2, 255]), type: 'application/pdf', filename: 'Über.pdf' };
    expect(decodeRendering(encodeRendering(value))).to.deep.equal(value);
    expect(decodeRendering(encodeRendering(rendering(3)))).to.deep.equal(rendering(3));
    expect(decodeRendering(Buffer.from([0, 0]))).to.equal(undefined);
    expect(decodeRendering(Buffer.from([0, 0, 0, 50, 1]))).to.equal(undefined);
    expect(decodeRendering(Buffer.concat([Buffer.from([0, 0, 0, 2]), Buffer.from('{]')]))).to.equal(undefined);
  });

  it('keeps the placeholder counts through Redis, and drops counts that are not whole and positive', () => {
    const value: Rendering = { body: Buffer.from('%PDF'), type: 'application/pdf', filename: 'a.pdf', replaced: { images: 2, characters: 7 } };
    expect(decodeRendering(encodeRendering(value))).to.deep.equal(value);
    const odd = encodeRendering({ ...value, replaced: { images: -1, characters: 1.5 } });
    expect(decodeRendering(odd)).to.deep.equal({ body: value.body, type: value.type, filename: 'a.pdf' });
  });

  it('NO_CACHE remembers nothing', async () => {
    await NO_CACHE.set('k', rendering(1));
    expect(await NO_CACHE.get('k')).to.equal(undefined);
  });
});
