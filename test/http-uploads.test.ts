/**
 * Multipart uploads never leave anything on disk, whatever becomes of the
 * request: a service process gets a temporary folder of its own, takes a
 * thousand refused uploads of every kind (and a few good ones), and the
 * folder must still be empty.
 */
import fs from 'node:fs';

import { expect } from 'chai';

import { RawConnection } from './support/raw-http.js';
import { tempDir } from './support/server.js';
import { ServiceProcess } from './support/service-process.js';

const MAX_BODY = 2 * 1024 * 1024; // the default RST2_MAX_BODY_BYTES
const BOUNDARY = 'rst2-upload-test';

interface Part {
  name: string;
  /** Present: an uploaded file; absent: a plain form field. */
  filename?: string;
  content: Buffer | string;
}

function multipart(parts: readonly Part[]): Buffer {
  const pieces: Buffer[] = [];
  for (const part of parts) {
    const disposition = `form-data; name="${part.name}"${part.filename === undefined ? '' : `; filename="${part.filename}"`}`;
    const type = part.filename === undefined ? '' : 'Content-Type: text/x-rst\r\n';
    pieces.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(part.content), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

const file = (name: string, size: number, byte = 0x61): Part => ({ name, filename: `${name}.rst`, content: Buffer.alloc(size, byte) });

interface Refusal {
  kind: string;
  /** A small and a large body of this kind; the large ones are few. */
  body: (large: boolean) => Buffer;
  status: number;
  code: string;
}

const REFUSALS: readonly Refusal[] = [
  {
    kind: 'a field that is not UTF-8, next to an uploaded file',
    body: (large) => multipart([{ name: 'style', content: Buffer.from([0xff]) }, file('rst', large ? 2_000_000 : 300)]),
    status: 400,
    code: 'invalid_utf8',
  },
  {
    kind: 'more files than the limit',
    body: (large) => multipart(Array.from({ length: 5 }, (_, i) => file(`f${i}`, large ? 400_000 : 20))),
    status: 400,
    code: 'bad_multipart',
  },
  {
    kind: 'a file over the body limit',
    body: (large) => multipart([file('rst', large ? MAX_BODY + 200_000 : MAX_BODY + 1)]),
    status: 413,
    code: 'body_too_large',
  },
  {
    kind: 'malformed multipart (the body ends inside a file)',
    body: (large) => multipart([file('rst', large ? 1_500_000 : 200)]).subarray(0, -`\r\n--${BOUNDARY}--\r\n`.length),
    status: 400,
    code: 'bad_multipart',
  },
  {
    kind: 'a duplicate parameter',
    body: (large) => multipart([file('rst', large ? 900_000 : 100), file('rst', large ? 900_000 : 100, 0x62)]),
    status: 400,
    code: 'duplicate_parameter',
  },
  {
    kind: 'an unknown parameter',
    body: (large) => multipart([file('rst', 100), file('colour', large ? 1_500_000 : 100)]),
    status: 400,
    code: 'unknown_parameter',
  },
];

/** Sends the headers and part of an upload, then drops the connection. */
async function abortMidUpload(url: string, large: boolean): Promise<void> {
  const body = multipart([file('rst', large ? 1_800_000 : 4_000)]);
  const conn = await RawConnection.open(url);
  conn.write(
    `POST /1.0/rst2/html HTTP/1.1\r\nHost: test\r\nContent-Type: multipart/form-data; boundary=${BOUNDARY}\r\nContent-Length: ${body.length}\r\n\r\n`,
  );
  conn.write(body.subarray(0, Math.floor(body.length / 2)));
  // Dropped only once the service has read the first half: mid-parse, with
  // the file part begun, which is where a file on disk would be left behind.
  await conn.delivered('the service to read the first half of the upload');
  conn.destroy();
}

async function inParallel(count: number, width: number, job: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < count) await job(next++);
    }),
  );
}

describe('multipart uploads never stay on disk', function () {
  this.timeout(300_000);
  let service: ServiceProcess;
  let tmp: string;

  before(async () => {
    tmp = tempDir('uploads-tmpdir');
    service = await ServiceProcess.start({ TMPDIR: tmp });
  });
  after(async () => {
    await service?.stop();
  });

  const post = (body: Buffer) =>
    fetch(`${service.url}/1.0/rst2/html`, {
      method: 'POST',
      headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      body: new Uint8Array(body),
    });

  it('starts with an empty temporary folder', () => {
    expect(fs.readdirSync(tmp)).to.deep.equal([]);
  });

  it('renders uploaded files and keeps nothing of them', async () => {
    for (const lines of [1, 25_000]) {
      const rst = `Uploaded\n========\n\n${'A line of words.\n'.repeat(lines)}`;
      const res = await post(multipart([{ name: 'rst', filename: 'doc.rst', content: rst }, { name: 'style', content: 'default' }]));
      expect(res.status).to.equal(200);
      expect(await res.text()).to.include('<title>Uploaded</title>');
    }
    expect(fs.readdirSync(tmp)).to.deep.equal([]);
  });

  it('answers too many files with 400 bad_multipart naming the limit', async () => {
    const res = await post(REFUSALS[1]!.body(false));
    expect(res.status).to.equal(400);
    const { error } = (await res.json()) as { error: { code: string; message: string } };
    expect(error.code).to.equal('bad_multipart');
    expect(error.message).to.match(/at most 4 files/);
  });

  it('keeps nothing of 1,000 refused uploads of every kind, a few of them large', async () => {
    const kinds = REFUSALS.length + 1; // the last kind: aborted mid-upload
    const answers = new Map<string, Map<string, number>>();
    const count = (kind: string, answer: string) => {
      const byAnswer = answers.get(kind) ?? new Map<string, number>();
      byAnswer.set(answer, (byAnswer.get(answer) ?? 0) + 1);
      answers.set(kind, byAnswer);
    };
    await inParallel(1000, 8, async (i) => {
      const large = i < kinds * 3;
      const refusal = REFUSALS[i % kinds];
      if (refusal === undefined) {
        await abortMidUpload(service.url, large);
        count('aborted mid-upload', 'no answer');
        return;
      }
      try {
        const res = await post(refusal.body(large));
        const { error } = (await res.json()) as { error: { code: string } };
        count(refusal.kind, `${res.status} ${error.code}`);
      } catch (err) {
        // Counted rather than thrown, so the folder is still checked.
        count(refusal.kind, `no answer (${String((err as Error).cause ?? err)})`);
      }
    });
    expect((await fetch(`${service.url}/1.0/rst2/html/styles`)).status, 'the service still answers').to.equal(200);
    const left = fs.readdirSync(tmp);
    const bytes = left.reduce((sum, name) => sum + fs.statSync(`${tmp}/${name}`).size, 0);
    expect(left, `${left.length} files, ${bytes} bytes left in TMPDIR`).to.deep.equal([]);

    // Request i is of kind i % kinds.
    const share = (kind: number) => Math.ceil((1000 - kind) / kinds);
    const expected = new Map(REFUSALS.map((r, kind) => [r.kind, new Map([[`${r.status} ${r.code}`, share(kind)]])]));
    expected.set('aborted mid-upload', new Map([['no answer', share(REFUSALS.length)]]));
    expect(answers).to.deep.equal(expected);
  });
});
