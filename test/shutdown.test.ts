import { expect } from 'chai';

import { holdRequest } from './support/raw-http.js';
import { ownServer } from './support/server.js';

describe('graceful shutdown', () => {
  it('finishes a request in flight, then refuses new connections', async () => {
    const s = await ownServer();
    // Many sections: a render long enough to be under way while the close goes on.
    const doc = Array.from({ length: 400 }, (_, i) => `Section ${i}\n${'='.repeat(12)}\n\nText *${i}*.\n`).join('\n');
    // Taken up by the server before the close starts, and unfinished until the
    // body is sent after it: in flight for sure, however fast the render.
    const inFlight = await holdRequest(s.url, 'POST', '/1.0/rst2/html', 'text/x-rst', doc);
    const closing = s.close(20_000);
    const res = await inFlight.finish();
    expect(res.status).to.equal(200);
    expect(res.body).to.include('Section 399');
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
