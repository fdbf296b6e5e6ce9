/**
 * The rules that read the source (code, markup and whitespace families) on
 * real documents: the corpus of Debian's package descriptions and READMEs
 * and docutils' own documentation, every such rule on by default, run
 * natively (test/oracles/lint_corpus.py, the same Python the workers run).
 * Every finding must be in test/lint-reviewed.json, which says for each
 * document and rule why the finding is real; an entry no longer found is
 * stale and fails too, so the list stays what the rules find today.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

import { expect } from 'chai';

import { paths, projectRoot } from '../src/paths.js';
import { corpusDocuments, docutilsDocuments, nativeBundleEnv } from './support/debian.js';

interface Finding {
  document: string;
  rule: string;
  count: number;
}

interface Reviewed extends Finding {
  why: string;
}

function findings(documents: Array<{ name: string; text: string }>): Promise<Finding[]> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', ['-W', 'ignore', path.join(projectRoot, 'test', 'oracles', 'lint_corpus.py')], {
      env: nativeBundleEnv([paths.pythonSources]),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stdout.setEncoding('utf8').on('data', (s: string) => (out += s));
    child.stderr.setEncoding('utf8').on('data', (s: string) => (err += s));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve(JSON.parse(out) as Finding[]) : reject(new Error(`lint_corpus.py failed (${code}): ${err.slice(-3000)}`))));
    child.stdin.end(JSON.stringify({ documents }));
  });
}

describe('the rules that read the source, on real documents (natively, test/oracles/lint_corpus.py)', function () {
  this.timeout(300_000);

  it('find only what test/lint-reviewed.json says is real, and all of it', async () => {
    const documents = [...corpusDocuments(), ...docutilsDocuments()].map((d) => ({ name: d.kind === 'docutils-doc' ? `docutils-doc/${d.name}` : `${d.package}: ${d.name}`, text: d.text }));
    expect(documents.length).to.be.at.least(150);
    const found = await findings(documents);
    const reviewed = JSON.parse(fs.readFileSync(path.join(projectRoot, 'test', 'lint-reviewed.json'), 'utf8')) as { findings: Reviewed[] };
    for (const entry of reviewed.findings) expect(entry.why.length, `why ${entry.document} ${entry.rule} is real`).to.be.at.least(30);
    const key = (f: Finding) => `${f.document} | ${f.rule} | ${f.count}`;
    expect(found.map(key).sort(), 'findings not reviewed (+) or no longer found (-)').to.deep.equal(reviewed.findings.map(key).sort());
  });
});
