/**
 * A Pyodide memory snapshot with docutils, Pygments and our rst2 package
 * already imported: a worker loads it in well under a second instead of
 * several seconds for a plain boot. It is made once per combination of
 * Pyodide, docutils bundle and python/ sources (the key), in a worker thread,
 * and kept in wasm/python/. Any failure means a plain boot, never an error.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';

import type { BootPaths } from './boot.js';

function hashTree(hash: ReturnType<typeof createHash>, dir: string): void {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (entry.name === '__pycache__' || entry.name === 'tests') continue;
    const full = path.join(dir, entry.name);
    hash.update(entry.name);
    if (entry.isDirectory()) hashTree(hash, full);
    else if (entry.isFile()) hash.update(fs.readFileSync(full));
  }
}

export function snapshotKey(paths: BootPaths): string {
  const hash = createHash('sha256');
  const pyodideDir = path.dirname(new URL(import.meta.resolve('pyodide')).pathname);
  hash.update(fs.readFileSync(path.join(pyodideDir, 'package.json')));
  const manifest = path.join(path.dirname(paths.bundlePath), 'manifest.json');
  hash.update(fs.existsSync(manifest) ? fs.readFileSync(manifest) : fs.readFileSync(paths.bundlePath));
  hashTree(hash, paths.pythonSources);
  hash.update(fs.readFileSync(new URL('./boot.js', import.meta.url)));
  return hash.digest('hex').slice(0, 16);
}

/** The snapshot file for these sources, made first if needed; null when it cannot be had. */
export async function ensureSnapshot(paths: BootPaths, onError: (message: string) => void = () => {}): Promise<string | null> {
  try {
    const dir = path.dirname(paths.bundlePath);
    const file = path.join(dir, `snapshot-${snapshotKey(paths)}.bin`);
    if (fs.existsSync(file)) return file;
    const tmp = `${file}.${process.pid}.tmp`;
    await new Promise<void>((resolve, reject) => {
      const worker = new Worker(new URL('./snapshot-maker.js', import.meta.url), { workerData: { paths, out: tmp }, stdout: false, stderr: false });
      worker.once('message', (msg: { ok: boolean; message?: string }) => (msg.ok ? resolve() : reject(new Error(msg.message))));
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`snapshot maker exited with ${code}`)));
    });
    fs.renameSync(tmp, file);
    for (const old of fs.readdirSync(dir)) {
      if (/^snapshot-.*\.bin(\..*\.tmp)?$/.test(old) && path.join(dir, old) !== file) fs.rmSync(path.join(dir, old), { force: true });
    }
    return file;
  } catch (err) {
    onError(err instanceof Error ? err.message.slice(0, 1000) : String(err));
    return null;
  }
}
