/**
 * Measures the dialects against their own tools (nothing here is a pass/fail test):
 *  - sphinx: `check?dialect=sphinx` on CPython's documentation sources as
 *    Debian ships them (test/corpus/sphinx-cpython.json: the packages, downloaded
 *    into the cache as test/sphinx-cpython.test.ts does): the "Unknown interpreted text
 *    role / directive type" messages left, split into Sphinx's standard set
 *    (read from Debian's Sphinx, run in Pyodide: the target is none) and the
 *    project's own extensions; the share of pages that check clean.
 *  - pypi: `check?dialect=pypi` against readme_renderer itself (Debian's
 *    python3-readme-renderer) on Debian's Python package descriptions and
 *    README.rst files, and on the same CPython pages as a harder corpus: the share
 *    of documents with the same verdict (accepted iff `[]`), and that `html`
 *    answers 200 exactly for the accepted ones.
 *
 * usage: npm run bench:dialects   (or node dist/bench/dialects.js [sphinx|pypi] for one part)
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { createLogger } from '../src/log.js';
import { projectRoot } from '../src/paths.js';
import { CORPUS, cpythonPages, sphinxStandardNames, type CpythonPages } from '../test/support/sphinx-cpython.js';
import { benchArgs, ensureDebianPackages, startInProcess } from './support.js';

const UNKNOWN = /^Unknown (interpreted text role|directive type) "([^"]+)"/;

interface Item { message: string }
interface Verdict { corpus: string; name: string; text: string; accepted: boolean; note: string }

function pypiOracle(sources: string): { version: string; documents: Verdict[] } {
  const r = spawnSync('/usr/bin/python3', [path.join(projectRoot, 'bench/dialects_oracle.py'), 'pypi', sources], { encoding: 'utf8', maxBuffer: 1 << 30 });
  if (r.status !== 0) throw new Error(`oracle pypi failed: ${r.stderr.slice(-1000)}`);
  return JSON.parse(r.stdout) as { version: string; documents: Verdict[] };
}

async function post(url: string, op: string, dialect: string, text: string): Promise<Response> {
  return fetch(`${url}/1.0/rst2/${op}?dialect=${dialect}`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst' }, body: text });
}

async function checkItems(url: string, dialect: string, text: string): Promise<Item[] | string> {
  const res = await post(url, 'check', dialect, text);
  if (res.status !== 200) return `HTTP ${res.status} ${((await res.json()) as { error: { code: string } }).error.code}`;
  return (await res.json()) as Item[];
}

function percent(part: number, whole: number): string {
  return `${((100 * part) / whole).toFixed(1)}%`;
}

async function sphinx(url: string, pages: CpythonPages): Promise<void> {
  const standard = await sphinxStandardNames();
  const known = { role: new Set(standard.roles), directive: new Set(standard.directives) };
  const files = pages.files;
  const counts = new Map<string, number>();
  const isStandard = (key: string) => {
    const [kind, name] = key.split(' ') as ['role' | 'directive', string];
    return known[kind].has(name);
  };
  const plainCounts = { messages: 0, clean: 0 };
  let clean = 0;
  // Pages whose only messages are unknown names of the project's own extensions.
  let onlyProjectNames = 0;
  // Messages other than unknown names, by their first line.
  const otherMessages = new Map<string, number>();
  let otherTotal = 0;
  let otherPages = 0;
  const failures: string[] = [];
  for (const file of files) {
    const text = fs.readFileSync(file, 'utf8');
    const items = await checkItems(url, 'sphinx', text);
    if (typeof items === 'string') {
      failures.push(`${path.relative(pages.dir, file)}: ${items}`);
      continue;
    }
    if (items.length === 0) clean++;
    let otherProblems = 0;
    const othersBefore = otherTotal;
    for (const item of items) {
      const m = UNKNOWN.exec(item.message);
      if (!m) {
        otherProblems++;
        const key = item.message.split('\n', 1)[0]!;
        otherMessages.set(key, (otherMessages.get(key) ?? 0) + 1);
        otherTotal++;
        continue;
      }
      const key = `${m[1] === 'directive type' ? 'directive' : 'role'} ${m[2]!.toLowerCase()}`;
      counts.set(key, (counts.get(key) ?? 0) + 1);
      if (isStandard(key)) otherProblems++;
    }
    if (items.length > 0 && otherProblems === 0) onlyProjectNames++;
    if (otherTotal > othersBefore) otherPages++;
    const plain = await checkItems(url, 'docutils', text);
    if (typeof plain !== 'string') {
      plainCounts.messages += plain.filter((i) => UNKNOWN.test(i.message)).length;
      if (plain.length === 0) plainCounts.clean++;
    }
  }
  const rows = [...counts.entries()].sort((a, b) => b[1] - a[1]);
  const ours = rows.filter(([k]) => isStandard(k));
  const theirs = rows.filter(([k]) => !isStandard(k));
  const total = (list: Array<[string, number]>) => list.reduce((n, [, c]) => n + c, 0);
  console.log(`\n## sphinx: ${files.length} pages of CPython's documentation (${pages.from}), standard set from Sphinx ${standard.version} (Debian ${CORPUS.sphinx.suite}'s, in Pyodide)`);
  console.log(`unknown role/directive messages, Sphinx's standard set: ${total(ours)}${ours.length ? ` (${ours.map(([k, c]) => `${k} ×${c}`).join(', ')})` : ''}`);
  console.log(`unknown role/directive messages, CPython's own extensions: ${total(theirs)} (${theirs.map(([k, c]) => `${k} ×${c}`).join(', ')})`);
  console.log(`pages whose check is []: ${clean} of ${files.length} (${percent(clean, files.length)})`);
  console.log(`pages whose only messages name CPython's own roles/directives: ${onlyProjectNames} (so ${percent(clean + onlyProjectNames, files.length)} have no other problem)`);
  const otherRows = [...otherMessages.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  console.log(`messages other than unknown names: ${otherTotal} on ${otherPages} pages${otherRows.length ? ` (${otherRows.map(([k, c]) => `${k} ×${c}`).join('; ')})` : ''}`);
  console.log(`for comparison, dialect=docutils: ${plainCounts.messages} unknown role/directive messages, ${plainCounts.clean} pages clean (${percent(plainCounts.clean, files.length)})`);
  if (failures.length) console.log(`requests that failed: ${failures.join('; ')}`);
}

async function pypi(url: string, pages: CpythonPages): Promise<void> {
  const { version, documents } = pypiOracle(pages.dir);
  for (const corpus of ['package', 'cpython']) {
    const docs = documents.filter((d) => d.corpus === corpus);
    let same = 0;
    let htmlConsistent = 0;
    const differ: string[] = [];
    for (const doc of docs) {
      const items = await checkItems(url, 'pypi', doc.text);
      // A document docutils itself fails on (422 docutils_failed) is one PyPI cannot render either.
      const accepted = Array.isArray(items) && items.length === 0;
      if (accepted === doc.accepted) same++;
      else differ.push(`${doc.name}: readme_renderer ${doc.accepted ? 'accepts' : `refuses (${doc.note})`}, rst2 ${accepted ? 'accepts' : `refuses (${typeof items === 'string' ? items : items[0]!.message})`}`);
      const html = await post(url, 'html', 'pypi', doc.text);
      await html.arrayBuffer();
      if ((html.status === 200) === accepted) htmlConsistent++;
    }
    const label = corpus === 'package' ? "Debian's Python package descriptions and README.rst files" : "CPython's documentation pages (a harder corpus)";
    console.log(`\n## pypi: ${docs.length} documents, ${label}; readme_renderer ${version} (Debian) accepts ${docs.filter((d) => d.accepted).length}`);
    console.log(`same verdict as readme_renderer: ${same} of ${docs.length} (${percent(same, docs.length)})`);
    console.log(`html answers 200 exactly when check gives []: ${htmlConsistent} of ${docs.length}`);
    for (const line of differ) console.log(`  differs: ${line}`);
  }
}

async function main(): Promise<void> {
  const only = benchArgs({ positionals: 1 }).positionals[0];
  // The pypi part's oracle is readme_renderer on the machine's Python; the pages come from the cache.
  if (only !== 'sphinx') ensureDebianPackages('/usr/lib/python3/dist-packages/readme_renderer', ['python3-readme-renderer']);
  const pages = cpythonPages();
  const server = await startInProcess({ RST2_LOG_LEVEL: 'warn', RST2_QUEUE_LIMIT: '1000' }, createLogger('warn'));
  try {
    console.log(`# dialects, measured ${new Date().toISOString().slice(0, 10)}`);
    if (only !== 'pypi') await sphinx(server.url, pages);
    if (only !== 'sphinx') await pypi(server.url, pages);
  } finally {
    await server.close();
  }
}

await main();
