/**
 * Our small fuzzer: mutated reStructuredText sent over HTTP to `html` and
 * `check`, every answer checked against the service's error contract.
 *
 * HTTP rather than the engine directly: the contract under test is the HTTP
 * one (status, JSON error body, Retry-After), and the way there crosses the
 * body parser, strict UTF-8 decoding, the cache and the error middleware,
 * which an engine-level fuzzer would skip. Shared by bench/fuzz.ts (10,000
 * inputs) and test/load.test.ts (a few hundred).
 */
import fs from 'node:fs';
import path from 'node:path';

import type { Seed } from './fuzz-seeds.js';

/** mulberry32: tiny, fast and good enough to make runs reproducible from one number. */
export class Rng {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  int(max: number): number {
    return Math.floor(this.next() * max);
  }
  range(min: number, max: number): number {
    return min + this.int(max - min + 1);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

const DIRECTIVES = [
  'note', 'warning', 'admonition', 'topic', 'sidebar', 'rubric', 'epigraph', 'compound', 'container', 'code', 'code-block',
  'math', 'table', 'csv-table', 'list-table', 'image', 'figure', 'contents', 'sectnum', 'header', 'footer', 'class', 'role',
  'default-role', 'title', 'meta', 'replace', 'unicode', 'date', 'include', 'raw', 'parsed-literal', 'line-block',
  'target-notes', 'no-such-directive',
];
const ROLES = ['emphasis', 'strong', 'literal', 'code', 'math', 'sub', 'sup', 'pep', 'rfc', 'title-reference', 'abbreviation', 'raw', 'no-such-role'];
const OPTIONS = [':class: x', ':name: n', ':width: 50%', ':widths: 1 2 3', ':header-rows: 9', ':depth: -1', ':number-lines: x', ':file: /etc/passwd', ':url: http://127.0.0.1/', ':delim: tab', ':align: center', ':local:', ':trim:'];
const UNICODE = [
  '\u0301\u0302\u0303', '\u202e', '\u200b', '\u200d', '\ufeff', '\u00a0', 'é', 'ß', 'Ω', '中文', 'עברית', 'العربية', '😀', '👩‍👩‍👧',
  '\u2028', '\u0000', '\u0007', '\u001b[31m', '\ufffd', '𝔘𝔫𝔦', '\u0085', '\r', '\t',
];
const INLINE = ['*', '**', '``', '`', '|', '_', '__', '[#]_', '[*]_', '`x <', '<http://x>`_', '`a`__', ':role:', '\\', '||', '`_', '_`', '[1]_', '|x|_'];

/** rst constructs to splice in, many of them broken on purpose. */
function construct(rng: Rng): string[] {
  const indent = (lines: string[], n: number) => lines.map((l) => ' '.repeat(n) + l);
  switch (rng.int(12)) {
    case 0: {
      const name = rng.pick(DIRECTIVES);
      const opts = Array.from({ length: rng.int(3) }, () => `   ${rng.pick(OPTIONS)}`);
      return ['', `.. ${name}:: ${rng.chance(0.5) ? 'argument' : ''}`, ...opts, '', `   Body of ${name}.`, ''];
    }
    case 1:
      return [`Text :${rng.pick(ROLES)}:\`content${rng.pick(INLINE)}\` more.`];
    case 2: {
      const cols = rng.range(1, 5);
      const border = '+' + Array.from({ length: cols }, () => '-'.repeat(rng.range(1, 6))).join('+') + '+';
      const row = '|' + Array.from({ length: cols }, () => ' x ').join('|') + '|';
      return ['', border, row, rng.chance(0.5) ? border.replace(/-/g, '=') : border, row, rng.chance(0.7) ? border : border.slice(0, -2), ''];
    }
    case 3:
      return ['', '=====  =====', 'a      b', '=====  ' + '='.repeat(rng.range(1, 8)), '1      2  3', '=====  =====', ''];
    case 4: {
      const depth = rng.range(2, 40);
      return ['', ...Array.from({ length: depth }, (_, i) => `${'  '.repeat(i)}${rng.pick(['*', '-', '1.', '#.', '(a)', 'i)'])} level ${i}`).flatMap((l) => [l, '']), ''];
    }
    case 5:
      return [Array.from({ length: rng.range(1, 8) }, () => rng.pick(INLINE) + 'word').join(' ')];
    case 6:
      return [' '.repeat(rng.pick([8, 40, 200, 1000])) + 'deeply indented', ''];
    case 7: {
      const depth = rng.range(5, 60);
      return ['', ...Array.from({ length: depth }, (_, i) => `${'    '.repeat(i)}quote level ${i}`).flatMap((l) => [l, ''])];
    }
    case 8:
      return [Array.from({ length: rng.range(1, 12) }, () => rng.pick(UNICODE)).join('')];
    case 9: {
      const ch = rng.pick(['=', '-', '~', '^', '"', '#', '*', '+', '`']);
      const title = `Title ${rng.int(100)}`;
      return ['', rng.chance(0.3) ? ch.repeat(title.length) : '', title, ch.repeat(rng.range(1, title.length + 3)), ''];
    }
    case 10:
      return ['', `.. [#${rng.pick(['', 'a', 'x y'])}] footnote`, `.. _${rng.pick(['t', 'a b', '`q`'])}: http://example.org/`, `.. |s${rng.int(3)}| replace:: |s${rng.int(3)}| x`, '', 'Ref [#]_ |s0| t_ `a b`_', ''];
    default:
      return indent(['', '.. list-table::', '   :header-rows: 1', '', '   * - a', '     - b', rng.chance(0.5) ? '   * - c' : '   * - c\n     - d\n     - e', ''], rng.chance(0.3) ? 3 : 0);
  }
}

/** A window of a seed: large documents are cut so inputs stay a few KB on average. */
function window(rng: Rng, text: string, maxLines: number): string[] {
  const lines = text.split('\n');
  if (lines.length <= maxLines) return lines;
  const len = rng.range(10, maxLines);
  const start = rng.int(lines.length - len);
  return lines.slice(start, start + len);
}

/** One fuzz input: a seed window with 1-6 mutations. Bytes, since some mutations break UTF-8 on purpose. */
export function mutate(rng: Rng, seeds: readonly Seed[]): Buffer {
  let lines = window(rng, rng.pick(seeds).text, 300);
  const mutations = rng.range(1, 6);
  let byteLevel = false;
  for (let m = 0; m < mutations; m++) {
    const at = rng.int(lines.length + 1);
    switch (rng.int(10)) {
      case 0: // splice lines of another seed in
        lines.splice(at, 0, ...window(rng, rng.pick(seeds).text, 60));
        break;
      case 1: {
        const len = rng.range(1, 30);
        lines.splice(at, 0, ...lines.slice(at, at + len));
        break;
      }
      case 2:
        lines.splice(at, rng.range(1, 20));
        break;
      case 3:
      case 4:
        lines.splice(at, 0, ...construct(rng));
        break;
      case 5: {
        // Re-indent a range: breaks or creates block structure.
        const shift = rng.range(-4, 8);
        for (let i = at; i < Math.min(lines.length, at + rng.range(1, 15)); i++) {
          lines[i] = shift >= 0 ? ' '.repeat(shift) + lines[i] : lines[i]!.replace(new RegExp(`^ {0,${-shift}}`), '');
        }
        break;
      }
      case 6: {
        const i = rng.int(lines.length || 1);
        const j = rng.int(lines.length || 1);
        [lines[i], lines[j]] = [lines[j] ?? '', lines[i] ?? ''];
        break;
      }
      case 7: {
        // Insert characters inside a line: unicode or inline markup.
        const i = rng.int(lines.length || 1);
        const line = lines[i] ?? '';
        const pos = rng.int(line.length + 1);
        lines[i] = line.slice(0, pos) + (rng.chance(0.5) ? rng.pick(UNICODE) : rng.pick(INLINE)) + line.slice(pos);
        break;
      }
      case 8:
        lines = lines.slice(0, rng.range(0, lines.length));
        break;
      default:
        // Byte-level edits, now and then: enough to test the UTF-8 guard
        // without most inputs stopping there instead of reaching docutils.
        if (rng.chance(0.3)) byteLevel = true;
        else lines.splice(at, 0, ...construct(rng));
    }
  }
  let bytes = Buffer.from(lines.join(rng.chance(0.05) ? '\r\n' : '\n'), 'utf8');
  if (byteLevel && bytes.length > 0) {
    // Byte splicing: may produce invalid UTF-8, which must be a clean 400.
    const edits = rng.range(1, 4);
    for (let e = 0; e < edits; e++) {
      const pos = rng.int(bytes.length);
      const kind = rng.int(3);
      if (kind === 0) bytes[pos] = rng.int(256);
      else if (kind === 1) bytes = Buffer.concat([bytes.subarray(0, pos), Buffer.from([rng.int(256)]), bytes.subarray(pos)]);
      else {
        const from = rng.int(bytes.length);
        const len = rng.range(1, 64);
        bytes = Buffer.concat([bytes.subarray(0, pos), bytes.subarray(from, from + len), bytes.subarray(pos)]);
      }
    }
  }
  return bytes;
}

export interface FuzzOptions {
  url: string;
  seeds: readonly Seed[];
  count: number;
  seed: number;
  concurrency: number;
  /** Bound for one request; past it, the input counts as a hang. */
  deadlineMs: number;
  /** Where failing inputs are saved. */
  outDir: string;
  onProgress?: (done: number) => void;
}

export interface FuzzFailure {
  index: number;
  op: string;
  reason: string;
  status?: number;
  file: string;
}

export interface FuzzReport {
  statuses: Record<string, number>;
  /** Error codes seen in 4xx/422/503 answers, for the record. */
  codes: Record<string, number>;
  failures: FuzzFailure[];
  slowest: Array<{ index: number; op: string; ms: number; bytes: number; status: number }>;
  elapsedMs: number;
  bytes: number;
}

interface Verdict {
  status: number;
  code?: string;
  problem?: string;
}

/** Checks one answer against the contract: 200, or a clean JSON 4xx, or 503 with Retry-After. */
async function judge(op: string, res: Response): Promise<Verdict> {
  const body = await res.text();
  const type = res.headers.get('content-type') ?? '';
  if (res.status === 200) {
    if (op === 'check') {
      if (!type.startsWith('application/json')) return { status: 200, problem: `check answered ${type}` };
      if (!Array.isArray(JSON.parse(body))) return { status: 200, problem: 'check did not answer a JSON array' };
    } else if (!type.startsWith('text/html') || !body.includes('</html>')) return { status: 200, problem: `html answered ${type} without a whole page` };
    return { status: 200 };
  }
  let code: string | undefined;
  try {
    const parsed = JSON.parse(body) as { error?: { code?: unknown; message?: unknown } };
    if (typeof parsed.error?.code === 'string' && typeof parsed.error.message === 'string') code = parsed.error.code;
  } catch {
    // not JSON: reported below
  }
  if (!code) return { status: res.status, problem: `status ${res.status} without a JSON error body` };
  if (res.status >= 400 && res.status < 500) return { status: res.status, code };
  if (res.status === 503) return res.headers.get('retry-after') ? { status: 503, code } : { status: 503, code, problem: '503 without Retry-After' };
  return { status: res.status, code, problem: `status ${res.status} (${code})` };
}

export async function fuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const rng = new Rng(opts.seed);
  // Inputs are made up front, in order, so a PRNG seed always gives the same list
  // whatever the timing of the answers.
  const inputs = Array.from({ length: opts.count }, () => mutate(rng, opts.seeds));
  const report: FuzzReport = { statuses: {}, codes: {}, failures: [], slowest: [], elapsedMs: 0, bytes: 0 };
  const timings: FuzzReport['slowest'] = [];
  const save = (index: number, op: string, input: Buffer, reason: string, status?: number) => {
    fs.mkdirSync(opts.outDir, { recursive: true });
    const file = path.join(opts.outDir, `seed${opts.seed}-${index}-${op}.rst`);
    fs.writeFileSync(file, input);
    fs.writeFileSync(`${file}.json`, JSON.stringify({ index, op, seed: opts.seed, status, reason }, null, 2));
    report.failures.push({ index, op, reason, status, file });
  };
  let next = 0;
  let done = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: opts.concurrency }, async () => {
      while (next < inputs.length) {
        const index = next++;
        const input = inputs[index]!;
        const op = index % 2 === 0 ? 'html' : 'check';
        report.bytes += input.length;
        const t0 = performance.now();
        let verdict: Verdict;
        try {
          const res = await fetch(`${opts.url}/1.0/rst2/${op}`, {
            method: 'POST',
            headers: { 'content-type': 'text/x-rst; charset=utf-8' },
            body: new Uint8Array(input),
            signal: AbortSignal.timeout(opts.deadlineMs),
          });
          verdict = await judge(op, res);
        } catch (err) {
          const timedOut = err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError');
          verdict = { status: 0, problem: timedOut ? `no answer within ${opts.deadlineMs} ms` : `request failed: ${err instanceof Error ? err.message : String(err)}` };
        }
        const ms = performance.now() - t0;
        const key = verdict.status === 0 ? 'none' : String(verdict.status);
        report.statuses[key] = (report.statuses[key] ?? 0) + 1;
        if (verdict.code) report.codes[verdict.code] = (report.codes[verdict.code] ?? 0) + 1;
        if (verdict.problem) save(index, op, input, verdict.problem, verdict.status || undefined);
        timings.push({ index, op, ms, bytes: input.length, status: verdict.status });
        opts.onProgress?.(++done);
      }
    }),
  );
  report.elapsedMs = performance.now() - started;
  report.slowest = timings.sort((a, b) => b.ms - a.ms).slice(0, 10);
  return report;
}

/** The input at `index` of a run with this PRNG seed (to reproduce a slow or failing one). */
export function inputAt(seed: number, index: number, seeds: readonly Seed[]): Buffer {
  const rng = new Rng(seed);
  let input: Buffer = Buffer.alloc(0);
  for (let i = 0; i <= index; i++) input = mutate(rng, seeds);
  return input;
}
