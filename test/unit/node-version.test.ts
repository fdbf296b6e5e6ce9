/** The install's Node.js floor (scripts/node-version.mjs) and package.json's "engines" say the same. */
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

import { expect } from 'chai';

import { projectRoot } from '../../src/paths.js';

interface NodeVersionModule {
  NODE_FLOOR: string;
  nodeTooOld(version: string): string | undefined;
}

describe('the Node.js floor checked at install', function () {
  let mod: NodeVersionModule;
  before(async function () {
    mod = (await import(pathToFileURL(path.join(projectRoot, 'scripts', 'node-version.mjs')).href)) as NodeVersionModule;
  });

  it('refuses versions below 20.15 with a message naming the version needed', function () {
    for (const old of ['20.14.0', 'v20.0.0', '18.20.4', '20.14.99']) {
      const message = mod.nodeTooOld(old);
      expect(message, old).to.be.a('string');
      expect(message).to.include('Node.js 20.15.0 or newer').and.include(old.replace(/^v/, ''));
    }
  });

  it('takes 20.15 and anything newer', function () {
    for (const fine of ['20.15.0', 'v20.20.2', '22.0.0', '24.11.1', process.versions.node]) expect(mod.nodeTooOld(fine), fine).to.equal(undefined);
  });

  it('is the floor package.json declares', function () {
    const pkg = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package.json'), 'utf8')) as { engines: { node: string } };
    expect(pkg.engines.node).to.equal(`>=${mod.NODE_FLOOR}`);
  });
});
