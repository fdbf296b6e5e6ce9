/**
 * Runs one pdfTeX job in the current thread with our WebAssembly build
 * (scripts/build-tex.sh puts it into wasm/tex).
 *
 * Each run gets a fresh engine instance (nothing is carried between runs or
 * jobs except the job folder).  The engine sees an Emscripten file system
 * with only:
 *   /tex  the texDir (texmf tree, texmf.cnf, pdflatex.fmt) mounted from the
 *         host through NODEFS, guarded read-only
 *   /job  an in-memory (MEMFS) job folder, the current directory
 * The paranoid texmf.cnf (openin_any = p, openout_any = p, shell_escape = f)
 * additionally refuses absolute and `..` names in \input, \openin and
 * \openout, and \write18.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

export interface PdftexJob {
  /** Compiled pdftex.wasm (see loadTexModule); compiled once, shared by instances. */
  module: WebAssembly.Module;
  /** Directory with pdftex.cjs, texmf.cnf, texmf/ and pdflatex.fmt (wasm/tex). */
  texDir: string;
  /** Files of the job folder, by relative path (no absolute paths, no `..`). */
  files: Record<string, string | Uint8Array>;
  /** The main .tex file, a key of `files`. */
  main: string;
  /** Most runs (>= 1); re-runs happen only while .aux/.toc/.lof/.lot/.out files change. */
  maxRuns: number;
  /** Called as pdfTeX writes to its terminal and when a run starts: signs of life for a stall watch. */
  onProgress?: () => void;
}

export interface PdftexResult {
  /** The PDF of the last run, or null when pdfTeX failed (exitCode != 0) or wrote none. */
  pdf: Uint8Array | null;
  /** The TeX log (<jobname>.log) of the last run; the terminal output if there is no log file. */
  log: string;
  /** Number of runs made. */
  runs: number;
  /** Exit code of the last run: 0 ok, 1 TeX error, -1 engine crash (see `output`). */
  exitCode: number;
  /** What the engine printed on its terminal (stdout and stderr) in the last run. */
  output: string;
}

/** The file name of the glue (CommonJS, because the package is "type": "module"). */
export const GLUE_FILE = 'pdftex.cjs';
export const WASM_FILE = 'pdftex.wasm';
export const FORMAT_NAME = 'pdflatex';

const TEX_MOUNT = '/tex';
const JOB_DIR = '/job';
const RERUN_EXTENSIONS = new Set(['.aux', '.toc', '.lof', '.lot', '.out']);

/** Compiles pdftex.wasm; do it once and hand the module to every job. */
export async function loadTexModule(texDir: string): Promise<WebAssembly.Module> {
  const bytes = await readFile(path.join(texDir, WASM_FILE));
  return WebAssembly.compile(bytes);
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
function glueFactory(texDir: string): Factory {
  const glue = path.resolve(texDir, GLUE_FILE);
  let f = factories.get(glue);
  if (!f) {
    f = createRequire(import.meta.url)(glue) as Factory;
    factories.set(glue, f);
  }
  return f;
}

// ---------------------------------------------------------------- job files

type FileMap = Map<string, Uint8Array>;

function checkedJobPath(name: string): string {
  const n = name.replace(/\\/g, '/');
  if (!n || n.startsWith('/') || n.split('/').some((seg) => seg === '..' || seg === '.' || seg === '') || n.includes('\0')) {
    throw new Error(`runPdftex: bad job file name ${JSON.stringify(name)}`);
  }
  return n;
}

function writeJobFiles(FS: EmFS, files: FileMap): void {
  for (const [name, data] of files) {
    const parts = name.split('/');
    let dir = JOB_DIR;
    for (const part of parts.slice(0, -1)) {
      dir = `${dir}/${part}`;
      try { FS.mkdir(dir); } catch { /* exists */ }
    }
    FS.writeFile(`${JOB_DIR}/${name}`, data);
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

/** The contents that decide whether another run is needed; trivial files count as absent. */
function rerunState(files: FileMap): Map<string, string> {
  const state = new Map<string, string>();
  const dec = new TextDecoder('latin1');
  for (const [name, data] of files) {
    if (!RERUN_EXTENSIONS.has(path.posix.extname(name))) continue;
    let text = dec.decode(data);
    if (name.endsWith('.aux')) {
      text = text.split('\n').filter((l) => !/^\\relax\s*$|^\\gdef \\@abspage@last\{\d+\}\s*$/.test(l)).join('\n');
    }
    if (text.trim() !== '') state.set(name, text);
  }
  return state;
}

/**
 * What the next run starts from: the job's own files as given, and only the
 * files LaTeX carries between runs. Anything else a run wrote (a .tex or a
 * .sty of the same name as one it reads) is dropped, so a document that
 * gets hold of \openout cannot hand the next run code of its own.
 */
function nextRunFiles(inputs: FileMap, produced: FileMap): FileMap {
  const next = new Map(inputs);
  for (const [name, data] of produced) {
    if (!inputs.has(name) && RERUN_EXTENSIONS.has(path.posix.extname(name))) next.set(name, data);
  }
  return next;
}

function sameState(a: Map<string, string>, b: Map<string, string>): boolean {
  if (a.size !== b.size) return false;
  for (const [k, v] of a) if (b.get(k) !== v) return false;
  return true;
}

// ---------------------------------------------------------------- one engine run

/** Makes writes, creation, removal and renames under /tex fail with EACCES. */
function guardReadOnly(FS: EmFS): void {
  const EACCES = 2;
  const abs = (p: unknown): string => {
    const s = String(p);
    return path.posix.normalize(s.startsWith('/') ? s : `${FS.cwd()}/${s}`);
  };
  const underTex = (p: unknown): boolean => {
    const a = abs(p);
    return a === TEX_MOUNT || a.startsWith(`${TEX_MOUNT}/`);
  };
  const deny = (): never => { throw new FS.ErrnoError(EACCES); };
  const wrap = (name: string, check: (args: unknown[]) => boolean): void => {
    const orig = FS[name] as (...args: unknown[]) => unknown;
    FS[name] = (...args: unknown[]) => (check(args) ? deny() : orig.apply(FS, args));
  };
  const O_ACCMODE = 3, O_CREAT = 64, O_TRUNC = 512, O_APPEND = 1024;
  wrap('open', ([p, flags]) => {
    const f = typeof flags === 'string' ? FS.modeStringToFlags(flags) : Number(flags ?? 0);
    return (f & (O_ACCMODE | O_CREAT | O_TRUNC | O_APPEND)) !== 0 && typeof p === 'string' && underTex(p);
  });
  for (const op of ['mkdir', 'mknod', 'unlink', 'rmdir', 'truncate', 'chmod', 'chown', 'utime', 'symlink', 'writeFile']) {
    wrap(op, ([p, q]) => underTex(p) || (op === 'symlink' && underTex(q)));
  }
  wrap('rename', ([p, q]) => underTex(p) || underTex(q));
}

interface RunOutcome { exitCode: number; files: FileMap; output: string }

async function runOnce(job: PdftexJob, files: FileMap, jobname: string, main: string): Promise<RunOutcome> {
  const createPdftex = glueFactory(job.texDir);
  const texDir = path.resolve(job.texDir);
  const output: string[] = [];
  // Terminal bytes as pdfTeX flushes them, not whole lines: "[12]" after a
  // page is a sign of life long before the line is full.
  const terminal: number[] = [];
  const onByte = (c: number | null): void => {
    if (c === null) return;
    terminal.push(c);
    job.onProgress?.();
  };
  job.onProgress?.();
  const M = await createPdftex({
    // kpathsea derives SELFAUTOLOC from argv[0]: the file must exist (an empty one in MEMFS).
    thisProgram: '/bin/pdftex',
    print: (s) => { output.push(s); },
    printErr: (s) => { output.push(s); },
    stdout: onByte,
    stderr: onByte,
    stdin: () => null,
    // The default quit calls process.exit(); make exit() a catchable throw instead.
    quit: (_status, toThrow) => { throw toThrow; },
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(job.module, imports).then(
        (inst) => receive(inst, job.module),
        (err: unknown) => { output.push(`instantiate failed: ${String(err)}`); },
      );
      return {};
    },
    preRun: [(m) => {
      const FS = m.FS;
      FS.mkdir('/bin');
      FS.writeFile('/bin/pdftex', '');
      FS.mkdir(TEX_MOUNT);
      FS.mount(FS.filesystems['NODEFS'], { root: texDir }, TEX_MOUNT);
      FS.mkdir(JOB_DIR);
      writeJobFiles(FS, files);
      FS.chdir(JOB_DIR);
      guardReadOnly(FS);
      m.ENV['TEXMFCNF'] = TEX_MOUNT;
    }],
  });
  let exitCode: number;
  try {
    exitCode = M.callMain([
      '-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape',
      `-progname=${FORMAT_NAME}`, `-fmt=${FORMAT_NAME}`, `-jobname=${jobname}`, main,
    ]);
  } catch (err) {
    output.push(`pdfTeX crashed: ${err instanceof Error ? err.message : String(err)}`);
    exitCode = -1;
  }
  let out: FileMap;
  try {
    out = readJobFiles(M.FS);
  } catch {
    out = files;
  }
  const shown = new TextDecoder('utf-8').decode(Uint8Array.from(terminal)).replace(/\n$/, '');
  return { exitCode, files: out, output: [shown, ...output].filter(Boolean).join('\n') };
}

// ---------------------------------------------------------------- the job

/**
 * Typesets `main` with pdfTeX and the pdflatex format, re-running (each time in
 * a fresh engine instance, with the job folder carried over) while the
 * .aux/.toc/.lof/.lot/.out files change, at most `maxRuns` times.
 */
export async function runPdftex(job: PdftexJob): Promise<PdftexResult> {
  const main = checkedJobPath(job.main);
  const jobname = path.posix.basename(main).replace(/\.tex$/i, '');
  const enc = new TextEncoder();
  const inputs: FileMap = new Map();
  for (const [name, data] of Object.entries(job.files)) {
    inputs.set(checkedJobPath(name), typeof data === 'string' ? enc.encode(data) : data);
  }
  if (!inputs.has(main)) throw new Error(`runPdftex: main file ${main} is not among the files`);
  const maxRuns = Math.max(1, Math.floor(job.maxRuns));

  let files: FileMap = inputs;
  let runs = 0;
  let last: RunOutcome = { exitCode: -1, files, output: '' };
  while (runs < maxRuns) {
    const before = rerunState(files);
    last = await runOnce(job, nextRunFiles(inputs, files), jobname, main);
    runs++;
    files = last.files;
    if (last.exitCode !== 0) break;
    if (sameState(before, rerunState(files))) break;
  }

  const logBytes = files.get(`${jobname}.log`);
  const log = logBytes ? new TextDecoder('utf-8').decode(logBytes) : last.output;
  const pdfBytes = files.get(`${jobname}.pdf`);
  const pdf = last.exitCode === 0 && pdfBytes && pdfBytes.length > 0 ? pdfBytes : null;
  return { pdf, log, runs, exitCode: last.exitCode, output: last.output };
}
