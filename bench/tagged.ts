/**
 * Tagged PDF against native LuaLaTeX with tagging (issue 31: "a tagged
 * short note ≤ 0.5× native lualatex with tagging", "a short Arabic note
 * ≤ 0.5× native lualatex"), in one run, for bench/pdf.ts's short note and
 * a short Arabic note, each untagged and tagged:
 *  - HTTP rst → PDF through the whole service, uncached (each request a
 *    new document: a trailing comment with a counter), the first request
 *    apart, then the median of warm ones;
 *  - native lualatex with TeX Live 2024's macros (bench/native-texlive.ts:
 *    Debian trixie's texmf on the machine's bookworm engines; the only
 *    native LaTeX here that tags) on the same .tex the service makes, one
 *    run each after an untimed first one (luaotfload's database, METAFONT's
 *    PK fonts, the .aux), and pdfinfo's word on whether its PDF is tagged;
 *  - for the untagged rows, the machine's own lualatex too (bookworm's
 *    TeX Live 2022, whose LaTeX does not tag).
 * A pdfTeX document's LaTeX runs under lualatex as it is, but for the
 * untagged one's \input glyphtounicode: that one is run with luatex85
 * loaded first (the pdfTeX primitives' names for LuaTeX), said in the table.
 * Prints medians and ratios; nothing here is a pass/fail test.
 *
 * --gap MS pauses that long before each warm request, as between a real
 * client's documents: the TeX worker then has its pre-started LuaHBTeX
 * instance waiting, which back-to-back requests keep busy starting (as in
 * bench/scripts.ts).
 *
 * usage: npm run bench:tagged   (or node dist/bench/tagged.js [--quick] [--gap MS])
 */
import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PythonEngine } from '../src/engines/python/engine.js';
import { createLogger } from '../src/log.js';
import { paths } from '../src/paths.js';
import { MACHINE_NEEDS, nativeTexLive2024, pdfTagged, type NativeTexLive } from './native-texlive.js';
import { benchArgs, ensureDebianPackages, fmt, median, startInProcess } from './support.js';

const args = benchArgs({ flags: ['quick'], numbers: ['gap'] });
const RUNS = args.has('quick') ? 3 : 7;
const gapMs = args.number('gap', 0);
const log = createLogger('warn');

/** bench/pdf.ts's short note. */
const NOTE = 'Note\n====\n\nA short *note* with a list:\n\n* one\n* two\n';
/** The same shape in Arabic (bench/scripts.ts's paragraph: article 1 of the Universal Declaration). */
const ARABIC_NOTE = 'ملاحظة\n============\n\nيولد جميع الناس أحرارا متساوين في الكرامة والحقوق. وقد وهبوا عقلا وضميرا وعليهم أن يعامل بعضهم بعضا بروح الإخاء.\n\n* واحد\n* اثنان\n';
const DOCUMENTS: ReadonlyArray<readonly [string, string]> = [['short note', NOTE], ['short Arabic note', ARABIC_NOTE]];
const NATIVE_ARGS = ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape'];
/** The untagged pdfTeX document's fallback under LuaTeX (see the header). */
const WITH_LUATEX85 = ['-jobname=document', '\\RequirePackage{luatex85}\\input{document.tex}'];

type Runner = (cwd: string, args: readonly string[]) => SpawnSyncReturns<string>;
interface Native { ms: number; tagged: boolean | null; luatex85: boolean }

function withRun(rst: string, n: number): string {
  // A new document each time: the service's caches never answer.
  return `${rst}\n.. run ${n}\n`;
}

function firstErrors(dir: string): string {
  const file = path.join(dir, 'document.log');
  if (!fs.existsSync(file)) return 'no log';
  return fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.startsWith('!')).slice(0, 2).join(' ');
}

/** Median of RUNS timed native runs on `tex`, after an untimed one; null when it fails. */
function nativeTime(label: string, tex: string, runner: Runner): Native | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-native-tagged-'));
  try {
    fs.writeFileSync(path.join(dir, 'document.tex'), tex);
    let args = [...NATIVE_ARGS, 'document.tex'];
    let luatex85 = false;
    // The untimed first run: font caches, PK fonts and the .aux are made once, as on any native install.
    if (runner(dir, args).status !== 0) {
      const why = firstErrors(dir);
      args = [...NATIVE_ARGS, ...WITH_LUATEX85];
      luatex85 = true;
      if (runner(dir, args).status !== 0) {
        console.error(`[bench] native ${label} fails: ${why}; with luatex85: ${firstErrors(dir)}`);
        return null;
      }
    }
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      const r = runner(dir, args);
      times.push(performance.now() - started);
      if (r.status !== 0) {
        console.error(`[bench] native ${label} fails on a timed run: ${firstErrors(dir)}`);
        return null;
      }
    }
    return { ms: median(times), tagged: pdfTagged(path.join(dir, 'document.pdf')), luatex85 };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function yesNo(tagged: boolean | null): string {
  return tagged === null ? 'unreadable' : tagged ? 'yes' : 'no';
}

function nativeCell(native: Native | null | undefined): string {
  if (native === undefined) return '—';
  if (native === null) return 'fails';
  return `${fmt(native.ms)}${native.luatex85 ? ' (luatex85)' : ''}`;
}

function ratio(http: number, native: Native | null | undefined): string {
  return native ? `${(http / native.ms).toFixed(2)}×` : '—';
}

async function main(): Promise<void> {
  for (const [file, pkg] of MACHINE_NEEDS) ensureDebianPackages(file, [pkg]);
  // Bookworm's own lualatex on the same documents.
  ensureDebianPackages('/usr/share/texlive/texmf-dist/tex/luatex/luaotfload/luaotfload.sty', ['texlive-luatex', 'texlive-latex-recommended']);
  ensureDebianPackages('/usr/share/texlive/texmf-dist/tex/latex/multirow/multirow.sty', ['texlive-latex-extra']);
  const texlive = ((): NativeTexLive | null => {
    try {
      return nativeTexLive2024();
    } catch (err) {
      console.error(`[bench] no native TeX Live 2024: ${err instanceof Error ? err.message.slice(0, 500) : String(err)}`);
      return null;
    }
  })();
  const engine = spawnSync('luahbtex', ['--version'], { encoding: 'utf8' }).stdout.split('\n')[0] ?? 'luahbtex';
  console.log(`rst2 tagged PDF against native lualatex: ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, node ${process.version}, ${os.cpus().length} CPUs, ${RUNS} runs each${gapMs ? `, ${gapMs} ms before each warm request` : ''}; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
  console.log(`native: ${engine}; TeX Live 2024 macros: Debian trixie ${texlive?.version ?? 'unavailable'}`);

  const python = new PythonEngine({ workers: 1, queueLimit: 4, timeoutMs: 60_000, bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles, log });
  await python.start();
  const formatDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-formats-'));
  const pdfDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-tagged-'));
  interface Row { name: string; tagged: boolean; engine: string; latex: string; first: number; warm: number; httpTagged: boolean | null }
  const rows: Row[] = [];
  let n = 0;
  try {
    const server = await startInProcess({ RST2_TEX_FORMAT_DIR: formatDir, RST2_TEX_WORKERS: '1', RST2_PDF_TIMEOUT_MS: '120000' });
    try {
      const post = async (rst: string, tagged: boolean): Promise<{ ms: number; pdf: Buffer }> => {
        const started = performance.now();
        const res = await fetch(`${server.url}/1.0/rst2/pdf`, { method: 'POST', body: new URLSearchParams({ rst, tagged: tagged ? 'yes' : 'no' }) });
        const pdf = Buffer.from(await res.arrayBuffer());
        if (res.status !== 200) throw new Error(`HTTP ${res.status}: ${pdf.toString('utf8').slice(0, 300)}`);
        return { ms: performance.now() - started, pdf };
      };
      for (const [name, rst] of DOCUMENTS) {
        for (const tagged of [false, true]) {
          const latex = await python.renderLatex(withRun(rst, 0), { documentClass: 'article', style: 'default', useLatexToc: false, tagged });
          const first = (await post(withRun(rst, ++n), tagged)).ms;
          // A format the first request asked for is made in the background: the warm requests start from it.
          await server.pdf.formatsIdle();
          await post(withRun(rst, ++n), tagged);
          const warm: number[] = [];
          let last: Buffer = Buffer.alloc(0);
          for (let i = 0; i < RUNS; i++) {
            if (gapMs > 0) await new Promise((resolve) => setTimeout(resolve, gapMs));
            const r = await post(withRun(rst, ++n), tagged);
            warm.push(r.ms);
            last = r.pdf;
          }
          const file = path.join(pdfDir, `${rows.length}.pdf`);
          fs.writeFileSync(file, last);
          rows.push({ name, tagged, engine: latex.engine, latex: latex.latex, first, warm: median(warm), httpTagged: pdfTagged(file) });
        }
      }
    } finally {
      await server.close();
    }
  } finally {
    await python.close();
    fs.rmSync(formatDir, { recursive: true, force: true });
    fs.rmSync(pdfDir, { recursive: true, force: true });
  }

  // The native runs after the service has stopped: its workers take no CPU from them.
  const bookworm: Runner = (cwd, args) => spawnSync('lualatex', args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const header = ['document', 'tagged', 'service engine', 'HTTP first (ms)', 'HTTP warm (ms)', 'HTTP PDF tagged',
    'lualatex TL 2024 (ms)', 'TL 2024 PDF tagged', 'HTTP warm / TL 2024', 'lualatex TL 2022, bookworm (ms)', 'HTTP warm / TL 2022'];
  const lines: string[] = [];
  const goals: string[] = [];
  for (const row of rows) {
    const label = `${row.name}${row.tagged ? ', tagged' : ''}`;
    const tl24 = texlive ? nativeTime(`${label} (TeX Live 2024)`, row.latex, (cwd, args) => texlive.lualatex(cwd, args)) : null;
    // Bookworm's LaTeX ignores the tagging: only the untagged rows have a like-for-like figure.
    const tl22 = row.tagged ? undefined : nativeTime(`${label} (bookworm)`, row.latex, bookworm);
    lines.push(`| ${[row.name, row.tagged ? 'yes' : 'no', row.engine, fmt(row.first), fmt(row.warm), yesNo(row.httpTagged),
      nativeCell(tl24), tl24 ? yesNo(tl24.tagged) : '—', ratio(row.warm, tl24), nativeCell(tl22), ratio(row.warm, tl22)].join(' | ')} |`);
    if (row.tagged && tl24) goals.push(`${label}: ${(row.warm / tl24.ms).toFixed(2)}× native lualatex with tagging (goal ≤ 0.5×: ${row.warm <= 0.5 * tl24.ms ? 'met' : 'not met'})`);
    if (!row.tagged && tl22 && row.engine === 'luahbtex') goals.push(`${label}: ${(row.warm / tl22.ms).toFixed(2)}× bookworm's native lualatex (goal ≤ 0.5×: ${row.warm <= 0.5 * tl22.ms ? 'met' : 'not met'})`);
  }
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const line of lines) console.log(line);
  for (const goal of goals) console.log(goal);
  console.log(`load after: ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
