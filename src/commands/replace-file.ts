/**
 * Replacing a file's content atomically, for `rst2 check --fix`: the new
 * bytes go to a temporary file in the same folder (with the file's mode and,
 * where allowed, its owner), flushed to disk, then renamed over the file, so
 * a reader sees the old content or the new, never part of it. A symbolic
 * link is followed: its target is replaced, the link stays. The temporary
 * file is removed on every path: a failure, the process exiting, or
 * SIGINT/SIGTERM/SIGHUP while it exists.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

import { Code, ServiceError } from '../errors.js';

/** What the file was when it was read: it must still be that when it is replaced. */
export interface Seen {
  mtimeMs: number;
  size: number;
}

const live = new Set<string>();
const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function removeLive(): void {
  for (const temp of live) fs.rmSync(temp, { force: true });
  live.clear();
}

function onSignal(signal: NodeJS.Signals): void {
  removeLive();
  unwatch();
  // With the handlers gone, the signal ends the process as it would have.
  process.kill(process.pid, signal);
}

function watch(): void {
  if (live.size > 0) return;
  process.on('exit', removeLive);
  for (const signal of SIGNALS) process.on(signal, onSignal);
}

function unwatch(): void {
  if (live.size > 0) return;
  process.off('exit', removeLive);
  for (const signal of SIGNALS) process.off(signal, onSignal);
}

function unwritable(file: string, why: string): ServiceError {
  return new ServiceError(Code.unwritable, `cannot write ${file}: ${why}`);
}

function reason(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  if (code === 'EACCES' || code === 'EPERM') return 'permission denied';
  if (code === 'ENOSPC') return 'no space left on the device';
  if (code === 'EROFS') return 'a read-only file system';
  if (code === 'EISDIR') return 'is a directory';
  return err instanceof Error ? err.message : String(err);
}

/** Replaces `file`'s content with `data`, unless it changed since it was `seen`. */
export async function replaceFile(file: string, data: Uint8Array, seen: Seen): Promise<void> {
  let target: string;
  let stat: fs.Stats;
  try {
    target = await fs.promises.realpath(file);
    stat = await fs.promises.stat(target);
    // rename() would replace a read-only file; it is not ours to replace.
    await fs.promises.access(target, fs.constants.W_OK);
  } catch (err) {
    throw unwritable(file, reason(err));
  }
  const changed = (now: fs.Stats): boolean => now.mtimeMs !== seen.mtimeMs || now.size !== seen.size;
  if (changed(stat)) throw unwritable(file, 'it changed while it was being fixed; run again');
  const temp = path.join(path.dirname(target), `.${path.basename(target)}.rst2-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  watch();
  live.add(temp);
  try {
    const handle = await fs.promises.open(temp, 'wx', 0o600);
    try {
      await handle.writeFile(data);
      await handle.chmod(stat.mode & 0o7777);
      await handle.chown(stat.uid, stat.gid).catch(() => {
        // Only the superuser may give a file away; the new file stays the caller's.
      });
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (changed(await fs.promises.stat(target))) throw new Error('it changed while it was being fixed; run again');
    await fs.promises.rename(temp, target);
    live.delete(temp);
  } catch (err) {
    throw unwritable(file, reason(err));
  } finally {
    if (live.has(temp)) {
      fs.rmSync(temp, { force: true });
      live.delete(temp);
    }
    unwatch();
  }
}
