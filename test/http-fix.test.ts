/**
 * Fixes over HTTP: check's problems carry their fix, and /1.0/rst2/fix
 * answers the document with them applied (safe ones, or all with unsafe=1).
 */
import { expect } from 'chai';

import { fixAmplifier, longNames } from '../bench/documents.js';
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
    expect(Object.keys(items[0]!).sort()).to.deep.equal(['column', 'context', 'fix', 'line', 'message', 'rule', 'type']);
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

  // Issue 27. What a check and a fix cost against a render is bench:fix-cost's
  // (ratios); python/tests/test_fix_bounds.py counts the characters parsed.
  it("issue 27's fix amplifier: check, fix and fix?unsafe=1 answer, and the fixes within the budget are applied", async () => {
    const text = fixAmplifier();
    const check = await api(s, '/1.0/rst2/check', form({ rst: text }));
    expect(check.status).to.equal(200);
    const problems = ((await check.json()) as CheckItem[]).length;
    for (const unsafe of ['0', '1']) {
      const res = await api(s, '/1.0/rst2/fix', form({ rst: text, unsafe, format: 'json' }));
      expect(res.status, `unsafe=${unsafe}`).to.equal(200);
      const body = (await res.json()) as FixResult;
      expect(body.fixes.length, `unsafe=${unsafe}`).to.be.greaterThan(0);
      expect(body.messages.length, `unsafe=${unsafe}`).to.be.lessThan(problems);
    }
  });

  it("issue 27's name bomb: 1,100-letter names are not compared; two such checks and a small one sent at once all answer", async () => {
    const bomb = longNames();
    const [a, b, small] = await Promise.all([
      api(s, '/1.0/rst2/check', form({ rst: bomb })),
      api(s, '/1.0/rst2/check', form({ rst: longNames(1100, 4, 28) })),
      api(s, '/1.0/rst2/check', form({ rst: 'A *b\n' })),
    ]);
    for (const res of [a, b, small]) expect(res.status).to.equal(200);
    const items = (await a.json()) as CheckItem[];
    expect(items.map((i) => [i.message.slice(0, 20), i.fix])).to.deep.equal(Array.from({ length: 4 }, () => ['Unknown target name:', undefined]));
    expect(((await small.json()) as CheckItem[])[0]!.fix?.rule).to.equal('inline-start-without-end');
  });

  it('no fix arms a document: inert typos one rename from raw, include, a file, an embedded image or a raw role stay as written', async () => {
    const armed =
      ':emphasys:`typo`\n\n.. rwa:: html\n\n   <script>alert(1)</script>\n\n.. includ:: /etc/passwd\n\n.. csv-table:: T\n   :fil: /etc/passwd\n\n' +
      '.. image:: /etc/passwd\n   :loadng: embed\n\n.. role:: rawhtml(raw)\n   :format: html\n\n:rawhtm:`<img src=x onerror=alert(1)>`\n';
    for (const dialect of ['docutils', 'sphinx']) {
      const res = await api(s, '/1.0/rst2/fix', form({ rst: armed, unsafe: '1', dialect, format: 'json' }));
      expect(res.status, dialect).to.equal(200);
      const body = (await res.json()) as FixResult;
      expect(body.fixes.map((f) => f.rule), dialect).to.deep.equal(['unknown-role']);
      expect(body.text, dialect).to.equal(armed.replace(':emphasys:', ':emphasis:'));
      const offered = ((await (await api(s, '/1.0/rst2/check', form({ rst: armed, dialect }))).json()) as CheckItem[]).flatMap((i) => i.fix?.edits.map((e) => e.text) ?? []);
      expect(offered.filter((text) => ['raw', 'include', 'file', 'loading', 'rawhtml'].includes(text)), dialect).to.deep.equal([]);
      expect(offered, dialect).to.include('emphasis');
    }
  });
});
