/**
 * Where the folder store keeps a token's files, under `<data>/tokens`:
 *
 *   `<t0t1>/<token>.rst`    the text;
 *   `<t0t1>/<token>.count`  how many creations hold it (decimal);
 *   `holders/<h0h1>/<h>`    one empty file per creation, named by
 *                           h = holderName(token, hash of its deletion key).
 *
 * A deletion looks its key up by that one name, so it does the same work
 * whether the token exists, is unknown, or was created thousands of times;
 * and a creation adds one file instead of rewriting a list of all of them.
 * Every `holders/<h0h1>` folder is made when the store opens, so a lookup
 * walks the same folders whatever it finds. (Before this layout, the
 * creations were lines of `<token>.keys`; folder-migration.ts moves them.)
 */
import { createHash } from 'node:crypto';
import path from 'node:path';

import { TOKEN_PATTERN } from '../documents/document.js';

export interface TokenFiles {
  /** The token's fan-out folder. */
  dir: string;
  text: string;
  count: string;
  /** The list of creations of the layout before (folder-migration.ts). */
  legacyKeys: string;
}

export function holdersRoot(root: string): string {
  return path.join(root, 'holders');
}

/** Every fan-out folder of the holders: 00 … ff. */
export function holderDirs(root: string): string[] {
  return Array.from({ length: 256 }, (_, i) => path.join(holdersRoot(root), i.toString(16).padStart(2, '0')));
}

export function filesOf(root: string, token: string): TokenFiles {
  // Tokens come from clients: only the exact shape is ever used in a path.
  if (!TOKEN_PATTERN.test(token)) throw new Error('not a token');
  // Two-level fan-out keeps folders small with millions of tokens.
  const dir = path.join(root, token.slice(0, 2));
  const file = (ext: string) => path.join(dir, `${token}.${ext}`);
  return { dir, text: file('rst'), count: file('count'), legacyKeys: file('keys') };
}

/**
 * The name of one creation's holder file: a hash of the token and its key's
 * hash, so the name ties the key to this token alone, and a client who picks
 * keys cannot pick what the file system compares names against.
 */
export function holderName(token: string, keyHash: string): string {
  return createHash('sha256').update(`${token}\n${keyHash}`, 'utf8').digest('hex');
}

export function holderFile(root: string, token: string, keyHash: string): string {
  const name = holderName(token, keyHash);
  return path.join(holdersRoot(root), name.slice(0, 2), name);
}
