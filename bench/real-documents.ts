/**
 * How many real documents become a PDF (nothing here is a pass/fail test).
 *
 * The corpus is what users render: the PyPI descriptions, READMEs,
 * changelogs and news files of a fixed list of Debian packages
 * (test/corpus/debian-documents.json, the conformance tests' corpus,
 * downloaded into the cache folder; nothing of the machine's is read). Each document goes to
 * `/html` and `/pdf` over HTTP; the table counts 200s, failures by code, and
 * the placeholders the PDFs carry (X-Rst2-Image-Problems,
 * X-Rst2-Replaced-Characters). This machine has no internet, so every remote
 * image (status badges, mostly) is a placeholder here: the count says how
 * many documents have them, not that they fail in production.
 *
 * Baselines in the same run, where installed: pandoc (rst → pdf through
 * Debian's pdflatex, images it cannot get replaced by their descriptions)
 * and Debian's rst2pdf.
 *
 * --tagged asks for tagged PDFs (tagged=yes) and adds what a tagged PDF
 * must hold, read with pdfinfo and pikepdf (test/support/pdf-structure.py):
 * "Tagged: yes", a structure tree, /Lang, a dc:title, an /Alt on every
 * Figure, no block (P, Div) inside a paragraph.
 *
 * usage: npm run bench:real-documents [-- --limit N] [--names] [--tagged]
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { corpusDocuments } from '../test/support/debian.js';
import { pdfinfoTagged, pdfTags } from '../test/support/pdf-tags.js';
import { benchArgs, fmt, median, startInProcess } from './support.js';

interface RealDocument {
  corpus: string;
  name: string;
  text: string;
}

interface Outcome {
  doc: RealDocument;
  html: string;
  pdf: string;
  ms: number;
  images: number;
  characters: number;
  pandoc?: boolean;
  rst2pdf?: boolean;
  /** --tagged: what is wrong with it as a tagged PDF ("pdfinfo Tagged: no", "no /Lang"...); empty when nothing. */
  untagged?: string[];
}

/** What is wrong with a tagged PDF (tagged=yes): pdfinfo's Tagged line, the tree, /Lang, dc:title, figures' /Alt, paragraphs without blocks inside. */
function taggedLacks(pdf: ArrayBuffer): string[] {
  const lacks: string[] = [];
  if (!pdfinfoTagged(pdf)) lacks.push('pdfinfo Tagged: no');
  const tags = pdfTags(pdf);
  if (!tags.structTreeRoot || !tags.parentTree) lacks.push('no structure tree');
  if (!tags.lang) lacks.push('no /Lang');
  if (!tags.xmpTitle) lacks.push('no dc:title');
  if (!tags.displayDocTitle) lacks.push('no DisplayDocTitle');
  const figures = tags.standardRoles['Figure'] ?? 0;
  const alts = tags.alts.filter((a) => a.role === 'Figure').length;
  if (alts < figures) lacks.push(`${figures - alts} of ${figures} Figure without /Alt`);
  const nested = Object.entries(tags.blocksInParagraphs);
  if (nested.length) lacks.push(`a block in a paragraph (${nested.map(([k, n]) => `${n} ${k}`).join(', ')})`);
  return lacks;
}

/** The real-document corpus of the conformance tests (test/corpus/debian-documents.json), downloaded into the cache. */
function corpus(): RealDocument[] {
  return corpusDocuments().map((d) => ({ corpus: d.kind, name: `${d.package}/${d.name}`, text: d.text }));
}

async function status(res: Response, keep?: (body: ArrayBuffer) => void): Promise<string> {
  if (res.ok) {
    const body = await res.arrayBuffer();
    keep?.(body);
    return '200';
  }
  const body = (await res.json().catch(() => undefined)) as { error?: { code?: string } } | undefined;
  return `${res.status} ${body?.error?.code ?? '?'}`;
}

/** Whether a native tool turns the document into a PDF within a minute (its own folder, removed after). */
function nativePdf(tool: 'pandoc' | 'rst2pdf', text: string): boolean {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `rst2-real-${tool}-`));
  try {
    fs.writeFileSync(path.join(dir, 'doc.rst'), text);
    const args = tool === 'pandoc' ? ['doc.rst', '-f', 'rst', '-o', 'doc.pdf', '--pdf-engine=pdflatex'] : ['doc.rst', '-o', 'doc.pdf'];
    const r = spawnSync(tool, args, { cwd: dir, timeout: 60_000, encoding: 'utf8' });
    return r.status === 0 && fs.existsSync(path.join(dir, 'doc.pdf')) && fs.statSync(path.join(dir, 'doc.pdf')).size > 0;
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function has(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
}

function percent(part: number, whole: number): string {
  return whole ? `${((100 * part) / whole).toFixed(0)}%` : '-';
}

async function main(): Promise<void> {
  const args = benchArgs({ numbers: ['limit'], flags: ['names', 'tagged'] });
  const tagged = args.has('tagged');
  const docs = corpus().slice(0, args.number('limit', Infinity, { min: 1 }));
  const baselines = args.has('tagged') ? [] : (['pandoc', 'rst2pdf'] as const).filter(has);
  const server = await startInProcess({ RST2_CACHE_BYTES: '0' });
  const outcomes: Outcome[] = [];
  try {
    for (const doc of docs) {
      const body = new URLSearchParams({ rst: doc.text });
      const html = await status(await fetch(`${server.url}/1.0/rst2/html`, { method: 'POST', body }));
      const t0 = performance.now();
      const res = await fetch(`${server.url}/1.0/rst2/pdf`, { method: 'POST', body: tagged ? new URLSearchParams({ rst: doc.text, tagged: 'yes' }) : body });
      let bytes: ArrayBuffer | undefined;
      const pdf = await status(res, (b) => (bytes = b));
      const ms = performance.now() - t0;
      const outcome: Outcome = {
        doc,
        html,
        pdf,
        ms,
        images: Number(res.headers.get('x-rst2-image-problems') ?? 0),
        characters: Number(res.headers.get('x-rst2-replaced-characters') ?? 0),
      };
      if (tagged && bytes) outcome.untagged = taggedLacks(bytes);
      // The baselines make no tagged PDF: a tagged run compares with nothing.
      if (!tagged) for (const tool of baselines) outcome[tool] = nativePdf(tool, doc.text);
      outcomes.push(outcome);
      if (args.has('names')) console.log(`${pdf.padEnd(24)} ${String(outcome.images).padStart(3)} img ${String(outcome.characters).padStart(3)} chr  ${doc.corpus}/${doc.name}${outcome.untagged?.length ? `  tagged PDF with: ${outcome.untagged.join(', ')}` : ''}`);
    }
  } finally {
    await server.close();
  }

  const kinds = [...new Set(outcomes.map((o) => o.doc.corpus))];
  console.log(`\n${outcomes.length} real documents${tagged ? ', tagged=yes' : ''} (${kinds.map((k) => `${outcomes.filter((o) => o.doc.corpus === k).length} ${k}`).join(', ')}), ${new Date().toISOString().slice(0, 10)}\n`);
  const taggedHead = tagged ? ' PDF tagged in full |' : '';
  console.log(`| corpus | documents | HTML 200 | PDF 200 | PDF with image placeholders | PDF with character placeholders | PDF median ms |${taggedHead}${baselines.map((b) => ` ${b} PDF |`).join('')}`);
  console.log(`|---|---:|---:|---:|---:|---:|---:|${tagged ? '---:|' : ''}${baselines.map(() => '---:|').join('')}`);
  for (const kind of [...kinds, 'all']) {
    const rows = kind === 'all' ? outcomes : outcomes.filter((o) => o.doc.corpus === kind);
    const ok = rows.filter((o) => o.pdf === '200');
    const cells = [
      kind,
      String(rows.length),
      percent(rows.filter((o) => o.html === '200').length, rows.length),
      `${ok.length} (${percent(ok.length, rows.length)})`,
      String(ok.filter((o) => o.images > 0).length),
      String(ok.filter((o) => o.characters > 0).length),
      ok.length ? fmt(median(ok.map((o) => o.ms))) : '-',
      ...(tagged ? [String(ok.filter((o) => o.untagged?.length === 0).length)] : []),
      ...baselines.map((b) => percent(rows.filter((o) => o[b]).length, rows.length)),
    ];
    console.log(`| ${cells.join(' | ')} |`);
  }
  const failures = new Map<string, string[]>();
  for (const o of outcomes.filter((o) => o.pdf !== '200')) failures.set(o.pdf, [...(failures.get(o.pdf) ?? []), o.doc.name]);
  for (const [code, names] of failures) console.log(`\nPDF ${code}: ${names.length} (${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''})`);
  const lacking = new Map<string, string[]>();
  for (const o of outcomes) {
    for (const lack of o.untagged ?? []) {
      const kind = lack.replace(/^\d+ of \d+ /, '').replace(/ \(.*\)$/, '');
      lacking.set(kind, [...(lacking.get(kind) ?? []), o.doc.name]);
    }
  }
  for (const [lack, names] of lacking) console.log(`\ntagged PDF with ${lack}: ${names.length} (${names.slice(0, 8).join(', ')}${names.length > 8 ? ', …' : ''})`);
}

await main();
