/**
 * The production path the README gives: build with the dev dependencies
 * (`npm ci`), then `npm prune --omit=dev`, then `npm start`. The service must
 * run from what is left, so a runtime import of a dev dependency fails here.
 * The copy is made of hard links (cp -al), so pruning it (which unlinks)
 * leaves this checkout's node_modules as it was; `--offline` keeps npm off
 * the network.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { projectRoot } from '../src/paths.js';
import { form, tempDir } from './support/server.js';
import { ServiceProcess } from './support/service-process.js';

function run(command: string, args: string[], cwd: string): string {
  const out = spawnSync(command, args, { cwd, encoding: 'utf8', env: { ...process.env, npm_config_update_notifier: 'false' } });
  if (out.error || out.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (${out.status ?? out.error}):\n${out.stderr}`);
  return out.stdout;
}

describe('a production install (npm prune --omit=dev, then npm start)', function () {
  this.timeout(240_000);
  let root: string;
  let service: ServiceProcess | undefined;

  before(function () {
    root = tempDir('production');
    // npm rewrites the lock files in place: those are copied, the rest linked.
    for (const entry of ['package.json', 'package-lock.json']) fs.copyFileSync(path.join(projectRoot, entry), path.join(root, entry));
    for (const entry of ['dist', 'wasm', 'python', 'styles', 'node_modules']) {
      run('cp', ['-al', path.join(projectRoot, entry), path.join(root, entry)], projectRoot);
    }
    fs.rmSync(path.join(root, 'node_modules', '.package-lock.json'), { force: true });
    // Tests and benches are not part of a production tree.
    fs.rmSync(path.join(root, 'dist', 'test'), { recursive: true, force: true });
    fs.rmSync(path.join(root, 'dist', 'bench'), { recursive: true, force: true });
    run('npm', ['prune', '--omit=dev', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], root);
  });

  after(async function () {
    await service?.stop();
  });

  it('leaves no dev dependency, and the service answers /health and renders', async function () {
    // The lock file marks what only the dev dependencies need ("dev": true).
    const lock = JSON.parse(fs.readFileSync(path.join(projectRoot, 'package-lock.json'), 'utf8')) as { packages: Record<string, { dev?: boolean }> };
    const devOnly = Object.entries(lock.packages).filter(([where, entry]) => where && entry.dev).map(([where]) => where);
    expect(devOnly, 'the lock file lists dev-only packages').to.include('node_modules/typescript').and.include('node_modules/mocha');
    const left = devOnly.filter((where) => fs.existsSync(path.join(root, where)));
    expect(left, 'dev-only packages still installed after the prune').to.deep.equal([]);
    // This checkout's own copy is untouched (the links were removed, not the files).
    expect(fs.existsSync(path.join(projectRoot, 'node_modules', 'mocha', 'package.json'))).to.equal(true);

    service = await ServiceProcess.start({}, root);
    const health = await fetch(`${service.url}/health`);
    expect(health.status, await health.clone().text()).to.equal(200);
    const html = await fetch(`${service.url}/1.0/rst2/html`, form({ rst: 'Title\n=====\n\nThe *zeppelin* crossed.\n' }));
    expect(html.status).to.equal(200);
    expect(await html.text()).to.include('<em>zeppelin</em>');
  });
});
