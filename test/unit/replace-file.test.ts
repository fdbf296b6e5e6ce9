/**
 * How `rst2 check --fix` replaces a file (src/commands/replace-file.ts): the
 * new content by a rename in the same folder, the mode kept, and never a
 * temporary file left behind, whether it succeeds, finds the file changed
 * since it was read, or fails at the rename.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { replaceFile } from '../../src/commands/replace-file.js';
import { Code, ServiceError } from '../../src/errors.js';

function seenOf(file: string): { mtimeMs: number; size: number } {
  const stat = fs.statSync(file);
  return { mtimeMs: stat.mtimeMs, size: stat.size };
}

async function refusal(promise: Promise<unknown>): Promise<ServiceError> {
  try {
    await promise;
  } catch (err) {
    expect(err).to.be.instanceOf(ServiceError);
    return err as ServiceError;
  }
  throw new Error('expected a refusal');
}

describe('replaceFile', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-replace-'));
  });
  afterEach(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('replaces the content by a rename, keeping the mode, and leaves no temporary file', async () => {
    const file = path.join(dir, 'doc.rst');
    fs.writeFileSync(file, 'old\n');
    fs.chmodSync(file, 0o604);
    const before = fs.statSync(file).ino;
    await replaceFile(file, Buffer.from('new\n'), seenOf(file));
    expect(fs.readFileSync(file, 'utf8')).to.equal('new\n');
    expect(fs.statSync(file).mode & 0o777).to.equal(0o604);
    expect(fs.statSync(file).ino, 'a new file took its place').to.not.equal(before);
    expect(fs.readdirSync(dir)).to.deep.equal(['doc.rst']);
  });

  it('refuses a file that changed since it was read', async () => {
    const file = path.join(dir, 'doc.rst');
    fs.writeFileSync(file, 'old\n');
    const seen = seenOf(file);
    fs.writeFileSync(file, 'edited meanwhile\n');
    const err = await refusal(replaceFile(file, Buffer.from('new\n'), seen));
    expect(err.code).to.equal(Code.unwritable);
    expect(err.message).to.equal(`cannot write ${file}: it changed while it was being fixed; run again`);
    expect(fs.readFileSync(file, 'utf8')).to.equal('edited meanwhile\n');
    expect(fs.readdirSync(dir)).to.deep.equal(['doc.rst']);
  });

  it('removes its temporary file when the rename fails', async () => {
    // A folder cannot be renamed over: everything up to the rename succeeds.
    const target = path.join(dir, 'folder.rst');
    fs.mkdirSync(target);
    const err = await refusal(replaceFile(target, Buffer.from('new\n'), seenOf(target)));
    expect(err.code).to.equal(Code.unwritable);
    expect(fs.readdirSync(dir)).to.deep.equal(['folder.rst']);
    expect(process.listenerCount('SIGINT'), 'no signal handler stays').to.equal(0);
  });
});
