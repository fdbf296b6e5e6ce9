import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import type { RunningServer } from '../src/server.js';
import { ConnectionGuard } from './support/connection-guard.js';
import { api, errorOf, query, server } from './support/server.js';

describe('uri input through the service', () => {
  let upstream: http.Server;
  let base: string;
  let open: RunningServer;
  let guarded: RunningServer;
  let hits = 0;

  before(async () => {
    upstream = http.createServer((req, res) => {
      hits++;
      const url = new URL(req.url ?? '/', 'http://x');
      if (url.pathname === '/doc.rst') {
        res.writeHead(200, { 'Content-Type': 'text/x-rst' });
        res.end(`Fetched\n=======\n\nserved at hit ${hits}\n`);
      } else if (url.pathname.startsWith('/hop/')) {
        const n = Number(url.pathname.slice(5));
        res.writeHead(302, { Location: n > 1 ? `/hop/${n - 1}` : '/doc.rst' });
        res.end();
      } else if (url.pathname === '/big.rst') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('x'.repeat(256_001));
      } else if (url.pathname === '/just-fits.rst') {
        res.writeHead(200, { 'Content-Type': 'text/plain' });
        res.end('y'.repeat(256_000));
      } else if (url.pathname === '/docs/readme.rst') {
        res.writeHead(200, { 'Content-Type': 'text/x-rst' });
        res.end('Readme\n======\n\n.. image:: img/shot.png\n   :alt: shot\n\nSee `the guide <guide.rst>`_ and `Readme`_.\n');
      } else if (url.pathname === '/moved/readme.rst') {
        res.writeHead(301, { Location: '/docs/readme.rst' });
        res.end();
      } else if (url.pathname === '/to-metadata') {
        res.writeHead(302, { Location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' });
        res.end();
      } else if (url.pathname === '/to-private') {
        res.writeHead(302, { Location: 'http://10.0.0.1/doc.rst' });
        res.end();
      } else {
        res.writeHead(404);
        res.end('nope');
      }
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    [open, guarded] = await Promise.all([server({ RST2_ALLOW_PRIVATE_URI: '1', RST2_WORKERS: '1' }), server()]);
  });

  after(() => new Promise<void>((r) => upstream.close(() => r())));

  it('renders a fetched document', async () => {
    const res = await api(open, `/1.0/rst2/html${query({ uri: `${base}/doc.rst` })}`);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.include('<title>Fetched</title>');
  });

  it("resolves relative images and links against the document's final URL (after redirects), except for PyPI, and keys the rendering by it", async () => {
    const res = await api(open, `/1.0/rst2/html${query({ uri: `${base}/moved/readme.rst` })}`);
    expect(res.status).to.equal(200);
    const page = await res.text();
    expect(page).to.include(`src="${base}/docs/img/shot.png"`);
    expect(page).to.include(`href="${base}/docs/guide.rst"`);
    expect(page).to.include('href="#readme"');
    // The same text given directly has nothing to resolve against.
    const text = await (await fetch(`${base}/docs/readme.rst`)).text();
    const direct = await api(open, `/1.0/rst2/html${query({ rst: text })}`);
    const directPage = await direct.text();
    expect(directPage).to.include('src="img/shot.png"');
    expect(direct.headers.get('etag')).to.not.equal(res.headers.get('etag'));
    // PyPI shows a description's relative links as they are.
    const pypi = await api(open, `/1.0/rst2/html${query({ uri: `${base}/moved/readme.rst`, dialect: 'pypi' })}`);
    expect(await pypi.text()).to.include('src="img/shot.png"');
  });

  it('follows a redirect chain of 5, refuses 6', async () => {
    expect((await api(open, `/1.0/rst2/check${query({ uri: `${base}/hop/5` })}`)).status).to.equal(200);
    const res = await api(open, `/1.0/rst2/check${query({ uri: `${base}/hop/6` })}`);
    expect(res.status).to.equal(502);
    expect((await errorOf(res)).code).to.equal('uri_too_many_redirects');
  });

  it('takes exactly 256,000 bytes and refuses one more with 413', async () => {
    expect((await api(open, `/1.0/rst2/token${query({ uri: `${base}/just-fits.rst` })}`)).status).to.equal(200);
    const res = await api(open, `/1.0/rst2/html${query({ uri: `${base}/big.rst` })}`);
    expect(res.status).to.equal(413);
    expect((await errorOf(res)).code).to.equal('uri_too_large');
  });

  it('an upstream 404 is a 502 naming it', async () => {
    const res = await api(open, `/1.0/rst2/html${query({ uri: `${base}/missing.rst` })}`);
    expect(res.status).to.equal(502);
    const err = await errorOf(res);
    expect(err.code).to.equal('uri_upstream_status');
    expect(err.message).to.include('404');
  });

  it('a host name that resolves to loopback is refused (checked on the address connected to)', async () => {
    const res = await api(guarded, `/1.0/rst2/html${query({ uri: 'http://localhost:1/x' })}`);
    expect(res.status).to.equal(400);
    expect((await errorOf(res)).code).to.equal('uri_forbidden_address');
  });

  it('refuses loopback without RST2_ALLOW_PRIVATE_URI', async () => {
    for (const uri of [`${base}/doc.rst`, 'http://[::1]/', 'http://[::ffff:127.0.0.1]/', 'http://169.254.169.254/latest/meta-data/']) {
      const res = await api(guarded, `/1.0/rst2/html${query({ uri })}`);
      expect(res.status, uri).to.equal(400);
      expect((await errorOf(res)).code, uri).to.equal('uri_forbidden_address');
    }
  });

  it('refuses schemes other than http(s)', async () => {
    const res = await api(guarded, `/1.0/rst2/html${query({ uri: 'file:///etc/passwd' })}`);
    expect(res.status).to.equal(400);
    expect((await errorOf(res)).code).to.equal('uri_invalid');
  });

  it('a token from a uri keeps what was fetched then: later renders never re-fetch', async () => {
    const token = await (await api(open, `/1.0/rst2/token${query({ uri: `${base}/doc.rst` })}`)).text();
    const before = hits;
    const html = await (await api(open, `/1.0/rst2/html${query({ token })}`)).text();
    expect(html).to.include('<title>Fetched</title>');
    expect(hits).to.equal(before);
  });

  describe('cloud metadata stays out of reach when private addresses are allowed', () => {
    let guard: ConnectionGuard;
    beforeEach(() => {
      guard = new ConnectionGuard().install();
    });
    afterEach(() => guard.uninstall());

    const metadata = [
      'http://169.254.169.254/latest/meta-data/',
      'http://169.254.170.2/v2/credentials/',
      'http://100.100.100.200/latest/meta-data/',
      'http://[fd00:ec2::254]/latest/meta-data/',
      'http://[::ffff:169.254.169.254]/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://0xa9fea9fe/',
      // Issue 19: every other IPv6 form that carries 169.254.169.254, and Azure's WireServer.
      'http://[::ffff:0:a9fe:a9fe]/',
      'http://[64:ff9b:1::a9fe:a9fe]/',
      'http://[64:ff9b:1:a9fe:a9:fe00::]/',
      'http://[64:ff9b:1:a9:fe:a9fe::]/',
      'http://[64:ff9b:1:0:a9:fea9:fe00::]/',
      'http://[2002:a9fe:a9fe::1]/',
      'http://[2001:0:4136:e378:8000:63bf:5601:5601]/',
      'http://[2600::5efe:a9fe:a9fe]/',
      'http://168.63.129.16/machine?comp=goalstate',
      'http://[::ffff:0:a83f:8110]/',
      'http://[fd20:ce::254]/computeMetadata/v1/',
    ];
    for (const uri of metadata) {
      it(`refuses ${uri} without connecting`, async () => {
        const res = await api(open, `/1.0/rst2/html${query({ uri })}`);
        expect(res.status).to.equal(400);
        const err = await errorOf(res);
        expect(err.code).to.equal('uri_forbidden_address');
        expect(err.message).to.include('link-local or cloud metadata');
        expect(guard.offMachine()).to.deep.equal([]);
      });
    }

    it('an image at such an address is a placeholder in the PDF, fetched from nowhere', async () => {
      const images = ['http://[64:ff9b:1:a9fe:a9:fe00::]/a.png', 'http://[::ffff:0:a9fe:a9fe]/b.png', 'http://168.63.129.16/c.png', 'http://[2001:0:4136:e378:8000:63bf:5601:5601]/d.png'];
      const rst = `Images\n======\n\n${images.map((uri, i) => `.. image:: ${uri}\n   :alt: image ${i}\n`).join('\n')}`;
      const res = await api(open, `/1.0/rst2/pdf${query({ rst })}`);
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-rst2-image-problems')).to.equal(String(images.length));
      expect(guard.offMachine()).to.deep.equal([]);
    });

    it('refuses a redirect hop to 169.254.169.254 without connecting to it', async () => {
      const before = hits;
      const res = await api(open, `/1.0/rst2/html${query({ uri: `${base}/to-metadata` })}`);
      expect(res.status).to.equal(400);
      const err = await errorOf(res);
      expect(err.code).to.equal('uri_forbidden_address');
      expect(err.message).to.include('redirects to');
      expect(guard.offMachine()).to.deep.equal([]);
      // The hop before it was fetched: the refusal is the redirect's.
      expect(hits).to.equal(before + 1);
    });

    it('still fetches from private addresses (here loopback)', async () => {
      const res = await api(open, `/1.0/rst2/check${query({ uri: `${base}/doc.rst` })}`);
      expect(res.status).to.equal(200);
    });
  });
});
