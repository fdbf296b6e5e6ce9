/**
 * PDF benchmark, side by side in one run, for three documents (a short note,
 * a ten-page document with a contents topic, the reStructuredText
 * specification):
 *  - HTTP rst → PDF, uncached, through the whole service;
 *  - our pdfTeX (WebAssembly) alone on the service's .tex, from the preamble
 *    format and from the plain LaTeX format;
 *  - Debian's native pdflatex on the same .tex, from the same preamble
 *    format (dumped natively with mylatexformat) and from the plain one,
 *    with as many runs as ours made (the first in draft mode like ours);
 *  - for the specification, docutils' LaTeX writer (the bundle's docutils on
 *    Debian's CPython) + Debian's pdflatex spawned the usual
 *    way (pdflatex twice); for the short note, the same with pdflatex once.
 * Prints medians, ratios and the machine's load; nothing here is a
 * pass/fail test. Needs Debian's texlive-binaries, texlive-latex-base,
 * -recommended, -extra, -fonts-recommended and lmodern
 * (installed when missing, as root).
 *
 * usage: npm run bench:pdf   (or node dist/bench/pdf.js [--quick])
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PythonEngine } from '../src/engines/python/engine.js';
import { MARKER } from '../src/engines/tex/format-dump.js';
import { engineKey, formatName, BUILTIN_FORMATS_DIR } from '../src/engines/tex/format-name.js';
import { loadTexModule, runPdftex } from '../src/engines/tex/pdftex-run.js';
import { readsAuxiliaryFiles } from '../src/engines/tex/rerun.js';
import { createLogger } from '../src/log.js';
import { paths } from '../src/paths.js';
import { tenPageDocument } from './documents.js';
import { benchArgs, ensureDebianPackages, fmt, median, nativeBundleEnv, specificationText, startInProcess } from './support.js';

const quick = benchArgs({ flags: ['quick'] }).has('quick');
const RUNS = quick ? 3 : 7;
const log = createLogger('warn');

const NOTE = 'Note\n====\n\nA short *note* with a list:\n\n* one\n* two\n';
const NATIVE_ARGS = ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape'];

interface Doc { name: string; rst: string; latex: string; preamble: string }

function spawnOk(cmd: string, args: string[], cwd: string, env?: NodeJS.ProcessEnv): void {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', env });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed: ${(r.stdout + r.stderr).slice(-800)}`);
}

function timed(fn: () => void): number {
  const started = performance.now();
  fn();
  return performance.now() - started;
}

/** A native format of `preamble`, dumped the way our service dumps its own. */
function nativeFormat(preamble: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-native-fmt-'));
  fs.writeFileSync(path.join(dir, 'preamble.tex'), `${preamble}${MARKER}\n`);
  spawnOk('pdftex', ['-ini', ...NATIVE_ARGS, '-jobname=rst2bench', '&pdflatex', 'mylatexformat.ltx', 'preamble.tex'], dir);
  return path.join(dir, 'rst2bench.fmt');
}

/**
 * Native pdflatex, `runs` runs in a fresh folder, optionally from a format,
 * as our engine runs them: the first one in draft mode when more follow and
 * the document reads back what it writes (src/engines/tex/pdftex-run.ts).
 */
function nativeJob(tex: string, runs: number, format?: string): number {
  const draftFirst = runs > 1 && readsAuxiliaryFiles(tex);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-native-'));
  fs.writeFileSync(path.join(dir, 'document.tex'), tex);
  const fmtArgs: string[] = [];
  if (format) {
    fs.copyFileSync(format, path.join(dir, 'rst2bench.fmt'));
    fmtArgs.push('-fmt=rst2bench');
  }
  const ms = timed(() => {
    for (let i = 0; i < runs; i++) spawnOk('pdflatex', [...NATIVE_ARGS, ...fmtArgs, ...(i === 0 && draftFirst ? ['-draftmode'] : []), 'document.tex'], dir);
  });
  fs.rmSync(dir, { recursive: true, force: true });
  return ms;
}

/** The usual way: docutils' LaTeX writer (the bundle's docutils, run by Debian's CPython), then Debian's pdflatex twice. */
/** docutils' LaTeX writer and pdflatex, spawned the usual way: `runs` pdflatex runs (a short note needs one). */
function nativeUsualWay(rst: string, runs = 2): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-usual-'));
  fs.writeFileSync(path.join(dir, 'doc.rst'), rst);
  const ms = timed(() => {
    // Without file insertion, as the service: the specification includes a file Debian does not ship.
    spawnOk('/usr/bin/python3', ['-m', 'docutils', '--writer=latex', '--no-file-insertion', '--stylesheet-path', path.join(paths.styles, 'latex', 'default.sty'), '--embed-stylesheet', 'doc.rst', 'doc.tex'], dir, nativeBundleEnv(paths.pythonBundle));
    for (let i = 0; i < runs; i++) spawnOk('pdflatex', [...NATIVE_ARGS, 'doc.tex'], dir);
  });
  fs.rmSync(dir, { recursive: true, force: true });
  return ms;
}

const loadAverage = (): string => os.loadavg().map((l) => l.toFixed(2)).join(' ');

async function main(): Promise<void> {
  ensureDebianPackages('/usr/bin/pdflatex', ['texlive-binaries', 'texlive-latex-base', 'texlive-latex-recommended', 'texlive-fonts-recommended', 'lmodern', 'texlive-latex-extra']);
  ensureDebianPackages('/usr/share/texlive/texmf-dist/tex/latex/mylatexformat/mylatexformat.ltx', ['texlive-latex-extra']);
  console.log(`rst2 PDF bench: ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${os.cpus().length} CPUs, ${RUNS} runs each; load average at start ${loadAverage()}`);

  // The specification shows off characters (e.g. U+2023) that LaTeX's utf8
  // input has no glyph for, natively as in our engine; those become "?".
  const spec = specificationText().replace(/[^\u0000-\u024F\u2013\u2014\u2018-\u201F\u2022\u2026]/g, '?');
  const python = new PythonEngine({ workers: 1, queueLimit: 4, timeoutMs: 60_000, bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles, log });
  await python.start();
  const docs: Doc[] = [];
  for (const [name, rst] of [['short note', NOTE], ['ten-page document with contents', tenPageDocument()], ['reStructuredText specification', spec]] as const) {
    const out = await python.renderLatex(rst, { documentClass: 'article', style: 'default', useLatexToc: false });
    if (!out.format_preamble) throw new Error(`no format preamble for the ${name}`);
    docs.push({ name, rst, latex: out.latex, preamble: out.format_preamble });
  }
  await python.close();

  // ------------------------------------------------------------ engine alone vs native
  const texDir = paths.texDir;
  const module = await loadTexModule(texDir);
  const key = engineKey(texDir);
  const rows: Array<[string, string, string]> = [];
  const enginePerDoc = new Map<string, number>();
  for (const doc of docs) {
    const name = formatName(key, doc.preamble);
    const format = { dir: path.join(texDir, BUILTIN_FORMATS_DIR), file: `${name}.fmt` };
    if (!fs.existsSync(path.join(format.dir, format.file))) throw new Error(`no built-in format ${format.file}: run npm install`);
    const ours = (withFormat: boolean) => {
      const times: number[] = [];
      let runs = 0;
      return (async () => {
        // One discarded run first: V8 optimises the WebAssembly while it runs.
        for (let i = -1; i < RUNS; i++) {
          const started = performance.now();
          const out = await runPdftex({ module, texDir, files: { 'document.tex': doc.latex }, main: 'document.tex', maxRuns: 3, ...(withFormat ? { format } : {}) });
          if (i >= 0) times.push(performance.now() - started);
          if (!out.pdf) throw new Error(`our pdfTeX failed on the ${doc.name}: ${out.log.slice(-800)}`);
          runs = out.runs;
        }
        return { ms: median(times), runs };
      })();
    };
    const fast = await ours(true);
    const plain = await ours(false);
    const nativeFmt = nativeFormat(doc.preamble);
    nativeJob(doc.latex, 1, nativeFmt); // the same discarded first run (disk cache)
    const nFast = median(Array.from({ length: RUNS }, () => nativeJob(doc.latex, fast.runs, nativeFmt)));
    const nPlain = median(Array.from({ length: RUNS }, () => nativeJob(doc.latex, plain.runs)));
    fs.rmSync(path.dirname(nativeFmt), { recursive: true, force: true });
    enginePerDoc.set(doc.name, fast.ms);
    rows.push([`${doc.name}: our pdfTeX from the format, ${fast.runs} run(s)`, `${fmt(fast.ms)} ms`, `${(fast.ms / nFast).toFixed(2)}× native with the same format (${fmt(nFast)} ms; target ≤ 1.5×)`]);
    rows.push([`${doc.name}: our pdfTeX from plain LaTeX, ${plain.runs} run(s)`, `${fmt(plain.ms)} ms`, `${(plain.ms / nPlain).toFixed(2)}× native plain (${fmt(nPlain)} ms); the format saves ${(plain.ms / fast.ms).toFixed(1)}×`]);
  }

  // ------------------------------------------------------------ HTTP, uncached
  const server = await startInProcess({ RST2_TEX_WORKERS: '2', RST2_LOG_LEVEL: 'warn' }, log);
  const http: Array<[string, number[]]> = [];
  let cached = 0;
  try {
    const post = async (rst: string) => {
      const started = performance.now();
      const res = await fetch(`${server.url}/1.0/rst2/pdf`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: rst });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
      await res.arrayBuffer();
      return performance.now() - started;
    };
    console.log(`load average before the HTTP runs ${loadAverage()}`);
    for (const doc of docs) {
      const times: number[] = [];
      // A comment of its own per request: never a cache hit. The first one,
      // discarded, warms both pools up for documents of this size.
      for (let i = -1; i < RUNS; i++) {
        const ms = await post(`${doc.rst}\n\n.. bench ${i} ${Math.random()}\n`);
        if (i >= 0) times.push(ms);
      }
      http.push([doc.name, times]);
    }
    const again = `${NOTE}\n.. cached\n`;
    await post(again);
    cached = median(await Array.from({ length: RUNS }).reduce<Promise<number[]>>(async (acc) => [...(await acc), await post(again)], Promise.resolve([])));
  } finally {
    await server.close();
  }
  const usual = median(Array.from({ length: Math.min(RUNS, 5) }, () => nativeUsualWay(docs[2]!.rst)));
  const usualNote = median(Array.from({ length: Math.min(RUNS, 5) }, () => nativeUsualWay(NOTE, 1)));

  for (const [name, times] of http) {
    const p50 = median(times);
    const note = name === 'short note'
      ? `target < 350 ms: ${p50 < 350 ? 'met' : '**not met**'}; ${(p50 / usualNote).toFixed(2)}× docutils' LaTeX writer + pdflatex once, spawned (${fmt(usualNote)} ms; target ≤ 0.35×: ${p50 <= 0.35 * usualNote ? 'met' : '**not met**'})`
      : name === 'reStructuredText specification'
        ? `${(p50 / usual).toFixed(2)}× docutils' LaTeX writer + pdflatex ×2 spawned (${fmt(usual)} ms); target < 1×: ${p50 < usual ? 'met' : '**not met**'}`
        : `pdfTeX alone ${fmt(enginePerDoc.get(name)!)} ms`;
    rows.push([`HTTP rst → PDF uncached p50: ${name}`, `${fmt(p50)} ms`, note]);
  }

  rows.push(['HTTP rst → PDF cached p50: short note', `${fmt(cached)} ms`, '']);
  console.log(`load average at the end ${loadAverage()}`);
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\n| ${'measure'.padEnd(width)} | figure | note |\n|${'-'.repeat(width + 2)}|---|---|`);
  for (const [a, b, c] of rows) console.log(`| ${a.padEnd(width)} | ${b} | ${c} |`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message.slice(0, 2000) : err);
  process.exit(1);
});
