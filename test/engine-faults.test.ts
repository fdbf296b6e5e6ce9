import { expect } from 'chai';

import type { RunningServer } from '../src/server.js';
import { api, errorOf, form, server } from './support/server.js';
import { waitFor } from './support/wait-for.js';

/**
 * Substitutions that expand 3^9 times: about 10 MiB by the output bound's
 * estimate, so they are not refused up front, yet docutils' Substitutions
 * transform needs half a minute for them (its bookkeeping is quadratic). A deeper
 * bomb is refused at once (output_too_large). `tag` makes each one unique.
 */
function runaway(tag = ''): string {
  const depth = 9;
  const defs = Array.from({ length: depth }, (_, i) => `.. |s${i}| replace:: |s${i + 1}| |s${i + 1}| |s${i + 1}|`);
  return `${defs.join('\n')}\n.. |s${depth}| replace:: boom\n\n|s0| ${tag}\n`;
}

function deepNesting(levels: number): string {
  return Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}* level ${i}\n`).join('\n');
}

describe('engine faults: the service keeps serving', () => {
  let s: RunningServer;
  const timeoutMs = 3000;
  before(async () => {
    s = await server({ RST2_RENDER_TIMEOUT_MS: String(timeoutMs), RST2_WORKERS: '1', RST2_QUEUE_LIMIT: '1' });
  });

  it('a runaway document is answered within the deadline, and the next one renders', async () => {
    const started = Date.now();
    const res = await api(s, '/1.0/rst2/html', form({ rst: runaway() }));
    const took = Date.now() - started;
    expect(res.status).to.equal(422);
    expect((await errorOf(res)).code).to.equal('render_timeout');
    expect(took).to.be.within(timeoutMs - 100, timeoutMs + 2500);
    const next = await api(s, '/1.0/rst2/html', form({ rst: 'After\n=====\n\nfine\n' }));
    expect(next.status).to.equal(200);
    expect(await next.text()).to.include('<title>After</title>');
  });

  it('200 levels of nesting are a clear 422, and the next document renders', async () => {
    const res = await api(s, '/1.0/rst2/html', form({ rst: deepNesting(200) }));
    expect(res.status).to.equal(422);
    const err = await errorOf(res);
    expect(err.code).to.equal('document_too_deep');
    expect(err.message).to.include('nested too deeply');
    expect((await api(s, '/1.0/rst2/check', form({ rst: 'ok\n' }))).status).to.equal(200);
  });

  it('a worker killed mid-job fails only that job (503 Retry-After) and is replaced', async () => {
    const before = s.python.stats().restarts;
    const pending = api(s, '/1.0/rst2/html', form({ rst: runaway('killed') }));
    await waitFor(() => s.python.busyThreads().length > 0, { what: 'the runaway document to reach a Python worker' });
    const threads = s.python.busyThreads();
    expect(threads).to.have.length(1);
    await threads[0]!.terminate();
    const res = await pending;
    expect(res.status).to.equal(503);
    expect(res.headers.get('retry-after')).to.equal('1');
    expect((await errorOf(res)).code).to.equal('engine_crashed');
    expect(s.python.stats().restarts).to.equal(before + 1);
    const next = await api(s, '/1.0/rst2/html', form({ rst: 'Healed\n======\n\nyes\n' }));
    expect(next.status).to.equal(200);
    expect(await next.text()).to.include('<title>Healed</title>');
  });

  it('a full queue answers 503 with Retry-After', async () => {
    // One worker, queue of one: the third concurrent request finds no room.
    const slow = [api(s, '/1.0/rst2/html', form({ rst: runaway('first') })), api(s, '/1.0/rst2/html', form({ rst: runaway('second') }))];
    await waitFor(() => s.python.stats().busy === 1 && s.python.stats().queued === 1, { what: 'one runaway on the worker and the other in the queue' });
    const res = await api(s, '/1.0/rst2/html', form({ rst: 'third\n' }));
    expect(res.status).to.equal(503);
    expect(res.headers.get('retry-after')).to.equal('1');
    expect((await errorOf(res)).code).to.equal('overloaded');
    const statuses = (await Promise.all(slow)).map((r) => r.status);
    expect(statuses).to.deep.equal([422, 422]);
  });

  it('/health renders a document now', async () => {
    const res = await api(s, '/health');
    expect(res.status).to.equal(200);
    const body = (await res.json()) as { status: string; python: { size: number } };
    expect(body.status).to.equal('ok');
    expect(body.python.size).to.equal(1);
  });
});

describe('an engine that cannot start', () => {
  it('start() rejects with the reason instead of hanging', async () => {
    const { PythonEngine } = await import('../src/engines/python/engine.js');
    const { createLogger } = await import('../src/log.js');
    const { paths } = await import('../src/paths.js');
    const engine = new PythonEngine({
      workers: 1,
      queueLimit: 1,
      timeoutMs: 1000,
      bundlePath: '/nonexistent/bundle.tar',
      pythonSources: paths.pythonSources,
      stylesDir: paths.styles,
      useSnapshot: false,
      log: createLogger('silent'),
    });
    let error: unknown;
    try {
      await engine.start();
    } catch (err) {
      error = err;
    } finally {
      await engine.close();
    }
    expect(error).to.be.instanceOf(Error);
    expect((error as Error).message).to.match(/python workers cannot start: .*nonexistent/);
  });
});

describe('a snapshot that will not load', () => {
  it('costs a plain boot, not the service, and is removed so that the next start makes it again', async function () {
    this.timeout(180_000);
    const fs = await import('node:fs');
    const os = await import('node:os');
    const path = await import('node:path');
    const { PythonEngine } = await import('../src/engines/python/engine.js');
    const { snapshotKey } = await import('../src/engines/python/snapshot.js');
    const { createLogger } = await import('../src/log.js');
    const { paths } = await import('../src/paths.js');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-snapshot-'));
    try {
      const bundlePath = path.join(dir, 'bundle.tar');
      fs.symlinkSync(paths.pythonBundle, bundlePath);
      fs.copyFileSync(path.join(path.dirname(paths.pythonBundle), 'manifest.json'), path.join(dir, 'manifest.json'));
      const boot = { bundlePath, pythonSources: paths.pythonSources, stylesDir: paths.styles };
      // What a full disk leaves: the right name, a few bytes of content.
      const snapshot = path.join(dir, `snapshot-${snapshotKey(boot)}.bin`);
      fs.writeFileSync(snapshot, 'not a snapshot');
      const engine = new PythonEngine({ workers: 1, queueLimit: 1, timeoutMs: 60_000, ...boot, log: createLogger('silent') });
      try {
        await engine.start();
        const problems = await engine.check('Long title\n=====\n');
        expect(problems.map((p) => p.rule)).to.deep.equal(['title-underline-too-short']);
      } finally {
        await engine.close();
      }
      expect(fs.existsSync(snapshot)).to.equal(false);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
