/**
 * The base protocol's framing, read strictly: each message is a header block
 * (lines "Name: value\r\n", then an empty line "\r\n") with exactly one
 * Content-Length, a non-negative decimal count of bytes within a bound, and
 * then that many bytes of body.
 *
 * vscode-jsonrpc's own reader reports a bad header and then reads nothing
 * more, answering nothing, shutdown included: the client waits forever. Here
 * the first fault throws a FramingError (src/lsp/message-reader.ts ends the
 * connection on it), as early as the bytes show it: a header byte that
 * cannot be one, a body that already holds the header of the next message.
 */

export class FramingError extends Error {
  override name = 'FramingError';
}

export interface FrameLimits {
  maxHeaderBytes: number;
  maxMessageBytes: number;
}

const CR = 0x0d;
const LF = 0x0a;
const COLON = 0x3a;
const TAB = 0x09;

/** RFC 9110's token characters, of which a header name is made. */
function isTokenByte(byte: number): boolean {
  if ((byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5a) || (byte >= 0x61 && byte <= 0x7a)) return true;
  return "!#$%&'*+-.^_`|~".includes(String.fromCharCode(byte));
}

/** A header value's characters: visible ASCII, space, tab and (RFC 9110's obs-text) bytes from 0x80. */
function isValueByte(byte: number): boolean {
  return byte === TAB || (byte >= 0x20 && byte !== 0x7f);
}

/**
 * The header of a message inside another's body. It cannot be part of a JSON
 * text: outside a string "Content-Length" is not JSON, and inside one a raw
 * \r is not allowed. So a body holding it is certainly broken, and its
 * Content-Length longer than what the client sent for it.
 */
const NEXT_HEADER = /content-length[ \t]*:[ \t]*\d+[ \t]*\r\n/i;
/** Enough of a body's end to find NEXT_HEADER across two chunks (it is shorter unless padded with spaces). */
const CARRIED = 64;

function shown(text: string): string {
  return JSON.stringify(text.length > 60 ? `${text.slice(0, 60)}…` : text);
}

type HeaderState = 'name' | 'value' | 'cr' | 'blank-cr';

export class FrameDecoder {
  private mode: 'header' | 'body' | 'failed' = 'header';
  // The header block so far, as latin1 text (its bytes are checked to be header characters).
  private header = '';
  private headerState: HeaderState = 'name';
  private lineStart = 0;
  private readonly lines: Array<[name: string, value: string]> = [];
  private remaining = 0;
  private length = 0;
  private readonly body: Buffer[] = [];
  /** The end of the body so far, for NEXT_HEADER across chunks. */
  private carried = '';

  constructor(private readonly limits: FrameLimits) {}

  /** Whether a message has begun and is not complete. */
  get partial(): boolean {
    return this.mode === 'body' || this.header.length > 0;
  }

  /**
   * The bodies this chunk completes, in order, and the fault that stopped
   * it if one did: the bodies before a fault are whole messages. After a
   * fault it takes nothing more.
   */
  push(chunk: Buffer): { bodies: Buffer[]; fault?: FramingError } {
    const bodies: Buffer[] = [];
    if (this.mode === 'failed') return { bodies, fault: new FramingError('the stream already failed') };
    try {
      this.take(chunk, bodies);
      return { bodies };
    } catch (err) {
      if (!(err instanceof FramingError)) throw err;
      this.mode = 'failed';
      return { bodies, fault: err };
    }
  }

  private take(chunk: Buffer, bodies: Buffer[]): void {
    let at = 0;
    while (at < chunk.length) {
      if (this.mode === 'header') {
        at = this.readHeader(chunk, at, bodies);
      } else {
        const end = Math.min(chunk.length, at + this.remaining);
        const part = chunk.subarray(at, end);
        at = end;
        this.remaining -= part.length;
        this.body.push(part);
        if (this.remaining === 0) {
          bodies.push(this.body.length === 1 ? this.body[0]! : Buffer.concat(this.body));
          this.body.length = 0;
          this.carried = '';
          this.mode = 'header';
        } else {
          this.watchBody(part);
        }
      }
    }
  }

  /** Reads header bytes from `at`; returns where it stopped (the end of the block, or of the chunk). */
  private readHeader(chunk: Buffer, at: number, bodies: Buffer[]): number {
    for (let i = at; i < chunk.length; i++) {
      const byte = chunk[i]!;
      if (this.header.length >= this.limits.maxHeaderBytes) {
        throw new FramingError(`bad message header: longer than ${this.limits.maxHeaderBytes} bytes: ${shown(this.header)}`);
      }
      this.header += String.fromCharCode(byte);
      switch (this.headerState) {
        case 'name':
          if (byte === CR && this.header.length - 1 === this.lineStart) this.headerState = 'blank-cr';
          else if (byte === COLON && this.header.length - 1 > this.lineStart) this.headerState = 'value';
          else if (!isTokenByte(byte)) throw this.badHeader(byte, 'a header name and ":"');
          break;
        case 'value':
          if (byte === CR) this.headerState = 'cr';
          else if (!isValueByte(byte)) throw this.badHeader(byte, 'a header value or "\\r\\n"');
          break;
        case 'cr':
          if (byte !== LF) throw this.badHeader(byte, '"\\n" after "\\r"');
          this.endLine();
          break;
        case 'blank-cr':
          if (byte !== LF) throw this.badHeader(byte, '"\\n" after "\\r"');
          if (this.endBlock() === 0) bodies.push(Buffer.alloc(0));
          return i + 1;
      }
    }
    return chunk.length;
  }

  private badHeader(byte: number, expected: string): FramingError {
    const hex = byte.toString(16).padStart(2, '0');
    return new FramingError(`bad message header: byte 0x${hex} where ${expected} should be, after ${shown(this.header.slice(0, -1))}`);
  }

  private endLine(): void {
    const line = this.header.slice(this.lineStart, -2);
    const colon = line.indexOf(':');
    this.lines.push([line.slice(0, colon).toLowerCase(), line.slice(colon + 1).trim()]);
    this.lineStart = this.header.length;
    this.headerState = 'name';
  }

  /** Checks the finished header block and starts its body; returns the body's length (0: already complete). */
  private endBlock(): number {
    const lengths = this.lines.filter(([name]) => name === 'content-length').map(([, value]) => value);
    const block = shown(this.header);
    if (lengths.length === 0) throw new FramingError(`bad message header: no Content-Length in ${block}`);
    if (lengths.length > 1) throw new FramingError(`bad message header: more than one Content-Length in ${block}`);
    const value = lengths[0]!;
    if (!/^\d+$/.test(value)) throw new FramingError(`bad message header: Content-Length ${shown(value)} is not a number of bytes`);
    const length = Number(value);
    if (length > this.limits.maxMessageBytes) {
      throw new FramingError(`bad message header: Content-Length ${value} is over the limit of ${this.limits.maxMessageBytes} bytes`);
    }
    const type = this.lines.find(([name]) => name === 'content-type')?.[1];
    const charset = type === undefined ? undefined : /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1];
    // The protocol is UTF-8 only ("utf8" is what early clients sent).
    if (charset !== undefined && !/^utf-?8$/i.test(charset)) throw new FramingError(`bad message header: charset ${shown(charset)}; only utf-8 is read`);
    this.header = '';
    this.lineStart = 0;
    this.lines.length = 0;
    this.headerState = 'name';
    // No body byte will come to complete an empty one.
    this.mode = length === 0 ? 'header' : 'body';
    this.length = length;
    this.remaining = length;
    return length;
  }

  /** Ends the stream early when the body read so far already holds the next message's header. */
  private watchBody(part: Buffer): void {
    // JSON.stringify never writes a raw \r, and NEXT_HEADER needs one: most bodies are not searched at all.
    if ((part.includes(CR) || this.carried.includes('\r')) && NEXT_HEADER.test(this.carried + part.toString('latin1'))) {
      throw new FramingError(`a message body holds the header of another message: its Content-Length (${this.length}) is longer than its body`);
    }
    this.carried = part.length >= CARRIED ? part.subarray(part.length - CARRIED).toString('latin1') : (this.carried + part.toString('latin1')).slice(-CARRIED);
  }
}
