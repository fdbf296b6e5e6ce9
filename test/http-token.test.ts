import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

import { DELETION_KEY_PATTERN, hashDeletionKey, makeDeletionKey } from '../src/store/deletion-key.js';
import { holderFile } from '../src/store/folder-layout.js';
import { FolderStore } from '../src/store/folder-store.js';
import type { RunningServer } from '../src/server.js';
import { api, errorOf, form, query, server, tempDir } from './support/server.js';

const KEY_HEADER = 'X-Rst2-Deletion-Key';
const newHash = () => hashDeletionKey(makeDeletionKey());

describe('tokens over HTTP', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('returns a 32-hex token as text/plain, the same for the same document', async () => {
    const doc = `Shared\n======\n\nmade at ${Date.now()}\n`;
    const res = await api(s, '/1.0/rst2/token', form({ rst: doc }));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    const token = await res.text();
    expect(token).to.match(/^[0-9a-f]{32}$/);
    const again = await (await api(s, `/1.0/rst2/token${query({ rst: doc })}`)).text();
    expect(again).to.equal(token);
    const other = await (await api(s, '/1.0/rst2/token', form({ rst: `${doc}changed\n` }))).text();
    expect(other).to.not.equal(token);
  });

  it('a token renders HTML and checks, any number of times', async () => {
    const doc = 'Token Doc\n=========\n\nBody with *emphasis*.\n\n.. nosuch::\n';
    const token = await (await api(s, '/1.0/rst2/token', form({ rst: doc }))).text();
    for (let i = 0; i < 2; i++) {
      const html = await api(s, `/1.0/rst2/html${query({ token })}`);
      expect(html.status).to.equal(200);
      expect(html.headers.get('cache-control')).to.equal('public, max-age=86400');
      expect(await html.text()).to.include('<title>Token Doc</title>');
    }
    const check = (await (await api(s, `/1.0/rst2/check${query({ token })}`)).json()) as Array<{ message: string }>;
    expect(check.map((i) => i.message)).to.include('Unknown directive type "nosuch".');
  });

  it('an unknown token is 404, a malformed one 400', async () => {
    const missing = await api(s, `/1.0/rst2/html${query({ token: '0'.repeat(32) })}`);
    expect(missing.status).to.equal(404);
    expect((await errorOf(missing)).code).to.equal('token_not_found');
    const bad = await api(s, `/1.0/rst2/html${query({ token: '../../etc/passwd' })}`);
    expect(bad.status).to.equal(400);
    expect((await errorOf(bad)).code).to.equal('token_invalid');
  });
});

describe('deleting a token over HTTP (DELETE /1.0/rst2/token/<token> with X-Rst2-Deletion-Key)', () => {
  let s: RunningServer;
  let dataDir: string;
  const unique = (what: string) => `Deletable ${what}\n${'='.repeat(10 + what.length)}\n\nmade at ${process.hrtime.bigint()}\n`;

  /** Creates a token for doc: the token and this creation's deletion key. */
  async function create(doc: string): Promise<{ token: string; key: string }> {
    const res = await api(s, '/1.0/rst2/token', form({ rst: doc }));
    expect(res.status).to.equal(200);
    return { token: await res.text(), key: res.headers.get(KEY_HEADER) ?? '' };
  }
  const remove = (token: string, key?: string, extra = '') =>
    api(s, `/1.0/rst2/token/${token}${extra}`, { method: 'DELETE', headers: key === undefined ? {} : { [KEY_HEADER]: key } });
  const source = (token: string) => api(s, `/1.0/rst2/token/${token}`);
  const filesOf = (token: string) => fs.readdirSync(path.join(dataDir, 'tokens', token.slice(0, 2))).filter((f) => f.startsWith(token));

  before(async () => {
    dataDir = tempDir('deletion');
    s = await server({ RST2_DATA_DIR: dataDir });
  });

  it('creating answers the token as before, plus a fresh key in a header no cache may keep', async () => {
    const doc = unique('header');
    const res = await api(s, `/1.0/rst2/token${query({ rst: doc })}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/plain; charset=utf-8');
    expect(await res.text()).to.match(/^[0-9a-f]{32}$/);
    expect(res.headers.get(KEY_HEADER)).to.match(DELETION_KEY_PATTERN);
    expect(res.headers.get('cache-control')).to.equal('no-store');
    const again = await create(doc);
    expect(again.key).to.match(DELETION_KEY_PATTERN).and.not.equal(res.headers.get(KEY_HEADER));
    // Only hashes are stored: neither key appears in the store's files, each
    // creation is an empty file named by a hash of the token and its key's hash.
    const stored = filesOf(again.token).map((f) => fs.readFileSync(path.join(dataDir, 'tokens', again.token.slice(0, 2), f), 'utf8')).join('\n');
    expect(stored).to.not.include(again.key).and.not.include(res.headers.get(KEY_HEADER)!);
    for (const key of [again.key, res.headers.get(KEY_HEADER)!]) {
      expect(fs.readFileSync(holderFile(path.join(dataDir, 'tokens'), again.token, hashDeletionKey(key)), 'utf8')).to.equal('');
    }
  });

  it('create, then delete with the key: 204, and the text, its renderings and its files are gone', async () => {
    const { token, key } = await create(unique('gone'));
    expect((await source(token)).status).to.equal(200);
    const rendered = await api(s, `/1.0/rst2/html${query({ token })}`);
    const etag = rendered.headers.get('etag') ?? '';
    await rendered.arrayBuffer();
    expect(etag).to.match(/^"[0-9a-f]{32}"$/);
    expect(filesOf(token)).to.have.length(2);
    const deleted = await remove(token, key);
    expect(deleted.status).to.equal(204);
    expect(await deleted.text()).to.equal('');
    expect(deleted.headers.get('cache-control')).to.equal('no-store');
    const gone = await source(token);
    expect(gone.status).to.equal(404);
    expect((await errorOf(gone)).code).to.equal('token_not_found');
    const html = await api(s, `/1.0/rst2/html${query({ token })}`);
    expect(html.status).to.equal(404);
    expect((await errorOf(html)).code).to.equal('token_not_found');
    // Nor does the ETag from before bring it back as a 304.
    const revalidated = await api(s, `/1.0/rst2/html${query({ token })}`, { headers: { 'If-None-Match': etag } });
    expect(revalidated.status).to.equal(404);
    expect((await errorOf(revalidated)).code).to.equal('token_not_found');
    const sourceAgain = await api(s, `/1.0/rst2/token/${token}`, { headers: { 'If-None-Match': `"${token}"` } });
    expect(sourceAgain.status).to.equal(404);
    expect((await errorOf(sourceAgain)).code).to.equal('token_not_found');
    expect(filesOf(token)).to.deep.equal([]);
  });

  it('a wrong key, a used key and an unknown token get one answer, and a wrong key leaves the document', async () => {
    const { token, key } = await create(unique('guess'));
    const answer = async (res: Response, forToken: string) => ({ status: res.status, body: (await res.text()).replaceAll(forToken, '<token>') });
    const wrong = await answer(await remove(token, makeDeletionKey()), token);
    expect(wrong.status).to.equal(404);
    expect(JSON.parse(wrong.body).error.code).to.equal('deletion_key_unknown');
    expect((await source(token)).status).to.equal(200);
    const unknownToken = 'f0'.repeat(16);
    expect(await answer(await remove(unknownToken, makeDeletionKey()), unknownToken)).to.deep.equal(wrong);
    expect((await remove(token, key)).status).to.equal(204);
    // Deleting again: the creation is gone, so the key fits nothing any more.
    expect(await answer(await remove(token, key), token)).to.deep.equal(wrong);
  });

  it('two creations of one document: each key ends its own, and the document goes with the last', async () => {
    const doc = unique('shared');
    const first = await create(doc);
    const second = await create(doc);
    expect(second.token).to.equal(first.token);
    expect((await remove(first.token, first.key)).status).to.equal(204);
    // The other creator's link still works, and the first key is spent.
    const kept = await source(first.token);
    expect(kept.status).to.equal(200);
    expect(await kept.text()).to.equal(doc);
    expect((await remove(first.token, first.key)).status).to.equal(404);
    expect((await remove(second.token, second.key)).status).to.equal(204);
    expect((await source(first.token)).status).to.equal(404);
    // Created again afterwards: a new document with a new key.
    const third = await create(doc);
    expect(third.token).to.equal(first.token);
    expect((await source(third.token)).status).to.equal(200);
    expect((await remove(third.token, third.key)).status).to.equal(204);
  });

  it('the key is taken from its header only: missing or malformed is 400, in the query string 400, a bad token 400', async () => {
    const { token, key } = await create(unique('shape'));
    for (const sent of [undefined, '', 'short', `${key}x`, key.replace(/^./, '+')]) {
      const res = await remove(token, sent);
      expect(res.status, String(sent)).to.equal(400);
      expect((await errorOf(res)).code).to.equal('deletion_key_invalid');
    }
    const inQuery = await remove(token, undefined, query({ key }));
    expect(inQuery.status).to.equal(400);
    expect((await errorOf(inQuery)).code).to.equal('unknown_parameter');
    const badToken = await remove('NOT-A-TOKEN', key);
    expect(badToken.status).to.equal(400);
    expect((await errorOf(badToken)).code).to.equal('token_invalid');
    expect((await source(token)).status).to.equal(200);
    // The token's path now takes GET and DELETE.
    const post = await api(s, `/1.0/rst2/token/${token}`, { method: 'POST', body: 'x' });
    expect(post.status).to.equal(405);
    expect(post.headers.get('allow')).to.include('DELETE').and.include('GET');
  });

  it('a browser may send the key and read it: CORS allows DELETE and the header', async () => {
    const pre = await api(s, `/1.0/rst2/token/${'a'.repeat(32)}`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://elsewhere.example', 'Access-Control-Request-Method': 'DELETE', 'Access-Control-Request-Headers': KEY_HEADER },
    });
    expect(pre.headers.get('access-control-allow-methods')).to.include('DELETE');
    expect(pre.headers.get('access-control-allow-headers')).to.include(KEY_HEADER);
    const made = await api(s, '/1.0/rst2/token', { ...form({ rst: unique('cors') }), headers: { Origin: 'https://elsewhere.example' } });
    expect(made.headers.get('access-control-expose-headers')).to.include(KEY_HEADER);
  });
});

describe('folder token store', () => {
  it('writes atomically: a whole file or none, no temporary files left', async () => {
    const dir = tempDir('store');
    const store = await new FolderStore(dir).init();
    const token = 'ab'.repeat(16);
    const text = 'x'.repeat(100_000);
    const hashes = Array.from({ length: 8 }, newHash);
    await Promise.all(hashes.map((hash) => store.save(token, text, hash)));
    expect(await store.load(token)).to.equal(text);
    const folder = path.join(dir, 'tokens', 'ab');
    expect(fs.readdirSync(folder).sort()).to.deep.equal([`${token}.count`, `${token}.rst`]);
    // Concurrent creations each kept their holder.
    expect(fs.readFileSync(path.join(folder, `${token}.count`), 'utf8')).to.equal('8');
    for (const hash of hashes) expect(fs.existsSync(holderFile(path.join(dir, 'tokens'), token, hash))).to.equal(true);
    expect(await store.load('cd'.repeat(16))).to.equal(undefined);
  });

  it('concurrent deletions of every creation leave nothing, each counted once', async () => {
    const dir = tempDir('store');
    const store = await new FolderStore(dir).init();
    const token = 'a7'.repeat(16);
    const hashes = Array.from({ length: 6 }, newHash);
    for (const hash of hashes) await store.save(token, 'shared\n', hash);
    const results = await Promise.all([...hashes, ...hashes].map((hash) => store.remove(token, hash)));
    expect(results.filter(Boolean)).to.have.length(hashes.length);
    expect(await store.load(token)).to.equal(undefined);
    expect(fs.readdirSync(path.join(dir, 'tokens', 'a7'))).to.deep.equal([]);
    for (const hash of hashes) expect(fs.existsSync(holderFile(path.join(dir, 'tokens'), token, hash))).to.equal(false);
  });

  it('a text stored before deletion keys existed stays: a later creation deletes only itself', async () => {
    const dir = tempDir('store');
    const token = 'b8'.repeat(16);
    fs.mkdirSync(path.join(dir, 'tokens', 'b8'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tokens', 'b8', `${token}.rst`), 'from before\n');
    const store = await new FolderStore(dir).init();
    expect(await store.remove(token, newHash())).to.equal(false);
    const hash = newHash();
    await store.save(token, 'from before\n', hash);
    expect(await store.remove(token, hash)).to.equal(true);
    expect(await store.load(token)).to.equal('from before\n');
    expect(await store.remove(token, hash)).to.equal(false);
  });

  it('keeps tokens and their keys across a restart (a new store on the same folder)', async () => {
    const dir = tempDir('store');
    const token = 'ef'.repeat(16);
    const hash = newHash();
    await (await new FolderStore(dir).init()).save(token, 'kept\n', hash);
    const reopened = await new FolderStore(dir).init();
    expect(await reopened.load(token)).to.equal('kept\n');
    expect(await reopened.remove(token, hash)).to.equal(true);
    expect(await reopened.load(token)).to.equal(undefined);
  });

  it('ignores a temporary file a crash left behind', async () => {
    const dir = tempDir('store');
    const store = await new FolderStore(dir).init();
    const token = '12'.repeat(16);
    fs.mkdirSync(path.join(dir, 'tokens', '12'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tokens', '12', `.${token}.dead.tmp`), 'half');
    expect(await store.load(token)).to.equal(undefined);
    await store.save(token, 'whole\n', newHash());
    expect(await store.load(token)).to.equal('whole\n');
  });

  it('never turns a client string into a path', async () => {
    const store = await new FolderStore(tempDir('store')).init();
    let error: unknown;
    try {
      await store.load('../../../../etc/passwd');
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(Error);
  });
});
