/**
 * One rst2 instance as its own OS process (`rst2 serve`), so a benchmark can
 * read that instance's memory alone: the load generator, its buffers and its
 * histograms stay in the benchmark's process and are not counted.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { projectRoot } from '../src/paths.js';
import { readServeOutput } from '../test/support/listening.js';

export interface InstanceProcess {
  url: string;
  pid: number;
  /** VmRSS and VmHWM (peak RSS since start) of the process, in MB, from /proc. */
  memory(): { rssMb: number; peakMb: number };
  /** Waits until no job is running or queued in either engine (read from /metrics). */
  waitIdle(maxMs?: number): Promise<void>;
  stop(): Promise<number | null>;
}

/** `root`: the checkout whose built service to run (another one's, to compare before and after a change). */
export async function startInstance(env: Record<string, string>, root = projectRoot): Promise<InstanceProcess> {
  const child = spawn(process.execPath, [path.join(root, 'dist/src/cli.js'), 'serve', '--port', '0', '--host', '127.0.0.1'], {
    env: { ...process.env, RST2_LOG_LEVEL: 'info', REDIS_URL: '', RST2_REDIS_CACHE_URL: '', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const url = await readServeOutput(child).url;
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
