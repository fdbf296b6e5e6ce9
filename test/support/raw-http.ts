/**
 * HTTP/1.1 over a bare TCP socket, for tests about the connection itself
 * (keep-alive, Connection: close, who closes the socket and when), which
 * fetch hides behind its pool.
 */
import fs from 'node:fs';
import net from 'node:net';

import { waitFor } from './wait-for.js';

export interface RawResponse {
  status: number;
  /** Header names lowercased. */
  headers: Record<string, string>;
  body: string;
}

function parseHead(head: string): Omit<RawResponse, 'body'> {
  const [statusLine = '', ...lines] = head.split('\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1]);
  if (!Number.isInteger(status)) throw new Error(`not an HTTP/1.1 status line: ${JSON.stringify(statusLine)}`);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  return { status, headers };
}

/** Length of a complete chunked body at the start of `data` and its text, or undefined if incomplete. */
function dechunk(data: Buffer): { used: number; body: Buffer } | undefined {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = data.indexOf('\r\n', at);
    if (eol < 0) return undefined;
    const size = parseInt(data.subarray(at, eol).toString('latin1'), 16);
    if (data.length < eol + 2 + size + 2) return undefined;
    if (size === 0) return { used: eol + 4, body: Buffer.concat(parts) };
    parts.push(data.subarray(eol + 2, eol + 2 + size));
    at = eol + 2 + size + 2;
  }
}

export class RawConnection {
  private received = Buffer.alloc(0);
  private waiters: Array<() => void> = [];
  /** Resolves when the server ends or the socket closes, whichever first. */
  readonly closed: Promise<void>;
  private ended = false;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => {
      this.received = Buffer.concat([this.received, chunk]);
      this.wake();
    });
    // Writing the rest of a body the server stopped reading may fail with
    // EPIPE or ECONNRESET; that is an expected outcome, not a test error.
    socket.on('error', () => {});
    this.closed = new Promise((resolve) => {
      const done = () => {
        this.ended = true;
        this.wake();
        resolve();
      };
      socket.once('end', done);
      socket.once('close', done);
    });
  }

  static open(baseUrl: string): Promise<RawConnection> {
    const url = new URL(baseUrl);
    return new Promise((resolve, reject) => {
      const socket = net.connect({ host: url.hostname, port: Number(url.port) }, () => {
        socket.off('error', reject);
        resolve(new RawConnection(socket));
      });
      socket.once('error', reject);
    });
  }

  private wake(): void {
    for (const waiter of this.waiters.splice(0)) waiter();
  }

  write(data: string | Buffer): void {
    if (!this.socket.destroyed) this.socket.write(data);
  }

  /** The next complete response; rejects if the connection ends first. */
  async response(): Promise<RawResponse> {
    for (;;) {
      const response = this.take();
      if (response) return response;
      if (this.ended) throw new Error(`the connection ended before a complete response; got ${JSON.stringify(this.received.toString('latin1').slice(0, 300))}`);
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** Resolves once a response's head has arrived, before its body may have. */
  async headers(): Promise<void> {
    while (this.received.indexOf('\r\n\r\n') < 0) {
      if (this.ended) throw new Error('the connection ended before a response head');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  /** What arrived after the responses taken so far. */
  pending(): string {
    return this.received.toString('latin1');
  }

  private take(): RawResponse | undefined {
    const end = this.received.indexOf('\r\n\r\n');
    if (end < 0) return undefined;
    const head = parseHead(this.received.subarray(0, end).toString('latin1'));
    const rest = this.received.subarray(end + 4);
    let used: number;
    let body: Buffer;
    if (head.headers['transfer-encoding'] === 'chunked') {
      const chunked = dechunk(rest);
      if (!chunked) return undefined;
      ({ used, body } = chunked);
    } else {
      used = Number(head.headers['content-length'] ?? 0);
      if (rest.length < used) return undefined;
      body = rest.subarray(0, used);
    }
    this.received = rest.subarray(used);
    return { ...head, body: body.toString('utf8') };
  }

  /**
   * Resolves once the server process has read everything written so far,
   * as the kernel's socket queues show it (Linux, /proc/net/tcp): nothing
   * left in Node's buffer, nothing unacknowledged on this side, nothing
   * unread on the server's. Elsewhere it can only wait for Node's buffer.
   */
  async delivered(what = 'the server to read what was sent'): Promise<void> {
    const local = this.socket.localPort;
    const remote = this.socket.remotePort;
    await waitFor(
      () => {
        if (this.socket.destroyed) throw new Error('the connection is closed');
        if (this.socket.writableLength > 0) return false;
        const queues = socketQueues(this.socket.remoteFamily === 'IPv6' ? '/proc/net/tcp6' : '/proc/net/tcp');
        if (!queues) return true;
        const mine = queues.get(`${local}>${remote}`);
        const theirs = queues.get(`${remote}>${local}`);
        return mine !== undefined && theirs !== undefined && mine.tx === 0 && theirs.rx === 0;
      },
      // Reading the kernel's table costs a few milliseconds on a busy machine.
      { what, intervalMs: 10 },
    );
  }

  destroy(): void {
    this.socket.destroy();
  }
}

const ESTABLISHED = '01';

/**
 * Send and receive queue lengths of every TCP socket in a /proc/net table,
 * keyed by `localPort>remotePort`, or undefined where the kernel has no such table.
 */
function socketQueues(table: string): Map<string, { tx: number; rx: number }> | undefined {
  let text: string;
  try {
    text = fs.readFileSync(table, 'latin1');
  } catch {
    return undefined;
  }
  const queues = new Map<string, { tx: number; rx: number }>();
  for (const line of text.split('\n')) {
    // sl local_address rem_address st tx_queue:rx_queue ...; addresses are hex ADDRESS:PORT.
    const [, localAddress, remoteAddress, state, txRx] = line.trim().split(/\s+/);
    // Established only: a closed connection that once had the same ports may linger (TIME_WAIT).
    if (state !== ESTABLISHED || !localAddress || !remoteAddress || !txRx || !/^[0-9A-F]+:[0-9A-F]+$/.test(txRx)) continue;
    const port = (address: string) => parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
    const [tx = '', rx = ''] = txRx.split(':');
    queues.set(`${port(localAddress)}>${port(remoteAddress)}`, { tx: parseInt(tx, 16), rx: parseInt(rx, 16) });
  }
  return queues;
}

export interface HeldRequest {
  /** Sends the body held back and resolves with the final response. */
  finish(): Promise<RawResponse>;
}

/**
 * Starts a request that the server has provably taken up, for tests about
 * what happens to a request in flight: the head goes out with
 * `Expect: 100-continue`, and Node answers 100 Continue as it hands the
 * request to the service. Until finish() sends the body, the request cannot
 * be over, however fast the service is.
 */
export async function holdRequest(baseUrl: string, method: string, target: string, contentType: string, body: string | Buffer): Promise<HeldRequest> {
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : body;
  const conn = await RawConnection.open(baseUrl);
  conn.write(`${method} ${target} HTTP/1.1\r\nHost: test\r\nContent-Type: ${contentType}\r\nContent-Length: ${bytes.length}\r\nExpect: 100-continue\r\n\r\n`);
  const interim = await conn.response();
  if (interim.status !== 100) {
    conn.destroy();
    throw new Error(`expected 100 Continue, got ${interim.status}: ${interim.body.slice(0, 300)}`);
  }
  return {
    async finish() {
      conn.write(bytes);
      try {
        return await conn.response();
      } finally {
        conn.destroy();
      }
    },
  };
}
