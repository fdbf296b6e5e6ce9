/**
 * The sphinx dialect on a real Sphinx project: every page of CPython's
 * documentation sources (Debian's python3.13-doc) checked over HTTP with
 * dialect=sphinx. No role or directive that Sphinx itself registers may come
 * back as unknown; the standard set is read from Debian's Sphinx, run for
 * this (test/support/sphinx-cpython.ts), not from a list of our own. The
 * names CPython's own extensions add (:gh:, .. availability::, ...) are
 * expected to be unknown and are only counted, as are the other messages.
 * And whether CPython uses them or not, every one of Sphinx's standard
 * names must be known to the dialect: a Sphinx that adds one fails the test
 * until the dialect has it too.
 *
 * The packages are downloaded into the cache folder the first time (about
 * 18 MB, and apt-private's lists of trixie and sid). Outside CI, a download
 * that fails skips the test, saying why; in CI it fails it.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

import type { RunningServer } from '../src/server.js';
import { form, server } from './support/server.js';
import { CORPUS, cpythonPages, sphinxPackages, sphinxStandardNames, type CpythonPages, type StandardNames } from './support/sphinx-cpython.js';

interface Item {
  message: string;
  line: number | null;
}

const UNKNOWN = /^Unknown (interpreted text role|directive type) "([^"]+)"/;

describe(`sphinx dialect on CPython's documentation (${CORPUS.sources.suite}'s ${CORPUS.sources.package}), against Debian's Sphinx (${CORPUS.sphinx.suite}'s python3-sphinx, in Pyodide)`, () => {
  let s: RunningServer;
  let pages: CpythonPages;
  let standard: StandardNames;

  before(async function () {
    // The first run downloads the packages (and apt-private its package lists).
    this.timeout(600_000);
    try {
      pages = cpythonPages();
      sphinxPackages();
    } catch (err) {
      if (process.env['CI']) throw err;
      console.log(`      skipped: ${(err as Error).message}`);
      this.skip();
    }
    // Once downloaded, Sphinx must run: a failure here is the test's.
    standard = await sphinxStandardNames();
    s = await server();
  });

  it('knows every role and directive of Sphinx\'s standard set, whether CPython uses it or not', async () => {
    // One document that uses each standard name once: what docutils reports
    // unknown among them is a name Sphinx has and the dialect lacks. Other
    // messages (missing arguments and content) do not matter here.
    const rst = [...standard.roles.map((r) => `:${r}:\`x\`\n`), ...standard.directives.map((d) => `.. ${d}:: x\n`)].join('\n');
    const res = await fetch(`${s.url}/1.0/rst2/check`, form({ rst, dialect: 'sphinx' }));
    expect(res.status, await res.clone().text()).to.equal(200);
    const lacking: string[] = [];
    for (const item of (await res.json()) as Item[]) {
      const m = UNKNOWN.exec(item.message);
      if (!m) continue;
      const kind = m[1] === 'directive type' ? 'directive' : 'role';
      const name = m[2]!.toLowerCase();
      // `.. default-role:: x` makes "x" a role name; only Sphinx's own names count.
      if ((kind === 'role' ? standard.roles : standard.directives).includes(name)) lacking.push(`${kind} ${name}`);
    }
    expect(lacking, `Sphinx ${standard.version}'s standard names the sphinx dialect does not know`).to.deep.equal([]);
  });

  it('reports no role or directive of Sphinx\'s standard set as unknown, on any page', async function () {
    // About 22 s on two idle cores (two workers); the margin is for a machine shared with other work.
    this.timeout(300_000);
    const started = Date.now();
    const known = { role: new Set(standard.roles), directive: new Set(standard.directives) };
    expect(known.role.size, 'roles Sphinx registers').to.be.greaterThan(50);
    expect(known.directive.size, 'directives Sphinx registers').to.be.greaterThan(50);
    expect(pages.files.length, `pages in ${pages.from}`).to.be.at.least(CORPUS.sources.pages);

    const standardUnknown: string[] = [];
    const otherUnknown = new Map<string, number>();
    // Everything else the dialect reports (raw:: disabled, CPython's rst_epilog substitutions...): only counted.
    const otherMessages = new Map<string, number>();
    const failed: string[] = [];
    let checked = 0;
    // As many requests at a time as the service has Python workers.
    const concurrency = s.python.stats().size;
    let next = 0;
    const checkPages = async () => {
      while (next < pages.files.length) {
        const file = pages.files[next++]!;
        const page = path.relative(pages.dir, file);
        const res = await fetch(`${s.url}/1.0/rst2/check`, form({ rst: fs.readFileSync(file, 'utf8'), dialect: 'sphinx' }));
        if (res.status !== 200) {
          failed.push(`${page}: HTTP ${res.status} ${await res.text()}`);
          continue;
        }
        checked++;
        for (const item of (await res.json()) as Item[]) {
          const m = UNKNOWN.exec(item.message);
          if (!m) {
            const key = item.message.split('\n', 1)[0]!;
            otherMessages.set(key, (otherMessages.get(key) ?? 0) + 1);
            continue;
          }
          const kind = m[1] === 'directive type' ? 'directive' : 'role';
          // docutils looks names up in lower case, and so does Sphinx.
          const name = m[2]!.toLowerCase();
          if (known[kind].has(name)) standardUnknown.push(`${page}:${item.line ?? '?'}: ${kind} ${name}`);
          else otherUnknown.set(`${kind} ${name}`, (otherUnknown.get(`${kind} ${name}`) ?? 0) + 1);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, checkPages));

    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    const others = [...otherUnknown.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    console.log(`      ${checked} pages of ${pages.from} in ${seconds} s (${concurrency} at a time); standard set from Sphinx ${standard.version} on docutils ${standard.docutils} (${standard.roles.length} roles, ${standard.directives.length} directives)`);
    console.log(`      unknown, not Sphinx's (CPython's own extensions): ${others.map(([k, n]) => `${k} ×${n}`).join(', ') || 'none'}`);
    const rest = [...otherMessages.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    console.log(`      other messages: ${rest.map(([k, n]) => `${k} ×${n}`).join('; ') || 'none'}`);

    expect(failed, 'pages the service did not check').to.deep.equal([]);
    expect(checked).to.equal(pages.files.length);
    expect(standardUnknown, `Sphinx ${standard.version}'s own names reported unknown`).to.deep.equal([]);
  });
});
