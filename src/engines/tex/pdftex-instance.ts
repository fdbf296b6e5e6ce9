/**
 * One TeX engine instance (our WebAssembly builds of pdfTeX and LuaHBTeX,
 * see scripts/build-tex.sh) and the file system it sees. An instance runs
 * once and is thrown away; making one (Emscripten's runtime, a 128 MiB
 * memory, 256 MiB for LuaHBTeX) is done ahead of time with
 * `prepareInstance`, so a job only pays for its run.
 *
 * The engine sees an Emscripten file system with only:
 *   /tex  the texDir (texmf tree, texmf.cnf, the formats) mounted from the
 *         host through NODEFS, guarded read-only
 *   /fmt  for a run with a preamble format: the folder holding it, mounted
 *         and guarded the same way
 *   /job  an in-memory (MEMFS) job folder, the current directory
 *   /var/cache  LuaHBTeX only: luaotfload's cache, in memory (MEMFS),
 *         filled from the tree's texmf-var when the instance is made
 * The paranoid texmf.cnf (openin_any = p, openout_any = p, shell_escape = f)
 * additionally refuses absolute and `..` names in \input, \openin and
 * \openout, and \write18.
 */
import { readdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The engines of the tree: pdfTeX, the fast path, and LuaHBTeX, which shapes. */
export type TexEngineName = 'pdftex' | 'luahbtex';

interface EngineFiles {
  /** The glue (CommonJS, because the package is "type": "module"). */
  glue: string;
  wasm: string;
  /** The LaTeX format in the tree, and the program name kpathsea sees. */
  format: string;
  /** luaotfload's caches in the tree (see scripts/tex/dump-format.mjs). */
  cache?: string;
}

export const ENGINE_FILES: Readonly<Record<TexEngineName, EngineFiles>> = {
  pdftex: { glue: 'pdftex.cjs', wasm: 'pdftex.wasm', format: 'pdflatex' },
  luahbtex: { glue: 'luahbtex.cjs', wasm: 'luahbtex.wasm', format: 'lualatex', cache: 'texmf-var' },
};
export const GLUE_FILE = ENGINE_FILES.pdftex.glue;
export const WASM_FILE = ENGINE_FILES.pdftex.wasm;

const TEX_MOUNT = '/tex';
const FMT_MOUNT = '/fmt';
const JOB_DIR = '/job';
const CACHE_DIR = '/var/cache';

/** Compiles an engine's .wasm; do it once and hand the module to every instance. */
export async function loadTexModule(texDir: string, engine: TexEngineName = 'pdftex'): Promise<WebAssembly.Module> {
  const bytes = await readFile(path.join(texDir, ENGINE_FILES[engine].wasm));
  return WebAssembly.compile(bytes);
}

/** luaotfload's caches as the tree holds them, by path below texmf-var; read once per thread. */
export type CacheFiles = ReadonlyMap<string, Uint8Array>;

export async function loadCacheFiles(texDir: string, engine: TexEngineName): Promise<CacheFiles> {
  const files = new Map<string, Uint8Array>();
  const sub = ENGINE_FILES[engine].cache;
  if (!sub) return files;
  const root = path.join(texDir, sub);
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (e.isDirectory()) await walk(path.join(dir, e.name), `${rel}${e.name}/`);
      else if (e.isFile()) files.set(`${rel}${e.name}`, await readFile(path.join(dir, e.name)));
    }
  };
  await walk(root, '');
  return files;
}

// ---------------------------------------------------------------- Emscripten glue types

interface EmStat { mode: number }
interface EmFS {
  mkdir(p: string, mode?: number): unknown;
  mount(type: unknown, opts: { root?: string }, mountpoint: string): unknown;
  chdir(p: string): void;
  cwd(): string;
  writeFile(p: string, data: string | Uint8Array): void;
  readFile(p: string): Uint8Array;
  readdir(p: string): string[];
  stat(p: string): EmStat;
  isDir(mode: number): boolean;
  isFile(mode: number): boolean;
  filesystems: Record<string, unknown>;
  modeStringToFlags(s: string): number;
  ErrnoError: new (errno: number) => Error;
  [op: string]: unknown;
}
interface EmModule {
  FS: EmFS;
  ENV: Record<string, string>;
  callMain(args: string[]): number;
}
interface EmOptions {
  thisProgram: string;
  print(s: string): void;
  printErr(s: string): void;
  stdin(): number | null;
  /** Byte by byte as pdfTeX flushes its terminal (null: end of stream); replaces print/printErr. */
  stdout(c: number | null): void;
  stderr(c: number | null): void;
  quit(status: number, toThrow: unknown): never;
  instantiateWasm(imports: WebAssembly.Imports, receive: (inst: WebAssembly.Instance, mod: WebAssembly.Module) => void): object;
  preRun: Array<(m: EmModule) => void>;
}
type Factory = (opts: EmOptions) => Promise<EmModule>;

const factories = new Map<string, Factory>();
function glueFactory(texDir: string, engine: TexEngineName): Factory {
  const glue = path.resolve(texDir, ENGINE_FILES[engine].glue);
  let f = factories.get(glue);
  if (!f) {
    f = createRequire(import.meta.url)(glue) as Factory;
    factories.set(glue, f);
  }
  return f;
}

// ---------------------------------------------------------------- files

export type FileMap = Map<string, Uint8Array>;

/** Writes `files` (by relative path) below `root`, making the folders on the way. */
function writeFiles(FS: EmFS, root: string, files: ReadonlyMap<string, Uint8Array>): void {
  const made = new Set<string>();
  const mkdirs = (dir: string): void => {
    let at = '';
    for (const part of dir.split('/').filter(Boolean)) {
      at = `${at}/${part}`;
      if (made.has(at)) continue;
      try { FS.mkdir(at); } catch { /* exists */ }
      made.add(at);
    }
  };
  mkdirs(root);
  for (const [name, data] of files) {
    const file = `${root}/${name}`;
    mkdirs(path.posix.dirname(file));
    FS.writeFile(file, data);
  }
}

function readJobFiles(FS: EmFS, dir = JOB_DIR, prefix = '', into: FileMap = new Map()): FileMap {
  for (const e of FS.readdir(dir)) {
    if (e === '.' || e === '..') continue;
    const p = `${dir}/${e}`;
    const st = FS.stat(p);
    if (FS.isDir(st.mode)) readJobFiles(FS, p, `${prefix}${e}/`, into);
    else if (FS.isFile(st.mode)) into.set(`${prefix}${e}`, FS.readFile(p));
  }
  return into;
}

/** Makes writes, creation, removal and renames under the mounts fail with EACCES. */
function guardReadOnly(FS: EmFS, mounts: string[]): void {
  const EACCES = 2;
  const abs = (p: unknown): string => {
    const s = String(p);
    return path.posix.normalize(s.startsWith('/') ? s : `${FS.cwd()}/${s}`);
  };
  const guarded = (p: unknown): boolean => {
    const a = abs(p);
    return mounts.some((m) => a === m || a.startsWith(`${m}/`));
  };
  const deny = (): never => { throw new FS.ErrnoError(EACCES); };
  const wrap = (name: string, check: (args: unknown[]) => boolean): void => {
    const orig = FS[name] as (...args: unknown[]) => unknown;
    FS[name] = (...args: unknown[]) => (check(args) ? deny() : orig.apply(FS, args));
  };
  const O_ACCMODE = 3, O_CREAT = 64, O_TRUNC = 512, O_APPEND = 1024;
  wrap('open', ([p, flags]) => {
    const f = typeof flags === 'string' ? FS.modeStringToFlags(flags) : Number(flags ?? 0);
    return (f & (O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND)) !== 0 && typeof p === 'string' && guarded(p);
  });
  for (const op of ['mkdir', 'mknod', 'unlink', 'rmdir', 'truncate', 'chmod', 'chown', 'utime', 'symlink', 'writeFile']) {
    wrap(op, ([p, q]) => guarded(p) || (op === 'symlink' && guarded(q)));
  }
  wrap('rename', ([p, q]) => guarded(p) || guarded(q));
}

// ---------------------------------------------------------------- instances

export interface InstanceOptions {
  /** pdftex (the default) or luahbtex; `module` must be its. */
  engine?: TexEngineName;
  /** Compiled .wasm of the engine (see loadTexModule); compiled once, shared by instances. */
  module: WebAssembly.Module;
  /** LuaHBTeX: luaotfload's caches (loadCacheFiles), copied into the instance's /var/cache. */
  cache?: CacheFiles;
  /** Directory with pdftex.cjs, texmf.cnf, texmf/ and pdflatex.fmt (wasm/tex). */
  texDir: string;
  /** Extra environment (e.g. SOURCE_DATE_EPOCH for reproducible output). */
  env?: Readonly<Record<string, string>>;
  /**
   * The engine's terminal input, a byte per call (null: no more for this
   * read). None: end of file at once, which is all a nonstopmode run asks.
   */
  stdin?: () => number | null;
}

/** An instance ready to run once: runtime up, /tex mounted, nothing of a job in it yet. */
export interface TexInstance {
  readonly engine: TexEngineName;
  readonly texDir: string;
  readonly env: string;
  readonly em: EmModule;
  /** What the glue itself reports (a failed instantiation, a crash). */
  readonly output: string[];
  /** Terminal bytes as pdfTeX flushes them (stdout and stderr). */
  readonly terminal: number[];
  /** Told of every terminal byte of the run (set by runInstance). */
  onOutput?: () => void;
  used: boolean;
}

export interface RunRequest {
  /** The job folder's files, by checked relative path. */
  files: FileMap;
  /** pdfTeX's command line (without the program name). */
  args: string[];
  /** A folder to mount read-only at /fmt (holding the preamble format of the run). */
  formatDir?: string;
  /** Called on every byte pdfTeX writes to its terminal: signs of life for a stall watch. */
  onProgress?: () => void;
}

export interface RunOutcome {
  /** 0 ok, 1 TeX error, -1 engine crash (see `output`). */
  exitCode: number;
  /** The job folder after the run. */
  files: FileMap;
  output: string;
}

export const envKey = (env: Readonly<Record<string, string>> | undefined): string => JSON.stringify(Object.entries(env ?? {}).sort());

export async function prepareInstance(opts: InstanceOptions): Promise<TexInstance> {
  const engine = opts.engine ?? 'pdftex';
  const createEngine = glueFactory(opts.texDir, engine);
  const texDir = path.resolve(opts.texDir);
  const output: string[] = [];
  const terminal: number[] = [];
  // Terminal bytes as pdfTeX flushes them, not whole lines: "[12]" after a
  // page is a sign of life long before the line is full.
  let instance: TexInstance | undefined;
  const onByte = (c: number | null): void => {
    if (c === null) return;
    terminal.push(c);
    instance?.onOutput?.();
  };
  const em = await createEngine({
    // kpathsea derives SELFAUTOLOC from argv[0]: the file must exist (an empty one in MEMFS).
    thisProgram: `/bin/${engine}`,
    print: (s) => { output.push(s); },
    printErr: (s) => { output.push(s); },
    stdout: onByte,
    stderr: onByte,
    stdin: opts.stdin ?? (() => null),
    // The default quit calls process.exit(); make exit() a catchable throw instead.
    quit: (_status, toThrow) => { throw toThrow; },
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(opts.module, imports).then(
        (inst) => receive(inst, opts.module),
        (err: unknown) => { output.push(`instantiate failed: ${String(err)}`); },
      );
      return {};
    },
    preRun: [(m) => {
      const FS = m.FS;
      FS.mkdir('/bin');
      FS.writeFile(`/bin/${engine}`, '');
      if (opts.cache) writeFiles(FS, CACHE_DIR, opts.cache);
      FS.mkdir(TEX_MOUNT);
      FS.mount(FS.filesystems['NODEFS'], { root: texDir }, TEX_MOUNT);
      FS.mkdir(JOB_DIR);
      // The C library reads its environment while the runtime starts, so it
      // is set here and cannot change per job.
      m.ENV['TEXMFCNF'] = TEX_MOUNT;
      for (const [k, v] of Object.entries(opts.env ?? {})) m.ENV[k] = v;
    }],
  });
  instance = { engine, texDir: opts.texDir, env: envKey(opts.env), em, output, terminal, used: false };
  return instance;
}

/** Runs the engine once in `instance`, which cannot be used again. */
export function runInstance(instance: TexInstance, req: RunRequest): RunOutcome {
  if (instance.used) throw new Error('runInstance: an engine instance runs only once');
  instance.used = true;
  instance.onOutput = req.onProgress;
  const { FS } = instance.em;
  const guarded = [TEX_MOUNT];
  if (req.formatDir) {
    FS.mkdir(FMT_MOUNT);
    FS.mount(FS.filesystems['NODEFS'], { root: path.resolve(req.formatDir) }, FMT_MOUNT);
    guarded.push(FMT_MOUNT);
  }
  writeFiles(FS, JOB_DIR, req.files);
  FS.chdir(JOB_DIR);
  guardReadOnly(FS, guarded);
  let exitCode: number;
  try {
    exitCode = instance.em.callMain(req.args);
  } catch (err) {
    instance.output.push(`${instance.engine === 'luahbtex' ? 'LuaHBTeX' : 'pdfTeX'} crashed: ${err instanceof Error ? err.message : String(err)}`);
    exitCode = -1;
  }
  let files: FileMap;
  try {
    files = readJobFiles(FS);
  } catch {
    files = req.files;
  }
  const shown = new TextDecoder('utf-8').decode(Uint8Array.from(instance.terminal)).replace(/\n$/, '');
  return { exitCode, files, output: [shown, ...instance.output].filter(Boolean).join('\n') };
}

/** The path pdfTeX is given for a format in the folder mounted at /fmt. */
export const mountedFormat = (name: string): string => `${FMT_MOUNT}/${name}`;
