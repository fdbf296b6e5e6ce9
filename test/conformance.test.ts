/**
 * Conformance with the tools our users run, on the same docutils version:
 * the bundle's docutils run natively by Debian's CPython, Debian sid's
 * restructuredtext-lint and readme_renderer on it (test/oracles/native.py),
 * over docutils' own documentation of that version and the real-document
 * corpus of test/corpus/debian-documents.json. Everything is downloaded
 * into the cache folder (test/support/debian.ts); nothing of the machine's
 * Python packages is used.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import type { CheckItem } from '../src/engines/python/protocol.js';
import { paths, projectRoot } from '../src/paths.js';
import type { RunningServer } from '../src/server.js';
import { bundleManifest, bundleVersion, corpusDocuments, corpusList, docutilsDocuments, nativeBundleEnv, unpackedPackages, type CorpusDocument } from './support/debian.js';
import { server, tempDir } from './support/server.js';

/** The oracles besides docutils, from the suites the bundle's docutils comes from. */
const ORACLES = ['python3-restructuredtext-lint', 'python3-readme-renderer'];

/**
 * docutils' configuration file with rst2's protections, for the oracle that
 * takes no settings (restructuredtext-lint reads DOCUTILSCONFIG).
 */
function protectionsConfig(): string {
  const file = path.join(tempDir('docutils-config'), 'docutils.conf');
  fs.writeFileSync(file, '[general]\nfile_insertion_enabled: false\nraw_enabled: false\n');
  return file;
}

function oracle<T>(command: 'html' | 'parts' | 'lint' | 'pypi', documents: Array<{ name: string; text: string; html?: string; parts?: Record<string, string> }>): T {
  const packages = unpackedPackages(bundleManifest().suites, ORACLES);
  const sitePackages = [...packages.values()].map((dir) => path.join(dir, 'usr', 'lib', 'python3', 'dist-packages'));
  const env = nativeBundleEnv([paths.pythonSources, ...sitePackages]);
  const bundleSite = env['PYTHONPATH']!.split(':')[1]!;
  const r = spawnSync('/usr/bin/python3', [path.join(projectRoot, 'test', 'oracles', 'native.py'), command], {
    input: JSON.stringify({ documents }),
    encoding: 'utf8',
    maxBuffer: 1 << 30,
    env: {
      ...env,
      RST2_ORACLE_ROOTS: [bundleSite, ...sitePackages].join(path.delimiter),
      DOCUTILSCONFIG: protectionsConfig(),
      // The default style's stylesheets, as python/rst2/render.py embeds them (for `parts`).
      RST2_STYLESHEETS: [path.join(paths.styles, 'html', 'base', 'docutils.css'), path.join(paths.styles, 'html', 'default.css')].join(path.delimiter),
    },
  });
  if (r.status !== 0) throw new Error(`test/oracles/native.py ${command} failed (${r.status}): ${r.stderr.slice(-3000)}`);
  return JSON.parse(r.stdout) as T;
}

/** `work` on every item, `width` at a time, results in order. */
async function each<T, R>(items: T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      while (next < items.length) {
        const i = next++;
        results[i] = await work(items[i]!);
      }
    }),
  );
  return results;
}

async function post(s: RunningServer, operation: string, fields: Record<string, string>): Promise<Response> {
  return fetch(`${s.url}/1.0/rst2/${operation}`, { method: 'POST', body: new URLSearchParams(fields) });
}

function label(doc: CorpusDocument): string {
  return doc.kind === 'docutils-doc' ? `docutils-doc/${doc.name}` : `${doc.package}: ${doc.name}`;
}

/** Where two strings first part, with some context either side. */
function firstDifference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  const from = Math.max(0, i - 60);
  return `at ${i}:\n      native: …${a.slice(from, i + 100)}…\n      rst2:   …${b.slice(from, i + 100)}…`;
}

describe('conformance with native docutils, restructuredtext-lint and readme_renderer on the same docutils', function () {
  this.timeout(15 * 60_000);
  let s: RunningServer;
  let docutilsDoc: CorpusDocument[];
  let corpus: CorpusDocument[];
  before(async function () {
    s = await server();
    docutilsDoc = docutilsDocuments();
    corpus = corpusDocuments();
  });

  it('the real-document corpus holds every document its list names, and docutils-doc is the version we run', () => {
    const counts = new Map<string, number>();
    for (const doc of corpus) counts.set(doc.package, (counts.get(doc.package) ?? 0) + 1);
    const list = corpusList().packages;
    const short = Object.entries(list).filter(([name, n]) => (counts.get(name) ?? 0) !== n).map(([name, n]) => `${name}: ${counts.get(name) ?? 0} of ${n}`);
    expect(short, 'packages whose documents differ from test/corpus/debian-documents.json').to.deep.equal([]);
    expect(corpus.length).to.equal(Object.values(list).reduce((a, b) => a + b, 0));
    // docutils-doc's own HISTORY names the release it documents.
    const history = docutilsDoc.find((d) => d.name === 'HISTORY.rst');
    const upstream = bundleVersion('python3-docutils').split('+')[0]!;
    expect(history?.text, 'docutils-doc HISTORY.rst').to.include(`Release ${upstream}`);
    expect(docutilsDoc.length).to.be.greaterThan(50);
  });

  for (const which of ['docutils-doc', 'corpus'] as const) {
    it(`${which}: the HTML body text equals native docutils' on every document`, async () => {
      const docs = which === 'docutils-doc' ? docutilsDoc : corpus;
      const pages = await each(docs, 2, async (doc) => {
        const res = await post(s, 'html', { rst: doc.text });
        expect(res.status, `${label(doc)}: ${res.status}`).to.equal(200);
        return { name: label(doc), text: doc.text, html: await res.text() };
      });
      const result = oracle<{ docutils: string; documents: Array<{ name: string; equal: boolean; native: string; ours: string }> }>('html', pages);
      expect(result.docutils).to.equal(bundleVersion('python3-docutils').split('+')[0]);
      expect(result.documents).to.have.length(docs.length);
      const differ = result.documents.filter((d) => !d.equal).map((d) => `${d.name} ${firstDifference(d.native, d.ours)}`);
      expect(differ, differ.join('\n')).to.deep.equal([]);
      // Equal because both pages say something, not because both are empty.
      expect(result.documents.filter((d) => d.native.length < 20).map((d) => d.name)).to.deep.equal([]);
    });
  }

  for (const which of ['docutils-doc', 'corpus'] as const) {
    it(`${which}: format=parts equals native docutils' publish_parts() on every document`, async () => {
      const docs = which === 'docutils-doc' ? docutilsDoc : corpus;
      const served = await each(docs, 2, async (doc) => {
        const res = await post(s, 'html', { rst: doc.text, format: 'parts' });
        expect(res.status, `${label(doc)}: ${res.status}`).to.equal(200);
        const { messages: _, ...parts } = (await res.json()) as Record<string, string> & { messages: unknown };
        return { name: label(doc), text: doc.text, parts };
      });
      type Compared = {
        name: string;
        differ: string[];
        differ_outside_math: string[];
        native: Record<string, string>;
        ours: Record<string, string>;
        fragment_tree_equal: boolean;
        native_fragment_length: number;
      };
      const result = oracle<{ docutils: string; documents: Compared[] }>('parts', served);
      expect(result.docutils).to.equal(bundleVersion('python3-docutils').split('+')[0]);
      expect(result.documents).to.have.length(docs.length);
      // Every part the same text as docutils' own, and the fragment the same tree after our safety pass,
      // formulas aside: rst2 writes MathML with its own converter (python/rst2/mathml.py).
      const differ = result.documents
        .filter((d) => d.differ_outside_math.length > 0 || !d.fragment_tree_equal)
        .map((d) => `${d.name}: ${d.differ_outside_math.map((part) => `${part} ${firstDifference(d.native[part]!, d.ours[part]!)}`).join('\n    ')}${d.fragment_tree_equal ? '' : ' (fragment trees differ)'}`);
      expect(differ, differ.join('\n')).to.deep.equal([]);
      // Where formulas differ, only the body parts do, and only in docutils' own page on mathematics.
      const mathOnly = result.documents.filter((d) => d.differ.length > 0);
      for (const d of mathOnly) expect(d.differ, d.name).to.deep.equal(['body', 'fragment', 'html_body']);
      expect(mathOnly.map((d) => d.name)).to.deep.equal(which === 'docutils-doc' ? ['docutils-doc/docs/ref/rst/mathematics.rst'] : []);
      // Equal because both say something, not because both are empty.
      expect(result.documents.filter((d) => d.native_fragment_length < 20).length).to.be.below(docs.length / 10);
    });
  }

  /** A problem as both sides name it: line, level and message (the context is ours only). */
  const key = (p: { line: number | null; type: string; message: string }) => `${p.line ?? '-'} ${p.type}: ${p.message}`;

  it('check reports what restructuredtext-lint reports, on every document', async () => {
    const docs = [...docutilsDoc, ...corpus];
    const ours = await each(docs, 2, async (doc) => {
      const res = await post(s, 'check', { rst: doc.text });
      expect(res.status, `${label(doc)}: ${res.status}`).to.equal(200);
      return (await res.json()) as CheckItem[];
    });
    const result = oracle<{ documents: Array<{ name: string; problems: Array<{ line: number | null; type: string; message: string }> }> }>(
      'lint',
      docs.map((doc) => ({ name: label(doc), text: doc.text })),
    );
    expect(result.documents).to.have.length(docs.length);
    const differ: string[] = [];
    let problems = 0;
    result.documents.forEach((theirs, i) => {
      const a = theirs.problems.map(key).sort();
      const b = ours[i]!.map(key).sort();
      problems += a.length;
      if (JSON.stringify(a) !== JSON.stringify(b)) {
        differ.push(`${theirs.name}:\n      rst-lint only: ${a.filter((x) => !b.includes(x)).join(' | ')}\n      rst2 only: ${b.filter((x) => !a.includes(x)).join(' | ')}`);
      }
    });
    expect(differ, differ.join('\n')).to.deep.equal([]);
    // Not a comparison of two empty lists: the corpus has problems to agree on.
    expect(problems).to.be.greaterThan(20);
  });

  it("the pypi dialect's verdict is readme_renderer 46.0's (Debian's readme_renderer given 46.0's settings), on every document", async () => {
    const docs = [...corpus, ...docutilsDoc];
    const ours = await each(docs, 2, async (doc) => {
      const res = await post(s, 'check', { rst: doc.text, dialect: 'pypi' });
      expect(res.status, `${label(doc)}: ${res.status}`).to.equal(200);
      const items = (await res.json()) as CheckItem[];
      return { accepted: items.length === 0, first: items[0] };
    });
    const result = oracle<{ readme_renderer: string; documents: Array<{ name: string; accepted: boolean; note: string }> }>(
      'pypi',
      docs.map((doc) => ({ name: label(doc), text: doc.text })),
    );
    expect(result.documents).to.have.length(docs.length);
    const differ = result.documents
      .map((theirs, i) => ({ theirs, ours: ours[i]! }))
      .filter(({ theirs, ours }) => theirs.accepted !== ours.accepted)
      .map(({ theirs, ours }) => `${theirs.name}: readme_renderer ${theirs.accepted ? 'accepts' : `refuses (${theirs.note})`}, rst2 ${ours.accepted ? 'accepts' : `refuses (${ours.first?.message})`}`);
    expect(differ, differ.join('\n')).to.deep.equal([]);
    // Both verdicts occur: the corpus has descriptions PyPI takes and ones it refuses.
    const accepted = result.documents.filter((d) => d.accepted).length;
    expect(accepted).to.be.within(1, docs.length - 1);
  });
});
