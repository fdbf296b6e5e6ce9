/**
 * The service as a separate OS process (`rst2 serve --port 0`), for tests
 * where several instances must share something, such as Redis. The URL comes
 * from its 'listening' log line.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';

import { projectRoot } from '../../src/paths.js';
import { tempDir } from './server.js';

const START_TIMEOUT_MS = 90_000;

export class ServiceProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
    private readonly lines: string[],
  ) {}

  /** `root`: the checkout whose dist/src/cli.js to run (another install of the project, for instance). */
  static start(env: Record<string, string>, root: string = projectRoot): Promise<ServiceProcess> {
    const child = spawn(process.execPath, [path.join(root, 'dist/src/cli.js'), 'serve', '--port', '0', '--host', '127.0.0.1'], {
      env: {
        ...process.env,
        RST2_WORKERS: '1',
        RST2_TEX_WORKERS: '1',
        RST2_DATA_DIR: tempDir('data'),
        RST2_LOG_LEVEL: 'info',
        // Only what the test asks for: no Redis the caller's environment may name.
        REDIS_URL: '',
        RST2_REDIS_CACHE_URL: '',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    const lines: string[] = [];
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => fail(`did not report listening within ${START_TIMEOUT_MS} ms`), START_TIMEOUT_MS);
      const fail = (why: string) => {
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`rst2 serve ${why}\n${lines.slice(-20).join('\n').slice(-3000)}`));
      };
      let pending = '';
      child.stderr!.on('data', (chunk: Buffer) => {
        pending += chunk.toString('utf8');
        let newline: number;
        while ((newline = pending.indexOf('\n')) >= 0) {
          const line = pending.slice(0, newline);
          pending = pending.slice(newline + 1);
          // Keep a tail for failure messages; the pipe is always drained.
          lines.push(line.slice(0, 500));
          if (lines.length > 200) lines.shift();
          let entry: { msg?: string; url?: string };
          try {
            entry = JSON.parse(line) as { msg?: string; url?: string };
          } catch {
            continue;
          }
          if (entry.msg === 'listening' && entry.url) {
            clearTimeout(timer);
            resolve(new ServiceProcess(child, entry.url, lines));
          }
        }
      });
      child.once('exit', (code, signal) => fail(`exited (${code ?? signal}) before listening`));
    });
  }

  /** The log lines seen so far (JSON), newest last. */
  log(): readonly string[] {
    return this.lines;
  }

  /** SIGTERM (graceful close), then waits for the exit. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
    this.child.kill('SIGTERM');
    await exited;
  }
}
