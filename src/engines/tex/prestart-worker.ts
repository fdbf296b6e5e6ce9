/**
 * The thread of one pre-started LuaHBTeX instance (prestart.ts). It runs
 * the first lines of a document, the prefix, in scrollmode; at the end of
 * that file TeX asks its terminal for more, and the terminal callback
 * blocks this thread (Atomics.wait) until the TeX worker hands over a job
 * through the shared control word. The job's files go into the instance's
 * job folder and the terminal answers with the line that switches to
 * nonstopmode and reads the rest of the document. The run then ends as a
 * cold one would, and its outcome goes back to the TeX worker. One job per
 * thread: the thread ends with its run.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';

import { prepareInstance, runInstance, type FileMap } from './pdftex-instance.js';
import { engineArgs } from './pdftex-run.js';
import { CONTROL_STATE, IDLE, JOB, type PrestartData, type PrestartJob, type PrestartMessage } from './prestart.js';

const data = workerData as PrestartData;
const port = parentPort!;

let jobRunning = false;
// The line being read (one read of the terminal: its bytes, then null),
// and TeX's next questions: the preload's lines, then the job's.
let line: Uint8Array | undefined;
let at = 0;
let ended = false;
let waitingPosted = false;
// The terminal output's length when TeX was last given a line.
let answeredAt = -1;
const preload = [...(data.preload ?? [])];
let writeJob: ((files: FileMap) => void) | undefined;

// TeX reads its terminal through the C library, which asks this for bytes
// until it answers null; a read that gets no byte is the end of the file.
function terminal(): number | null {
  if (line) {
    if (at < line.length) return line[at++]!;
    line = undefined;
    return null;
  }
  if (ended || jobRunning) return null;
  if (!atEndOfPrefix()) {
    // Some other question (a file name TeX could not find, say): the
    // prefix did not run as it should, so TeX is ended here and a job runs cold.
    ended = true;
    return null;
  }
  return answer(nextLine());
}

function answer(text: string | undefined): number | null {
  if (text === undefined) {
    // Dropped: TeX ends at once ("no legal \end found"), and so does this thread.
    ended = true;
    return null;
  }
  line = new TextEncoder().encode(`${text}\n`);
  at = 1;
  answeredAt = instance.terminal.length;
  return line[0]!;
}

/** What TeX gets at its prompt: a preload line while no job has come, else the job (waited for). */
function nextLine(): string | undefined {
  if (Atomics.load(data.control, CONTROL_STATE) === IDLE && preload.length > 0) return preload.shift();
  if (!waitingPosted) {
    waitingPosted = true;
    port.postMessage({ type: 'waiting' } satisfies PrestartMessage);
  }
  while (Atomics.load(data.control, CONTROL_STATE) === IDLE) Atomics.wait(data.control, CONTROL_STATE, IDLE, 1000);
  const msg = Atomics.load(data.control, CONTROL_STATE) === JOB ? receiveMessageOnPort(data.jobs) : undefined;
  if (!msg || !writeJob) return undefined;
  const job = msg.message as PrestartJob;
  writeJob(job.files);
  jobRunning = true;
  return `${job.clock}\\nonstopmode\\input ${data.main}`;
}

// TeX's prompt for more input once its files are done is a lone "*" on a
// line of its own; a file name asked for ends "name:", a \read "\x=".
function atEndOfPrefix(): boolean {
  // A prompt is new output: a read with nothing printed since the last
  // answer (a \read of the terminal in the preload's wake, say) is not one.
  if (instance.terminal.length === answeredAt) return false;
  const tail = new TextDecoder('latin1').decode(Uint8Array.from(instance.terminal.slice(-8)));
  return /\n\*$/.test(tail);
}

const instance = await prepareInstance({ engine: 'luahbtex', module: data.module, cache: data.cache, texDir: data.texDir, ...(data.env ? { env: data.env } : {}), stdin: terminal });
const FS = instance.em.FS;
writeJob = (files) => {
  for (const [name, bytes] of files) {
    const parts = name.split('/');
    for (let i = 1; i < parts.length; i++) {
      try { FS.mkdir(`/job/${parts.slice(0, i).join('/')}`); } catch { /* exists */ }
    }
    FS.writeFile(`/job/${name}`, name === data.main ? rest(bytes) : bytes);
  }
};

/**
 * TeX has read and closed the main file (the prefix) and reads it again
 * for the rest: the prefix's lines are comment lines there, so every line
 * of the rest has its own number and file name, as in a cold run (bookmark
 * writes both into the .aux, and a different .aux is another run).
 */
function rest(whole: Uint8Array): Uint8Array {
  const prefix = new TextEncoder().encode(data.prefix);
  let lines = 0;
  for (const b of prefix) if (b === 10) lines++;
  const out = new Uint8Array(2 * lines + whole.length - prefix.length);
  for (let i = 0; i < lines; i++) out.set([37, 10], 2 * i);
  out.set(whole.subarray(prefix.length), 2 * lines);
  return out;
}

const outcome = runInstance(instance, {
  files: new Map([[data.main, new TextEncoder().encode(data.prefix)]]),
  args: engineArgs('luahbtex', data.main, undefined, 'scrollmode'),
  // Once a job is handed over, the rest of the prefix is its progress too
  // (a job may come before the prefix is done); before, the counter is the
  // TeX worker's own jobs'.
  onProgress: () => {
    if (jobRunning || Atomics.load(data.control, CONTROL_STATE) === JOB) Atomics.add(data.progress, 0, 1);
  },
});
port.postMessage({ type: 'done', ...(jobRunning ? { outcome } : {}) } satisfies PrestartMessage);
