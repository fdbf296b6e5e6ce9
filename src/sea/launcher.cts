/**
 * The entry point of the single `rst2` binary (a Node.js single executable
 * application, built by scripts/build-binary.mjs).
 *
 * The app is ESM with worker_threads, Pyodide and pdfTeX loading their files
 * from disk, and a SEA main script can only `require` built-ins. So the binary
 * carries the whole project tree (compiled JS, runtime node_modules, wasm/,
 * python/, styles/) as one brotli-compressed asset; the first start unpacks it
 * into a cache folder named after the archive's hash, and every start then runs
 * dist/src/cli.js from there, in this same process (so signals, stdio and the
 * exit status are the app's own).
 *
 * Archive format (written by scripts/build-binary.mjs, brotli-compressed):
 *   "RST2PAK1" | u32 LE header length | header JSON {files: [{path, size, exec, mtime?}]} | file bytes in header order
 *
 * This file runs as CommonJS (a SEA main must) and may only use built-ins.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import sea from 'node:sea';
import { pathToFileURL } from 'node:url';
import zlib from 'node:zlib';

const MAGIC = 'RST2PAK1';
const MARKER = '.rst2-complete';
const ENTRY = path.join('dist', 'src', 'cli.js');
const BRIDGE = path.join('dist', 'src', 'sea', 'import-esm.cjs');

interface Entry {
  path: string;
  size: number;
  exec: boolean;
  /** Seconds since the epoch, where it matters: luaotfload's caches are valid only for fonts of the same size and time. */
  mtime?: number;
}

class UnpackError extends Error {}

/** A relative path that stays inside the folder it is unpacked into. */
function safeRelative(p: string): string {
  const norm = path.posix.normalize(p);
  if (!norm || norm.startsWith('/') || norm === '.' || norm.split('/').includes('..') || norm.includes('\0')) {
    throw new UnpackError(`bad path in archive: ${JSON.stringify(p)}`);
  }
  return norm;
}

function unpack(archive: Uint8Array, into: string): number {
  const data = zlib.brotliDecompressSync(archive);
  if (data.subarray(0, MAGIC.length).toString('latin1') !== MAGIC) throw new UnpackError('not an rst2 archive');
  const headerLength = data.readUInt32LE(MAGIC.length);
  let offset = MAGIC.length + 4;
  const header = JSON.parse(data.subarray(offset, offset + headerLength).toString('utf8')) as { files: Entry[] };
  offset += headerLength;
  const madeDirs = new Set<string>();
  for (const file of header.files) {
    const target = path.join(into, safeRelative(file.path));
    const dir = path.dirname(target);
    if (!madeDirs.has(dir)) {
      fs.mkdirSync(dir, { recursive: true });
      madeDirs.add(dir);
    }
    if (offset + file.size > data.length) throw new UnpackError('archive is truncated');
    fs.writeFileSync(target, data.subarray(offset, offset + file.size), { mode: file.exec ? 0o755 : 0o644 });
    if (file.mtime !== undefined) fs.utimesSync(target, file.mtime, file.mtime);
    offset += file.size;
  }
  if (offset !== data.length) throw new UnpackError('archive has trailing bytes');
  return header.files.length;
}

function isComplete(dir: string, key: string): boolean {
  try {
    return fs.readFileSync(path.join(dir, MARKER), 'utf8') === key && fs.existsSync(path.join(dir, ENTRY));
  } catch {
    return false;
  }
}

/**
 * Where unpacked versions live, best first: the user's cache folder, then a
 * per-user folder in the temporary directory (for a HOME that is missing or
 * read-only).
 */
function cacheBases(): Array<{ dir: string; shared: boolean }> {
  const bases: Array<{ dir: string; shared: boolean }> = [];
  const xdg = process.env.XDG_CACHE_HOME;
  let home = '';
  try {
    home = os.homedir();
  } catch {
    // no home folder: only the temporary one is left
  }
  if (xdg && path.isAbsolute(xdg)) bases.push({ dir: path.join(xdg, 'rst2', 'binary'), shared: false });
  else if (home) bases.push({ dir: path.join(home, '.cache', 'rst2', 'binary'), shared: false });
  const uid = typeof process.getuid === 'function' ? process.getuid() : 'user';
  bases.push({ dir: path.join(os.tmpdir(), `rst2-binary-${uid}`), shared: true });
  return bases;
}

/** In a world-writable parent, only a folder we own and nobody else can write is trusted. */
function checkPrivate(dir: string): void {
  const st = fs.lstatSync(dir);
  const uid = typeof process.getuid === 'function' ? process.getuid() : st.uid;
  if (!st.isDirectory() || st.uid !== uid || (st.mode & 0o022) !== 0) {
    throw new UnpackError(`${dir} is not a private folder of this user`);
  }
}

/** The folder holding this version, unpacked now if no complete copy exists. */
function unpackedRoot(key: string): string {
  const failures: string[] = [];
  for (const base of cacheBases()) {
    const dir = path.join(base.dir, key);
    let tmp = '';
    try {
      fs.mkdirSync(base.dir, { recursive: true, mode: 0o700 });
      if (base.shared) checkPrivate(base.dir);
      if (isComplete(dir, key)) return dir;
      const started = Date.now();
      // Unpack beside the final folder, then rename: a reader never sees half a
      // tree, and two first starts at once both end with one complete copy.
      tmp = fs.mkdtempSync(path.join(base.dir, `.${key}.tmp-`));
      const count = unpack(new Uint8Array(sea.getRawAsset('payload') as ArrayBuffer), tmp);
      fs.writeFileSync(path.join(tmp, MARKER), key);
      try {
        fs.renameSync(tmp, dir);
      } catch {
        if (!isComplete(dir, key)) {
          // A leftover incomplete folder (someone deleted files from it): replace it.
          fs.rmSync(dir, { recursive: true, force: true });
          fs.renameSync(tmp, dir);
        }
      }
      process.stderr.write(`rst2: unpacked ${count} files into ${dir} in ${Date.now() - started} ms (first start of this build)\n`);
      return dir;
    } catch (err) {
      failures.push(`${base.dir}: ${err instanceof Error ? err.message : String(err)}`);
    } finally {
      if (tmp && fs.existsSync(tmp)) fs.rmSync(tmp, { recursive: true, force: true });
    }
  }
  throw new UnpackError(`cannot unpack the application:\n  ${failures.join('\n  ')}`);
}

function main(): void {
  if (!sea.isSea()) throw new UnpackError('this launcher only runs inside the rst2 binary');
  const key = sea.getAsset('payload.key', 'utf8').trim();
  if (!/^[0-9a-f]{16,64}$/.test(key)) throw new UnpackError('the binary carries no valid payload key');
  const root = unpackedRoot(key);
  // The SEA main's own `require` knows only built-ins, and whether its
  // `import()` works depends on the Node version; a CommonJS file loaded from
  // disk through createRequire is an ordinary module whose import() always does.
  const bridge = createRequire(path.join(root, BRIDGE))(path.join(root, BRIDGE)) as (url: string) => Promise<unknown>;
  bridge(pathToFileURL(path.join(root, ENTRY)).href).catch((err: unknown) => {
    process.stderr.write(`rst2: cannot start: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    process.exitCode = 1;
  });
}

try {
  main();
} catch (err) {
  process.stderr.write(`rst2: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
}
