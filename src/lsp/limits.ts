/**
 * The language server's own bounds. They are not settings of the service
 * (src/config.ts holds those, read from the environment): they bound what a
 * client can make `rst2 lsp` wait for or hold, and no client needs them
 * changed.
 */
import { MiB } from '../config.js';

export const LSP_LIMITS = Object.freeze({
  /**
   * A message's header block, "Content-Length: N" and perhaps a
   * Content-Type, is under 100 bytes from every client; anything near this
   * is not a header.
   */
  maxHeaderBytes: 4096,
  /**
   * A message's body. A didOpen carries the whole document as JSON: a
   * document this large could not be checked within RST2_RENDER_TIMEOUT_MS
   * anyway, while a few of them would already be hundreds of MB of memory.
   */
  maxMessageBytes: 64 * MiB,
  /**
   * A message begun and not finished within this of its last byte: its
   * Content-Length is longer than what the client sent, which then waits for
   * an answer that could never come. vscode-jsonrpc reports a partial message
   * after as long; a client writes a message in one go, so a live one never
   * pauses that long in the middle of it.
   */
  stallMs: 10_000,
  /** The first wait before a check the engine refused (busy, queue full) is tried again; it doubles each time. */
  retryFirstMs: 100,
  retryMaxMs: 2_000,
  /** Before exiting on a broken stream, the parse error answer may take this long to be written. */
  exitFlushMs: 1_000,
});
