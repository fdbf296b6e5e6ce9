/**
 * The base protocol's framing as `rst2 lsp` reads it (src/lsp/frames.ts):
 * whole messages however the bytes are cut into chunks, and each kind of
 * broken frame stopped as soon as the bytes show it.
 */
import { expect } from 'chai';

import { FrameDecoder, type FrameLimits } from '../../src/lsp/frames.js';

const LIMITS: FrameLimits = { maxHeaderBytes: 256, maxMessageBytes: 1024 };

function framed(body: string, header = `Content-Length: ${Buffer.byteLength(body)}`): Buffer {
  return Buffer.from(`${header}\r\n\r\n${body}`, 'utf8');
}

/** Feeds the chunks in order: the bodies decoded, and the first fault's message. */
function decode(chunks: Buffer[], limits = LIMITS): { bodies: string[]; fault?: string; partial: boolean } {
  const decoder = new FrameDecoder(limits);
  const bodies: string[] = [];
  for (const chunk of chunks) {
    const out = decoder.push(chunk);
    bodies.push(...out.bodies.map((b) => b.toString('utf8')));
    if (out.fault) return { bodies, fault: out.fault.message, partial: decoder.partial };
  }
  return { bodies, partial: decoder.partial };
}

/** Every byte a chunk of its own. */
function bytewise(buffer: Buffer): Buffer[] {
  return Array.from(buffer, (byte) => Buffer.from([byte]));
}

describe('lsp frames', function () {
  const one = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"text":"é🎉 Content-Length: 5"}}';
  const two = '{"jsonrpc":"2.0","method":"exit"}';
  const stream = Buffer.concat([framed(one), framed(two, `content-length:${Buffer.byteLength(two)}\r\nContent-Type: application/vscode-jsonrpc; charset=utf-8`)]);

  it('decodes messages in one chunk, byte by byte, and cut anywhere', function () {
    expect(decode([stream])).to.deep.equal({ bodies: [one, two], partial: false });
    expect(decode(bytewise(stream))).to.deep.equal({ bodies: [one, two], partial: false });
    for (let cut = 1; cut < stream.length; cut++) {
      expect(decode([stream.subarray(0, cut), stream.subarray(cut)]).bodies, `cut at ${cut}`).to.deep.equal([one, two]);
    }
  });

  it('says when a message has begun and is not complete', function () {
    expect(decode([stream.subarray(0, 3)]).partial).to.equal(true);
    expect(decode([stream.subarray(0, 30)]).partial).to.equal(true);
    expect(decode([framed(one).subarray(0, -1)]).partial).to.equal(true);
    expect(decode([framed(one)]).partial).to.equal(false);
  });

  it('decodes an empty body, complete with its header', function () {
    expect(decode([framed('', 'Content-Length: 0'), framed(two)])).to.deep.equal({ bodies: ['', two], partial: false });
  });

  it('stops at a Content-Length that is missing, not a count of bytes, twice given or over the limit', function () {
    expect(decode([framed(one, 'Content-Type: application/vscode-jsonrpc')]).fault).to.equal(
      'bad message header: no Content-Length in "Content-Type: application/vscode-jsonrpc\\r\\n\\r\\n"',
    );
    expect(decode([framed(one, '')]).fault).to.equal('bad message header: no Content-Length in "\\r\\n"');
    for (const value of ['-5', 'abc', '1e3', '0x10', '+5', '5 5', '']) {
      expect(decode([framed(one, `Content-Length: ${value}`)]).fault, value).to.equal(`bad message header: Content-Length ${JSON.stringify(value)} is not a number of bytes`);
    }
    expect(decode([framed(one, 'Content-Length: 3\r\nContent-Length: 3')]).fault).to.match(/^bad message header: more than one Content-Length/);
    expect(decode([framed(one, 'Content-Length: 1025')]).fault).to.equal('bad message header: Content-Length 1025 is over the limit of 1024 bytes');
    expect(decode([framed(one, `Content-Length: ${'9'.repeat(400)}`)]).fault).to.equal('bad message header: longer than 256 bytes: ' + JSON.stringify(`Content-Length: ${'9'.repeat(44)}…`));
  });

  it('stops at the first byte that cannot be part of a header, before the block ends', function () {
    // The rest of a body whose Content-Length was too short.
    expect(decode([Buffer.from('"}}Content-Length: 12\r\n\r\n')]).fault).to.equal('bad message header: byte 0x22 where a header name and ":" should be, after ""');
    expect(decode([Buffer.from('Content-Length: 12\n')]).fault).to.equal('bad message header: byte 0x0a where a header value or "\\r\\n" should be, after "Content-Length: 12"');
    expect(decode([Buffer.from('Content-Length: 12\r\r')]).fault).to.match(/^bad message header: byte 0x0d where "\\n" after "\\r" should be/);
    expect(decode([Buffer.from('Content Length: 12\r\n')]).fault).to.match(/^bad message header: byte 0x20 where a header name/);
    expect(decode([Buffer.from(': 12\r\n')]).fault).to.match(/^bad message header: byte 0x3a where a header name/);
    expect(decode([Buffer.from('Content-Length: 1\x002\r\n')]).fault).to.match(/^bad message header: byte 0x00 where a header value/);
    // Without a header's end, the limit ends it.
    expect(decode(bytewise(Buffer.from(`X-Padding: ${'a'.repeat(300)}`))).fault).to.match(/^bad message header: longer than 256 bytes/);
  });

  it('stops at a charset other than UTF-8', function () {
    expect(decode([framed(two, `Content-Length: ${two.length}\r\nContent-Type: application/vscode-jsonrpc; charset=latin1`)]).fault).to.equal(
      'bad message header: charset "latin1"; only utf-8 is read',
    );
    expect(decode([framed(two, `Content-Length: ${two.length}\r\nContent-Type: application/vscode-jsonrpc; charset=utf8`)]).bodies).to.deep.equal([two]);
  });

  it('stops when a body not yet complete holds the next message\'s header, even across chunks', function () {
    const long = framed(one, `Content-Length: ${Buffer.byteLength(one) + 500}`);
    const next = framed(two);
    const expected = `a message body holds the header of another message: its Content-Length (${Buffer.byteLength(one) + 500}) is longer than its body`;
    expect(decode([long, next])).to.deep.include({ bodies: [], fault: expected });
    expect(decode(bytewise(Buffer.concat([long, next])))).to.deep.include({ bodies: [], fault: expected });
    // "Content-Length: 5" inside a JSON string (as in `one`) is no header: no raw \r can follow it there.
    expect(decode([long])).to.deep.equal({ bodies: [], partial: true });
  });

  it('hands out the messages before a fault', function () {
    expect(decode([Buffer.concat([framed(one), Buffer.from('Content-Length: x\r\n\r\n')])])).to.deep.include({
      bodies: [one],
      fault: 'bad message header: Content-Length "x" is not a number of bytes',
    });
  });

  it('takes nothing more after a fault', function () {
    const decoder = new FrameDecoder(LIMITS);
    expect(decoder.push(Buffer.from('{')).fault?.message).to.match(/^bad message header/);
    const after = decoder.push(framed(two));
    expect(after.bodies).to.deep.equal([]);
    expect(after.fault?.message).to.equal('the stream already failed');
  });
});
