/**
 * The tests' connection guard (test/support/connection-guard.ts) must see
 * every client socket on the Node it runs on: on Node 24 the first version
 * saw none and a metadata-address test reached the network. Only loopback
 * is used here, so a guard that misses a path fails this test and nothing leaves.
 */
import { expect } from 'chai';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

import { ConnectionGuard } from '../support/connection-guard.js';

describe(`connection guard (Node ${process.versions.node})`, () => {
  let server: http.Server;
  let port: number;

  before(async () => {
    server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sees net.connect, socket.connect and http.get, and lets loopback through', async () => {
    const guard = new ConnectionGuard().install();
    try {
      await new Promise<void>((resolve, reject) => net.connect({ host: '127.0.0.1', port }, function (this: net.Socket) {
        this.end();
        resolve();
      }).once('error', reject));
      await new Promise<void>((resolve, reject) => new net.Socket().connect(port, '127.0.0.1', function (this: net.Socket) {
        this.end();
        resolve();
      }).once('error', reject));
      const body = await new Promise<string>((resolve, reject) => {
        http.get(`http://127.0.0.1:${port}/`, { agent: false }, (res) => {
          let text = '';
          res.setEncoding('utf8').on('data', (c: string) => (text += c)).on('end', () => resolve(text));
        }).once('error', reject);
      });
      expect(body).to.equal('ok');
      expect(guard.attempts).to.deep.equal(['127.0.0.1', '127.0.0.1', '127.0.0.1']);
      expect(guard.offMachine()).to.deep.equal([]);
    } finally {
      guard.uninstall();
    }
  });

  it('stops watching once uninstalled', async () => {
    const guard = new ConnectionGuard().install();
    guard.uninstall();
    await new Promise<void>((resolve, reject) => net.connect({ host: '127.0.0.1', port }, function (this: net.Socket) {
      this.end();
      resolve();
    }).once('error', reject));
    expect(guard.attempts).to.deep.equal([]);
  });
});
