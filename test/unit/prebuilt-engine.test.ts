/**
 * The committed pdfTeX engine (scripts/tex/prebuilt) is what it says it is:
 * its files match their digests, and it was built by today's
 * scripts/tex/build-engine.sh. An edit of that script without a refreshed
 * engine would make every new machine compile for minutes; this says so at
 * once, with the command that refreshes it.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { projectRoot } from '../../src/paths.js';

const prebuilt = path.join(projectRoot, 'scripts', 'tex', 'prebuilt');
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('the committed pdfTeX engine', function () {
  it('has every file its sha256 list names, with that digest', function () {
    const lines = fs.readFileSync(path.join(prebuilt, 'sha256'), 'utf8').trim().split('\n');
    const names = lines.map((line) => {
      const [digest, name] = line.split(/\s+/);
      expect(sha256(path.join(prebuilt, name!)), name).to.equal(digest);
      return name;
    });
    expect(names).to.include.members(['pdftex.wasm', 'pdftex.cjs']);
  });

  it('was built by today\'s build-engine.sh (else: RST2_TEX_FORCE=1 RST2_TEX_UPDATE_PREBUILT=1 bash scripts/build-tex.sh)', function () {
    const recorded = fs.readFileSync(path.join(prebuilt, 'inputs.txt'), 'utf8').split('\n')[0]!.split(/\s+/)[0];
    expect(sha256(path.join(projectRoot, 'scripts', 'tex', 'build-engine.sh'))).to.equal(recorded);
  });

  it('carries the key of the inputs it lists, computed as build-tex.sh computes it', function () {
    const [scriptLine, ...versions] = fs.readFileSync(path.join(prebuilt, 'inputs.txt'), 'utf8').replace(/\n$/, '').split('\n');
    // build-tex.sh: sha256 of "<sha256sum output of build-engine.sh>\n<engine versions>", first 16 hex digits.
    const text = `${scriptLine!.split(/\s+/)[0]}  -\n${versions.join('\n')}`;
    const key = createHash('sha256').update(text).digest('hex').slice(0, 16);
    expect(fs.readFileSync(path.join(prebuilt, 'key'), 'utf8').trim()).to.equal(key);
  });
});
