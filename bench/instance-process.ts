/**
 * One rst2 instance as its own OS process (`rst2 serve`), so a benchmark can
 * read that instance's memory alone: the load generator, its buffers and its
 * histograms stay in the benchmark's process and are not counted.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { projectRoot } from '../src/paths.js';

export interface InstanceProcess {
  url: string;
  pid: number;
  /** VmRSS and VmHWM (peak RSS since start) of the process, in MB, from /proc. */
  memory(): { rssMb: number; peakMb: number };
  /** Waits until no job is running or queued in either engine (read from /metrics). */
  waitIdle(maxMs?: number): Promise<void>;
  stop(): Promise<number | null>;
}

export async function startInstance(env: Record<string, string>): Promise<InstanceProcess> {
  const child = spawn(process.execPath, [path.join(projectRoot, 'dist/src/cli.js'), 'serve', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, RST2_LOG_LEVEL: 'info', REDIS_URL: '', RST2_REDIS_CACHE_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  let tail = '';
  const url = await new Promise<string>((resolve, reject) => {
    let pending = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      pending += chunk.toString('utf8');
      tail = (tail + chunk.toString('utf8')).slice(-3000);
      let newline: number;
      while ((newline = pending.indexOf('\n')) >= 0) {
        const line = pending.slice(0, newline);
        pending = pending.slice(newline + 1);
        try {
          const entry = JSON.parse(line) as { msg?: string; url?: string };
          if (entry.msg === 'listening' && entry.url) resolve(entry.url);
        } catch {
          // not a log line
        }
      }
    });
    void exited.then((code) => reject(new Error(`rst2 serve exited with ${code} before listening: ${tail}`)));
  });
  const pid = child.pid!;
  const kb = (status: string, field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
  return {
    url,
    pid,
    memory() {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      return { rssMb: (kb(status, 'VmRSS') * 1024) / 1e6, peakMb: (kb(status, 'VmHWM') * 1024) / 1e6 };
    },
    async waitIdle(maxMs = 120_000) {
      const until = Date.now() + maxMs;
      while (Date.now() < until) {
        const text = await (await fetch(`${url}/metrics`)).text();
        const sum = (re: RegExp) => [...text.matchAll(re)].reduce((a, m) => a + Number(m[1]), 0);
        const load = sum(/^rst2_engine_workers\{[^}]*state="busy"[^}]*\} (\d+)/gm) + sum(/^rst2_engine_queue_depth\{[^}]*\} (\d+)/gm);
        if (load === 0) return;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`the engines were still busy after ${maxMs} ms`);
    },
    async stop() {
      child.kill('SIGTERM');
      return exited;
    },
  };
}
