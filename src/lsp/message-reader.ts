/**
 * The connection's reader: messages from a byte stream, framed by
 * frames.ts, in place of vscode-jsonrpc's StreamMessageReader (which goes
 * silent for good on a bad header).
 *
 * A stream that cannot be read as messages is broken for good, and
 * onBroken says why, once: a framing fault, a body that is not JSON (with a
 * wrong Content-Length the next message's bytes would be read as a body, or a
 * body as a header), or a message left unfinished for stallMs. The server
 * then ends the connection rather than guess where the next message starts:
 * a skipped didChange would leave its copy of a document different from the
 * editor's without either knowing, while an editor restarts a server that
 * exits and sends it every open document again.
 */
import { AbstractMessageReader, Emitter, type DataCallback, type Disposable, type Message } from 'vscode-languageserver/node';

import { FrameDecoder, type FrameLimits } from './frames.js';

export interface ReaderLimits extends FrameLimits {
  stallMs: number;
}

// Not fatal: vscode-jsonrpc's reader too turns bytes that are not UTF-8 into U+FFFD.
const UTF8 = new TextDecoder('utf-8');

export class FramedMessageReader extends AbstractMessageReader {
  private readonly brokenEmitter = new Emitter<string>();
  /** Why the stream cannot be read any more; fired once, and nothing is read after it. */
  readonly onBroken = this.brokenEmitter.event;
  private readonly decoder: FrameDecoder;
  private stall: NodeJS.Timeout | undefined;
  private broken = false;
  private closed = false;

  constructor(
    private readonly input: NodeJS.ReadableStream,
    private readonly limits: ReaderLimits,
  ) {
    super();
    this.decoder = new FrameDecoder(limits);
  }

  /** Whether the input has stopped in the middle of a message. */
  get partial(): boolean {
    return this.decoder.partial;
  }

  listen(callback: DataCallback): Disposable {
    const onData = (chunk: Buffer | string): void => this.read(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk, callback);
    const onEnd = (): void => this.close();
    const onError = (err: Error): void => this.fireError(err);
    this.input.on('data', onData);
    this.input.on('end', onEnd);
    this.input.on('close', onEnd);
    this.input.on('error', onError);
    return {
      dispose: () => {
        clearTimeout(this.stall);
        this.input.off('data', onData);
        this.input.off('end', onEnd);
        this.input.off('close', onEnd);
        this.input.off('error', onError);
      },
    };
  }

  private read(chunk: Buffer, callback: DataCallback): void {
    if (this.broken) return;
    const { bodies, fault } = this.decoder.push(chunk);
    for (const body of bodies) {
      let message: unknown;
      try {
        message = JSON.parse(UTF8.decode(body));
      } catch (err) {
        const why = err instanceof Error ? err.message : String(err);
        return this.break(`a message body of ${body.length} bytes is not JSON (${why}): its Content-Length is wrong, or its body`);
      }
      // What is not a JSON-RPC message the connection itself reports and ignores.
      try {
        callback(message as Message);
      } catch (err) {
        // vscode-jsonrpc's own handling can throw on a well-framed but odd
        // message ($/cancelRequest without params reads params.id): thrown
        // from the stdin 'data' handler it would end the process. Its own
        // reader reports such an error and reads on; so does this one.
        this.fireError(err instanceof Error ? err : new Error(String(err)));
      }
    }
    if (fault) return this.break(fault.message);
    clearTimeout(this.stall);
    this.stall = undefined;
    if (this.decoder.partial) {
      this.stall = setTimeout(
        () => this.break(`a message stopped in the middle for ${this.limits.stallMs} ms: its Content-Length is longer than what was sent, or its header unfinished`),
        this.limits.stallMs,
      );
    }
  }

  private break(reason: string): void {
    if (this.broken) return;
    this.broken = true;
    clearTimeout(this.stall);
    this.brokenEmitter.fire(reason);
  }

  private close(): void {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.stall);
    this.fireClose();
  }
}
