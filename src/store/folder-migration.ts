/**
 * Moves the creations of the layout before folder-layout.ts's — lines of
 * `<token>.keys` (the hash of a deletion key, or `keyless`) — to holder
 * files and a count, when the store opens, before it serves anything: a
 * deletion must find every key in the one place it looks, whatever the
 * age of the token. Nothing is lost and every key still deletes its creation.
 *
 * Each token's `.keys` goes last, after its holders and its count are
 * durable, so a crash in between leaves it to be moved again at the next
 * start (holders already there are kept, the count is written anew).
 */
import path from 'node:path';

import { TOKEN_PATTERN } from '../documents/document.js';
import { KEY_HASH_PATTERN } from './deletion-key.js';
import type { FolderIo } from './folder-io.js';
import { filesOf, holderFile } from './folder-layout.js';

const FAN_OUT = /^[0-9a-f]{2}$/;
const LEGACY = /^([0-9a-f]{32})\.keys$/;

/** How many tokens were moved. */
export async function migrateLegacyKeys(root: string, io: FolderIo): Promise<number> {
  let moved = 0;
  for (const fanOut of (await io.list(root)).filter((name) => FAN_OUT.test(name))) {
    for (const name of await io.list(path.join(root, fanOut))) {
      const token = LEGACY.exec(name)?.[1];
      if (token === undefined || !TOKEN_PATTERN.test(token)) continue;
      await migrateToken(root, token, io);
      moved++;
    }
  }
  return moved;
}

async function migrateToken(root: string, token: string, io: FolderIo): Promise<void> {
  const files = filesOf(root, token);
  // A list without a text is what a crash while creating left: no token (as before).
  if (await io.exists(files.text)) {
    const lines = ((await io.read(files.legacyKeys)) ?? '').split('\n').map((line) => line.trim()).filter((line) => line !== '');
    // One hash twice was one holder before (a deletion with its key removed
    // every line of it); a line that is no hash (written by hand, or
    // damaged) still held the text, so it counts as `keyless`: kept, and
    // ended by no key. A `keyless` creation has no file.
    const hashes = new Set(lines.filter((line) => KEY_HASH_PATTERN.test(line)));
    const keyless = lines.filter((line) => !KEY_HASH_PATTERN.test(line)).length;
    for (const hash of hashes) await io.touch(holderFile(root, token, hash));
    await io.replace(files.count, String(hashes.size + keyless));
  }
  await io.removeAll([files.legacyKeys]);
}
