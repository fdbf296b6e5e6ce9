/**
 * Real servers for the tests: the whole service on port 0 with its real
 * engines, in a temporary data folder. Servers are shared per configuration
 * and closed once, at the end of the run (see hooks.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { loadConfig, type Config } from '../../src/config.js';
import { createLogger, type Logger } from '../../src/log.js';
import { startServer, type RunningServer } from '../../src/server.js';

const running = new Map<string, Promise<RunningServer>>();
const made: string[] = [];

export function tempDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rst2-${prefix}-`));
  made.push(dir);
  return dir;
}

/** The settings of a test server: loopback, port 0, small pools, a fresh data folder, quiet; `env` overrides. */
export function testConfig(env: Record<string, string> = {}): Config {
  return loadConfig({
    HOST: '127.0.0.1',
    PORT: '0',
    RST2_WORKERS: '2',
    RST2_TEX_WORKERS: '1',
    RST2_DATA_DIR: tempDir('data'),
    RST2_LOG_LEVEL: process.env.RST2_TEST_LOG_LEVEL ?? 'silent',
    ...env,
  });
}

/** A server for these environment overrides (same overrides, same server). */
export function server(env: Record<string, string> = {}): Promise<RunningServer> {
  const key = JSON.stringify(Object.entries(env).sort());
  let started = running.get(key);
  if (!started) {
    const config = testConfig(env);
    started = startServer(config, createLogger(config.logLevel));
    running.set(key, started);
  }
  return started;
}

/**
 * A server of the test's own, for one it stops, breaks or reads the log of:
 * one worker per engine unless `env` says otherwise. The caller closes it.
 */
export function ownServer(env: Record<string, string> = {}, log?: Logger): Promise<RunningServer> {
  const config = testConfig({ RST2_WORKERS: '1', ...env });
  return startServer(config, log ?? createLogger(config.logLevel));
}

export async function closeAll(): Promise<void> {
  const all = [...running.values()];
  running.clear();
  await Promise.all(all.map(async (s) => (await s).close()));
  for (const dir of made.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
}

export async function api(base: RunningServer, pathAndQuery: string, init?: RequestInit): Promise<Response> {
  return fetch(`${base.url}${pathAndQuery}`, init);
}

export function form(fields: Record<string, string>): RequestInit {
  return { method: 'POST', body: new URLSearchParams(fields) };
}

export function query(fields: Record<string, string>): string {
  return `?${new URLSearchParams(fields).toString()}`;
}

export interface ErrorBody {
  error: { code: string; message: string; [extra: string]: unknown };
}

export async function errorOf(res: Response): Promise<ErrorBody['error']> {
  const body = (await res.json()) as ErrorBody;
  return body.error;
}
