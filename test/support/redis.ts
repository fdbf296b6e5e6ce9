/**
 * A real redis-server for the tests, on a free loopback port with its data
 * in a temporary folder (append-only file, fsync on every write, no RDB
 * snapshots), which can be killed and started again on the same port and
 * folder to play an outage and a restart.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import net from 'node:net';

import { tempDir } from './server.js';

/** Why the Redis tests cannot run here, or undefined when they can. */
export function redisMissing(): string | undefined {
  const found = spawnSync('redis-server', ['--version'], { encoding: 'utf8' });
  if (found.error || found.status !== 0) return 'redis-server is not installed (npm install installs Debian\'s redis-server when it can)';
  return undefined;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const READY = /Ready to accept connections/;
const START_TIMEOUT_MS = 15_000;

export class TestRedis {
  private child: ChildProcess | undefined;
  private output = '';

  private constructor(
    readonly port: number,
    readonly dir: string,
  ) {}

  static async start(): Promise<TestRedis> {
    const redis = new TestRedis(await freePort(), tempDir('redis'));
    await redis.start();
    return redis;
  }

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /** Starts (again) on the same port and folder; resolves once Redis accepts connections. */
  async start(): Promise<void> {
    if (this.child) throw new Error('redis-server is already running');
    const args = ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'yes', '--appendfsync', 'always', '--dir', this.dir];
    const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    this.child = child;
    this.output = '';
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => fail(new Error(`redis-server not ready within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
      const fail = (err: Error) => {
        clearTimeout(timer);
        reject(new Error(`${err.message}\n${this.output.slice(-2000)}`));
      };
      const onData = (chunk: Buffer) => {
        this.output += chunk.toString('utf8');
        if (READY.test(this.output)) {
          clearTimeout(timer);
          resolve();
        }
      };
      child.stdout!.on('data', onData);
      child.stderr!.on('data', onData);
      child.once('exit', (code, signal) => {
        if (this.child === child) this.child = undefined;
        fail(new Error(`redis-server exited (${code ?? signal}) while starting`));
      });
      child.once('error', fail);
    });
  }

  /** Kills the server without letting it shut down cleanly, like a crash. */
  async kill(): Promise<void> {
    await this.end('SIGKILL');
  }

  /** A clean shutdown. */
  async stop(): Promise<void> {
    await this.end('SIGTERM');
  }

  private async end(signal: NodeJS.Signals): Promise<void> {
    const child = this.child;
    if (!child) return;
    this.child = undefined;
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill(signal);
    await exited;
  }
}
