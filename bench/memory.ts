/**
 * Memory benchmark: one instance in its own process (`rst2 serve`, default
 * workers), fed the documents of the memory issue one case after another:
 * two substitution bombs at once, 2,000 nested block quotes, 1,000 nested
 * lists, and large real documents (HTML and PDF). Prints the instance's RSS
 * (VmRSS of the process: main thread and every worker) fresh, per case (peak
 * while it ran, after it), and 1, 5 and 10 s after the last response; target:
 * back under 900 MB within 10 s. Native docutils (the bundle's, run by
 * Debian's CPython: nativeBundleEnv) renders the same documents as the baseline, its peak RSS read from
 * /proc/self/status (VmHWM: getrusage's ru_maxrss would include the RSS of
 * this process, forked before python3 was executed).
 *
 * Deadlines are raised to 120 s so the large documents finish rather than
 * time out on a busy machine; every other setting is the default, except:
 * --mode guarded (default): the settings as shipped;
 * --mode recycle-only: output and nesting bounds off, heap budget on;
 * --mode unguarded: all three off, as before the bounds existed.
 *
 * usage: npm run bench:memory -- [--mode guarded|recycle-only|unguarded] [--no-native]
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { emphasizedRange, largeDocument, nestedLists, nestedQuotes, numberedLines, productionPadding, substitutionExpansion } from './documents.js';
import { startInstance, type InstanceProcess } from './instance-process.js';
import { paths } from '../src/paths.js';
import { nativeBundleEnv, specificationText } from './support.js';

const TARGET_MB = 900;
const MiB = 1024 * 1024;

const MODES: Record<string, Record<string, string>> = {
  guarded: {},
  'recycle-only': { RST2_MAX_OUTPUT_BYTES: String(1024 * MiB), RST2_MAX_NESTING_DEPTH: '100000' },
  unguarded: { RST2_MAX_OUTPUT_BYTES: String(1024 * MiB), RST2_MAX_NESTING_DEPTH: '100000', RST2_WORKER_HEAP_BUDGET_BYTES: '0' },
};

interface Request {
  operation: 'html' | 'pdf' | 'check';
  rst: string;
  /** Only docutils' own markup runs natively too. */
  dialect?: 'sphinx';
}

interface Case {
  name: string;
  /** Sent at once. */
  requests: Request[];
}

interface Outcome {
  name: string;
  statuses: string;
  seconds: number;
  beforeMb: number;
  peakMb: number;
  afterMb: number;
  nativeMb: string;
}

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? fallback : process.argv[i + 1] ?? fallback;
}

function cases(): Case[] {
  const spec = specificationText();
  const large = largeDocument();
  // About 2 MB of ordinary markup (just under the 2 MiB body limit).
  const twoMb = Array.from({ length: 19 }, (_, i) => large.replace('Large document', `Large document, part ${i + 1}`)).join('\n');
  return [
    { name: 'two substitution bombs at once (37 KB each, 63 MB of HTML unbounded)', requests: [{ operation: 'html', rst: substitutionExpansion('one') }, { operation: 'html', rst: substitutionExpansion('two') }] },
    { name: '2,000 nested block quotes (2 MB)', requests: [{ operation: 'html', rst: nestedQuotes(2000) }] },
    { name: '1,000 nested lists (1 MB)', requests: [{ operation: 'html', rst: nestedLists(1000) }] },
    { name: 'Sphinx emphasize-lines 1-50000000 on one line (65 bytes)', requests: [{ operation: 'html', rst: emphasizedRange(), dialect: 'sphinx' }] },
    { name: 'code, number-lines of 4,000 digits, 20,000 lines (104 KB), HTML and PDF', requests: [{ operation: 'html', rst: numberedLines('code') }, { operation: 'pdf', rst: numberedLines('code') }] },
    { name: 'Sphinx productionlist, a 9,000-letter name over 30,000 lines (219 KB)', requests: [{ operation: 'html', rst: productionPadding(), dialect: 'sphinx' }] },
    { name: "docutils' specification (117 KB), HTML", requests: [{ operation: 'html', rst: spec }] },
    { name: "docutils' specification, PDF", requests: [{ operation: 'pdf', rst: pdfSafe(spec) }] },
    { name: 'generated document, 100 KB, HTML and PDF', requests: [{ operation: 'html', rst: large }, { operation: 'pdf', rst: large }] },
    { name: 'generated document, 2 MB, HTML', requests: [{ operation: 'html', rst: twoMb }] },
  ];
}

// LaTeX's utf8 input has no glyph for some of the specification's characters.
function pdfSafe(text: string): string {
  return text.replace(/[^\u0000-\u024F\u2013\u2014\u2018-\u201F\u2022\u2026]/g, '?');
}

async function send(instance: InstanceProcess, request: Request): Promise<string> {
  const query = request.dialect ? `?dialect=${request.dialect}` : '';
  const res = await fetch(`${instance.url}/1.0/rst2/${request.operation}${query}`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/x-rst; charset=utf-8' },
    body: request.rst,
  });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status === 200) return `200 (${(body.length / 1e6).toFixed(body.length < 1e5 ? 2 : 1)} MB)`;
  const code = (JSON.parse(body.toString('utf8')) as { error?: { code?: string } }).error?.code ?? '?';
  return `${res.status} ${code}`;
}

/** Peak RSS (MB) of native docutils rendering the case, each request its own process, all at once. */
async function native(c: Case, dir: string): Promise<string> {
  if (c.requests.some((r) => r.dialect)) return 'n/a (Sphinx markup)';
  const script = `
import json, os, re, sys
from docutils.core import publish_file
writer = sys.argv[2]
error = None
try:
    publish_file(source_path=sys.argv[1], destination_path=os.devnull, writer_name=writer,
                 settings_overrides={"report_level": 5, "halt_level": 5, "traceback": True})
except BaseException as e:
    error = type(e).__name__
with open("/proc/self/status") as status:
    kb = int(re.search(r"^VmHWM:\\s+(\\d+) kB", status.read(), re.M).group(1))
print(json.dumps({"kb": kb, "error": error}))
`;
  const nativeEnv = nativeBundleEnv(paths.pythonBundle);
  const runs = c.requests.map((r, i) => {
    const file = path.join(dir, `native-${i}.rst`);
    fs.writeFileSync(file, r.rst);
    const writer = r.operation === 'pdf' ? 'latex' : r.operation === 'check' ? 'null' : 'html5';
    return new Promise<string>((resolve) => {
      const child = spawn('/usr/bin/python3', ['-c', script, file, writer], { stdio: ['ignore', 'pipe', 'ignore'], env: nativeEnv });
      let out = '';
      child.stdout.on('data', (d: Buffer) => (out += d.toString()));
      child.on('exit', () => {
        try {
          const r = JSON.parse(out) as { kb: number; error: string | null };
          resolve(`${((r.kb * 1024) / 1e6).toFixed(0)}${r.error ? ` (${r.error})` : ''}`);
        } catch {
          resolve('failed');
        }
      });
    });
  });
  return (await Promise.all(runs)).join(' + ');
}

async function metric(instance: InstanceProcess, name: string): Promise<number> {
  const text = await (await fetch(`${instance.url}/metrics`)).text();
  return [...text.matchAll(new RegExp(`^${name}\\{engine="python"\\} (\\d+)`, 'gm'))].reduce((a, m) => a + Number(m[1]), 0);
}

async function main(): Promise<void> {
  const mode = option('mode', 'guarded');
  const env = MODES[mode];
  if (!env) throw new Error(`--mode must be one of ${Object.keys(MODES).join(', ')}`);
  const withNative = !process.argv.includes('--no-native');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-memory-'));
  const instance = await startInstance({ RST2_DATA_DIR: path.join(dir, 'data'), RST2_RENDER_TIMEOUT_MS: '120000', RST2_PDF_TIMEOUT_MS: '120000', ...env });
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    await sleep(1000);
    const fresh = instance.memory().rssMb;
    console.log(`mode ${mode}; ${os.availableParallelism()} CPUs; node ${process.version}; ${new Date().toISOString().slice(0, 10)}`);
    console.log(`fresh instance: RSS ${fresh.toFixed(0)} MB\n`);

    const outcomes: Outcome[] = [];
    let lastResponse = 0;
    for (const c of cases()) {
      const beforeMb = instance.memory().rssMb;
      let peakMb = beforeMb;
      const sampler = setInterval(() => (peakMb = Math.max(peakMb, instance.memory().rssMb)), 25);
      const started = performance.now();
      const statuses = await Promise.all(c.requests.map((r) => send(instance, r)));
      lastResponse = performance.now();
      clearInterval(sampler);
      const afterMb = instance.memory().rssMb;
      peakMb = Math.max(peakMb, afterMb);
      const nativeMb = withNative ? await native(c, dir) : '';
      outcomes.push({ name: c.name, statuses: statuses.join(', '), seconds: (lastResponse - started) / 1000, beforeMb, peakMb, afterMb, nativeMb });
      console.error(`[bench] ${c.name}: ${statuses.join(', ')}`);
    }

    const at: Array<[number, number]> = [];
    for (const s of [1, 5, 10]) {
      await sleep(Math.max(0, lastResponse + s * 1000 - performance.now()));
      at.push([s, instance.memory().rssMb]);
    }
    const recycled = await metric(instance, 'rst2_engine_worker_recycled_total');
    const restarts = await metric(instance, 'rst2_engine_worker_restarts_total');

    console.log('| case | answers | s | RSS before / peak / after (MB) | native docutils peak RSS (MB) |');
    console.log('|---|---|---|---|---|');
    for (const o of outcomes) {
      console.log(`| ${o.name} | ${o.statuses} | ${o.seconds.toFixed(1)} | ${o.beforeMb.toFixed(0)} / ${o.peakMb.toFixed(0)} / ${o.afterMb.toFixed(0)} | ${o.nativeMb} |`);
    }
    const peak = instance.memory().peakMb;
    const tenS = at[at.length - 1]![1];
    console.log(`\nRSS fresh ${fresh.toFixed(0)} MB, peak ${peak.toFixed(0)} MB; after the last response: ${at.map(([s, mb]) => `${s} s ${mb.toFixed(0)} MB`).join(', ')}`);
    console.log(`Python workers recycled ${recycled}, restarted ${restarts}`);
    console.log(`target: RSS under ${TARGET_MB} MB within 10 s of the last response: ${tenS < TARGET_MB ? 'met' : 'NOT met'}`);
  } finally {
    await instance.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
