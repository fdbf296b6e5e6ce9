import { expect } from 'chai';

import type { CheckItem as Item } from '../src/engines/python/protocol.js';
import type { RunningServer } from '../src/server.js';
import { api, form, query, server } from './support/server.js';

describe('syntax check over HTTP', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('a correct document gives an empty JSON array', async () => {
    const res = await api(s, `/1.0/rst2/check${query({ rst: 'Title\n=====\n\nFine *text*.\n' })}`);
    expect(res.status).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('application/json; charset=utf-8');
    expect(await res.json()).to.deep.equal([]);
  });

  it('a broken document is still 200, with one item per problem', async () => {
    const src = 'Title\n=====\n\nSee Missing_.\n\n.. nosuch:: x\n   y\n\n* item\nunindented\n';
    const res = await api(s, '/1.0/rst2/check', form({ rst: src }));
    expect(res.status).to.equal(200);
    const items = (await res.json()) as Item[];
    const directive = items.find((i) => i.message === 'Unknown directive type "nosuch".');
    expect(directive).to.deep.equal({ message: 'Unknown directive type "nosuch".', type: 'error', line: 6, column: 4, context: '.. nosuch:: x\n   y', rule: 'unknown-directive' });
    // Reported by a transform, after parsing: the observer sees it too.
    const target = items.find((i) => i.message.startsWith('Unknown target name'));
    expect(target).to.include({ type: 'error', line: 4, column: 5, context: 'See Missing_.' });
    const list = items.find((i) => i.message.startsWith('Bullet list ends without a blank line'));
    expect(list).to.include({ type: 'warning', line: 10 });
    for (const item of items) {
      expect(item.type).to.be.oneOf(['info', 'warning', 'error', 'severe']);
      expect(item.line === null || Number.isInteger(item.line)).to.equal(true);
    }
  });

  it('accepts a raw body and a file upload', async () => {
    const raw = await api(s, '/1.0/rst2/check', { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: '.. nosuch::\n' });
    expect(((await raw.json()) as Item[])[0]!.message).to.equal('Unknown directive type "nosuch".');
    const body = new FormData();
    body.append('rst', new Blob(['.. nosuch::\n']), 'a.rst');
    const upload = await api(s, '/1.0/rst2/check', { method: 'POST', body });
    expect(((await upload.json()) as Item[])[0]!.type).to.equal('error');
  });

  describe('select and ignore', () => {
    const src = 'Title\n===\n\nSee :nosuch:`x` and |nosub|.\n\n.. rst2: disable-next undefined-substitution\n\nAnd |other|.\n';
    const rules = async (params: Record<string, string>): Promise<string[]> => {
      const res = await api(s, `/1.0/rst2/check${query({ rst: src, ...params })}`);
      expect(res.status).to.equal(200);
      return ((await res.json()) as Item[]).map((i) => i.rule);
    };

    it('report every rule on by default, and a suppression comment silences its block', async () => {
      expect(await rules({})).to.deep.equal(['unknown-role', 'undefined-substitution']);
    });

    it('choose by code, by prefix and by ALL', async () => {
      expect(await rules({ select: 'unknown-role' })).to.deep.equal(['unknown-role']);
      expect(await rules({ ignore: 'unknown' })).to.deep.equal(['undefined-substitution']);
      expect(await rules({ select: 'ALL', ignore: 'undefined-substitution, unknown-role' })).to.deep.equal([]);
    });

    it('leave a request that makes no choice under the render key it always had', async () => {
      const tag = async (extra: string): Promise<string | null> => (await api(s, `/1.0/rst2/check${query({ rst: src })}${extra}`)).headers.get('etag');
      expect(await tag('&select=')).to.equal(await tag(''));
      expect(await tag('&select=ALL')).to.not.equal(await tag(''));
    });

    it('refuse a name that matches no rule with 400 unknown_rule, naming it', async () => {
      const res = await api(s, `/1.0/rst2/check${query({ rst: src, select: 'unknown-role,nosuch-rule' })}`);
      expect(res.status).to.equal(400);
      expect(((await res.json()) as { error: object }).error).to.include({ code: 'unknown_rule', rule: 'nosuch-rule' });
    });

    it('leave the rules that read the source to those who ask: DEFAULT is what the command line reports', async () => {
      const spaced = 'Text.  \nmore\ttext and more\n';
      const ask = async (params: Record<string, string>): Promise<string[]> =>
        ((await (await api(s, `/1.0/rst2/check${query({ rst: spaced, ...params })}`)).json()) as Item[]).map((i) => i.rule);
      expect(await ask({})).to.deep.equal([]);
      expect(await ask({ select: 'DEFAULT' })).to.deep.equal(['trailing-whitespace', 'tab']);
      expect(await ask({ select: 'whitespace' })).to.deep.equal(['trailing-whitespace', 'tab']);
      expect(await ask({ select: 'line-too-long', line_length: '8' })).to.deep.equal(['line-too-long']);
      expect(await ask({ select: 'line-too-long' })).to.deep.equal([]);
    });

    it('refuse a line_length that is not a whole number from 1 to 1000 with 400 invalid_line_length', async () => {
      for (const bad of ['0', '1001', '8.5', 'x']) {
        const res = await api(s, `/1.0/rst2/check${query({ rst: src, select: 'line-too-long', line_length: bad })}`);
        expect(res.status, bad).to.equal(400);
        expect(((await res.json()) as { error: object }).error).to.include({ code: 'invalid_line_length', line_length: bad });
      }
    });

    it('choose what fix fixes', async () => {
      const res = await api(s, `/1.0/rst2/fix${query({ rst: src, select: 'unknown-role', format: 'json' })}`);
      expect(res.status).to.equal(200);
      const result = (await res.json()) as { text: string; messages: Item[] };
      expect(result.text.startsWith('Title\n===\n')).to.equal(true); // the short underline is not chosen: left alone
      expect(result.messages.map((m) => m.rule)).to.deep.equal(['unknown-role']);
    });
  });
});
