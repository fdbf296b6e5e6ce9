import { expect } from 'chai';
import { Redis } from 'ioredis';

import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { MemoryCache } from '../src/cache/memory-cache.js';
import { RedisCache, RENDER_KEY_PREFIX } from '../src/cache/redis-cache.js';
import { TieredCache } from '../src/cache/tiered-cache.js';
import { IMAGE_KEY_PREFIX } from '../src/images/cache.js';
import { imageResolverFor } from '../src/images/resolve-images.js';
import { createLogger } from '../src/log.js';
import { png } from './support/images.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { hashDeletionKey, makeDeletionKey } from '../src/store/deletion-key.js';
import { RedisStore, TOKEN_HOLDERS_PREFIX, TOKEN_KEY_PREFIX } from '../src/store/redis-store.js';
import { errorOf, form, query } from './support/server.js';
import { redisMissing, TestRedis } from './support/redis.js';
import { ServiceProcess } from './support/service-process.js';
import { waitFor } from './support/wait-for.js';

const newHash = () => hashDeletionKey(makeDeletionKey());

// Only for letting a TTL run down: there the passing of time is what is tested.
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The response with its body read, so a poll leaves no connection waiting on it. */
async function drained(pending: Promise<Response>): Promise<Response> {
  const res = await pending;
  await res.arrayBuffer();
  return res;
}

/** Skips the suite, saying why, when there is no redis-server on this machine. */
function requireRedis(ctx: Mocha.Context): void {
  const missing = redisMissing();
  if (missing) {
    console.log(`      (skipped: ${missing})`);
    ctx.skip();
  }
}

describe('redis configuration', () => {
  it('is off by default, with tokens kept forever and a one-day cache TTL', () => {
    const c = loadConfig({});
    expect(c).to.include({ redisUrl: undefined, redisCacheUrl: undefined, tokenTtlSeconds: 0, cacheTtlSeconds: 86_400, redisTimeoutMs: 1000 });
  });

  it('uses REDIS_URL for the cache too unless RST2_REDIS_CACHE_URL says otherwise', () => {
    expect(loadConfig({ REDIS_URL: 'redis://db:6379/0' })).to.include({ redisUrl: 'redis://db:6379/0', redisCacheUrl: 'redis://db:6379/0' });
    expect(loadConfig({ REDIS_URL: 'redis://db:6379', RST2_REDIS_CACHE_URL: 'rediss://cache:6380' })).to.include({ redisCacheUrl: 'rediss://cache:6380' });
  });

  it('refuses bad values with a message naming the variable', () => {
    const bad: Array<[Record<string, string>, RegExp]> = [
      [{ REDIS_URL: 'localhost:6379' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
      [{ REDIS_URL: 'http://localhost' }, /REDIS_URL must be a redis:\/\/ or rediss:\/\/ URL/],
      [{ RST2_REDIS_CACHE_URL: 'nope' }, /RST2_REDIS_CACHE_URL must be/],
      [{ RST2_TOKEN_TTL: '-5' }, /RST2_TOKEN_TTL must be a whole number/],
      [{ RST2_CACHE_TTL: '0' }, /RST2_CACHE_TTL must be between 1/],
      [{ RST2_REDIS_TIMEOUT_MS: '10' }, /RST2_REDIS_TIMEOUT_MS must be between 50/],
    ];
    for (const [env, message] of bad) expect(() => loadConfig(env)).to.throw(ConfigError, message);
  });
});

describe('redis token store and render cache', () => {
  let redis: TestRedis;
  let client: Redis;

  before(async function () {
    requireRedis(this);
    redis = await TestRedis.start();
    client = new Redis(redis.url, { lazyConnect: true, disableClientInfo: true });
    await client.connect();
  });

  after(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  it('saves and loads tokens under rst2:token:, kept forever by default', async () => {
    const store = new RedisStore(client, 0);
    const token = 'a1'.repeat(16);
    const text = `Title\n=====\n\nUnicode: é ✓ ${Date.now()}\n`;
    await store.save(token, text, newHash());
    await store.save(token, text, newHash()); // again: harmless
    expect(await store.load(token)).to.equal(text);
    expect(await client.get(TOKEN_KEY_PREFIX + token)).to.equal(text);
    expect(await client.ttl(TOKEN_KEY_PREFIX + token)).to.equal(-1); // no expiry
    expect(await store.load('b2'.repeat(16))).to.equal(undefined);
    await store.ping();
  });

  it('with a TTL, tokens expire unless used: a load renews the expiry', async () => {
    const renewed = new RedisStore(client, 2);
    const token = 'c3'.repeat(16);
    const hash = newHash();
    await renewed.save(token, 'kept while used\n', hash);
    await sleep(1200);
    expect(await renewed.load(token)).to.equal('kept while used\n');
    expect(await client.pttl(TOKEN_KEY_PREFIX + token)).to.be.above(1500);
    // The deletion keys live as long as the text, renewed with it.
    expect(await client.pttl(TOKEN_HOLDERS_PREFIX + token)).to.be.above(1500);
    expect(await renewed.remove(token, hash)).to.equal(true);

    const short = new RedisStore(client, 1);
    const gone = 'd4'.repeat(16);
    await short.save(gone, 'short-lived\n', newHash());
    expect(await short.load(gone)).to.equal('short-lived\n');
    await sleep(1300);
    expect(await short.load(gone)).to.equal(undefined);
  });

  it('deletes per creation: the text goes with its last holder; wrong, used and unknown are all false', async () => {
    const store = new RedisStore(client, 0);
    const token = 'e5'.repeat(16);
    const [first, second] = [newHash(), newHash()];
    await store.save(token, 'held twice\n', first);
    await store.save(token, 'held twice\n', second);
    expect(await client.scard(TOKEN_HOLDERS_PREFIX + token)).to.equal(2);
    expect(await store.remove(token, newHash())).to.equal(false);
    expect(await store.remove('e6'.repeat(16), first)).to.equal(false);
    expect(await store.remove(token, first)).to.equal(true);
    expect(await store.remove(token, first)).to.equal(false);
    expect(await store.load(token)).to.equal('held twice\n');
    expect(await store.remove(token, second)).to.equal(true);
    expect(await store.load(token)).to.equal(undefined);
    expect(await client.exists(TOKEN_KEY_PREFIX + token, TOKEN_HOLDERS_PREFIX + token)).to.equal(0);
  });

  it('concurrent deletions of every creation count each once and leave no key behind', async () => {
    const store = new RedisStore(client, 0);
    const token = 'e7'.repeat(16);
    const hashes = Array.from({ length: 6 }, newHash);
    await Promise.all(hashes.map((hash) => store.save(token, 'raced\n', hash)));
    const results = await Promise.all([...hashes, ...hashes].map((hash) => store.remove(token, hash)));
    expect(results.filter(Boolean)).to.have.length(hashes.length);
    expect(await client.exists(TOKEN_KEY_PREFIX + token, TOKEN_HOLDERS_PREFIX + token)).to.equal(0);
  });

  it('a text stored before deletion keys existed stays when a later creation is deleted', async () => {
    const store = new RedisStore(client, 0);
    const token = 'e8'.repeat(16);
    await client.set(TOKEN_KEY_PREFIX + token, 'from before\n');
    expect(await store.remove(token, newHash())).to.equal(false);
    const hash = newHash();
    await store.save(token, 'from before\n', hash);
    expect(await store.remove(token, hash)).to.equal(true);
    expect(await store.load(token)).to.equal('from before\n');
  });

  it('holders stored by earlier versions (a set of key hashes beside the text) still delete, each by its key', async () => {
    const store = new RedisStore(client, 0);
    const token = 'e9'.repeat(16);
    const [first, second] = [newHash(), newHash()];
    await client.set(TOKEN_KEY_PREFIX + token, 'stored earlier\n');
    await client.sadd(TOKEN_HOLDERS_PREFIX + token, first, second);
    expect(await store.remove(token, newHash())).to.equal(false);
    expect(await store.remove(token, first)).to.equal(true);
    expect(await store.load(token)).to.equal('stored earlier\n');
    expect(await store.remove(token, second)).to.equal(true);
    expect(await client.exists(TOKEN_KEY_PREFIX + token, TOKEN_HOLDERS_PREFIX + token)).to.equal(0);
  });

  it('refuses a client string that is not a token', async () => {
    let error: unknown;
    try {
      await new RedisStore(client, 0).load('*');
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(Error);
  });

  it('caches renderings with their type, filename and exact bytes, under a TTL', async () => {
    const cache = new RedisCache(client, { ttlSeconds: 60, maxEntryBytes: 1000 });
    const body = Buffer.from([0x25, 0x50, 0x44, 0x46, 0x00, 0xff, 0x0a, 0x80]);
    await cache.set('k1', { body, type: 'application/pdf', filename: 'Über.pdf' });
    await cache.set('k2', { body: Buffer.from('<p>x</p>'), type: 'text/html; charset=utf-8' });
    const pdf = await cache.get('k1');
    expect(pdf?.type).to.equal('application/pdf');
    expect(pdf?.filename).to.equal('Über.pdf');
    expect(Buffer.compare(pdf!.body, body)).to.equal(0);
    const html = await cache.get('k2');
    expect(html).to.deep.equal({ body: Buffer.from('<p>x</p>'), type: 'text/html; charset=utf-8' });
    const ttl = await client.ttl(RENDER_KEY_PREFIX + 'k1');
    expect(ttl).to.be.within(1, 60);
    expect(await cache.get('never-set')).to.equal(undefined);
  });

  it('leaves out renderings above the entry limit, and takes a damaged entry as a miss', async () => {
    const cache = new RedisCache(client, { ttlSeconds: 60, maxEntryBytes: 1000 });
    await cache.set('big', { body: Buffer.alloc(1001, 1), type: 'application/pdf' });
    expect(await client.exists(RENDER_KEY_PREFIX + 'big')).to.equal(0);
    expect(await cache.get('big')).to.equal(undefined);
    await client.set(RENDER_KEY_PREFIX + 'damaged', Buffer.from([0, 0, 0, 99, 1, 2]));
    expect(await cache.get('damaged')).to.equal(undefined);
  });

  it('shares fetched images between instances under rst2:image:, for the image TTL', async () => {
    let fetched = 0;
    const upstream = http.createServer((_req, res) => {
      fetched++;
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(png(12, 12));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    try {
      const config = loadConfig({ RST2_ALLOW_PRIVATE_URI: '1', RST2_IMAGE_CACHE_TTL: '90' });
      // Two instances: each its own memory, one Redis.
      const instance = () =>
        imageResolverFor(config, new TieredCache(new MemoryCache(1 << 20, 90_000), new RedisCache(client, { ttlSeconds: 90, maxEntryBytes: 1 << 20, prefix: IMAGE_KEY_PREFIX }), createLogger('silent')));
      const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}/shared.png`;
      const one = await instance().resolve([{ uri: url }], undefined);
      const two = await instance().resolve([{ uri: url }], undefined);
      expect(one.problems).to.deep.equal([]);
      expect(Buffer.from(two.files['rst2img-1.png']!).equals(Buffer.from(one.files['rst2img-1.png']!))).to.equal(true);
      expect(fetched).to.equal(1);
      const keys = await client.keys(`${IMAGE_KEY_PREFIX}*`);
      expect(keys).to.have.length(1);
      expect(await client.ttl(keys[0]!)).to.be.within(1, 90);
    } finally {
      upstream.close();
    }
  });
});

describe('redis shared by two service processes', () => {
  let redis: TestRedis;
  let a: ServiceProcess;
  let b: ServiceProcess;
  const saved = new Map<string, string>(); // token → document, made before the outage

  const call = (s: ServiceProcess, pathAndQuery: string, init?: RequestInit) => fetch(`${s.url}${pathAndQuery}`, init);
  const makeToken = async (s: ServiceProcess, doc: string): Promise<string> => {
    const res = await call(s, '/1.0/rst2/token', form({ rst: doc }));
    expect(res.status, await res.clone().text()).to.equal(200);
    const token = await res.text();
    saved.set(token, doc);
    return token;
  };
  const titleOf = (doc: string) => doc.split('\n')[0]!;

  before(async function () {
    requireRedis(this);
    this.timeout(180_000);
    redis = await TestRedis.start();
    // Redis timeout 1000 ms: the bound on how long a token call may wait in an outage.
    const env = { REDIS_URL: redis.url, RST2_REDIS_TIMEOUT_MS: '1000' };
    [a, b] = await Promise.all([ServiceProcess.start(env), ServiceProcess.start(env)]);
  });

  after(async function () {
    this.timeout(60_000);
    await Promise.all([a?.stop(), b?.stop()]);
    await redis?.stop();
  });

  it('runs as two processes on two ports', () => {
    expect(a.url).to.not.equal(b.url);
  });

  it('a token made on one instance renders and checks on the other', async () => {
    const doc = `Shared Across ${Date.now()}\n=============================\n\nMade on *one*, read on the other.\n\n.. nosuch::\n`;
    const token = await makeToken(a, doc);
    const html = await call(b, `/1.0/rst2/html${query({ token })}`);
    expect(html.status).to.equal(200);
    expect(await html.text()).to.include(`<title>${titleOf(doc)}</title>`);
    const check = (await (await call(b, `/1.0/rst2/check${query({ token })}`)).json()) as Array<{ message: string }>;
    expect(check.map((i) => i.message)).to.include('Unknown directive type "nosuch".');
    // And the other way round.
    const back = await makeToken(b, `${doc}\nEdited on b.\n`);
    expect((await call(a, `/1.0/rst2/html${query({ token: back })}`)).status).to.equal(200);
  });

  it('a token deleted on one instance is gone on the other; the key works on either', async () => {
    const doc = `Deleted Across ${Date.now()}\n==============================\n\nShared by mistake.\n`;
    const made = await call(a, '/1.0/rst2/token', form({ rst: doc }));
    expect(made.status).to.equal(200);
    const token = await made.text();
    const key = made.headers.get('X-Rst2-Deletion-Key')!;
    expect((await drained(call(b, `/1.0/rst2/token/${token}`))).status).to.equal(200);
    const wrong = await call(b, `/1.0/rst2/token/${token}`, { method: 'DELETE', headers: { 'X-Rst2-Deletion-Key': makeDeletionKey() } });
    expect(wrong.status).to.equal(404);
    expect((await errorOf(wrong)).code).to.equal('deletion_key_unknown');
    const deleted = await call(b, `/1.0/rst2/token/${token}`, { method: 'DELETE', headers: { 'X-Rst2-Deletion-Key': key } });
    expect(deleted.status).to.equal(204);
    const gone = await call(a, `/1.0/rst2/html${query({ token })}`);
    expect(gone.status).to.equal(404);
    expect((await errorOf(gone)).code).to.equal('token_not_found');
  });

  it('a rendering made by one instance is a cache hit on the other (X-Cache)', async () => {
    const doc = `Cached ${Date.now()}\n====================\n\nRendered once for both.\n`;
    const first = await call(a, `/1.0/rst2/html${query({ rst: doc })}`);
    expect(first.status).to.equal(200);
    expect(first.headers.get('x-cache')).to.equal('miss');
    const firstBody = await first.text();
    const other = await call(b, `/1.0/rst2/html${query({ rst: doc })}`);
    expect(other.status).to.equal(200);
    expect(other.headers.get('x-cache')).to.equal('hit');
    expect(await other.text()).to.equal(firstBody);
    // A different style is another rendering: a miss.
    const styled = await call(b, `/1.0/rst2/html${query({ rst: doc, style: 'modern' })}`);
    expect(styled.headers.get('x-cache')).to.equal('miss');
  });

  it('/health is 200 on both while Redis is up', async () => {
    for (const s of [a, b]) expect((await call(s, '/health')).status).to.equal(200);
  });

  it('Redis down: token calls answer 503 store_unavailable fast, rst renders go on', async () => {
    for (let i = 0; i < 5; i++) await makeToken(i % 2 ? a : b, `Before Outage ${i} ${Date.now()}\n====================\n\ntext ${i}\n`);
    await redis.kill();

    const started = performance.now();
    const post = await call(a, '/1.0/rst2/token', form({ rst: `During Outage ${Date.now()}\n` }));
    const elapsed = performance.now() - started;
    expect(post.status).to.equal(503);
    expect((await errorOf(post)).code).to.equal('store_unavailable');
    expect(post.headers.get('retry-after')).to.match(/^\d+$/);
    expect(elapsed).to.be.below(2500); // Redis timeout (1000 ms) + margin

    const [token] = [...saved.keys()];
    const byToken = await call(b, `/1.0/rst2/html${query({ token: token! })}`);
    expect(byToken.status).to.equal(503);
    expect((await errorOf(byToken)).code).to.equal('store_unavailable');
    expect(byToken.headers.get('retry-after')).to.match(/^\d+$/);

    const doc = `Rendered In Outage ${Date.now()}\n==============================\n\nStill *fine*.\n`;
    const html = await call(a, `/1.0/rst2/html${query({ rst: doc })}`);
    expect(html.status).to.equal(200);
    expect(html.headers.get('x-cache')).to.equal('miss');
    expect(await html.text()).to.include('<em>fine</em>');
    // The instance's own memory still caches.
    const again = await call(a, `/1.0/rst2/html${query({ rst: doc })}`);
    expect(again.status).to.equal(200);
    expect(again.headers.get('x-cache')).to.equal('hit');

    // Liveness stays up (restarting the process would not bring Redis back);
    // readiness reports the unreachable store.
    expect((await call(b, '/health')).status).to.equal(200);
    const ready = await call(b, '/ready');
    expect(ready.status).to.equal(503);
    expect(ready.headers.get('retry-after')).to.match(/^\d+$/);
    expect((await errorOf(ready)).code).to.equal('not_ready');
  });

  it('Redis back on the same data: every token saved before is there, token calls work again', async function () {
    this.timeout(60_000);
    await redis.start();
    // Each instance reconnects by itself, on its own schedule: one being back
    // says nothing of the other, so wait for each. /ready pings the token
    // store's own connection, the one every token call below goes through.
    for (const s of [a, b]) {
      await waitFor(async () => (await drained(call(s, '/ready'))).status === 200, { what: `${s.url} to reach Redis again (/ready 200)`, timeoutMs: 20_000, intervalMs: 100 });
    }
    const status = (await call(a, '/1.0/rst2/token', form({ rst: `After Outage ${Date.now()}\n` }))).status;
    expect(status).to.equal(200);
    expect(saved.size).to.be.at.least(7);
    for (const [token, doc] of saved) {
      for (const s of [a, b]) {
        const res = await call(s, `/1.0/rst2/html${query({ token })}`);
        expect(res.status, `${token} on ${s.url}`).to.equal(200);
        expect(await res.text()).to.include(`<title>${titleOf(doc)}</title>`);
      }
    }
    for (const s of [a, b]) expect((await call(s, '/ready')).status).to.equal(200);
    await makeToken(b, `After Outage On B ${Date.now()}\n`);
  });
});
