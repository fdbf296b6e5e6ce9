/**
 * Fixes over HTTP: check's problems carry their fix, and /1.0/rst2/fix
 * answers the document with them applied (safe ones, or all with unsafe=1).
 */
import { expect } from 'chai';

import type { CheckItem, FixResult } from '../src/engines/python/contract.js';
import type { RunningServer } from '../src/server.js';
import { api, errorOf, form, query, server } from './support/server.js';

// A title underline too short and a list without its blank line (safe
// fixes), and a misspelt directive (a suggested one: the closest name).
const MISTAKES = 'Getting started\n=========\n\n* one\n* two\nAfter the list.\n\n.. notte:: Mind the gap.\n';
const SAFE = 'Getting started\n===============\n\n* one\n* two\n\nAfter the list.\n\n.. notte:: Mind the gap.\n';
const ALL = 'Getting started\n===============\n\n* one\n* two\n\nAfter the list.\n\n.. note:: Mind the gap.\n';

describe('fixes over HTTP', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('check gives each problem that has one its fix, every other field as before', async () => {
    const items = (await (await api(s, '/1.0/rst2/check', form({ rst: MISTAKES }))).json()) as CheckItem[];
    expect(items.map((i) => [i.line, i.fix?.applicability, i.fix?.rule])).to.deep.equal([
      [2, 'safe', 'title-underline'],
      [6, 'safe', 'blank-line-after-block'],
      [8, 'suggested', 'unknown-directive'],
    ]);
    expect(items[2]!.fix!.edits).to.deep.equal([{ line: 8, column: 4, endLine: 8, endColumn: 9, text: 'note' }]);
    expect(Object.keys(items[0]!).sort()).to.deep.equal(['context', 'fix', 'line', 'message', 'type']);
  });

  it('fix answers the document with the safe fixes applied, and says how many and what is left', async () => {
    const res = await api(s, '/1.0/rst2/fix', form({ rst: MISTAKES }));
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('text/x-rst; charset=utf-8');
    expect(res.headers.get('x-rst2-fixes-applied')).to.equal('2');
    expect(res.headers.get('x-rst2-problems-left')).to.equal('1');
    expect(await res.text()).to.equal(SAFE);
  });

  it('unsafe=1 applies the suggested fixes too; format=json gives the fixes and the problems left', async () => {
    const res = await api(s, `/1.0/rst2/fix${query({ rst: MISTAKES, unsafe: '1', format: 'json' })}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    const body = (await res.json()) as FixResult;
    expect(body.text).to.equal(ALL);
    expect(body.fixes.map((f) => f.rule)).to.have.members(['title-underline', 'blank-line-after-block', 'unknown-directive']);
    expect(body.messages).to.deep.equal([]);
    expect(res.headers.get('x-rst2-fixes-applied')).to.equal('3');
    expect(res.headers.get('x-rst2-problems-left')).to.equal('0');
  });

  it('fixing a fixed document changes nothing', async () => {
    const once = await (await api(s, '/1.0/rst2/fix', form({ rst: MISTAKES, unsafe: '1' }))).text();
    const again = await api(s, '/1.0/rst2/fix', form({ rst: once, unsafe: '1' }));
    expect(again.headers.get('x-rst2-fixes-applied')).to.equal('0');
    expect(await again.text()).to.equal(once);
  });

  it('fixes a shared document by its token, and a second request is a cache hit with the same counts', async () => {
    const token = await (await api(s, '/1.0/rst2/token', form({ rst: MISTAKES }))).text();
    const first = await api(s, `/1.0/rst2/fix${query({ token })}`);
    const second = await api(s, `/1.0/rst2/fix${query({ token })}`);
    expect(await first.text()).to.equal(SAFE);
    expect(await second.text()).to.equal(SAFE);
    expect(second.headers.get('x-cache')).to.equal('hit');
    expect(second.headers.get('x-rst2-fixes-applied')).to.equal('2');
  });

  it('refuses an unsafe or format it does not know, naming the valid ones', async () => {
    const unsafe = await api(s, `/1.0/rst2/fix${query({ rst: MISTAKES, unsafe: 'yes' })}`);
    expect(unsafe.status).to.equal(400);
    expect(await errorOf(unsafe)).to.include({ code: 'unknown_unsafe' });
    const format = await api(s, `/1.0/rst2/fix${query({ rst: MISTAKES, format: 'xml' })}`);
    expect(format.status).to.equal(400);
    expect((await errorOf(format)).valid).to.deep.equal(['text', 'json']);
  });
});
