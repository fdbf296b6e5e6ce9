/**
 * PDF benchmark: our pdfTeX (WebAssembly) against Debian's native pdflatex on
 * the same .tex files, and the whole rst → PDF request over HTTP.
 * Prints medians and ratios; nothing here is a pass/fail test.
 *
 * usage: npm run bench:pdf   (or node dist/bench/pdf.js [--quick])
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PythonEngine } from '../src/engines/python/engine.js';
import { loadTexModule, runPdftex } from '../src/engines/tex/pdftex-run.js';
import { createLogger } from '../src/log.js';
import { paths } from '../src/paths.js';
import { smallDocument } from './documents.js';
import { benchArgs, ensureDebianPackages, fmt, median, specificationText, startInProcess } from './support.js';

const quick = benchArgs({ flags: ['quick'] }).has('quick');
const RUNS = quick ? 3 : 7;
const log = createLogger('warn');

const HELLO = '\\documentclass{article}\\begin{document}Hello, world!\\end{document}\n';

/** Native pdflatex, run `runs` times in a fresh folder, as our engine runs it. */
function nativeJob(tex: string, runs: number): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-native-'));
  fs.writeFileSync(path.join(dir, 'document.tex'), tex);
  const started = performance.now();
  for (let i = 0; i < runs; i++) {
    const r = spawnSync('pdflatex', ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'document.tex'], { cwd: dir, encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`native pdflatex failed: ${r.stdout.slice(-800)}`);
  }
  const ms = performance.now() - started;
  fs.rmSync(dir, { recursive: true, force: true });
  return ms;
}

async function main(): Promise<void> {
  ensureDebianPackages('/usr/bin/pdflatex', ['texlive-latex-base', 'texlive-latex-recommended', 'texlive-fonts-recommended', 'lmodern', 'texlive-latex-extra']);
  const module = await loadTexModule(paths.texDir);
  const python = new PythonEngine({ workers: 1, queueLimit: 4, timeoutMs: 60_000, bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles, log });
  await python.start();
  // The specification shows off characters (e.g. U+2023) that LaTeX's utf8
  // input has no glyph for, natively as in our engine; those become "?".
  const specText = specificationText().replace(/[^\u0000-\u024F\u2013\u2014\u2018-\u201F\u2022\u2026]/g, '?');
  const specLatex = (await python.renderLatex(specText, { documentClass: 'article', style: 'default', useLatexToc: false })).latex;
  const smallLatex = (await python.renderLatex(smallDocument(), { documentClass: 'article', style: 'default', useLatexToc: false })).latex;
  await python.close();

  const rows: Array<[string, string, string]> = [];
  for (const [name, tex] of [
    ['hello world', HELLO],
    ['small document (docutils LaTeX)', smallLatex],
    ['reStructuredText specification (docutils LaTeX)', specLatex],
  ] as const) {
    const ours: number[] = [];
    let runs = 1;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const out = await runPdftex({ module, texDir: paths.texDir, files: { 'document.tex': tex }, main: 'document.tex', maxRuns: 3 });
      ours.push(performance.now() - started);
      if (!out.pdf) throw new Error(`our pdfTeX failed on ${name}: ${out.log.slice(-800)}`);
      runs = out.runs;
    }
    const native = Array.from({ length: RUNS }, () => nativeJob(tex, runs));
    const ratio = median(ours) / median(native);
    rows.push([`${name}: wasm pdfTeX, ${runs} run(s)`, `${fmt(median(ours))} ms`, `${ratio.toFixed(2)}× native (target ≤ 2×)`]);
    rows.push([`${name}: native pdflatex, ${runs} run(s)`, `${fmt(median(native))} ms`, `per run ${fmt(median(ours) / runs)} vs ${fmt(median(native) / runs)} ms`]);
  }

  const server = await startInProcess({ RST2_TEX_WORKERS: '2', RST2_LOG_LEVEL: 'warn' }, log);
  try {
    const post = async (rst: string) => {
      const started = performance.now();
      const res = await fetch(`${server.url}/1.0/rst2/pdf`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: rst });
      if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${(await res.text()).slice(0, 300)}`);
      await res.arrayBuffer();
      return performance.now() - started;
    };
    const tiny = 'Note\n====\n\nA short *note* with a list:\n\n* one\n* two\n';
    const tinyTimes: number[] = [];
    const smallTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) tinyTimes.push(await post(`${tiny}\n.. ${i} ${Math.random()}\n`));
    for (let i = 0; i < RUNS; i++) smallTimes.push(await post(`${smallDocument()}\n.. ${i} ${Math.random()}\n`));
    const cached = await Promise.all([post(tiny)]).then(async () => {
      const t: number[] = [];
      for (let i = 0; i < RUNS; i++) t.push(await post(tiny));
      return t;
    });
    rows.push(['HTTP rst → PDF, short note (uncached) p50', `${fmt(median(tinyTimes))} ms`, 'target < 500 ms']);
    rows.push(['HTTP rst → PDF, 4.4 KB document with contents (uncached) p50', `${fmt(median(smallTimes))} ms`, '']);
    rows.push(['HTTP rst → PDF, cached p50', `${fmt(median(cached))} ms`, '']);
  } finally {
    await server.close();
  }

  console.log(`${RUNS} runs each; node ${process.version}`);
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`\n| ${'measure'.padEnd(width)} | figure | note |\n|${'-'.repeat(width + 2)}|---|---|`);
  for (const [a, b, c] of rows) console.log(`| ${a.padEnd(width)} | ${b} | ${c} |`);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message.slice(0, 2000) : err);
  process.exit(1);
});
