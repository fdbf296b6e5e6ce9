/** What the service says it runs: engine versions from the manifests, and a render-key salt that moves with the bundle. */
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { projectRoot } from '../../src/paths.js';
import { engineVersions, readVersions, upstreamVersion } from '../../src/versions.js';

describe('engine versions', () => {
  it("are Debian's upstream versions, without epoch, revision or repack suffix", () => {
    expect(upstreamVersion('0.23+dfsg-2')).to.equal('0.23');
    expect(upstreamVersion('2.20.0+dfsg-2')).to.equal('2.20.0');
    expect(upstreamVersion('1:0.23.1+dfsg-1~bpo13+1')).to.equal('0.23.1');
    expect(upstreamVersion('4.1.0-1')).to.equal('4.1.0');
  });

  it('are read from the bundle manifest of either shape, and null where a part is not built', () => {
    const tex = { engine: { name: 'pdfTeX', version: '1.40.24' } };
    const now = { packages: [{ name: 'python3-docutils', version: '0.23+dfsg-2' }, { name: 'python3-pygments', version: '2.20.0+dfsg-2' }] };
    expect(engineVersions(now, tex)).to.deep.equal({ docutils: '0.23', pygments: '2.20.0', tex: 'pdfTeX 1.40.24', shapingTex: null });
    const both = { ...tex, engines: { luahbtex: { name: 'LuaHBTeX', version: '1.15.0' } } };
    expect(engineVersions(now, both).shapingTex).to.equal('LuaHBTeX 1.15.0');
    const before = { packages: { 'python3-docutils': '0.19+dfsg-6', 'python3-pygments': '2.14.0+dfsg-1' } };
    expect(engineVersions(before, undefined)).to.deep.equal({ docutils: '0.19', pygments: '2.14.0', tex: null, shapingTex: null });
    expect(engineVersions(undefined, undefined)).to.deep.equal({ docutils: null, pygments: null, tex: null, shapingTex: null });
  });

  it("salt the render keys with the Python bundle's key, so no page of an older docutils is served from the cache", () => {
    const manifest = JSON.parse(fs.readFileSync(path.join(projectRoot, 'wasm/python/manifest.json'), 'utf8')) as { key: string };
    const versions = readVersions();
    expect(versions.renderKeySalt.split('/')).to.include(manifest.key);
    expect(versions.engines.docutils).to.be.a('string');
  });
});
