/**
 * The Python engine: docutils in a warm pool of Pyodide workers. Renders
 * HTML, writes LaTeX for the PDF pipeline and checks syntax.
 */
import { Worker } from 'node:worker_threads';

import { DEFAULT_DIALECT, type Dialect } from '../../dialects.js';
import { Code, ServiceError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { HtmlFormat } from '../../options.js';
import { WorkerPool, type PoolStats } from '../worker-pool.js';
import { ensureSnapshot } from './snapshot.js';
import type { CheckOptions, HtmlOptions, Results } from './contract.js';
import type { CheckItem, PythonJob, PythonWorkerData, RenderLimits } from './protocol.js';

export interface PythonEngineOptions {
  workers: number;
  queueLimit: number;
  timeoutMs: number;
  bundlePath: string;
  pythonSources: string;
  stylesDir: string;
  /** Boot workers from a memory snapshot (made on first start); default true. */
  useSnapshot?: boolean;
  /** What one render may build; unbounded when absent (benches, tests of the engine itself). */
  limits?: RenderLimits;
  /** A worker whose wasm heap is larger than this after a job is replaced; absent or 0: never. */
  heapBudgetBytes?: number;
  log: Logger;
}

export interface LatexOptions {
  documentClass: string;
  style: string;
  useLatexToc: boolean;
  /** A tagged PDF (PDF/UA-1); absent: untagged. */
  tagged?: boolean;
  /** docutils' own layout, without a format preamble (to compare against). */
  docutilsLayout?: boolean;
  /** Plain docutils when absent. */
  dialect?: Dialect;
}

/** What a project chose beyond the dialect: the rules to report and the names it defines elsewhere (python/rst2/project). */
export type ProjectChoice = Pick<CheckOptions, 'rules' | 'roles' | 'directives' | 'literal_directives' | 'substitutions' | 'line_length' | 'tagged'>;

// Python checks its interrupt buffer every few bytecodes; a render that does
// not stop within this after being interrupted is stuck in C and is killed.
const INTERRUPT_GRACE_MS = 2000;

export class PythonEngine {
  private readonly pool: WorkerPool;
  private snapshotPath: string | null = null;

  constructor(private readonly opts: PythonEngineOptions) {
    this.pool = new WorkerPool({
      name: 'python',
      size: opts.workers,
      queueLimit: opts.queueLimit,
      timeoutMs: opts.timeoutMs,
      graceMs: INTERRUPT_GRACE_MS,
      heapBudgetBytes: opts.heapBudgetBytes,
      log: opts.log,
      timeoutError: () => new ServiceError(Code.render_timeout, `The document took longer than ${opts.timeoutMs} ms to render.`),
      spawn: () => {
        const interrupt = new SharedArrayBuffer(4);
        const workerData: PythonWorkerData = {
          bundlePath: opts.bundlePath,
          pythonSources: opts.pythonSources,
          stylesDir: opts.stylesDir,
          snapshotPath: this.snapshotPath,
          interrupt,
          limits: opts.limits,
        };
        const worker = new Worker(new URL('./worker.js', import.meta.url), { workerData, stdout: false, stderr: false });
        return { worker, interrupt: () => Atomics.store(new Int32Array(interrupt), 0, 2) };
      },
    });
  }

  async start(): Promise<void> {
    const { bundlePath, pythonSources, stylesDir, log } = this.opts;
    this.snapshotPath = this.opts.useSnapshot === false
      ? null
      : await ensureSnapshot({ bundlePath, pythonSources, stylesDir }, (message) => log.warn('no Pyodide snapshot: workers boot plainly', { err: message }));
    await this.pool.start();
  }

  close(): Promise<void> {
    return this.pool.close();
  }

  stats(): PoolStats {
    return this.pool.stats();
  }

  busyThreads(): Worker[] {
    return this.pool.busyThreads();
  }

  /** `base`: the URL a `uri` document came from; its relative links and images resolve against it. */
  /** `format`: `page` (absent), or `parts` / `fragment` (HtmlResult says what each adds). */
  async renderHtml(source: string, style: string, dialect: Dialect = DEFAULT_DIALECT, base?: string, format?: HtmlFormat): Promise<Results['html']> {
    const options: HtmlOptions = { style, dialect, ...(base === undefined ? {} : { base }), ...(format === undefined || format === 'page' ? {} : { format }) };
    const out = await this.pool.run<Results['html']>({ op: 'html', source, options } satisfies PythonJob);
    // The writer should never produce active content; when the safety pass
    // had to remove some, a docutils path is open that needs closing.
    if (out.removed.length > 0) this.opts.log.warn('active content removed from rendered HTML', { removed: out.removed });
    return out;
  }

  renderLatex(source: string, opts: LatexOptions): Promise<Results['latex']> {
    return this.pool.run<Results['latex']>({
      op: 'latex',
      source,
      options: {
        class: opts.documentClass,
        style: opts.style,
        use_latex_toc: opts.useLatexToc,
        dialect: opts.dialect ?? DEFAULT_DIALECT,
        docutils_layout: opts.docutilsLayout === true,
        // Only when asked: untagged jobs stay what they were.
        ...(opts.tagged === true ? { tagged: true } : {}),
      },
    } satisfies PythonJob);
  }

  /** `fixLines` [first, last]: fixes only for the problems on those lines ([] for none); absent, for every problem. */
  async check(source: string, dialect: Dialect = DEFAULT_DIALECT, project: ProjectChoice = {}, fixLines?: readonly number[]): Promise<CheckItem[]> {
    const options = fixLines === undefined ? { dialect, ...project } : { dialect, ...project, fix_lines: [...fixLines] };
    return (await this.pool.run<Results['check']>({ op: 'check', source, options } satisfies PythonJob)).messages;
  }
  /** The document with its fixes applied (safe ones; suggested ones too with `unsafe`), the fixes, and the problems left. */
  async fix(source: string, dialect: Dialect = DEFAULT_DIALECT, unsafe = false, project: ProjectChoice = {}): Promise<Results['fix']> {
    return this.pool.run<Results['fix']>({ op: 'fix', source, options: { dialect, unsafe, ...project } } satisfies PythonJob);
  }

  /** What a Sphinx `conf.py` gives check, read with Python's ast, never run. */
  readConf(source: string): Promise<Results['conf']> {
    return this.pool.run<Results['conf']>({ op: 'conf', source, options: {} } satisfies PythonJob);
  }

}
