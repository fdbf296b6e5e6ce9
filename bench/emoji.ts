/**
 * Emoji in PDF (issue 19): documents of N emoji (drawn in turn from 50
 * distinct ones, 20 to a line) through the whole service, uncached; prints
 * time, emoji per second, PDF size and the form XObjects the PDF holds
 * (one per emoji picture embedded). The format for the emoji set is made by
 * an untimed first request. Nothing here is a pass/fail test.
 *
 * usage: npm run bench:emoji   (or node dist/bench/emoji.js [--counts 1000,5000,30000] [--distinct 50] [--runs 1])
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { benchArgs, fmt, median, startInProcess } from './support.js';

const args = benchArgs({ strings: ['counts'], numbers: ['distinct', 'runs'] });
const COUNTS = args.string('counts', '1000,5000,30000').split(',').map(Number);
const DISTINCT = args.number('distinct', 50, { min: 1, whole: true });
const RUNS = args.number('runs', 1, { min: 1, whole: true });

// Faces and objects from U+1F600 and U+1F300 on: single code points that
// hwemoji draws as pictures.
const EMOJI = [
  ...Array.from({ length: 40 }, (_, i) => String.fromCodePoint(0x1f600 + i)),
  ...Array.from({ length: 60 }, (_, i) => String.fromCodePoint(0x1f330 + i)),
].slice(0, DISTINCT);

function doc(n: number, run: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i += 20) {
    lines.push(Array.from({ length: Math.min(20, n - i) }, (_, j) => EMOJI[(i + j) % EMOJI.length]).join(' '));
    // A paragraph every 10 lines, so that lines break as in prose.
    if ((i / 20) % 10 === 9) lines.push('');
  }
  return `Emoji ${n}\n${'='.repeat(20)}\n\n${lines.join('\n')}\n\n.. run ${run}\n`;
}

/** Form XObjects written: each is a stream, so its dictionary is never inside an object stream. */
function forms(pdf: Buffer): number {
  return pdf.toString('latin1').match(/\/Subtype\s*\/Form/g)?.length ?? 0;
}

async function main(): Promise<void> {
  console.log(`rst2 emoji in PDF: ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${os.cpus().length} CPUs, ${DISTINCT} distinct emoji, ${RUNS} run(s) each; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const formatDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-formats-'));
  const server = await startInProcess({ RST2_TEX_FORMAT_DIR: formatDir, RST2_TEX_WORKERS: '1', RST2_PDF_TIMEOUT_MS: '600000', RST2_PDF_STALL_MS: '0' });
  let run = 0;
  const post = async (rst: string): Promise<{ ms: number; pdf: Buffer }> => {
    const started = performance.now();
    const res = await fetch(`${server.url}/1.0/rst2/pdf`, { method: 'POST', body: new URLSearchParams({ rst }) });
    const pdf = Buffer.from(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${pdf.toString('utf8').slice(0, 300)}`);
    return { ms: performance.now() - started, pdf };
  };
  const rows: string[][] = [];
  try {
    await post(doc(10, run++));
    for (let waited = 0; !fs.readdirSync(formatDir).some((f) => f.endsWith('.fmt')) && waited < 120_000; waited += 250) await new Promise((r) => setTimeout(r, 250));
    const baseline = await post(doc(0, run++));
    for (const n of COUNTS) {
      const times: number[] = [];
      let pdf: Buffer = Buffer.alloc(0);
      for (let i = 0; i < RUNS; i++) ({ ms: times[i], pdf } = await post(doc(n, run++)));
      const ms = median(times);
      rows.push([String(n), fmt(ms), Math.round(n / ((ms - baseline.ms) / 1000)).toLocaleString('en'), Math.round(n / (ms / 1000)).toLocaleString('en'), `${(pdf.length / 1024).toFixed(0)} KiB`, String(forms(pdf))]);
      console.error(`[bench] ${n} emoji: ${fmt(ms)} ms`);
    }
    rows.unshift(['0 (title only)', fmt(baseline.ms), '', '', `${(baseline.pdf.length / 1024).toFixed(0)} KiB`, String(forms(baseline.pdf))]);
  } finally {
    await server.close();
    fs.rmSync(formatDir, { recursive: true, force: true });
  }
  const header = ['emoji', 'HTTP (ms)', 'emoji/s (beyond the empty document)', 'emoji/s (whole request)', 'PDF size', 'form XObjects'];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
