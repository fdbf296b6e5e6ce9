/**
 * The committed engines, pdfTeX and LuaHBTeX (scripts/tex/prebuilt), are
 * what they say they are: their files match their digests, and they were
 * built by today's scripts/tex/build-engine.sh and engine-stubs/. An edit
 * of those without refreshed engines would make every new machine compile
 * for half an hour; this says so at once, with the command that refreshes them.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { projectRoot } from '../../src/paths.js';

const prebuilt = path.join(projectRoot, 'scripts', 'tex', 'prebuilt');
const sha256 = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');

describe('the committed TeX engines', function () {
  it('has every file its sha256 list names, with that digest', function () {
    const lines = fs.readFileSync(path.join(prebuilt, 'sha256'), 'utf8').trim().split('\n');
    const names = lines.map((line) => {
      const [digest, name] = line.split(/\s+/);
      expect(sha256(path.join(prebuilt, name!)), name).to.equal(digest);
      return name;
    });
    expect(names).to.include.members(['pdftex.wasm', 'pdftex.cjs', 'luahbtex.wasm', 'luahbtex.cjs']);
  });

  it('was built by today\'s build-engine.sh and engine stubs (else: RST2_TEX_FORCE=1 RST2_TEX_UPDATE_PREBUILT=1 bash scripts/build-tex.sh)', function () {
    // inputs.txt starts with "<sha256>  <path>" for each script of the compile, then the package versions.
    const scripts = fs.readFileSync(path.join(prebuilt, 'inputs.txt'), 'utf8').split('\n')
      .map((line) => /^([0-9a-f]{64}) {2}(scripts\/\S+)$/.exec(line)).filter((m) => m !== null);
    const stubs = fs.readdirSync(path.join(projectRoot, 'scripts', 'tex', 'engine-stubs'), { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile()).map((e) => path.relative(projectRoot, path.join(e.parentPath, e.name)).split(path.sep).join('/'));
    expect(scripts.map((m) => m[2]).sort()).to.deep.equal(['scripts/tex/build-engine.sh', ...stubs].sort());
    for (const m of scripts) expect(sha256(path.join(projectRoot, m[2]!)), m[2]).to.equal(m[1]);
  });

  it('carries the key of the inputs it lists, computed as build-tex.sh computes it', function () {
    // build-tex.sh: sha256 of "<each script's sha256 and path>\n<engine versions>", first 16 hex digits: inputs.txt without its last newline.
    const text = fs.readFileSync(path.join(prebuilt, 'inputs.txt'), 'utf8').replace(/\n$/, '');
    const key = createHash('sha256').update(text).digest('hex').slice(0, 16);
    expect(fs.readFileSync(path.join(prebuilt, 'key'), 'utf8').trim()).to.equal(key);
  });
});
