/**
 * A thread that dumps one preamble format (format-dump.ts) and exits, so that
 * the second or so it takes never holds up a request's thread or a pdfTeX
 * worker of the pool.
 */
import { parentPort, workerData } from 'node:worker_threads';

import { dumpFormat, type DumpJob } from './format-dump.js';

export type FormatWorkerReply = { ok: true; format: ArrayBuffer } | { ok: false; log: string };

const port = parentPort!;
let reply: FormatWorkerReply;
try {
  const out = await dumpFormat(workerData as DumpJob);
  reply = out.format ? { ok: true, format: out.format.slice().buffer } : { ok: false, log: out.log.slice(-4000) };
} catch (err) {
  reply = { ok: false, log: err instanceof Error ? err.stack ?? err.message : String(err) };
}
port.postMessage(reply, reply.ok ? [reply.format] : []);
