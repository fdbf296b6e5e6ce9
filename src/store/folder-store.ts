/**
 * The embedded token store: one file per token under a folder. Writes go to
 * a temporary file that is fsynced and renamed into place (and the folder
 * fsynced), so a crash at any moment leaves either no token or a whole one.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

import { TOKEN_PATTERN } from '../documents/document.js';
import type { TokenStore } from './token-store.js';

export class FolderStore implements TokenStore {
  private readonly root: string;

  constructor(dataDir: string) {
    this.root = path.join(dataDir, 'tokens');
  }

  async init(): Promise<this> {
    await fs.mkdir(this.root, { recursive: true });
    return this;
  }

  private fileOf(token: string): { dir: string; file: string } {
    // Tokens come from clients: only the exact shape is ever used in a path.
    if (!TOKEN_PATTERN.test(token)) throw new Error(`not a token: ${JSON.stringify(token).slice(0, 40)}`);
    // Two-level fan-out keeps folders small with millions of tokens.
    const dir = path.join(this.root, token.slice(0, 2));
    return { dir, file: path.join(dir, `${token}.rst`) };
  }

  async save(token: string, text: string): Promise<void> {
    const { dir, file } = this.fileOf(token);
    try {
      await fs.access(file);
      return; // Same token, same content: already stored.
    } catch {
      /* not stored yet */
    }
    await fs.mkdir(dir, { recursive: true });
    const tmp = path.join(dir, `.${token}.${randomBytes(6).toString('hex')}.tmp`);
    const handle = await fs.open(tmp, 'wx', 0o600);
    try {
      await handle.writeFile(text, 'utf8');
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
    const dirHandle = await fs.open(dir, 'r');
    try {
      await dirHandle.sync();
    } finally {
      await dirHandle.close();
    }
  }

  async load(token: string): Promise<string | undefined> {
    const { file } = this.fileOf(token);
    try {
      return await fs.readFile(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw err;
    }
  }

  async ping(): Promise<void> {
    await fs.access(this.root, fs.constants.W_OK);
  }

  async close(): Promise<void> {}
}
