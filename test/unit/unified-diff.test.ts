/**
 * The unified diff that `rst2 check --diff` prints (src/commands/unified-diff.ts):
 * GNU `diff -u`'s hunks where the change is unambiguous, and over seeded
 * random pairs of texts (shared lines, CRLF lines, no newline at the end,
 * empty texts) a patch that the real `patch` (or `git apply`) turns into the
 * new text byte for byte.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { expect } from 'chai';

import { unifiedDiff } from '../../src/commands/unified-diff.js';
import { applyPatch, PATCH_TOOL } from '../support/apply-patch.js';
const DIFF = spawnSync('diff', ['--version']).status === 0;

/** GNU diff -u's output for the two texts, with the file names as its labels (no dates). */
function gnuDiff(dir: string, before: string, after: string): string {
  fs.writeFileSync(path.join(dir, 'old.rst'), before);
  fs.writeFileSync(path.join(dir, 'new.rst'), after);
  const r = spawnSync('diff', ['-u', '--label', 'doc.rst', '--label', 'doc.rst', 'old.rst', 'new.rst'], { cwd: dir });
  return r.stdout.toString('utf8');
}

/** The text that patch (or git apply) makes of `before` with `diff` applied. */
function patched(dir: string, before: string, diff: string): string {
  fs.writeFileSync(path.join(dir, 'doc.rst'), before);
  applyPatch(dir, diff);
  return fs.readFileSync(path.join(dir, 'doc.rst'), 'utf8');
}

/** A small seeded generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('unifiedDiff', () => {
  let dir: string;
  before(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-diff-'));
  });
  after(() => {
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('is empty for equal texts', () => {
    expect(unifiedDiff('a\nb\n', 'a\nb\n', 'x', 'x')).to.equal('');
    expect(unifiedDiff('', '', 'x', 'x')).to.equal('');
  });

  it('prints what diff -u prints: one hunk, two hunks, changes whose contexts touch, the ends of the file', function () {
    if (!DIFF) this.skip();
    const lines = Array.from({ length: 30 }, (_, i) => `line ${i + 1}\n`);
    const cases: Array<[string, string]> = [
      ['Title\n===\n\n* one\nAfter.\n', 'Title\n=====\n\n* one\n\nAfter.\n'],
      [lines.join(''), lines.map((l, i) => (i === 2 || i === 25 ? `changed ${l}` : l)).join('')],
      [lines.join(''), lines.map((l, i) => (i === 5 || i === 12 ? `changed ${l}` : l)).join('')],
      [lines.join(''), lines.map((l, i) => (i === 5 || i === 11 ? `changed ${l}` : l)).join('')],
      [lines.join(''), ['first\n', ...lines, 'last\n'].join('')],
      [lines.join(''), lines.slice(1, -1).join('')],
      ['a\nb\nc', 'a\nb\nc\n'],
      ['a\nb\nc\n', 'a\nB\nc'],
      ['', 'new\n'],
      ['old\n', ''],
      ['Title\r\n===\r\n', 'Title\r\n=====\r\n'],
    ];
    for (const [before, after] of cases) expect(unifiedDiff(before, after, 'doc.rst', 'doc.rst'), JSON.stringify([before, after])).to.equal(gnuDiff(dir, before, after));
  });

  it('gives patch (or git apply) what it needs to make the new text, byte for byte, over 200 random pairs', function () {
    if (PATCH_TOOL === undefined) this.skip();
    // A process per pair: slow on a busy machine.
    this.timeout(60_000);
    const next = random(22);
    const pool = ['Title\n', '=====\n', '\n', '* one\n', '* two\n', 'Text *here*.\n', '.. note:: x\n', '   indented\n', 'crlf\r\n', 'ünïcödé 🙂\n'];
    const text = (n: number): string[] => Array.from({ length: n }, () => pool[Math.floor(next() * pool.length)]!);
    for (let i = 0; i < 200; i++) {
      const before = text(Math.floor(next() * 40));
      const after = before.flatMap((line) => {
        const r = next();
        if (r < 0.1) return [];
        if (r < 0.2) return [pool[Math.floor(next() * pool.length)]!];
        if (r < 0.25) return [line, ...text(1 + Math.floor(next() * 3))];
        return [line];
      });
      const cut = (lines: string[]): string => {
        const joined = lines.join('');
        // Now and then the last line has no newline.
        return next() < 0.2 ? joined.replace(/\r?\n$/, '') : joined;
      };
      const [a, b] = [cut(before), cut(after)];
      const diff = unifiedDiff(a, b, 'doc.rst', 'doc.rst');
      if (a === b) expect(diff).to.equal('');
      else expect(patched(dir, a, diff), JSON.stringify([a, b])).to.equal(b);
    }
  });
});
