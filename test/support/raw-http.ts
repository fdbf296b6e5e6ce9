/**
 * HTTP/1.1 over a bare TCP socket, for tests about the connection itself
 * (keep-alive, Connection: close, who closes the socket and when), which
 * fetch hides behind its pool.
 */
import net from 'node:net';

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

  destroy(): void {
    this.socket.destroy();
  }
}
