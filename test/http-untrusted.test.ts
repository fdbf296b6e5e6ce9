import { expect } from 'chai';

import type { RunningServer } from '../src/server.js';
import { api, form, server } from './support/server.js';

describe('untrusted input stays harmless over HTTP', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  async function html(rst: string): Promise<string> {
    const res = await api(s, '/1.0/rst2/html', form({ rst }));
    expect(res.status).to.equal(200);
    return res.text();
  }

  const fileReads: Record<string, string> = {
    'include of /etc/passwd': '.. include:: /etc/passwd\n',
    'literal include': '.. include:: /etc/passwd\n   :literal:\n',
    'raw with :file:': '.. raw:: html\n   :file: /etc/passwd\n',
    'csv-table with :file:': '.. csv-table:: t\n   :file: /etc/passwd\n',
    'csv-table with :url:': '.. csv-table:: t\n   :url: file:///etc/passwd\n',
  };
  for (const [name, rst] of Object.entries(fileReads)) {
    it(`${name} reads nothing`, async () => {
      const page = await html(`Doc\n===\n\n${rst}`);
      expect(page).to.not.include('root:');
      expect(page).to.include('class="system-message"');
    });
  }

  it('raw HTML never passes through', async () => {
    const page = await html('.. raw:: html\n\n   <script>alert("x")</script>\n\n:raw-html:`<b>`\n');
    expect(page).to.not.include('<script>alert');
  });

  it('javascript:, vbscript: and data: links are not live', async () => {
    const page = (await html('`a <javascript:alert(1)>`_ `b <vbscript:x>`_ `c <data:text/html,x>`_ `d`_\n\n.. _d: JAVASCRIPT:alert(2)\n')).toLowerCase();
    expect(page).to.not.match(/href="\s*(javascript|vbscript|data):/);
    expect(page).to.include('blocked-link');
  });
});
