import { expect } from 'chai';

import { ownServer } from './support/server.js';

describe('graceful shutdown', () => {
  it('finishes a request in flight, then refuses new connections', async () => {
    const s = await ownServer();
    // A document that takes a noticeable time: many sections.
    const doc = Array.from({ length: 400 }, (_, i) => `Section ${i}\n${'='.repeat(12)}\n\nText *${i}*.\n`).join('\n');
    const inFlight = fetch(`${s.url}/1.0/rst2/html`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: doc });
    await new Promise((r) => setTimeout(r, 50));
    const closing = s.close(20_000);
    const res = await inFlight;
    expect(res.status).to.equal(200);
    expect(await res.text()).to.include('Section 399');
    await closing;
    let refused = false;
    try {
      await fetch(`${s.url}/health`);
    } catch {
      refused = true;
    }
    expect(refused).to.equal(true);
  });
});

describe('/health when the engine cannot render', () => {
  it('answers 503 with Retry-After', async () => {
    const s = await ownServer();
    try {
      expect((await fetch(`${s.url}/health`)).status).to.equal(200);
      await s.python.close();
      const res = await fetch(`${s.url}/health`);
      expect(res.status).to.equal(503);
      expect(res.headers.get('retry-after')).to.equal('5');
      const body = (await res.json()) as { error: { code: string } };
      expect(body.error.code).to.equal('unhealthy');
    } finally {
      await s.close();
    }
  });
});
