/**
 * The work a token store does, counted through the store rather than timed
 * (the times are bench/token-timing.ts's): a wrong deletion key costs the
 * same whether the token exists, is unknown or was created 2,001 times, and
 * a creation adds to the store instead of rewriting every creation before it.
 * The folder store runs on tmpfs where there is one, since only the count of
 * operations matters here, not how long each fsync takes.
 */
import { expect } from 'chai';
import { Redis } from 'ioredis';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { hashDeletionKey, makeDeletionKey } from '../src/store/deletion-key.js';
import { holderFile } from '../src/store/folder-layout.js';
import { FolderStore } from '../src/store/folder-store.js';
import { RedisStore } from '../src/store/redis-store.js';
import { countingIo } from './support/counting-io.js';
import { redisMissing, TestRedis } from './support/redis.js';

const newHash = () => hashDeletionKey(makeDeletionKey());
const MANY = 2001;

function scratch(): string {
  const base = fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir();
  return fs.mkdtempSync(path.join(base, 'rst2-store-work-'));
}

describe('folder token store: the work a deletion and a creation do', function () {
  this.timeout(120_000);
  let dir: string;
  const counted = countingIo();
  let store: FolderStore;
  const once = '0a'.repeat(16);
  const many = '0b'.repeat(16);
  const unknown = '0c'.repeat(16);
  const onceKey = newHash();
  const manyKeys: string[] = [];

  before(async () => {
    dir = scratch();
    store = await new FolderStore(dir, counted.io).init();
    await store.save(once, 'once\n', onceKey);
    for (let i = 0; i < MANY; i++) {
      manyKeys.push(newHash());
      await store.save(many, 'many\n', manyKeys[i]!);
    }
    counted.take();
  });

  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('a wrong key does the same operations on an existing, an unknown and a 2,001-creation token: one unlink that finds nothing', async () => {
    const work: Record<string, unknown> = {};
    for (const [name, token] of Object.entries({ existing: once, unknown, many })) {
      expect(await store.remove(token, newHash()), name).to.equal(false);
      work[name] = counted.take();
    }
    expect(work['existing']).to.deep.equal([{ op: 'unlink', bytes: 0 }]);
    expect(work['unknown']).to.deep.equal(work['existing']);
    expect(work['many']).to.deep.equal(work['existing']);
    // The right key still deletes, and nothing was lost to the wrong ones.
    expect(await store.load(many)).to.equal('many\n');
    expect(await store.remove(many, manyKeys[1000]!)).to.equal(true);
    expect(await store.remove(many, manyKeys[1000]!)).to.equal(false);
    expect(await store.load(many)).to.equal('many\n');
  });

  it('2,000 creations of one text: each does the same few operations and writes a few bytes, however many came before', async () => {
    const token = '0d'.repeat(16);
    const perCreation: Array<ReturnType<typeof counted.take>> = [];
    for (let i = 0; i < 2000; i++) {
      await store.save(token, 'shared\n', newHash());
      perCreation.push(counted.take());
    }
    const ops = (i: number) => perCreation[i]!.map((r) => r.op);
    // The first creation also writes the text; every later one the same steps.
    expect(ops(1)).to.deep.equal(['exists', 'read', 'replace', 'touch']);
    expect(ops(1999)).to.deep.equal(ops(1));
    const written = perCreation.slice(1).map((work) => work.reduce((sum, r) => sum + r.bytes, 0));
    expect(Math.max(...written), 'bytes written by one creation').to.be.at.most(4); // the count, "2000"
    // On disk: the count and the text, and one empty file per creation.
    const files = fs.readdirSync(path.join(dir, 'tokens', '0d')).sort();
    expect(files).to.deep.equal([`${token}.count`, `${token}.rst`]);
    expect(fs.readFileSync(path.join(dir, 'tokens', '0d', `${token}.count`), 'utf8')).to.equal('2000');
  });
});

describe('folder token store: keys stored before holder files (<token>.keys) are kept', () => {
  let dir: string;
  after(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('moves each .keys file when the store opens: every key still deletes, a keyless text stays, nothing is lost', async () => {
    dir = scratch();
    const [withKeyless, keyed, orphan] = ['1a'.repeat(16), '1b'.repeat(16), '1c'.repeat(16)];
    const hashes = [newHash(), newHash(), newHash()];
    const put = (token: string, ext: string, content: string) => {
      fs.mkdirSync(path.join(dir, 'tokens', token.slice(0, 2)), { recursive: true });
      fs.writeFileSync(path.join(dir, 'tokens', token.slice(0, 2), `${token}.${ext}`), content);
    };
    put(withKeyless, 'rst', 'from before keys\n');
    put(withKeyless, 'keys', ['keyless', hashes[0]].join('\n'));
    put(keyed, 'rst', 'two creations\n');
    put(keyed, 'keys', [hashes[1], hashes[2]].join('\n'));
    // What a crash while creating left: a list without a text, which was no token.
    put(orphan, 'keys', newHash());

    const store = await new FolderStore(dir).init();
    for (const token of [withKeyless, keyed, orphan]) expect(fs.existsSync(path.join(dir, 'tokens', token.slice(0, 2), `${token}.keys`)), token).to.equal(false);
    expect(await store.load(orphan)).to.equal(undefined);

    expect(await store.remove(keyed, newHash())).to.equal(false);
    expect(await store.remove(keyed, hashes[1]!)).to.equal(true);
    expect(await store.load(keyed)).to.equal('two creations\n');
    expect(await store.remove(keyed, hashes[2]!)).to.equal(true);
    expect(await store.load(keyed)).to.equal(undefined);

    expect(await store.remove(withKeyless, hashes[0]!)).to.equal(true);
    expect(await store.load(withKeyless)).to.equal('from before keys\n');

    // Written with CRLF, one hash twice, a line that is no hash: the text
    // stays while any of them holds it; each distinct key ends its creation
    // once (a deletion removed every line of its hash), the odd line none.
    const odd = '1d'.repeat(16);
    const [twice, once] = [newHash(), newHash()];
    put(odd, 'rst', 'odd keys\n');
    put(odd, 'keys', [twice, twice, once, 'not a hash'].join('\r\n'));
    const reopened = await new FolderStore(dir).init();
    expect(await reopened.remove(odd, twice)).to.equal(true);
    expect(await reopened.remove(odd, twice)).to.equal(false);
    expect(await reopened.remove(odd, once)).to.equal(true);
    expect(await reopened.load(odd)).to.equal('odd keys\n');

    // Opening again finds nothing left to move, and changes nothing.
    const again = await new FolderStore(dir).init();
    expect(await again.load(withKeyless)).to.equal('from before keys\n');
    expect(fs.existsSync(holderFile(path.join(dir, 'tokens'), keyed, hashes[1]!))).to.equal(false);
  });
});

describe('redis token store: the work a deletion does', function () {
  this.timeout(120_000);
  let redis: TestRedis;
  let client: Redis;

  before(async function () {
    const missing = redisMissing();
    if (missing) {
      console.log(`      (skipped: ${missing})`);
      this.skip();
    }
    redis = await TestRedis.start();
    client = new Redis(redis.url, { lazyConnect: true, disableClientInfo: true });
    await client.connect();
  });

  after(async () => {
    client?.disconnect();
    await redis?.stop();
  });

  /**
   * Calls per command Redis ran (a script's own included), from INFO
   * commandstats, and the bytes Redis sent in all (`output`), from INFO stats.
   */
  async function work(): Promise<Map<string, number>> {
    const info = (await client.call('INFO', 'commandstats', 'stats')) as string;
    const calls: Array<[string, number]> = [...info.matchAll(/^cmdstat_([^:]+):calls=(\d+)/gm)].map((m) => [m[1]!, Number(m[2])]);
    return new Map([...calls, ['output', Number(/^total_net_output_bytes:(\d+)/m.exec(info)?.[1])]]);
  }

  it('a wrong key runs the same Redis commands on an existing, an unknown and a 2,001-creation token', async () => {
    const store = new RedisStore(client, 0);
    const [once, many, unknown] = ['2a'.repeat(16), '2b'.repeat(16), '2c'.repeat(16)];
    await store.save(once, 'once\n', newHash());
    const manyKeys = Array.from({ length: MANY }, newHash);
    for (let i = 0; i < MANY; i += 200) await Promise.all(manyKeys.slice(i, i + 200).map((hash) => store.save(many, 'many\n', hash)));
    expect(await client.scard(`rst2:token-keys:${many}`)).to.equal(MANY);

    // Once first, so INFO lists each command before the counting starts.
    await store.remove(unknown, newHash());
    const done: Record<string, Record<string, number>> = {};
    for (const [name, token] of Object.entries({ existing: once, unknown, many })) {
      const before = await work();
      expect(await store.remove(token, newHash()), name).to.equal(false);
      const after = await work();
      // The INFO that read `before` shows up in `after`, alike for each token.
      done[name] = Object.fromEntries([...after].map(([what, count]) => [what, count - (before.get(what) ?? 0)]).filter(([, count]) => count !== 0));
    }
    // What Redis sent back: the answer, and the INFO's own (whose numbers may
    // gain a digit); reading a token's 2,001 hashes would be 130 kB more.
    for (const name of ['unknown', 'many']) expect(Math.abs(done[name]!['output']! - done['existing']!['output']!), `${name}: bytes sent`).to.be.below(16);
    const commands = (name: string) => Object.fromEntries(Object.entries(done[name]!).filter(([what]) => what !== 'output'));
    expect(commands('existing')).to.deep.equal({ eval: 1, sismember: 1, exists: 1, info: 1 });
    expect(commands('unknown')).to.deep.equal(commands('existing'));
    expect(commands('many')).to.deep.equal(commands('existing'));
    expect(await store.remove(many, manyKeys[7]!)).to.equal(true);
    expect(await store.load(many)).to.equal('many\n');
  });
});
