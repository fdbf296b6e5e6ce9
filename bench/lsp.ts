/**
 * The language server's latency (not a pass/fail test): `rst2 lsp` in a
 * child process, spoken to by the test's client (test/support/lsp-client.ts),
 * with a warm worker. It opens a document of about 1,000 lines
 * (bench/documents.ts) and waits for its diagnostics and a few warm-up
 * changes; then it times RUNS changes one after another, from sending
 * textDocument/didChange to receiving the publishDiagnostics of that
 * version, which includes the server's debounce (none by default) and the check. The
 * changes cycle as someone typing: a word added at a paragraph's end, then a
 * stray `*` (a warning, with its fix), then the `*` removed. Goal: median
 * under 100 ms.
 *
 * The server runs with RST2_LOG_LEVEL=debug: its log line for each check
 * gives the engine's time for it, so what the language server adds around
 * the check (debounce, protocol, positions) is the rest of the latency.
 *
 * The baseline, in the same run: native docutils (Debian's CPython with the
 * bundle's docutils) building the same document's doctree, as an editor
 * plugin running docutils itself would. The ratio of the LSP's median to
 * that one is the figure docs/lsp.rst gives: absolute times do not carry
 * from one machine to the next. Goal: at most 1.5.
 *
 * usage: npm run bench:lsp [-- --runs N] [--lines N | --links N [--broken]]
 *   --links N: N short sections, each a title, a link and its target
 *   (250 is the 1,250-line document the adoption issue measured);
 *   --broken: every target glued to its paragraph, so every link is a problem.
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';

import { InitializedNotification, type TextEdit } from 'vscode-languageserver/node';
import { TextDocument } from 'vscode-languageserver-textdocument';

import { LspClient } from '../test/support/lsp-client.js';
import { nativeBundleEnv } from '../test/support/debian.js';
import { documentOfLines, sectionsAndLinks } from './documents.js';
import { benchArgs, fmt, median, percentile } from './support.js';

const WARM_UP = 3;

function summary(label: string, times: number[]): string {
  return `${label}: median ${fmt(median(times))} ms, p90 ${fmt(percentile(times, 90))} ms, min ${fmt(Math.min(...times))} ms, max ${fmt(Math.max(...times))} ms`;
}

const args = benchArgs({ numbers: ['runs', 'lines', 'links'], flags: ['broken'] });
const runs = args.number('runs', 20, { min: 1, whole: true });
const links = args.number('links', 0, { min: 0, whole: true });
const linked = links > 0 ? sectionsAndLinks(links) : documentOfLines(args.number('lines', 1000, { min: 10, whole: true }));
// --broken: each target glued to its paragraph, so every link is unknown (a problem each, as a page half-written has).
const text = args.has('broken') ? linked.replace(/\n\n(\.\. _target)/g, '\n$1') : linked;
const paragraphs = text.split('\n').flatMap((l, i) => (l.startsWith('Some *emphasis*') || l.startsWith('Text of part') ? [i] : []));

// publish_doctree as docutils' own tools run it (no report printed), timed in-process after one warm-up.
const NATIVE = `
import json, sys, time
from docutils.core import publish_doctree
text = sys.stdin.read()
publish_doctree(text, settings_overrides={"report_level": 5})
times = []
for _ in range(int(sys.argv[1])):
    began = time.perf_counter()
    publish_doctree(text, settings_overrides={"report_level": 5})
    times.append((time.perf_counter() - began) * 1000)
print(json.dumps(times))
`;

function nativeDoctree(): number[] {
  const out = execFileSync('/usr/bin/python3', ['-W', 'ignore', '-c', NATIVE, String(Math.max(runs, 5))], { env: nativeBundleEnv(), input: text, maxBuffer: 1 << 20 });
  return JSON.parse(out.toString('utf8')) as number[];
}

// Half the baseline before the server starts and half after it stops, so a
// load that comes and goes during the run weighs on both sides alike.
const nativeBefore = nativeDoctree();
const client = new LspClient([], { env: { ...process.env, RST2_LOG_LEVEL: 'debug' } });
await client.initialize({});
await client.connection.sendNotification(InitializedNotification.type, {});
let doc = TextDocument.create('file:///bench/lsp.rst', 'restructuredtext', 1, text);
let started = performance.now();
client.open(doc);
const opened = await client.diagnostics(doc.uri, 1, 300_000);
console.log(`${os.cpus().length} CPUs, load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} at the start`);
console.log(`document: ${doc.lineCount} lines, ${text.length} characters; first diagnostics (engine start included) after ${fmt(performance.now() - started)} ms, ${opened.diagnostics.length} problems`);

/** Change i: a word typed at a paragraph's end (i % 3 == 0), then a stray star after it, then the star taken back. */
function edit(i: number): TextEdit {
  const line = paragraphs[Math.floor(i / 3) % paragraphs.length]!;
  const length = doc.getText({ start: { line, character: 0 }, end: { line: line + 1, character: 0 } }).trimEnd().length;
  const end = { line, character: length };
  if (i % 3 === 0) return { range: { start: end, end }, newText: ` word${i}` };
  if (i % 3 === 1) return { range: { start: end, end }, newText: ' *stray' };
  return { range: { start: { line, character: length - ' *stray'.length }, end }, newText: '' };
}

const latencies = new Map<number, number>();
const problems: number[] = [];
for (let i = 0; i < WARM_UP + runs; i++) {
  started = performance.now();
  doc = client.change(doc, [edit(i)]);
  const published = await client.diagnostics(doc.uri, doc.version, 60_000);
  if (i >= WARM_UP) {
    latencies.set(doc.version, performance.now() - started);
    problems.push(published.diagnostics.length);
  }
}
const status = await client.stop();
if (status !== 0 || client.protocolErrors.length > 0) throw new Error(`the server ended with ${status}, protocol errors: ${client.protocolErrors.join('; ')}`);
// The server's own time for each check: {"msg":"checked","version":N,"ms":M,...} on its standard error.
const checks = new Map<number, number>();
for (const line of client.stderr.split('\n')) {
  if (!line.includes('"checked"')) continue;
  const entry = JSON.parse(line) as { msg: string; version: number; ms: number };
  if (entry.msg === 'checked') checks.set(entry.version, entry.ms);
}
const timed = [...latencies.keys()].filter((v) => checks.has(v));
if (timed.length !== latencies.size) throw new Error(`the server logged ${timed.length} of ${latencies.size} checks`);
console.log(`${runs} changes; problems published after each: ${problems.join(' ')}`);
console.log(summary('change -> diagnostics (LSP)', [...latencies.values()]));
console.log(summary('the engine\'s check in the server', timed.map((v) => checks.get(v)!)));
console.log(summary('the rest (debounce, protocol, positions)', timed.map((v) => latencies.get(v)! - checks.get(v)!)));
const native = [...nativeBefore, ...nativeDoctree()];
console.log(summary('baseline: native docutils builds the doctree (Debian CPython, same text)', native));
console.log(`ratio change -> diagnostics / native doctree: ${(median([...latencies.values()]) / median(native)).toFixed(2)} (goal <= 1.5)`);
console.log(`load average ${os.loadavg().map((l) => l.toFixed(2)).join(' ')} at the end`);
