/**
 * No token and no deletion key in the log, whatever the path or method: the
 * real server's log lines, read through its logger, for every form a client
 * may put a token or a key in a path — the routes' own, mistaken ones, and
 * paths no route has.
 */
import { expect } from 'chai';

import { createLogger } from '../src/log.js';
import type { RunningServer } from '../src/server.js';
import { api, form, ownServer } from './support/server.js';

describe('tokens and keys stay out of the log', function () {
  this.timeout(60_000);
  const lines: string[] = [];
  let s: RunningServer;
  let token: string;
  let key: string;

  before(async () => {
    s = await ownServer({ RST2_LOG_LEVEL: 'debug' }, createLogger('debug', (line) => lines.push(line)));
    const made = await api(s, '/1.0/rst2/token', form({ rst: `Logged\n======\n\nmade at ${process.hrtime.bigint()}\n` }));
    token = await made.text();
    key = made.headers.get('X-Rst2-Deletion-Key') ?? '';
    expect(token).to.match(/^[0-9a-f]{32}$/);
    expect(key).to.have.length(43);
  });

  after(async () => {
    await s?.close();
  });

  const entries = () =>
    lines
      .flatMap((l) => l.split('\n'))
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);

  it('logs every request, each path by its route or its shape, never its text', async () => {
    const sent: Array<[string, string, string]> = [
      // [method, path, the path the access log shows]
      ['GET', `/1.0/rst2/token/${token}/raw`, '/1.0/rst2/token/*'],
      ['GET', `/1.0/rst2/token//${token}`, '/1.0/rst2/token/*'],
      ['GET', `/1.0/rst2/html/${token}`, '/1.0/rst2/html/*'],
      ['DELETE', `/1.0/rst2/token/${token}/${key}`, '/1.0/rst2/token/*'],
      ['POST', `/1.0/rst2/token/${token}`, '/1.0/rst2/token/*'],
      ['PUT', `/1.0/rst2/token/${token}?key=${key}`, '/1.0/rst2/token/*'],
      ['GET', `/${token}`, '/*'],
      ['GET', `/docs/${token}/${key}`, '/docs/:page'],
      ['GET', `/assets/${token}.js`, '/*'],
      ['GET', `/1.0/${key}/rst2/token/${token}`, '/1.0/*'],
      ['OPTIONS', `/x/${token}/y/${encodeURIComponent(key)}`, '/*'],
      ['GET', `/1.0/rst2/token/${token}`, '/1.0/rst2/token/:token'],
      ['GET', `/1.0/rst2/html?token=${token}`, '/1.0/rst2/html'],
      ['DELETE', `/1.0/rst2/token/${token}`, '/1.0/rst2/token/:token'],
    ];
    for (const [method, path] of sent) {
      const res = await api(s, path, { method, headers: { 'X-Rst2-Deletion-Key': method === 'DELETE' ? 'A'.repeat(43) : key } });
      await res.arrayBuffer();
    }
    // The creation's own line, before these, too.
    const access = entries().filter((e) => e.msg === 'request');
    expect(access.map((e) => [e.method, e.path])).to.deep.equal([['POST', '/1.0/rst2/token'], ...sent.map(([method, , shown]) => [method, shown])]);
    for (const line of lines) {
      expect(line).to.not.include(token);
      expect(line).to.not.include(key);
    }
  });
});
