import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

import { FolderStore } from '../src/store/folder-store.js';
import type { RunningServer } from '../src/server.js';
import { api, errorOf, form, query, server, tempDir } from './support/server.js';

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

describe('folder token store', () => {
  it('writes atomically: a whole file or none, no temporary files left', async () => {
    const dir = tempDir('store');
    const store = await new FolderStore(dir).init();
    const token = 'ab'.repeat(16);
    const text = 'x'.repeat(100_000);
    await Promise.all(Array.from({ length: 8 }, () => store.save(token, text)));
    expect(await store.load(token)).to.equal(text);
    const folder = path.join(dir, 'tokens', 'ab');
    expect(fs.readdirSync(folder)).to.deep.equal([`${token}.rst`]);
    expect(await store.load('cd'.repeat(16))).to.equal(undefined);
  });

  it('keeps tokens across a restart (a new store on the same folder)', async () => {
    const dir = tempDir('store');
    const token = 'ef'.repeat(16);
    await (await new FolderStore(dir).init()).save(token, 'kept\n');
    expect(await (await new FolderStore(dir).init()).load(token)).to.equal('kept\n');
  });

  it('ignores a temporary file a crash left behind', async () => {
    const dir = tempDir('store');
    const store = await new FolderStore(dir).init();
    const token = '12'.repeat(16);
    fs.mkdirSync(path.join(dir, 'tokens', '12'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'tokens', '12', `.${token}.dead.tmp`), 'half');
    expect(await store.load(token)).to.equal(undefined);
    await store.save(token, 'whole\n');
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
