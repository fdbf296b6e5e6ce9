/**
 * Starting a Pyodide interpreter with docutils, shared by the workers, the
 * snapshot maker and the tests. Two ways in: a plain boot (load Pyodide,
 * import everything) or from a memory snapshot that already holds the
 * imported modules (see snapshot.ts); both then lay out the same files.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

import { loadPyodide, type PyodideAPI } from 'pyodide';

import { paths as servicePaths } from '../../paths.js';
import { PYODIDE_PATHS } from './contract.js';

export interface BootPaths {
  bundlePath: string;
  pythonSources: string;
  stylesDir: string;
  /**
   * What the shipped fonts cover (scripts.json, written by the TeX build);
   * default: the built TeX tree's. Without it, Python knows Latin only and
   * shows every other character as a placeholder.
   */
  scriptsTable?: string;
}

type LoadOptions = NonNullable<Parameters<typeof loadPyodide>[0]>;
type CreateModule = NonNullable<LoadOptions['createPyodideModule']>;

// The same at snapshot time and load time: os.environ is frozen into a snapshot.
const OPTIONS = {
  // docutils reports into a buffer (python/rst2/settings.py); anything
  // printed here would be unexpected and is not the log's business.
  stdout: () => {},
  stderr: () => {},
  // No RST2_STYLES_DIR or RST2_SCRIPTS_TABLE: Python's defaults are the
  // contract's PYODIDE_PATHS, where layOutFiles puts the files.
  env: { HOME: '/home/pyodide' },
} satisfies LoadOptions;

/** Copies a host folder into the in-memory filesystem: Pyodide never sees a host mount. */
export function copyTree(py: PyodideAPI, from: string, to: string, skip: readonly string[] = ['__pycache__', 'tests']): void {
  py.FS.mkdirTree(to);
  for (const entry of fs.readdirSync(from, { withFileTypes: true })) {
    if (skip.includes(entry.name)) continue;
    const source = path.join(from, entry.name);
    const target = `${to}/${entry.name}`;
    if (entry.isDirectory()) copyTree(py, source, target, skip);
    else if (entry.isFile()) py.FS.writeFile(target, new Uint8Array(fs.readFileSync(source)));
  }
}

/**
 * Writes a ustar/GNU tar into the in-memory filesystem. About four times
 * faster than pyodide.unpackArchive (which goes through Python's tarfile),
 * and our bundle only holds files, folders and symlinks.
 */
export function unpackTar(py: PyodideAPI, buf: Uint8Array, root = '/'): void {
  const FS = py.FS;
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const dec = new TextDecoder();
  const str = (o: number, n: number) => {
    let e = o;
    while (e < o + n && bytes[e] !== 0) e++;
    return dec.decode(bytes.subarray(o, e));
  };
  const oct = (o: number, n: number) => parseInt(str(o, n).trim() || '0', 8);
  const made = new Set<string>();
  const mkdir = (d: string) => {
    if (d && !made.has(d)) {
      FS.mkdirTree(d);
      made.add(d);
    }
  };
  let off = 0;
  let longName: string | null = null;
  while (off + 512 <= bytes.length && bytes[off] !== 0) {
    const size = oct(off + 124, 12);
    const type = String.fromCharCode(bytes[off + 156] || 48);
    const prefix = bytes[off + 262] === 0 ? str(off + 345, 155) : ''; // POSIX ustar magic "ustar\0"
    const name = longName ?? (prefix ? `${prefix}/${str(off, 100)}` : str(off, 100));
    const link = str(off + 157, 100);
    const data = off + 512;
    off = data + Math.ceil(size / 512) * 512;
    if (type === 'L') {
      longName = str(data, size);
      continue;
    }
    if (type === 'x') {
      const m = /\d+ path=([^\n]*)\n/.exec(dec.decode(bytes.subarray(data, data + size)));
      longName = m ? m[1]! : null;
      continue;
    }
    longName = null;
    const target = `${root}/${name}`.replace(/\/+/g, '/').replace(/\/$/, '');
    if (type === '5') mkdir(target);
    else if (type === '0' || type === '7') {
      mkdir(target.slice(0, target.lastIndexOf('/')));
      FS.writeFile(target, bytes.subarray(data, data + size));
    } else if (type === '2') {
      mkdir(target.slice(0, target.lastIndexOf('/')));
      FS.symlink(link, target);
    } else throw new Error(`unsupported tar entry type ${type} for ${name}`);
  }
}

/** The files every interpreter needs, at the same paths with or without a snapshot. */
export function layOutFiles(py: PyodideAPI, paths: BootPaths): void {
  unpackTar(py, fs.readFileSync(paths.bundlePath));
  copyTree(py, paths.pythonSources, PYODIDE_PATHS.python);
  copyTree(py, paths.stylesDir, PYODIDE_PATHS.styles);
  const table = paths.scriptsTable ?? path.join(servicePaths.texDir, 'scripts.json');
  if (fs.existsSync(table)) {
    py.FS.mkdirTree(path.posix.dirname(PYODIDE_PATHS.scripts_table));
    py.FS.writeFile(PYODIDE_PATHS.scripts_table, new Uint8Array(fs.readFileSync(table)));
  }
}

/** Imports that a snapshot freezes; a plain boot runs them too. */
export const IMPORTS = `
import sys
if '${PYODIDE_PATHS.python}' not in sys.path:
    sys.path.insert(0, '${PYODIDE_PATHS.python}')
import docutils.core, docutils.parsers.rst, docutils.writers.html5_polyglot, docutils.writers.latex2e
import pygments.lexers, pygments.formatters
from pygments.lexers.python import PythonLexer
from pygments.formatters.html import HtmlFormatter
import rst2.api
`;

export async function bootPlain(paths: BootPaths, options: { makeSnapshot?: boolean } = {}): Promise<PyodideAPI> {
  const py = await loadPyodide({ ...OPTIONS, _makeSnapshot: options.makeSnapshot === true });
  layOutFiles(py, paths);
  py.runPython(IMPORTS);
  return py;
}

// pyodide 314.0.7 sets INITIAL_MEMORY for a snapshot, but its wasm brings its
// own 30 MiB memory, so restoring a snapshot whose heap had grown throws
// "offset is out of bounds". Growing the memory before the restore avoids it.
let factory: CreateModule | undefined;
const createPyodideModule: CreateModule = async (settings) => {
  const dir = path.dirname(fileURLToPath(import.meta.resolve('pyodide')));
  factory ??= ((await import(path.join(dir, 'pyodide.asm.mjs'))) as { default: CreateModule }).default;
  const s = settings as unknown as { INITIAL_MEMORY?: number; preRun: Array<(m: { growMemory(n: number): void }) => void> };
  const bytes = s.INITIAL_MEMORY;
  if (bytes) s.preRun = [...s.preRun, (m) => m.growMemory(bytes)];
  return factory(settings);
};

export async function bootFromSnapshot(snapshotPath: string, paths: BootPaths): Promise<PyodideAPI> {
  let bytes: Uint8Array | null = new Uint8Array(fs.readFileSync(snapshotPath));
  // loadPyodide keeps its options for the interpreter's lifetime; handing the
  // bytes over through a one-shot thenable lets the 30+ MB copy be collected.
  const once: PromiseLike<Uint8Array> = {
    then(resolve) {
      const b = bytes!;
      bytes = null;
      return Promise.resolve(resolve ? resolve(b) : b) as never;
    },
  };
  const py = await loadPyodide({ ...OPTIONS, _loadSnapshot: once, createPyodideModule });
  layOutFiles(py, paths);
  return py;
}
