/**
 * What an operator relies on: /metrics, /ready, request ids in the logs,
 * CORS, a clear stop on a bad setting, and a clean stop on SIGTERM.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net, { type AddressInfo } from 'node:net';
import path from 'node:path';

import { expect } from 'chai';

import { ConfigError, loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import type { RunningServer } from '../src/server.js';
import { projectRoot } from '../src/paths.js';
import { readServeOutput } from './support/listening.js';
import { sample } from './support/metrics.js';
import { holdRequest } from './support/raw-http.js';
import { form, ownServer, server, tempDir } from './support/server.js';
import { waitFor } from './support/wait-for.js';

async function scrape(s: RunningServer): Promise<string> {
  const res = await fetch(`${s.url}/metrics`);
  expect(res.status).to.equal(200);
  expect(res.headers.get('content-type')).to.match(/^text\/plain; version=0\.0\.4/);
  return res.text();
}

describe('ops: /metrics', () => {
  it('counts requests by route and status, and latency by operation', async () => {
    const s = await server();
    const before = await scrape(s);
    const route = '/1.0/rst2/html';
    const ok = sample(before, 'rst2_http_requests_total', { route, method: 'POST', status: '200' }) ?? 0;
    const bad = sample(before, 'rst2_http_requests_total', { route, method: 'POST', status: '400' }) ?? 0;
    const seen = sample(before, 'rst2_http_request_duration_seconds_count', { operation: 'html' }) ?? 0;
    expect((await fetch(`${s.url}${route}`, form({ rst: `Metrics ${Date.now()}\n` }))).status).to.equal(200);
    expect((await fetch(`${s.url}${route}`, form({ nope: 'x' }))).status).to.equal(400);
    const after = await scrape(s);
    expect(sample(after, 'rst2_http_requests_total', { route, method: 'POST', status: '200' })).to.equal(ok + 1);
    expect(sample(after, 'rst2_http_requests_total', { route, method: 'POST', status: '400' })).to.equal(bad + 1);
    expect(sample(after, 'rst2_http_request_duration_seconds_count', { operation: 'html' })).to.equal(seen + 2);
    // The editor page, served outside the router, still has its own series.
    expect((await fetch(`${s.url}/`)).status).to.equal(200);
    expect(sample(await scrape(s), 'rst2_http_requests_total', { route: '/', method: 'GET', status: '200' })).to.be.greaterThan(0);
    // Unknown paths are one series, not one per path a scanner tries.
    await fetch(`${s.url}/wp-admin/${Date.now()}`);
    expect(sample(await scrape(s), 'rst2_http_requests_total', { route: 'unmatched', status: '404' })).to.be.greaterThan(0);
  });

  it('counts a first render as a cache miss and the same render again as a hit', async () => {
    const s = await server();
    const before = await scrape(s);
    const hits = sample(before, 'rst2_render_cache_lookups_total', { result: 'hit' }) ?? 0;
    const misses = sample(before, 'rst2_render_cache_lookups_total', { result: 'miss' }) ?? 0;
    const doc = `Cache ${Date.now()}\n==========\n`;
    for (let i = 0; i < 2; i++) expect((await fetch(`${s.url}/1.0/rst2/check`, form({ rst: doc }))).status).to.equal(200);
    const after = await scrape(s);
    expect(sample(after, 'rst2_render_cache_lookups_total', { result: 'miss' })).to.equal(misses + 1);
    expect(sample(after, 'rst2_render_cache_lookups_total', { result: 'hit' })).to.equal(hits + 1);
  });

  it('shows workers by engine and state, queue depth and restarts', async () => {
    const s = await server();
    const text = await scrape(s);
    const stats = s.python.stats();
    const busy = sample(text, 'rst2_engine_workers', { engine: 'python', state: 'busy' }) ?? -1;
    const idle = sample(text, 'rst2_engine_workers', { engine: 'python', state: 'idle' }) ?? -1;
    expect(idle).to.equal(stats.ready);
    expect(busy).to.equal(stats.busy);
    expect(sample(text, 'rst2_engine_workers', { engine: 'tex', state: 'idle' })).to.be.a('number');
    expect(sample(text, 'rst2_engine_queue_depth', { engine: 'python' })).to.equal(0);
    expect(sample(text, 'rst2_engine_worker_restarts_total', { engine: 'python' })).to.equal(stats.restarts);
    expect(sample(text, 'rst2_engine_worker_recycled_total', { engine: 'python' })).to.equal(stats.recycled);
    expect(text).to.match(/^rst2_process_resident_memory_bytes \d+/m);
  });
});

describe('ops: /ready', () => {
  it('is ready when the pools are warm and the store is reachable, and not when the store is gone', async () => {
    const dataDir = tempDir('ready');
    const s = await ownServer({ RST2_DATA_DIR: dataDir });
    try {
      const ok = await fetch(`${s.url}/ready`);
      const okBody: unknown = await ok.json();
      expect(ok.status, JSON.stringify(okBody)).to.equal(200);
      expect(okBody).to.deep.equal({ status: 'ready' });

      fs.rmSync(dataDir, { recursive: true, force: true });
      const gone = await fetch(`${s.url}/ready`);
      expect(gone.status).to.equal(503);
      expect(gone.headers.get('retry-after')).to.equal('2');
      const body = (await gone.json()) as { error: { code: string; problems: string[] } };
      expect(body.error.code).to.equal('not_ready');
      expect(body.error.problems.join(' ')).to.include('token store');

      fs.mkdirSync(path.join(dataDir, 'tokens'), { recursive: true });
      expect((await fetch(`${s.url}/ready`)).status).to.equal(200);
    } finally {
      await s.close();
    }
  });
});

describe('ops: request ids and logs', () => {
  it('returns X-Request-Id, keeps a plain incoming id, and logs JSON lines carrying it', async () => {
    const lines: string[] = [];
    const s = await ownServer({ RST2_LOG_LEVEL: 'info' }, createLogger('info', (line) => lines.push(line)));
    try {
      const mine = `trace-${Date.now()}`;
      const res = await fetch(`${s.url}/1.0/rst2/check`, { ...form({ rst: 'Hello\n' }), headers: { 'X-Request-Id': mine } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('x-request-id')).to.equal(mine);

      const hostile = await fetch(`${s.url}/1.0/rst2/html/styles`, { headers: { 'X-Request-Id': 'a b\u00e9"<script>' } });
      expect(hostile.headers.get('x-request-id')).to.match(/^[0-9a-f-]{36}$/);

      const entries = lines.flatMap((l) => l.split('\n')).filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
      const line = entries.find((e) => e.requestId === mine && e.msg === 'request');
      expect(line, 'an access log line with the incoming id').to.not.equal(undefined);
      expect(line).to.include({ level: 'info', method: 'POST', path: '/1.0/rst2/check', status: 200, service: 'rst2' });
      expect(line?.time).to.be.a('string');
    } finally {
      await s.close();
    }
  });
});

describe('ops: CORS', () => {
  it('allows any origin by default, without credentials, and answers preflights', async () => {
    const s = await server();
    const res = await fetch(`${s.url}/1.0/rst2/html/styles`, { headers: { Origin: 'https://docs.example' } });
    expect(res.headers.get('access-control-allow-origin')).to.equal('*');
    expect(res.headers.get('access-control-allow-credentials')).to.equal(null);
    expect(res.headers.get('access-control-expose-headers')).to.include('X-Request-Id');

    const pre = await fetch(`${s.url}/1.0/rst2/html`, {
      method: 'OPTIONS',
      headers: { Origin: 'https://docs.example', 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(pre.status).to.equal(204);
    expect(pre.headers.get('access-control-allow-methods')).to.include('POST');
    expect(pre.headers.get('access-control-allow-headers')?.toLowerCase()).to.include('content-type');

    // Errors carry the header too, so a browser script can read the JSON.
    const err = await fetch(`${s.url}/1.0/rst2/html?nope=1`, { headers: { Origin: 'https://docs.example' } });
    expect(err.status).to.equal(400);
    expect(err.headers.get('access-control-allow-origin')).to.equal('*');
  });

  it('with a list of origins, echoes only listed ones and varies on Origin', async () => {
    const s = await server({ RST2_CORS_ORIGIN: 'https://a.example, https://b.example' });
    const listed = await fetch(`${s.url}/1.0/rst2/pdf/classes`, { headers: { Origin: 'https://b.example' } });
    expect(listed.headers.get('access-control-allow-origin')).to.equal('https://b.example');
    expect(listed.headers.get('vary')).to.include('Origin');
    const other = await fetch(`${s.url}/1.0/rst2/pdf/classes`, { headers: { Origin: 'https://evil.example' } });
    expect(other.status).to.equal(200);
    expect(other.headers.get('access-control-allow-origin')).to.equal(null);
  });

  it('can be turned off, and a malformed origin stops the start', () => {
    expect(loadConfig({ RST2_CORS_ORIGIN: 'none' }).corsOrigins).to.deep.equal([]);
    expect(loadConfig({}).corsOrigins).to.equal('*');
    expect(() => loadConfig({ RST2_CORS_ORIGIN: 'https://a.example/path' })).to.throw(ConfigError, /RST2_CORS_ORIGIN/);
    expect(() => loadConfig({ RST2_SHUTDOWN_GRACE_MS: '-5' })).to.throw(ConfigError, /RST2_SHUTDOWN_GRACE_MS/);
  });
});

describe('ops: the serve process', () => {
  const cli = path.join(projectRoot, 'dist/src/cli.js');

  it('exits 2 with a message naming the setting when a setting is bad', async () => {
    const child = spawn(process.execPath, [cli, 'serve'], { env: { ...process.env, RST2_WORKERS: 'many' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    expect(code).to.equal(2);
    expect(err).to.include('RST2_WORKERS');
  });

  it('exits 1, saying why, when its port is taken (no workers left hanging)', async function () {
    this.timeout(120_000);
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as AddressInfo;
    try {
      const child = spawn(process.execPath, [cli, 'serve', '--port', String(port), '--host', '127.0.0.1'], {
        env: { ...process.env, RST2_WORKERS: '1', RST2_TEX_WORKERS: '1', RST2_DATA_DIR: tempDir('taken'), RST2_LOG_LEVEL: 'silent' },
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      let err = '';
      child.stderr.on('data', (d: Buffer) => (err += d.toString()));
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).to.equal(1);
      expect(err).to.match(/cannot start: .*EADDRINUSE/);
    } finally {
      blocker.close();
    }
  });

  it('on SIGTERM stops taking requests, finishes the one in flight, and exits 0', async function () {
    this.timeout(120_000);
    const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--host', '127.0.0.1'], {
      env: { ...process.env, RST2_WORKERS: '1', RST2_TEX_WORKERS: '1', RST2_DATA_DIR: tempDir('sigterm'), RST2_LOG_LEVEL: 'info' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const output = readServeOutput(child);
    const url = await output.url;
    const doc = Array.from({ length: 400 }, (_, i) => `Part ${i}\n${'='.repeat(10)}\n\nText *${i}*.\n`).join('\n');
    // Taken up by the server before the signal, and unfinished until the body
    // is sent once the process says it is stopping: in flight for sure.
    const inFlight = await holdRequest(url, 'POST', '/1.0/rst2/html', 'text/x-rst', doc);
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    await waitFor(() => output.log().includes('"signal":"SIGTERM"'), { what: 'the process to log that SIGTERM started its shutdown' });
    const res = await inFlight.finish();
    expect(res.status).to.equal(200);
    expect(res.body).to.include('Part 399');
    expect(await exited).to.equal(0);
    expect(output.log()).to.include('"signal":"SIGTERM"');
  });
});
