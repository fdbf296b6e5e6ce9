/**
 * How well `fix` repairs what authors get wrong (nothing here is a pass/fail
 * test). Correct real documents (the conformance corpus and docutils' own
 * documentation, those whose check is []) get one planted mistake at a
 * time (bench/plant.ts, seeded); each goes to /1.0/rst2/fix over HTTP, safe
 * fixes only and then with unsafe=1. Prints, per kind of mistake, the share
 * whose fixed text renders to the same HTML body text as the original
 * (restored; goal: 90% or more with safe and suggested fixes), and the
 * median time of a fix request. That a safe fix changes no other line's
 * text is a test's job (test/fix-honesty.test.ts, over the same documents
 * and planted mistakes), not a figure.
 *
 * usage: npm run bench:fixes [-- --seed N] [--per-kind N]
 */
import { corpusDocuments, docutilsDocuments } from '../test/support/debian.js';
import { PLANTERS, seeded } from './plant.js';
import { benchArgs, fmt, median, startInProcess } from './support.js';

interface FixAnswer {
  text: string;
  fixes: Array<{ description: string; applicability: string }>;
  problems: unknown[];
}

async function post(url: string, operation: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${url}/1.0/rst2/${operation}`, { method: 'POST', body: new URLSearchParams(fields) });
}

/** The text a reader sees in the page's body: no tags, scripts or styles; spaces collapsed. */
function bodyText(page: string): string {
  const body = page.slice(page.indexOf('<body'), page.lastIndexOf('</body>'));
  return body
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ')
    .trim();
}

async function html(url: string, text: string): Promise<string> {
  const res = await post(url, 'html', { rst: text });
  return res.ok ? bodyText(await res.text()) : `HTTP ${res.status}`;
}

async function fix(url: string, text: string, unsafe: boolean): Promise<FixAnswer> {
  const res = await post(url, 'fix', { rst: text, format: 'json', ...(unsafe ? { unsafe: '1' } : {}) });
  if (!res.ok) throw new Error(`fix: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
  return (await res.json()) as FixAnswer;
}

async function main(): Promise<void> {
  const args = benchArgs({ numbers: ['seed', 'per-kind'] });
  const seed = args.number('seed', 20261126, { whole: true });
  const perKind = args.number('per-kind', 40, { min: 1, whole: true });
  const server = await startInProcess({ RST2_LOG_LEVEL: 'warn', RST2_QUEUE_LIMIT: '1000' });
  try {
    const documents = [...corpusDocuments(), ...docutilsDocuments()];
    const correct: string[] = [];
    for (const doc of documents) {
      const res = await post(server.url, 'check', { rst: doc.text });
      if (res.ok && ((await res.json()) as unknown[]).length === 0) correct.push(doc.text);
    }
    console.log(`# fixes, ${new Date().toISOString().slice(0, 10)}: ${correct.length} correct documents of ${documents.length}; seed ${seed}, up to ${perKind} mistakes per kind`);
    console.log('\n| mistake | planted | restored, safe fixes | restored, safe + suggested | fix request p50 |\n|---|---:|---:|---:|---:|');
    const random = seeded(seed);
    let plantedAll = 0;
    let safeAll = 0;
    let unsafeAll = 0;
    for (const planter of PLANTERS) {
      let planted = 0;
      let safe = 0;
      let unsafe = 0;
      const times: number[] = [];
      for (let tries = 0; planted < perKind && tries < perKind * 20; tries++) {
        const original = correct[Math.floor(random() * correct.length)]!;
        const mistake = planter.plant(original, random);
        if (mistake === null || mistake === original) continue;
        const problems = (await (await post(server.url, 'check', { rst: mistake })).json()) as unknown[];
        if (problems.length === 0) continue; // not a mistake docutils sees
        planted++;
        const want = await html(server.url, original);
        const started = performance.now();
        const safeFixed = await fix(server.url, mistake, false);
        times.push(performance.now() - started);
        if ((await html(server.url, safeFixed.text)) === want) safe++;
        const unsafeFixed = await fix(server.url, mistake, true);
        if ((await html(server.url, unsafeFixed.text)) === want) unsafe++;
      }
      plantedAll += planted;
      safeAll += safe;
      unsafeAll += unsafe;
      const pct = (n: number) => (planted ? `${((100 * n) / planted).toFixed(0)}%` : '-');
      console.log(`| ${planter.name} | ${planted} | ${pct(safe)} | ${pct(unsafe)} | ${times.length ? `${fmt(median(times))} ms` : '-'} |`);
    }
    const pct = (n: number) => (plantedAll ? `${((100 * n) / plantedAll).toFixed(1)}%` : '-');
    console.log(`| **all** | ${plantedAll} | ${pct(safeAll)} | **${pct(unsafeAll)}** (goal ≥ 90%) | |`);
  } finally {
    await server.close();
  }
}

await main();
