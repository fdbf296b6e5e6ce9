/** The rst2 command run for real: `node dist/src/cli.js ...` in a child process, as a user runs it. */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import path from 'node:path';

import { projectRoot } from '../../src/paths.js';

export const CLI = path.join(projectRoot, 'dist', 'src', 'cli.js');

export function rst2(args: string[], opts: { cwd: string; input?: string | Buffer; uid?: number }): SpawnSyncReturns<Buffer> {
  const env = { ...process.env };
  delete env.RST2_LOG_LEVEL;
  const as = opts.uid === undefined ? {} : { uid: opts.uid, gid: opts.uid };
  return spawnSync(process.execPath, [CLI, ...args], { cwd: opts.cwd, input: opts.input ?? '', env, timeout: 90_000, ...as });
}

/** Standard error without the progress line. */
export function stderrLines(r: SpawnSyncReturns<Buffer>): string[] {
  return r.stderr.toString().split('\n').filter((l) => l !== '' && l !== 'rst2: starting engines...');
}
