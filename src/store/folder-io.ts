/**
 * The few file operations the folder store makes, each durable on its own
 * (fsynced, and its folder fsynced after a name changed), so a crash at any
 * moment leaves every file either as it was or as it became, whole.
 *
 * The store takes them as an object so a test can count, through the real
 * file system, the work one call does (test/token-store-work.test.ts).
 * Errors leave here without file names: a name may hold a token, and a store
 * error is logged.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

export interface FolderIo {
  /** The file's text, or undefined when there is none. */
  read(file: string): Promise<string | undefined>;
  exists(file: string): Promise<boolean>;
  /** Replaces the whole file, by way of a temporary file renamed into place. */
  replace(file: string, content: string): Promise<void>;
  /** Creates an empty file; one there already is left as it is. */
  touch(file: string): Promise<void>;
  /** Removes the file: false when there was none. */
  unlink(file: string): Promise<boolean>;
  /** Removes the files there are of these, all in one folder, with one fsync of it. */
  removeAll(files: readonly string[]): Promise<void>;
  mkdir(dir: string): Promise<void>;
  list(dir: string): Promise<string[]>;
  writable(dir: string): Promise<void>;
}

function code(err: unknown): string | undefined {
  return (err as NodeJS.ErrnoException).code;
}

/** The same failure, without the file's name. */
function nameless(err: unknown, what: string): Error {
  return new Error(`token store: ${what} failed (${code(err) ?? (err instanceof Error ? err.name : 'error')})`);
}

async function guarded<T>(what: string, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw nameless(err, what);
  }
}

async function syncDir(dir: string): Promise<void> {
  const handle = await fs.open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

export const nodeFolderIo: FolderIo = {
  read: (file) =>
    guarded('read', async () => {
      try {
        return await fs.readFile(file, 'utf8');
      } catch (err) {
        if (code(err) === 'ENOENT') return undefined;
        throw err;
      }
    }),

  exists: (file) =>
    guarded('stat', async () => {
      try {
        await fs.access(file);
        return true;
      } catch (err) {
        if (code(err) === 'ENOENT') return false;
        throw err;
      }
    }),

  replace: (file, content) =>
    guarded('write', async () => {
      const dir = path.dirname(file);
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
      await syncDir(dir);
    }),

  touch: (file) =>
    guarded('create', async () => {
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(file, 'wx', 0o600);
      } catch (err) {
        if (code(err) === 'EEXIST') return;
        if (code(err) !== 'ENOENT') throw err;
        // Its folder was removed under the running store: made again, as a first save would.
        await fs.mkdir(path.dirname(file), { recursive: true });
        handle = await fs.open(file, 'wx', 0o600);
      }
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      await syncDir(path.dirname(file));
    }),

  unlink: (file) =>
    guarded('unlink', async () => {
      try {
        await fs.unlink(file);
      } catch (err) {
        if (code(err) === 'ENOENT') return false;
        throw err;
      }
      await syncDir(path.dirname(file));
      return true;
    }),

  removeAll: (files) =>
    guarded('unlink', async () => {
      for (const file of files) await fs.rm(file, { force: true });
      if (files[0] !== undefined) await syncDir(path.dirname(files[0]));
    }),

  mkdir: (dir) => guarded('mkdir', async () => void (await fs.mkdir(dir, { recursive: true }))),

  list: (dir) =>
    guarded('list', async () => {
      try {
        return await fs.readdir(dir);
      } catch (err) {
        if (code(err) === 'ENOENT') return [];
        throw err;
      }
    }),

  writable: (dir) => guarded('access', () => fs.access(dir, fs.constants.W_OK)),
};
