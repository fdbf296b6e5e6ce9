/**
 * Which problems real documents have, and how many of them `check` offers a
 * fix for (nothing here is a pass/fail test): every problem `check` reports
 * over HTTP on the real-document corpus (test/corpus/debian-documents.json,
 * dialect docutils) and on CPython's documentation sources
 * (test/corpus/sphinx-cpython.json, dialect sphinx), counted by kind (the
 * message with its quoted names and numbers taken out). Prints the ten most
 * frequent kinds over both as a reStructuredText table, the one in
 * docs/fixes.rst, with a last row for all kinds.
 *
 * usage: npm run bench:fix-frequency [-- --top N]
 */
import fs from 'node:fs';

import type { CheckItem } from '../src/engines/python/protocol.js';
import { corpusDocuments } from '../test/support/debian.js';
import { cpythonPages } from '../test/support/sphinx-cpython.js';
import { benchArgs, startInProcess } from './support.js';

/** A message's kind: its first line (and the second, after a colon), quoted names as "…", numbers as N. */
export function kind(message: string): string {
  const [first = '', second] = message.split('\n');
  const text = first.endsWith(':') && second ? `${first} ${second}` : first;
  return text.replace(/"[^"]*"/g, '"…"').replace(/\d+/g, 'N');
}

interface Count {
  problems: number;
  fixed: number;
  /** Documents with at least one. */
  documents: number;
}

type Counts = Map<string, Count>;

const ANY = '';

/** Problems by kind, and the documents that have any. */
async function count(url: string, texts: string[], dialect: string): Promise<{ counts: Counts; documents: number }> {
  const counts: Counts = new Map();
  let documents = 0;
  let next = 0;
  // Two requests at a time: the pool's two workers.
  await Promise.all(
    [0, 1].map(async () => {
      while (next < texts.length) {
        const text = texts[next++]!;
        const res = await fetch(`${url}/1.0/rst2/check`, { method: 'POST', body: new URLSearchParams({ rst: text, dialect }) });
        if (!res.ok) throw new Error(`check: HTTP ${res.status} ${(await res.text()).slice(0, 300)}`);
        const seen = new Set<string>([ANY]);
        for (const item of (await res.json()) as CheckItem[]) {
          const k = kind(item.message);
          const c = counts.get(k) ?? { problems: 0, fixed: 0, documents: 0 };
          c.problems++;
          if (item.fix) c.fixed++;
          if (!seen.has(k)) c.documents++;
          seen.add(k);
          counts.set(k, c);
        }
        if (seen.size > 1) documents++;
      }
    }),
  );
  return { counts, documents };
}

/** A reStructuredText simple table. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const rule = widths.map((w) => '='.repeat(w)).join('  ');
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [rule, line(header), rule, ...rows.map(line), rule].join('\n');
}

const cells = (c: Count | undefined) => (c ? [String(c.problems), String(c.documents), String(c.fixed)] : ['0', '0', '0']);

async function main(): Promise<void> {
  const args = benchArgs({ numbers: ['top'] });
  const top = args.number('top', 10, { min: 1, whole: true });
  const server = await startInProcess({ RST2_LOG_LEVEL: 'warn', RST2_QUEUE_LIMIT: '1000' });
  try {
    const corpus = corpusDocuments();
    const pages = cpythonPages();
    const started = performance.now();
    const { counts: ofCorpus, documents: corpusWith } = await count(server.url, corpus.map((d) => d.text), 'docutils');
    const { counts: ofCpython, documents: cpythonWith } = await count(server.url, pages.files.map((f) => fs.readFileSync(f, 'utf8')), 'sphinx');
    const total = (k: string) => (ofCorpus.get(k)?.problems ?? 0) + (ofCpython.get(k)?.problems ?? 0);
    const kinds = [...new Set([...ofCorpus.keys(), ...ofCpython.keys()])].sort((a, b) => total(b) - total(a) || a.localeCompare(b));
    const sum = (m: Counts, n: number) => [...m.values()].reduce((a, c) => ({ ...a, problems: a.problems + c.problems, fixed: a.fixed + c.fixed }), { problems: 0, fixed: 0, documents: n });
    console.log(`# the problems of real documents, ${new Date().toISOString().slice(0, 10)}: ${corpus.length} documents of the corpus (dialect docutils), ${pages.files.length} pages of ${pages.from} (dialect sphinx); ${((performance.now() - started) / 1000).toFixed(0)} s`);
    console.log('# per source: problems, documents that have one, problems with a fix\n');
    const rows = kinds.slice(0, top).map((k, i) => [String(i + 1), k, ...cells(ofCorpus.get(k)), ...cells(ofCpython.get(k))]);
    // The first cell is not blank: in a simple table a blank one continues the row above.
    rows.push(['all', `${kinds.length} kinds`, ...cells(sum(ofCorpus, corpusWith)), ...cells(sum(ofCpython, cpythonWith))]);
    console.log(table(['#', 'message', 'corpus', 'docs', 'fixed', 'CPython', 'pages', 'fixed'], rows));
  } finally {
    await server.close();
  }
}

await main();
