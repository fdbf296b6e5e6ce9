/**
 * Memory of a TeX worker after many documents (issue 31): one instance in
 * its own process with one TeX worker, fed 100 different one-page PDFs,
 * first in Arabic (LuaHBTeX, a fresh 256 MiB engine instance per run), then,
 * in a second instance, in Latin (pdfTeX). Prints the process's RSS fresh,
 * after 10, 50 and 100 documents, and 5 s after the last, for both; the
 * engine instances are thrown away after each run, so what stays is the
 * worker's own, and the two should end close.
 *
 * usage: npm run build && node dist/bench/shaping-memory.js [--quick]
 */
import os from 'node:os';

import { startInstance } from './instance-process.js';
import { benchArgs } from './support.js';

const quick = benchArgs({ flags: ['quick'] }).has('quick');
const COUNT = quick ? 20 : 100;
const CHECKPOINTS = [...new Set([10, 50, COUNT])].filter((n) => n <= COUNT);

const ARABIC = 'يولد جميع الناس أحرارا متساوين في الكرامة والحقوق. وقد وهبوا عقلا وضميرا وعليهم أن يعامل بعضهم بعضا بروح الإخاء.';
const LATIN = 'All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.';

async function series(name: string, paragraph: string): Promise<string[]> {
  const instance = await startInstance({ RST2_TEX_WORKERS: '1', RST2_WORKERS: '1', RST2_PDF_TIMEOUT_MS: '120000' });
  const row = [name];
  try {
    row.push(instance.memory().rssMb.toFixed(0));
    for (let n = 1; n <= COUNT; n++) {
      // Each document differs (a comment with its number), so none is a cache hit.
      const rst = `${name}\n${'='.repeat(name.length)}\n\n${Array(5).fill(paragraph).join('\n\n')}\n\n.. run ${n}\n`;
      const res = await fetch(`${instance.url}/1.0/rst2/pdf`, { method: 'POST', body: new URLSearchParams({ rst }) });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${name} document ${n}: HTTP ${res.status}`);
      if (CHECKPOINTS.includes(n)) row.push(instance.memory().rssMb.toFixed(0));
    }
    await instance.waitIdle();
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const { rssMb, peakMb } = instance.memory();
    row.push(rssMb.toFixed(0), peakMb.toFixed(0));
  } finally {
    await instance.stop();
  }
  return row;
}

async function main(): Promise<void> {
  console.log(`rst2 TeX worker memory: ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${os.cpus().length} CPUs, ${COUNT} documents each; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  const rows = [await series('Arabic', ARABIC), await series('Latin', LATIN)];
  const header = ['documents (one page each)', 'RSS fresh (MB)', ...CHECKPOINTS.map((n) => `after ${n}`), '5 s later', 'peak'];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
