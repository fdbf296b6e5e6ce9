/**
 * The embedded token store: one file per token under a folder, and next to
 * it `<token>.keys`, one line per creation still holding the text (the hash
 * of its deletion key, or `keyless` for a text stored before keys existed;
 * see token-store.ts). Writes go to a temporary file that is fsynced and
 * renamed into place (and the folder fsynced), so a crash at any moment
 * leaves either the old file or the new one, whole.
 *
 * Changes to one token's files are serialised within this process; the
 * folder store serves one process (several instances share Redis instead).
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

import { TOKEN_PATTERN } from '../documents/document.js';
import { findKeyHash, KEY_HASH_PATTERN } from './deletion-key.js';
import { KEYLESS, type TokenStore } from './token-store.js';

function missing(err: unknown): boolean {
  return (err as NodeJS.ErrnoException).code === 'ENOENT';
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

export class FolderStore implements TokenStore {
  private readonly root: string;
  /** The last change queued per token: the next one waits for it. */
  private readonly changes = new Map<string, Promise<unknown>>();

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'tokens');
  }

  async init(): Promise<this> {
    await fs.mkdir(this.root, { recursive: true });
    return this;
  }

  private filesOf(token: string): { dir: string; text: string; keys: string } {
    // Tokens come from clients: only the exact shape is ever used in a path.
    if (!TOKEN_PATTERN.test(token)) throw new Error(`not a token: ${JSON.stringify(token).slice(0, 40)}`);
    // Two-level fan-out keeps folders small with millions of tokens.
    const dir = path.join(this.root, token.slice(0, 2));
    return { dir, text: path.join(dir, `${token}.rst`), keys: path.join(dir, `${token}.keys`) };
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

  private async writeAtomically(dir: string, file: string, content: string): Promise<void> {
    await fs.mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await fs.open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(content, 'utf8');
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await fs.rename(tmp, file);
    } catch (err) {
      await fs.rm(tmp, { force: true });
      throw err;
    }
    await this.syncDir(dir);
  }

  private async syncDir(dir: string): Promise<void> {
    const dirHandle = await fs.open(dir, 'r');
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  }

  /** The holders of a stored text; a text without a keys file was stored before keys existed. */
  private async holders(files: { text: string; keys: string }): Promise<string[] | undefined> {
    try {
      return (await fs.readFile(files.keys, 'utf8')).split('\n').filter((line) => line === KEYLESS || KEY_HASH_PATTERN.test(line));
    } catch (err) {
      if (!missing(err)) throw err;
      return (await exists(files.text)) ? [KEYLESS] : undefined;
    }
  }

  save(token: string, text: string, keyHash: string): Promise<void> {
    const files = this.filesOf(token);
    if (!KEY_HASH_PATTERN.test(keyHash)) throw new Error('not a key hash');
    return this.serialised(token, async () => {
      const stored = await exists(files.text);
      const holders = stored ? ((await this.holders(files)) ?? []) : [];
      // The holders first: a crash before the text is written leaves a keys
      // file without a text, which loads as no token and is replaced by the next save.
      await this.writeAtomically(files.dir, files.keys, [...holders, keyHash].join('\n'));
      // Same token, same content: a stored text is never written again.
      if (!stored) await this.writeAtomically(files.dir, files.text, text);
    });
  }

  async load(token: string): Promise<string | undefined> {
    const { text } = this.filesOf(token);
    try {
      return await fs.readFile(text, 'utf8');
    } catch (err) {
      if (missing(err)) return undefined;
      throw err;
    }
  }

  remove(token: string, keyHash: string): Promise<boolean> {
    const files = this.filesOf(token);
    return this.serialised(token, async () => {
      if (!(await exists(files.text))) return false;
      const holders = (await this.holders(files)) ?? [];
      const held = findKeyHash(holders, keyHash);
      if (held === undefined) return false;
      const left = holders.filter((h) => h !== held);
      if (left.length > 0) {
        await this.writeAtomically(files.dir, files.keys, left.join('\n'));
        return true;
      }
      // The text first: a crash in between leaves holders without a text, which is no token.
      await fs.rm(files.text, { force: true });
      await fs.rm(files.keys, { force: true });
      await this.syncDir(files.dir);
      return true;
    });
  }

  async ping(): Promise<void> {
    await fs.access(this.root, fs.constants.W_OK);
  }

  async close(): Promise<void> {}
}
