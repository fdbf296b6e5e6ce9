/**
 * Preamble formats as a client and an operator see them: PDFs over HTTP,
 * the format folder (RST2_TEX_FORMAT_DIR, RST2_TEX_FORMAT_BYTES) and the
 * rst2_tex_* series of /metrics.
 */
import { expect } from 'chai';
import fs from 'node:fs';
import path from 'node:path';

import { paths } from '../src/paths.js';
import type { RunningServer } from '../src/server.js';
import { pdfPages } from './support/pdf.js';
import { api, form, server, tempDir } from './support/server.js';
import { waitFor } from './support/wait-for.js';
import { describeTex } from './support/tex.js';

const doc = (word: string): string => `Format Check\n============\n\nThe word is ${word}.\n\n* one\n* two\n`;

async function counter(s: RunningServer, name: string, labels = ''): Promise<number> {
  const text = await (await fetch(`${s.url}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.slice(line.lastIndexOf(' ') + 1)) : 0;
}

async function pdfWith(s: RunningServer, word: string, params: Record<string, string> = {}): Promise<string> {
  const res = await api(s, '/1.0/rst2/pdf', form({ rst: doc(word), ...params }));
  expect(res.status, res.status === 200 ? '' : await res.text()).to.equal(200);
  return (await pdfPages(await res.arrayBuffer())).join('\n');
}

const formatsIn = (dir: string): string[] => fs.readdirSync(dir).filter((f) => f.endsWith('.fmt'));
const unique = (): string => `w${Date.now()}${Math.random().toString(36).slice(2, 8)}`;

describeTex('PDF over HTTP: preamble formats', function () {
  it('the default class and style start from the format made at npm install, and nothing is made', async () => {
    const dir = tempDir('fmt-default');
    const s = await server({ RST2_TEX_FORMAT_DIR: dir });
    const before = await counter(s, 'rst2_tex_jobs_total', '{start="format"}');
    const word = unique();
    expect(await pdfWith(s, word)).to.include(word);
    expect(await counter(s, 'rst2_tex_jobs_total', '{start="format"}')).to.equal(before + 1);
    await s.pdf.formatsIdle();
    expect(formatsIn(dir)).to.deep.equal([]);
    // A short note reads nothing back: one pdfTeX run per job.
    expect(await counter(s, 'rst2_tex_runs_total')).to.equal(await counter(s, 'rst2_tex_jobs_total', '{start="format"}') + await counter(s, 'rst2_tex_jobs_total', '{start="plain"}'));
  });

  it('another class and style: the first PDF is made plainly while its format is made, later ones start from it', async () => {
    const dir = tempDir('fmt-other');
    const s = await server({ RST2_TEX_FORMAT_DIR: dir });
    const plain = await counter(s, 'rst2_tex_jobs_total', '{start="plain"}');
    const first = unique();
    expect(await pdfWith(s, first, { class: 'report', style: 'zope' })).to.include(first);
    expect(await counter(s, 'rst2_tex_jobs_total', '{start="plain"}')).to.equal(plain + 1);
    await s.pdf.formatsIdle();
    expect(formatsIn(dir)).to.have.length(1);
    expect(await counter(s, 'rst2_tex_formats_made_total')).to.equal(1);

    const withFormat = await counter(s, 'rst2_tex_jobs_total', '{start="format"}');
    const second = unique();
    const text = await pdfWith(s, second, { class: 'report', style: 'zope' });
    expect(text).to.include(second);
    expect(text).to.include('Format Check');
    expect(await counter(s, 'rst2_tex_jobs_total', '{start="format"}')).to.equal(withFormat + 1);
  });

  it('keeps the folder within RST2_TEX_FORMAT_BYTES, the least recently used going first', async () => {
    const dir = tempDir('fmt-bound');
    // Room for one format but not two: the size of the one made at npm
    // install (10 MB under TeX Live 2024, 19 MB under 2022) and a half.
    const builtin = path.join(paths.texDir, 'formats');
    const sizes = formatsIn(builtin).map((f) => fs.statSync(path.join(builtin, f)).size);
    expect(sizes).to.not.be.empty;
    const s = await server({ RST2_TEX_FORMAT_DIR: dir, RST2_TEX_FORMAT_BYTES: String(Math.round(Math.max(...sizes) * 1.5)) });
    await pdfWith(s, unique(), { class: 'book', style: 'style2' });
    await s.pdf.formatsIdle();
    const [older] = formatsIn(dir);
    expect(older).to.be.a('string');
    await pdfWith(s, unique(), { class: 'scrbook', style: 'style2' });
    await s.pdf.formatsIdle();
    const now = formatsIn(dir);
    expect(now).to.have.length(1);
    expect(now[0]).to.not.equal(older);
    // Both combinations still render.
    for (const cls of ['book', 'scrbook']) expect(await pdfWith(s, 'still', { class: cls, style: 'style2' })).to.include('still');
  });

  it('a damaged format is dropped and the PDF is made without it', async () => {
    const dir = tempDir('fmt-damaged');
    const s = await server({ RST2_TEX_FORMAT_DIR: dir });
    await pdfWith(s, unique(), { class: 'scrartcl', style: 'style2' });
    await s.pdf.formatsIdle();
    const [file] = formatsIn(dir);
    expect(file).to.be.a('string');
    fs.writeFileSync(path.join(dir, file!), 'not a format');
    const plain = await counter(s, 'rst2_tex_jobs_total', '{start="plain"}');
    const word = unique();
    expect(await pdfWith(s, word, { class: 'scrartcl', style: 'style2' })).to.include(word);
    expect(await counter(s, 'rst2_tex_jobs_total', '{start="plain"}')).to.equal(plain + 1);
    // The broken file is removed in the background, after the PDF is answered.
    await waitFor(() => formatsIn(dir).length === 0, { what: `the damaged format to be removed from ${dir}` });
    expect(formatsIn(dir)).to.deep.equal([]);
  });
});
