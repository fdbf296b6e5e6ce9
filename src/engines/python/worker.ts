/**
 * One Pyodide interpreter with docutils, in a worker thread: booted from the
 * memory snapshot when there is one, else plainly (boot.ts); it renders one
 * document to warm up, then serves jobs one at a time.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';

import { Code, documentErrorCode } from '../../errors.js';
import { bootFromSnapshot, bootPlain } from './boot.js';
import { loadCodeParsers, SYNTAX_MODULE } from './code-parsers.js';
import type { JobFailure, WorkerMessage } from '../worker-messages.js';
import type { Reply } from './contract.js';
import { replyProblems } from './contract-check.js';
import { readContract } from './contract-schema.js';
import type { PythonJob, PythonWorkerData } from './protocol.js';
import { wasmHeapBytes } from './heap.js';

const data = workerData as PythonWorkerData;
const port = parentPort!;
const interrupt = new Int32Array(data.interrupt);
const contract = readContract(data.pythonSources);

type Handle = (op: string, source: string, options: string) => string;

/**
 * The interpreter: from the snapshot when there is one. A snapshot that
 * will not load (cut short by a full disk, or not what this Pyodide makes)
 * is removed, so that the next start makes it again, and this worker boots
 * plainly: a broken cache file must cost a slower start, not the service.
 */
async function interpreter(): ReturnType<typeof bootPlain> {
  if (!data.snapshotPath) return bootPlain(data);
  try {
    return await bootFromSnapshot(data.snapshotPath, data);
  } catch {
    fs.rmSync(data.snapshotPath, { force: true });
    return bootPlain(data);
  }
}

async function boot(): Promise<{ handle: Handle; heapBytes: () => number }> {
  // The grammars load while the interpreter boots; Python imports them
  // when a document first has such a block, so a snapshot needs none.
  const [py, parsers] = await Promise.all([interpreter(), loadCodeParsers(() => Atomics.load(interrupt, 0) !== 0).catch(() => null)]);
  if (parsers) py.registerJsModule(SYNTAX_MODULE, parsers);
  const handle = py.pyimport('rst2.api').handle as Handle;
  if (data.limits) {
    const configure = py.pyimport('rst2.limits').configure as (maxOutputBytes: number, maxNestingDepth: number) => void;
    configure(data.limits.maxOutputBytes, data.limits.maxNestingDepth);
  }
  py.setInterruptBuffer(interrupt);
  // Warm-up: the first render in a thread is slow until V8 has optimised the interpreter.
  const warm = JSON.parse(handle('html', 'Warm up\n=======\n\n*ok* ``x``\n\n.. code:: python\n\n   x = 1\n', '{}')) as { ok: boolean; message?: string };
  if (!warm.ok) throw new Error(`warm-up render failed: ${warm.message ?? 'unknown'}`);
  handle('check', 'ok\n', '{}');
  // Also makes the default class and style's format preamble (rst2.render),
  // which a first PDF would otherwise wait for.
  handle('latex', 'ok\n', '{}');
  // What is alive now stays for the worker's life: modules, docutils' and
  // Pygments' tables, our caches (the warm-ups' garbage is collected
  // first). Frozen, those tens of thousands of objects are no longer scanned
  // by the cyclic collector during every render, which made up a tenth of a
  // small document's time.
  py.runPython('import gc\ngc.collect()\ngc.freeze()');
  wasmHeapBytes(py); // a Pyodide that hides its memory fails here, not on the first job
  return { handle, heapBytes: () => wasmHeapBytes(py) + (parsers?.grownBytes() ?? 0) };
}

function run(handle: Handle, job: PythonJob): { ok: true; value: unknown } | { ok: false; error: JobFailure } {
  Atomics.store(interrupt, 0, 0);
  let raw: string;
  try {
    raw = handle(job.op, job.source, JSON.stringify(job.options));
  } catch (err) {
    // A PythonError escaping api.handle (e.g. an interrupt outside its try);
    // its message can be megabytes, so only a slice is logged.
    const text = err instanceof Error ? err.message : String(err);
    if (text.includes('KeyboardInterrupt')) {
      return { ok: false, error: { code: Code.render_timeout, message: 'The document took too long to render.' } };
    }
    return { ok: false, error: { code: Code.render_failed, message: 'The renderer failed on this document.', detail: text.slice(-4000) } };
  }
  const parsed: unknown = JSON.parse(raw);
  // A reply the contract does not allow is a bug on one side; caught here,
  // it is logged as such instead of failing later wherever a field is read.
  const problems = replyProblems(contract, job.op, parsed);
  if (problems.length > 0) {
    const detail = `the reply breaks the worker contract (python/rst2/worker.schema.json): ${problems.slice(0, 5).join('; ')}`;
    return { ok: false, error: { code: Code.render_failed, message: 'The renderer failed on this document.', detail } };
  }
  const out = parsed as Reply;
  if (out.ok) return { ok: true, value: out.result };
  // Python names the document's faults with catalogue codes; its `internal`
  // is a bug in the renderer.
  const code = documentErrorCode(out.code);
  if (code === undefined) {
    return { ok: false, error: { code: Code.render_failed, message: 'The renderer failed on this document.', detail: `${out.message}\n${out.trace ?? ''}` } };
  }
  return { ok: false, error: { code, message: out.message } };
}

try {
  const { handle, heapBytes } = await boot();
  port.on('message', (msg: { type: 'job'; id: number; payload: PythonJob }) => {
    const outcome = run(handle, msg.payload);
    // The pool recycles this worker when the heap has grown past its budget.
    const reply: WorkerMessage = outcome.ok
      ? { type: 'done', id: msg.id, ok: true, value: outcome.value, heapBytes: heapBytes() }
      : { type: 'done', id: msg.id, ok: false, error: outcome.error, heapBytes: heapBytes() };
    port.postMessage(reply);
  });
  port.postMessage({ type: 'ready' } satisfies WorkerMessage);
} catch (err) {
  port.postMessage({ type: 'failed', message: err instanceof Error ? `${err.message}`.slice(0, 4000) : String(err) } satisfies WorkerMessage);
}
