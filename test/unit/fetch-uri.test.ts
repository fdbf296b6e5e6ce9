import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { expect } from 'chai';
import { loadConfig } from '../../src/config.js';
import { httpStatus, ServiceError } from '../../src/errors.js';
import {
  checkHopUrl,
  createGuardedLookup,
  fetchDocument,
  fetchPolicyOf,
  type FetchPolicy,
} from '../../src/documents/fetch-uri.js';
import { mayConnect, type AddressClass } from '../../src/documents/address-policy.js';
import { ConnectionGuard } from '../support/connection-guard.js';

const DOC = 'Title\n=====\n\nSome *text* with ünïcödé.\n';

async function expectServiceError(promise: Promise<unknown>, status: number, code: string): Promise<ServiceError> {
  try {
    await promise;
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(ServiceError);
    const serviceError = error as ServiceError;
    expect(httpStatus(serviceError.code), serviceError.message).to.equal(status);
    expect(serviceError.code, serviceError.message).to.equal(code);
    // Client-facing: a sentence, not a stack or an internal error dump.
    expect(serviceError.message).to.not.match(/\n|\s at |FetchError|ECONN|getaddrinfo/);
    return serviceError;
  }
  return expect.fail(`expected a ServiceError ${status} ${code}`);
}

function expectThrows(fn: () => unknown, status: number, code: string): ServiceError {
  try {
    fn();
  } catch (error) {
    expect(error, String(error)).to.be.instanceOf(ServiceError);
    const serviceError = error as ServiceError;
    expect(httpStatus(serviceError.code), serviceError.message).to.equal(status);
    expect(serviceError.code, serviceError.message).to.equal(code);
    return serviceError;
  }
  return expect.fail(`expected a ServiceError ${status} ${code}`);
}

describe('fetch-uri', function () {
  this.timeout(10_000);

  let server: http.Server;
  let base: string;
  let port: number;
  const seen: { path: string; headers: http.IncomingHttpHeaders }[] = [];
  const held: http.ServerResponse[] = [];
  let endlessClosed: Promise<void> = Promise.resolve();

  before(async () => {
    server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push({ path: url.pathname, headers: req.headers });
      const hop = /^\/hop\/(\d+)$/.exec(url.pathname);
      if (hop) {
        const n = Number(hop[1]);
        const statuses = [301, 302, 303, 307, 308];
        const next = n === 0 ? '/doc' : `/hop/${n - 1}`;
        // Alternate relative and absolute Locations: both must be resolved.
        res.writeHead(statuses[n % statuses.length] ?? 302, { location: n % 2 ? `${base}${next}` : next });
        res.end('moved');
        return;
      }
      switch (url.pathname) {
        case '/doc':
          res.writeHead(200, { 'content-type': 'text/x-rst; charset=utf-8' });
          res.end(DOC);
          return;
        case '/bom':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(DOC)]));
          return;
        case '/sized': {
          const size = Number(url.searchParams.get('n'));
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(size) });
          res.end(Buffer.alloc(size, 0x61));
          return;
        }
        case '/chunked': {
          const size = Number(url.searchParams.get('n'));
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write(Buffer.alloc(Math.floor(size / 2), 0x61));
          res.end(Buffer.alloc(size - Math.floor(size / 2), 0x62));
          return;
        }
        case '/endless': {
          endlessClosed = new Promise((resolve) => res.on('close', resolve));
          res.writeHead(200, { 'content-type': 'text/plain' });
          const chunk = Buffer.alloc(16_384, 0x61);
          const pump = (): void => {
            while (!res.destroyed && res.write(chunk)) {
              // keep writing until the socket applies backpressure
            }
          };
          res.on('drain', pump);
          pump();
          return;
        }
        case '/lying-length':
          // Declares a huge body and then sends nothing: only the header can
          // produce a 413 here; reading the stream would end in a timeout.
          res.writeHead(200, { 'content-type': 'text/plain', 'content-length': '10000000' });
          res.flushHeaders();
          held.push(res);
          return;
        case '/gzip-bomb': {
          const packed = gzipSync(Buffer.alloc(2_000_000, 0x61));
          res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': String(packed.length) });
          res.end(packed);
          return;
        }
        case '/gzip-doc':
          res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/x-rst' });
          res.end(gzipSync(Buffer.from(DOC)));
          return;
        case '/redirect-to':
          res.writeHead(302, { location: url.searchParams.get('target') ?? '/' });
          res.end();
          return;
        case '/no-location':
          res.writeHead(302);
          res.end();
          return;
        case '/status': {
          const status = Number(url.searchParams.get('s'));
          res.writeHead(status, { 'content-type': 'text/plain' });
          res.end('upstream says no\n    at internal stack line');
          return;
        }
        case '/slow-headers':
          held.push(res);
          return;
        case '/slow-body':
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write('Title\n');
          held.push(res);
          return;
        case '/bytes': {
          const hex = url.searchParams.get('hex') ?? '';
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.end(Buffer.from(hex, 'hex'));
          return;
        }
        default:
          res.writeHead(404);
          res.end();
      }
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });

  after(async () => {
    for (const res of held) res.destroy();
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });

  const open: FetchPolicy = { maxBytes: 256_000, timeoutMs: 3_000, maxRedirects: 5, allowPrivate: true };
  const closed: FetchPolicy = { ...open, allowPrivate: false };

  describe('successful fetches (allowPrivate: true)', () => {
    it('fetches a document and sends the agreed headers', async () => {
      const before = seen.length;
      const result = await fetchDocument(`${base}/doc`, open);
      expect(result.text).to.equal(DOC);
      expect(result.finalUrl).to.equal(`${base}/doc`);
      const request = seen[before];
      expect(request?.headers['user-agent']).to.equal('rst2/0.1');
      expect(request?.headers.accept).to.equal('text/x-rst, text/plain;q=0.9, */*;q=0.5');
    });

    it('strips a UTF-8 byte order mark', async () => {
      const result = await fetchDocument(`${base}/bom`, open);
      expect(result.text).to.equal(DOC);
    });

    it('accepts a body of exactly maxBytes', async () => {
      const result = await fetchDocument(`${base}/sized?n=1000`, { ...open, maxBytes: 1000 });
      expect(result.text).to.have.length(1000);
    });

    it('decodes a gzip body', async () => {
      const result = await fetchDocument(`${base}/gzip-doc`, open);
      expect(result.text).to.equal(DOC);
    });

    it('follows a redirect chain of exactly maxRedirects hops (relative and absolute Locations)', async () => {
      const result = await fetchDocument(`${base}/hop/4`, open);
      expect(result.text).to.equal(DOC);
      expect(result.finalUrl).to.equal(`${base}/doc`);
    });
  });

  describe('address policy on real requests (allowPrivate: false)', () => {
    it('refuses the same loopback URL when private addresses are not allowed', async () => {
      const before = seen.length;
      const error = await expectServiceError(fetchDocument(`${base}/doc`, closed), 400, 'uri_forbidden_address');
      expect(error.message).to.include('loopback');
      expect(error.details).to.deep.equal({ addressClass: 'loopback' });
      expect(seen.length).to.equal(before);
    });

    it('refuses a host name that resolves to loopback, in the connection lookup, before any request', async () => {
      const before = seen.length;
      const error = await expectServiceError(
        fetchDocument(`http://localhost:${port}/doc`, closed),
        400,
        'uri_forbidden_address',
      );
      expect(error.message).to.include('resolves to a loopback address');
      expect(error.message).to.not.include('127.0.0.1');
      expect(seen.length).to.equal(before);
    });

    it('guards https too: https://localhost is refused in the lookup, before any TLS handshake', async () => {
      const before = seen.length;
      const error = await expectServiceError(
        fetchDocument(`https://localhost:${port}/doc`, closed),
        400,
        'uri_forbidden_address',
      );
      expect(error.message).to.include('resolves to a loopback address');
      expect(seen.length).to.equal(before);
    });

    for (const host of ['[::ffff:127.0.0.1]', '[::ffff:7f00:1]', '[::1]', '0177.0.0.1', '2130706433', '0x7f.1', '[::]', '0.0.0.0']) {
      it(`refuses the literal host ${host}`, async () => {
        await expectServiceError(fetchDocument(`http://${host}:${port}/doc`, closed), 400, 'uri_forbidden_address');
      });
    }

    it('exposes the service policy (256,000 bytes, 5 redirects, no private addresses)', () => {
      expect(fetchPolicyOf(loadConfig({}))).to.deep.include({ maxBytes: 256_000, maxRedirects: 5, allowPrivate: false, allowLinkLocal: false });
    });
  });

  describe('size limit', () => {
    it('rejects early on a Content-Length above the limit', async () => {
      // The server never sends the body, so anything but the header check would time out.
      const error = await expectServiceError(
        fetchDocument(`${base}/lying-length`, { ...open, timeoutMs: 2_000 }),
        413,
        'uri_too_large',
      );
      expect(error.details).to.deep.equal({ maxBytes: 256_000 });
    });

    it('rejects a body with Content-Length one byte over the limit', async () => {
      await expectServiceError(fetchDocument(`${base}/sized?n=256001`, open), 413, 'uri_too_large');
    });

    it('rejects a chunked body (no Content-Length) over the limit', async () => {
      await expectServiceError(fetchDocument(`${base}/chunked?n=256001`, open), 413, 'uri_too_large');
    });

    it('stops reading an endless body at the limit, long before the timeout', async () => {
      const started = Date.now();
      await expectServiceError(
        fetchDocument(`${base}/endless`, { ...open, timeoutMs: 8_000 }),
        413,
        'uri_too_large',
      );
      expect(Date.now() - started).to.be.below(3_000);
      await endlessClosed; // the server sees the connection go away
    });

    it('applies the limit to the decoded body, not the gzip bytes', async () => {
      await expectServiceError(fetchDocument(`${base}/gzip-bomb`, open), 413, 'uri_too_large');
    });
  });

  describe('redirects', () => {
    it('refuses one redirect more than maxRedirects', async () => {
      const error = await expectServiceError(fetchDocument(`${base}/hop/5`, open), 502, 'uri_too_many_redirects');
      expect(error.details).to.deep.equal({ maxRedirects: 5 });
    });

    it('refuses any redirect when maxRedirects is 0', async () => {
      await expectServiceError(
        fetchDocument(`${base}/hop/0`, { ...open, maxRedirects: 0 }),
        502,
        'uri_too_many_redirects',
      );
    });

    for (const target of ['file:///etc/passwd', 'ftp://127.0.0.1/doc', 'data:text/plain,hi', 'javascript:alert(1)']) {
      it(`re-checks the scheme of each hop: redirect to ${target}`, async () => {
        const url = `${base}/redirect-to?target=${encodeURIComponent(target)}`;
        const error = await expectServiceError(fetchDocument(url, open), 400, 'uri_invalid');
        expect(error.message).to.include('redirects to a URL that');
      });
    }

    it('re-checks the address of each hop: a redirect to a mapped loopback address is refused', () => {
      const from = new URL('http://93.184.216.34/doc.rst');
      const error = expectThrows(
        () => checkHopUrl(`http://[::ffff:127.0.0.1]:${port}/doc`, { allowPrivate: false }, from),
        400,
        'uri_forbidden_address',
      );
      expect(error.message).to.include('redirects to a URL that points to a loopback address');
    });

    it('leaves named hosts of a hop to the guarded lookup, which refuses localhost', async () => {
      const from = new URL('http://93.184.216.34/doc.rst');
      const hop = checkHopUrl('http://localhost/other.rst', { allowPrivate: false }, from);
      expect(hop.href).to.equal('http://localhost/other.rst');
      const refused: ServiceError[] = [];
      const lookup = createGuardedLookup({ allowPrivate: false }, (e) => refused.push(e), () => 'redirect');
      const socketError = await new Promise<unknown>((resolve) =>
        lookup('localhost', { all: true }, (err) => resolve(err)),
      );
      expect(socketError).to.be.instanceOf(Error);
      expect(refused).to.have.length(1);
      expect(refused[0] && httpStatus(refused[0].code)).to.equal(400);
      expect(refused[0]?.code).to.equal('uri_forbidden_address');
      expect(refused[0]?.message).to.include('redirects to a URL that resolves to a loopback address');
    });

    it('resolves relative redirect targets against the current URL', () => {
      const hop = checkHopUrl('../b/c.rst?x=1', { allowPrivate: false }, new URL('http://93.184.216.34/a/d/e.rst'));
      expect(hop.href).to.equal('http://93.184.216.34/a/b/c.rst?x=1');
    });

    it('refuses a redirect to a URL with credentials', async () => {
      const target = `http://user:secret@127.0.0.1:${port}/doc`;
      await expectServiceError(
        fetchDocument(`${base}/redirect-to?target=${encodeURIComponent(target)}`, open),
        400,
        'uri_invalid',
      );
    });

    it('treats a redirect status without Location as an upstream error', async () => {
      const error = await expectServiceError(fetchDocument(`${base}/no-location`, open), 502, 'uri_upstream_status');
      expect(error.details).to.deep.equal({ upstreamStatus: 302 });
    });
  });

  describe('link-local and cloud metadata addresses (allowPrivate: true)', () => {
    const intranet: FetchPolicy = { ...open, allowPrivate: true };
    const withLinkLocal: FetchPolicy = { ...open, allowPrivate: true, allowLinkLocal: true };
    // Every spelling the URL parser and the policy understand: plain, mapped,
    // NAT64, 6to4, and the numeric forms WHATWG URL normalises.
    const hosts: [string, AddressClass][] = [
      ['169.254.169.254', 'link-local'],
      ['169.254.170.2', 'link-local'],
      ['169.254.0.1', 'link-local'],
      ['0xa9fea9fe', 'link-local'],
      ['2852039166', 'link-local'],
      ['[::ffff:169.254.169.254]', 'link-local'],
      ['[64:ff9b::a9fe:a9fe]', 'link-local'],
      ['[2002:a9fe:a9fe::1]', 'link-local'],
      ['[fe80::1]', 'link-local'],
      ['[fd00:ec2::254]', 'cloud-metadata'],
      ['100.100.100.200', 'cloud-metadata'],
      ['[::ffff:100.100.100.200]', 'cloud-metadata'],
      ['[64:ff9b::6464:64c8]', 'cloud-metadata'],
      ['192.0.0.192', 'cloud-metadata'],
    ];
    for (const [host, cls] of hosts) {
      it(`refuses http://${host}/ as ${cls}, in the URL and as a redirect hop, unless allowLinkLocal`, () => {
        const error = expectThrows(() => checkHopUrl(`http://${host}/latest/meta-data/`, intranet), 400, 'uri_forbidden_address');
        expect(error.message).to.include('link-local or cloud metadata');
        expect(error.details).to.deep.equal({ addressClass: cls });
        const hop = expectThrows(() => checkHopUrl(`http://${host}/`, intranet, new URL('http://10.0.0.5/doc')), 400, 'uri_forbidden_address');
        expect(hop.message).to.include('redirects to a URL that points to');
        expect(checkHopUrl(`http://${host}/x`, withLinkLocal).pathname).to.equal('/x');
      });
    }

    it('keeps private addresses open next to them', () => {
      for (const host of ['10.0.0.1', '127.0.0.1', '100.64.0.1', '100.100.100.199', '[fd12::1]', '[fd00:ec3::254]', '192.0.0.8']) {
        expect(checkHopUrl(`http://${host}/`, intranet).protocol).to.equal('http:');
      }
    });

    it('refuses them without allowPrivate too, with the public-only message', () => {
      const error = expectThrows(() => checkHopUrl('http://169.254.169.254/', closed), 400, 'uri_forbidden_address');
      expect(error.message).to.include('only fetches documents from public addresses');
    });

    it('allowLinkLocal alone opens link-local but not private addresses', () => {
      const linkLocalOnly = { allowPrivate: false, allowLinkLocal: true };
      expect(checkHopUrl('http://169.254.169.254/', linkLocalOnly).hostname).to.equal('169.254.169.254');
      expectThrows(() => checkHopUrl('http://10.0.0.1/', linkLocalOnly), 400, 'uri_forbidden_address');
    });

    it('the guarded lookup refuses what a name resolves to, before any connection', async () => {
      for (const [name, cls] of [['169.254.169.254', 'link-local'], ['fd00:ec2::254', 'cloud-metadata']] as const) {
        const refused: ServiceError[] = [];
        const lookup = createGuardedLookup(intranet, (error) => refused.push(error));
        const [err] = await new Promise<unknown[]>((resolve) => lookup(name, { all: true }, (...args) => resolve(args)));
        expect((err as { code?: string }).code).to.equal('ERR_RST2_FORBIDDEN_ADDRESS');
        expect(refused.map((e) => [e.code, e.details])).to.deep.equal([['uri_forbidden_address', { addressClass: cls }]]);

        const open = createGuardedLookup(withLinkLocal);
        const [none, addresses] = await new Promise<unknown[]>((resolve) => open(name, { all: true }, (...args) => resolve(args)));
        expect(none).to.equal(null);
        expect(addresses).to.have.length(1);
      }
    });

    it('fetchDocument never connects to 169.254.169.254 with private addresses allowed', async () => {
      const guard = new ConnectionGuard().install();
      try {
        await expectServiceError(fetchDocument('http://169.254.169.254/latest/meta-data/', intranet), 400, 'uri_forbidden_address');
        await expectServiceError(
          fetchDocument(`${base}/redirect-to?target=${encodeURIComponent('http://[::ffff:a9fe:a9fe]/')}`, intranet),
          400,
          'uri_forbidden_address',
        );
        expect(guard.offMachine()).to.deep.equal([]);
      } finally {
        guard.uninstall();
      }
    });

    it('allowLinkLocal really lets the fetcher try (the test guard stops it on the way out)', async () => {
      const guard = new ConnectionGuard().install();
      try {
        await expectServiceError(fetchDocument('http://169.254.169.254/latest/meta-data/', withLinkLocal), 502, 'uri_unreachable');
        expect(guard.offMachine()).to.deep.equal(['169.254.169.254']);
      } finally {
        guard.uninstall();
      }
    });

    it('mayConnect: public always, link-local classes only with allowLinkLocal, the rest with allowPrivate', () => {
      const classes: AddressClass[] = ['public', 'loopback', 'private', 'shared', 'unique-local', 'reserved', 'link-local', 'cloud-metadata'];
      const row = (allowance: { allowPrivate?: boolean; allowLinkLocal?: boolean }) => classes.filter((cls) => mayConnect(cls, allowance));
      expect(row({})).to.deep.equal(['public']);
      expect(row({ allowPrivate: true })).to.deep.equal(['public', 'loopback', 'private', 'shared', 'unique-local', 'reserved']);
      expect(row({ allowLinkLocal: true })).to.deep.equal(['public', 'link-local', 'cloud-metadata']);
      expect(row({ allowPrivate: true, allowLinkLocal: true })).to.deep.equal(classes);
    });
  });

  describe('guarded lookup', () => {
    it('answers in the single-address form when all is false', async () => {
      const lookup = createGuardedLookup({ allowPrivate: true });
      const [err, address, family] = await new Promise<unknown[]>((resolve) =>
        lookup('localhost', { family: 4 }, (...args) => resolve(args)),
      );
      expect(err).to.equal(null);
      expect(address).to.equal('127.0.0.1');
      expect(family).to.equal(4);
    });

    it('answers in the list form when all is true', async () => {
      const lookup = createGuardedLookup({ allowPrivate: true });
      const [err, addresses] = await new Promise<unknown[]>((resolve) =>
        lookup('localhost', { all: true }, (...args) => resolve(args)),
      );
      expect(err).to.equal(null);
      expect(addresses).to.deep.include({ address: '127.0.0.1', family: 4 });
    });
  });

  describe('upstream failures', () => {
    for (const status of [401, 404, 500]) {
      it(`maps upstream ${status} to 502 with the upstream status`, async () => {
        const error = await expectServiceError(fetchDocument(`${base}/status?s=${status}`, open), 502, 'uri_upstream_status');
        expect(error.details).to.deep.equal({ upstreamStatus: status });
        expect(error.message).to.include(String(status));
      });
    }

    it('maps a refused connection to 502 uri_unreachable', async () => {
      const spare = http.createServer();
      await new Promise<void>((resolve) => spare.listen(0, '127.0.0.1', resolve));
      const sparePort = (spare.address() as AddressInfo).port;
      await new Promise<void>((resolve) => spare.close(() => resolve()));
      const error = await expectServiceError(
        fetchDocument(`http://127.0.0.1:${sparePort}/doc`, open),
        502,
        'uri_unreachable',
      );
      expect(error.message).to.include('connection');
    });

    it('times out a server that never answers with 504', async () => {
      const started = Date.now();
      const error = await expectServiceError(
        fetchDocument(`${base}/slow-headers`, { ...open, timeoutMs: 300 }),
        504,
        'uri_timeout',
      );
      expect(Date.now() - started).to.be.within(250, 2_000);
      expect(error.details).to.deep.equal({ timeoutMs: 300 });
    });

    it('counts the body in the timeout (504 while the body trickles)', async () => {
      const started = Date.now();
      await expectServiceError(fetchDocument(`${base}/slow-body`, { ...open, timeoutMs: 300 }), 504, 'uri_timeout');
      expect(Date.now() - started).to.be.within(250, 2_000);
    });
  });

  describe('encoding', () => {
    const bad: [string, string][] = [
      ['Latin-1 é', '48e96c6c6f'],
      ['truncated sequence', '61e282'],
      ['overlong slash', 'c0af'],
      ['UTF-16 surrogate', 'eda080'],
      ['0xff byte', 'ff'],
    ];
    for (const [name, hex] of bad) {
      it(`rejects invalid UTF-8 (${name}) with 400`, async () => {
        await expectServiceError(fetchDocument(`${base}/bytes?hex=${hex}`, open), 400, 'uri_not_utf8');
      });
    }

    it('accepts an empty body', async () => {
      const result = await fetchDocument(`${base}/bytes?hex=`, open);
      expect(result.text).to.equal('');
    });
  });

  describe('URL validation', () => {
    const invalid = [
      'file:///etc/passwd',
      'ftp://example.com/doc.rst',
      'data:text/plain,Title',
      'javascript:alert(1)',
      'gopher://example.com/',
      'ws://example.com/',
      'relative/path.rst',
      '/absolute/path.rst',
      '//example.com/doc.rst',
      '',
      'http://',
      'http://exa mple.com/',
      'not a url',
      'http://user:pw@example.com/doc.rst',
    ];
    for (const uri of invalid) {
      it(`rejects ${JSON.stringify(uri)} with 400 uri_invalid`, async () => {
        await expectServiceError(fetchDocument(uri, closed), 400, 'uri_invalid');
      });
    }

    it('accepts public http and https URLs in the hop check without connecting', () => {
      expect(checkHopUrl('https://93.184.216.34/doc.rst', { allowPrivate: false }).protocol).to.equal('https:');
      expect(checkHopUrl('HTTP://[2606:4700::1111]/doc.rst', { allowPrivate: false }).hostname).to.equal(
        '[2606:4700::1111]',
      );
    });
  });
});
