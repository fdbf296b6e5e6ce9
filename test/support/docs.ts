/**
 * The manual (docs/*.rst) and the README as the docs tests read them: the
 * pages with their titles, and the console examples (see docs-examples.test.ts
 * for what an example is).
 */
import fs from 'node:fs';
import path from 'node:path';

import { paths, projectRoot } from '../../src/paths.js';

export interface DocsPage {
  /** NAME of docs/NAME.rst, served as /docs/NAME.html. */
  name: string;
  file: string;
  text: string;
  /** The document title: the first section title of the page. */
  title: string;
}

const UNDERLINE = /^([=\-~^"'`#*+<>:.])\1{2,}\s*$/;

/** The first section title of a reStructuredText text (under- or over-and-underlined). */
export function rstTitle(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i + 1 < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '' || UNDERLINE.test(line) || /^\s/.test(line) || line.startsWith('..')) continue;
    if (UNDERLINE.test(lines[i + 1]!)) return line.trim();
  }
  throw new Error('no title');
}

export function docsPages(): DocsPage[] {
  return fs
    .readdirSync(paths.docs)
    .filter((f) => f.endsWith('.rst'))
    .sort()
    .map((file) => {
      const text = fs.readFileSync(path.join(paths.docs, file), 'utf8');
      return { name: file.slice(0, -'.rst'.length), file: `docs/${file}`, text, title: rstTitle(text) };
    });
}

/** One console block: where it is, and its lines (dedented). */
export interface ConsoleBlock {
  where: string;
  lines: string[];
}

/** `.. code:: console` (or `code-block`) blocks of a reStructuredText text. */
export function rstConsoleBlocks(file: string, text: string): ConsoleBlock[] {
  const lines = text.split('\n');
  const blocks: ConsoleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    const m = /^(\s*)\.\. code(?:-block)?:: console\s*$/.exec(lines[i]!);
    if (!m) continue;
    const indent = m[1]!.length;
    const start = i + 1;
    let j = start;
    const body: string[] = [];
    for (; j < lines.length; j++) {
      const line = lines[j]!;
      if (line.trim() !== '' && line.length - line.trimStart().length <= indent) break;
      body.push(line);
    }
    // Options (`:name:`) come first, then the content.
    while (body.length > 0 && (body[0]!.trim() === '' || /^\s*:[\w-]+:/.test(body[0]!))) body.shift();
    while (body.length > 0 && body[body.length - 1]!.trim() === '') body.pop();
    const depth = Math.min(...body.filter((l) => l.trim() !== '').map((l) => l.length - l.trimStart().length));
    blocks.push({ where: `${file}:${i + 1}`, lines: body.map((l) => l.slice(depth)) });
    i = j - 1;
  }
  return blocks;
}

/** ```console blocks of a Markdown text. */
export function markdownConsoleBlocks(file: string, text: string): ConsoleBlock[] {
  const lines = text.split('\n');
  const blocks: ConsoleBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i]!.trim() !== '```console') continue;
    const end = lines.findIndex((l, k) => k > i && l.trim() === '```');
    if (end < 0) throw new Error(`${file}:${i + 1}: a console block that does not end`);
    blocks.push({ where: `${file}:${i + 1}`, lines: lines.slice(i + 1, end) });
    i = end;
  }
  return blocks;
}

/** Every console block of the docs and of the README. */
export function consoleBlocks(): ConsoleBlock[] {
  const readme = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  return [...markdownConsoleBlocks('README.md', readme), ...docsPages().flatMap((p) => rstConsoleBlocks(p.file, p.text))];
}

/** Lines that call the service with curl outside any console block: examples no test would run. */
export function unrunCurlLines(): string[] {
  const found: string[] = [];
  const scan = (file: string, text: string, blocks: ConsoleBlock[]) => {
    const inBlocks = new Set(blocks.flatMap((b) => b.lines.map((l) => l.trim())));
    text.split('\n').forEach((line, i) => {
      if (/\bcurl\b/.test(line) && line.includes('localhost:8080') && !inBlocks.has(line.trim().replace(/^`+|`+$/g, ''))) found.push(`${file}:${i + 1}: ${line.trim()}`);
    });
  };
  const readme = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8');
  scan('README.md', readme, markdownConsoleBlocks('README.md', readme));
  for (const p of docsPages()) scan(p.file, p.text, rstConsoleBlocks(p.file, p.text));
  return found;
}
