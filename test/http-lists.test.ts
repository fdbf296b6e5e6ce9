import { expect } from 'chai';

import type { RunningServer } from '../src/server.js';
import { api, errorOf, server } from './support/server.js';

describe('style and class lists', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  const cases = [
    { path: '/1.0/rst2/html/styles', root: 'styles', item: 'style', must: ['default', 'd-scheme'] },
    { path: '/1.0/rst2/pdf/styles', root: 'styles', item: 'style', must: ['default', 'style2', 'zope'] },
    { path: '/1.0/rst2/pdf/classes', root: 'classes', item: 'class', must: ['article', 'report', 'book', 'scrartcl', 'scrreprt', 'scrbook'] },
  ];

  for (const c of cases) {
    it(`GET ${c.path} is an XML <${c.root}> list`, async () => {
      const res = await api(s, c.path);
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('application/xml; charset=utf-8');
      const xml = await res.text();
      expect(xml).to.match(/^<\?xml version="1.0" encoding="UTF-8"\?>/);
      expect(xml).to.match(new RegExp(`<${c.root}>[\\s\\S]*</${c.root}>`));
      const names = [...xml.matchAll(new RegExp(`<${c.item} name="([^"]+)"/>`, 'g'))].map((m) => m[1]);
      expect(names).to.include.members(c.must);
      expect(names[0]).to.equal(c.item === 'class' ? 'article' : 'default');
    });

    it(`POST ${c.path} is 405 with Allow`, async () => {
      const res = await api(s, c.path, { method: 'POST', body: '' });
      expect(res.status).to.equal(405);
      expect(res.headers.get('allow')).to.include('GET');
      const err = await errorOf(res);
      expect(err.code).to.equal('method_not_allowed');
    });
  }
});
