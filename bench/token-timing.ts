/**
 * What a wrong deletion key costs, by the token it is tried on: a token with
 * one creation, an unknown token, and a token with 2,001 creations. One
 * instance in its own process (folder store, or Redis with --redis URL);
 * the three kinds are tried in turn, round after round, so a drift in the
 * machine's speed touches them alike. Prints the medians as ratios to the
 * unknown token's: 1.00 for both means the answer's time says nothing of
 * whether, or how often, a token was created.
 *
 * usage: npm run bench:token-timing -- [--rounds N] [--creations N] [--redis URL] [--root DIR]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { startInstance } from './instance-process.js';
import { benchArgs, fmt, median } from './support.js';

const args = benchArgs({ numbers: ['rounds', 'creations'], strings: ['redis', 'root'] });
const rounds = args.number('rounds', 400, { min: 10, whole: true });
const creations = args.number('creations', 2001, { min: 1, whole: true });
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-token-timing-'));
const env = { RST2_DATA_DIR: dataDir, ...(args.has('redis') ? { REDIS_URL: args.string('redis', '') } : {}) };
const instance = await startInstance(env, args.has('root') ? path.resolve(args.string('root', '.')) : undefined);
const create = async (rst: string) => (await fetch(`${instance.url}/1.0/rst2/token`, { method: 'POST', body: new URLSearchParams({ rst }) })).text();
/** A key of the right shape that no creation was given. */
const wrongKey = () => Buffer.from(crypto.getRandomValues(new Uint8Array(32))).toString('base64url');

try {
  const stamp = `${process.pid}-${Date.now()}`;
  const once = await create(`Once ${stamp}\n`);
  let many = '';
  for (let i = 0; i < creations; i++) many = await create(`Many ${stamp}\n`);
  const tokens = { existing: once, unknown: 'f0e1'.repeat(8), [`${creations} creations`]: many };
  const times = new Map<string, number[]>(Object.keys(tokens).map((name) => [name, []]));
  for (let round = -20; round < rounds; round++) {
    for (const [name, token] of Object.entries(tokens)) {
      const started = performance.now();
      const res = await fetch(`${instance.url}/1.0/rst2/token/${token}`, { method: 'DELETE', headers: { 'X-Rst2-Deletion-Key': wrongKey() } });
      await res.arrayBuffer();
      if (res.status !== 404) throw new Error(`a wrong key on ${name} answered ${res.status}`);
      if (round >= 0) times.get(name)!.push(performance.now() - started); // the first 20 rounds warm up
    }
  }
  const unknown = median(times.get('unknown')!);
  console.log(`wrong-key DELETE, median of ${rounds} (${args.has('redis') ? 'Redis' : 'folder'} store); unknown token ${fmt(unknown)} ms on this machine`);
  for (const [name, values] of times) console.log(`  ${name.padEnd(16)} ${(median(values) / unknown).toFixed(2)} × unknown`);
} finally {
  await instance.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
