/**
 * The embedded token store: files under a folder, laid out as
 * folder-layout.ts says — a text per token, a count of the creations holding
 * it, and an empty file per creation named by a hash of the token and its
 * deletion key's hash (see token-store.ts). Every write is durable on its own
 * (folder-io.ts), and the order of writes makes a crash at any moment err on
 * the side of keeping a text: a count is raised before its holder is made and
 * lowered after its holder is gone, so it may be too high, never too low.
 *
 * Changes to one token's files are serialised within this process; the
 * folder store serves one process (several instances share Redis instead).
 */
import path from 'node:path';

import { KEY_HASH_PATTERN } from './deletion-key.js';
import { nodeFolderIo, type FolderIo } from './folder-io.js';
import { filesOf, holderDirs, holderFile, type TokenFiles } from './folder-layout.js';
import { migrateLegacyKeys } from './folder-migration.js';
import type { TokenStore } from './token-store.js';

export class FolderStore implements TokenStore {
  private readonly root: string;
  /** The last change queued per token: the next one waits for it. */
  private readonly changes = new Map<string, Promise<unknown>>();

  constructor(
    dataDir: string,
    private readonly io: FolderIo = nodeFolderIo,
  ) {
    this.root = path.join(dataDir, 'tokens');
  }

  async init(): Promise<this> {
    await this.io.mkdir(this.root);
    for (const dir of holderDirs(this.root)) await this.io.mkdir(dir);
    await migrateLegacyKeys(this.root, this.io);
    return this;
  }

  private serialised<T>(token: string, change: () => Promise<T>): Promise<T> {
    const previous = this.changes.get(token) ?? Promise.resolve();
    const next = previous.then(change, change);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.changes.set(token, settled);
    void settled.then(() => {
      if (this.changes.get(token) === settled) this.changes.delete(token);
    });
    return next;
  }

  /**
   * The creations holding a stored text. A text without a count was stored
   * before deletion keys existed: its one holder is keyless, which no key ends.
   */
  private async count(files: TokenFiles): Promise<number> {
    const written = await this.io.read(files.count);
    if (written === undefined) return 1;
    const count = Number(written);
    // A count that cannot be read keeps the text: too high is the safe side.
    return Number.isSafeInteger(count) && count >= 0 ? count : Number.MAX_SAFE_INTEGER;
  }

  save(token: string, text: string, keyHash: string): Promise<void> {
    const files = filesOf(this.root, token);
    if (!KEY_HASH_PATTERN.test(keyHash)) throw new Error('not a key hash');
    const holder = holderFile(this.root, token, keyHash);
    return this.serialised(token, async () => {
      const stored = await this.io.exists(files.text);
      // Without a text, a count is what a crash while creating left: it starts again.
      const before = stored ? await this.count(files) : 0;
      if (!stored) await this.io.mkdir(files.dir);
      await this.io.replace(files.count, String(before + 1));
      await this.io.touch(holder);
      // Same token, same content: a stored text is never written again. Written
      // last, so a crash before leaves a count and a holder without a text,
      // which loads as no token and whose key was never answered.
      if (!stored) await this.io.replace(files.text, text);
    });
  }

  async load(token: string): Promise<string | undefined> {
    return this.io.read(filesOf(this.root, token).text);
  }

  /**
   * A wrong key, whatever the token, costs one attempt to remove one file by
   * a name computed from the token and the key's hash: nothing is read or
   * compared that depends on whether or how often the token was created.
   */
  remove(token: string, keyHash: string): Promise<boolean> {
    const files = filesOf(this.root, token);
    const holder = holderFile(this.root, token, keyHash);
    return this.serialised(token, async () => {
      if (!(await this.io.unlink(holder))) return false;
      // A holder without a text is a creation whose save never finished.
      const left = (await this.count(files)) - 1;
      if (left > 0) {
        await this.io.replace(files.count, String(left));
        return true;
      }
      // The text first: a count left without a text is no token.
      await this.io.removeAll([files.text, files.count]);
      return true;
    });
  }

  async ping(): Promise<void> {
    await this.io.writable(this.root);
  }

  async close(): Promise<void> {}
}
