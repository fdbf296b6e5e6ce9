/**
 * PDF time per script (issue 12): for a one-page document in each script,
 *  - HTTP rst → PDF through the whole service, uncached (each request a
 *    different document: a comment line with a counter), the first request
 *    of its script set while that set's format is being made, then warm
 *    (median, the format in place);
 *  - Debian's native pdflatex on the same .tex (plain format, one run),
 *    with Debian's packages for those scripts (installed when missing, as
 *    root; its T2A fonts come from METAFONT on the first run, which is not
 *    timed); for the scripts that go to LuaHBTeX (Arabic, Hebrew, Indic,
 *    Thai: issue 31), Debian's native lualatex on the same .tex, with
 *    texlive-luatex and fonts-noto-core (its font caches made on an
 *    untimed first run, as ours are made at install).
 * Prints medians and the ratio to the Latin document; nothing here is a
 * pass/fail test.
 *
 * --gap MS pauses that long before each timed request, as between the
 * documents of a real client: the TeX worker then has its pre-started
 * LuaHBTeX instance waiting (RST2_LUATEX_SPARE_IDLE_MS), which back-to-back
 * requests keep busy starting. --only A,B keeps the documents whose name
 * contains one of them (and Latin, the baseline).
 *
 * usage: npm run bench:scripts   (or node dist/bench/scripts.js [--quick] [--gap MS] [--only A,B])
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { PythonEngine } from '../src/engines/python/engine.js';
import { createLogger } from '../src/log.js';
import { paths } from '../src/paths.js';
import { benchArgs, ensureDebianPackages, fmt, median, startInProcess } from './support.js';

const args = benchArgs({ flags: ['quick'], numbers: ['gap'], strings: ['only'] });
const quick = args.has('quick');
const gapMs = args.number('gap', 0);
const only = args.string('only', '').split(',').filter(Boolean);
const RUNS = quick ? 3 : 7;
const log = createLogger('warn');

const PARAGRAPHS: ReadonlyArray<readonly [string, string]> = [
  ['Latin (English)', 'All human beings are born free and equal in dignity and rights. They are endowed with reason and conscience and should act towards one another in a spirit of brotherhood.'],
  ['Cyrillic (Russian)', 'Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью и должны поступать в отношении друг друга в духе братства.'],
  ['Greek', 'Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα. Είναι προικισμένοι με λογική και συνείδηση.'],
  ['Vietnamese', 'Tất cả mọi người sinh ra đều được tự do và bình đẳng về nhân phẩm và quyền lợi. Mọi con người đều được tạo hóa ban cho lý trí và lương tâm.'],
  ['Chinese (simplified)', '人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以兄弟关系的精神相对待。'],
  ['Japanese', 'すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。'],
  ['Korean', '모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다.'],
  ['emoji', 'Hello 👋 world 😃, a release 🎉 and a rocket 🚀.'],
  ['Arabic', 'يولد جميع الناس أحرارا متساوين في الكرامة والحقوق. وقد وهبوا عقلا وضميرا وعليهم أن يعامل بعضهم بعضا بروح الإخاء.'],
  ['Hebrew', 'כל בני האדם נולדו בני חורין ושווים בערכם ובזכויותיהם. כולם חוננו בתבונה ובמצפון, לפיכך חובה עליהם לנהוג איש ברעהו ברוח של אחוה.'],
  ['Hindi (Devanagari)', 'सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता और समानता प्राप्त है। उन्हें बुद्धि और अन्तरात्मा की देन प्राप्त है।'],
  ['Thai', 'มนุษย์ทั้งหลายเกิดมามีอิสระและเสมอภาคกันในเกียรติศักดิ์และสิทธิ ต่างมีเหตุผลและมโนธรรม'],
];

function doc(name: string, paragraph: string, n: number): string {
  // Five paragraphs make a page; the comment makes each request a new document.
  return `${name}\n${'='.repeat(name.length * 2)}\n\n${Array(5).fill(paragraph).join('\n\n')}\n\n.. run ${n}\n`;
}

function nativeSeconds(tex: string, program: string): number | null {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-native-scripts-'));
  try {
    fs.writeFileSync(path.join(dir, 'document.tex'), tex);
    const run = () => spawnSync(program, ['-interaction=nonstopmode', '-halt-on-error', '-no-shell-escape', 'document.tex'], { cwd: dir, encoding: 'utf8' });
    // Untimed first runs: METAFONT makes missing TFMs once, luaotfload its caches, as on any native install.
    if (run().status !== 0 && run().status !== 0) {
      const log = fs.readFileSync(path.join(dir, 'document.log'), 'utf8');
      console.error(`[bench] native ${program} fails: ${log.split('\n').filter((l) => l.startsWith('!')).slice(0, 2).join(' ')}`);
      return null;
    }
    const times: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      run();
      times.push(performance.now() - started);
    }
    return median(times);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  ensureDebianPackages('/usr/share/texlive/texmf-dist/tex/latex/cyrillic/t2aenc.def', [
    'texlive-lang-cyrillic', 'texlive-lang-greek', 'texlive-lang-other', 'latex-cjk-common', 'latex-cjk-chinese-arphic-gbsn00lp',
    'latex-cjk-chinese-arphic-bsmi00lp', 'latex-cjk-japanese-wadalab', 'texlive-lang-korean']);
  ensureDebianPackages('/usr/share/texlive/texmf-dist/tex/latex/multirow/multirow.sty', ['texlive-latex-extra', 'texlive-fonts-recommended', 'lmodern']);
  ensureDebianPackages('/usr/share/texlive/texmf-dist/tex/luatex/luaotfload/luaotfload.sty', ['texlive-luatex', 'fonts-noto-core', 'texlive-latex-recommended']);
  console.log(`rst2 PDF by script: ${new Date().toISOString().slice(0, 10)}, node ${process.version}, ${os.cpus().length} CPUs, ${RUNS} runs each${gapMs ? `, ${gapMs} ms before each` : ''}; load ${os.loadavg().map((l) => l.toFixed(2)).join(' ')}`);

  const python = new PythonEngine({ workers: 1, queueLimit: 4, timeoutMs: 60_000, bundlePath: paths.pythonBundle, pythonSources: paths.pythonSources, stylesDir: paths.styles, log });
  await python.start();
  const formatDir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-formats-'));
  const server = await startInProcess({ RST2_TEX_FORMAT_DIR: formatDir, RST2_TEX_WORKERS: '1', RST2_PDF_TIMEOUT_MS: '120000' });
  let n = 0;
  const post = async (rst: string): Promise<number> => {
    const started = performance.now();
    const res = await fetch(`${server.url}/1.0/rst2/pdf`, { method: 'POST', body: new URLSearchParams({ rst }) });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`HTTP ${res.status}`);
    return performance.now() - started;
  };
  const formats = () => fs.readdirSync(formatDir).filter((f) => f.endsWith('.fmt')).length;
  const rows: string[][] = [];
  let latinWarm = 0;
  try {
    for (const [name, paragraph] of PARAGRAPHS) {
      if (only.length && !only.some((o) => name.includes(o)) && !name.startsWith('Latin')) continue;
      const latex = await python.renderLatex(doc(name, paragraph, 0), { documentClass: 'article', style: 'default', useLatexToc: false });
      const before = formats();
      const first = await post(doc(name, paragraph, n++));
      // The format is made in the background after the first request (pdfTeX's only: LuaHBTeX starts from lualatex.fmt).
      for (let waited = 0; latex.engine === 'pdftex' && formats() === before && waited < 60_000; waited += 250) await new Promise((r) => setTimeout(r, 250));
      const warm: number[] = [];
      await post(doc(name, paragraph, n++));
      for (let i = 0; i < RUNS; i++) {
        if (gapMs > 0) await new Promise((r) => setTimeout(r, gapMs));
        warm.push(await post(doc(name, paragraph, n++)));
      }
      const w = median(warm);
      if (name.startsWith('Latin')) latinWarm = w;
      const program = latex.engine === 'luahbtex' ? 'lualatex' : 'pdflatex';
      const native = nativeSeconds(latex.latex, program);
      rows.push([name, latex.engine, fmt(first), fmt(w), `${(w / latinWarm).toFixed(2)}×`, native === null ? 'fails' : `${fmt(native)} (${program})`, native === null ? '' : `${(w / native).toFixed(2)}×`]);
    }
  } finally {
    await server.close();
    await python.close();
    fs.rmSync(formatDir, { recursive: true, force: true });
  }
  const header = ['document (one page)', 'engine', 'HTTP first, format being made (ms)', 'HTTP warm (ms)', 'vs Latin', 'native (ms)', 'HTTP warm / native'];
  console.log(`| ${header.join(' | ')} |\n|${header.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
  const texmf = spawnSync('du', ['-sm', path.join(paths.texDir, 'texmf')], { encoding: 'utf8' }).stdout.split('\t')[0];
  console.log(`texmf tree: ${texmf} MB`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
