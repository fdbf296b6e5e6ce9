/**
 * What check and fix cost against a render of the same document (issue 27):
 * one instance in its own process (`rst2 serve`, default settings), each
 * document sent as HTML, check, fix and fix with `unsafe=1`, the median of
 * `--runs` each, printed as ratios (check/HTML, fix/check) beside the times.
 *
 * The documents: a small one, the specification's opening, issue 27's fix
 * amplifier (bench/documents.ts fixAmplifier) and name bomb (longNames), and
 * then a fuzzer's: starting from a paragraph, each of `--steps` steps adds
 * one block of a kind chosen at random (a long paragraph with an unmatched
 * `*`, mismatched title adornments, unknown directives, roles, options and
 * references, many targets, long names) and keeps the document when it
 * raises the worst of the two ratios. The worst document found is
 * described, and its ratios are what docs/security.rst quotes.
 *
 * usage: npm run bench:fix-cost -- [--runs N] [--steps N] [--seed N] [--root DIR]
 */
import os from 'node:os';

import { fixAmplifier, longNames, smallDocument } from './documents.js';
import { startInstance, type InstanceProcess } from './instance-process.js';
import { seeded } from './plant.js';
import { benchArgs, median, specificationText } from './support.js';

type Operation = 'html' | 'check' | 'fix' | 'fix-unsafe';
const OPERATIONS: Operation[] = ['html', 'check', 'fix', 'fix-unsafe'];

// Each request's text ends in a comment of its own: a repeated text would be
// answered from the render cache.
let sent = 0;

async function timed(instance: InstanceProcess, operation: Operation, text: string): Promise<{ ms: number; status: number }> {
  text = `${text.trimEnd()}\n\n.. bench request ${++sent}\n`;
  const url = `${instance.url}/1.0/rst2/${operation === 'fix-unsafe' ? 'fix?unsafe=1' : operation}`;
  const started = performance.now();
  const res = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'text/x-rst; charset=utf-8' }, body: text });
  await res.arrayBuffer();
  return { ms: performance.now() - started, status: res.status };
}

interface Costs {
  ms: Record<Operation, number>;
  statuses: string;
  /** check / HTML and fix (the slower of safe and unsafe) / check. */
  checkRatio: number;
  fixRatio: number;
}

async function costs(instance: InstanceProcess, text: string, runs: number): Promise<Costs> {
  const ms = {} as Record<Operation, number>;
  const statuses = new Set<string>();
  for (const operation of OPERATIONS) {
    const times: number[] = [];
    for (let i = 0; i < runs; i++) {
      const { ms: t, status } = await timed(instance, operation, text);
      times.push(t);
      if (status !== 200) statuses.add(`${operation} ${status}`);
    }
    ms[operation] = median(times);
  }
  return { ms, statuses: [...statuses].join(', '), checkRatio: ms.check / ms.html, fixRatio: Math.max(ms.fix, ms['fix-unsafe']) / ms.check };
}

/** The fuzzer's blocks: each a maker of one block of text, by name. */
function blocks(random: () => number): Record<string, () => string> {
  const word = (n: number) => Array.from({ length: n }, () => String.fromCharCode(97 + Math.floor(random() * 26))).join('');
  const many = (n: number, make: (i: number) => string) => Array.from({ length: n }, (_, i) => make(i)).join('');
  return {
    'long paragraph, one unmatched *': () => `${many(300 + Math.floor(random() * 350), () => 'w *e* a * b ')}*x\n\n`,
    'paragraph of unmatched *, ** and ``': () => `${many(40, (i) => ['*a ', '**b ', '``c ', '`d '][i % 4]!)}\n\n`,
    'mismatched overline': () => `${'='.repeat(5)}\n${word(6)}\n${'-'.repeat(7)}\n\nText.\n\n`,
    'skipped title level': () => `${word(5)}\n${'~'.repeat(5)}\n\n${word(5)}\n${'^'.repeat(5)}\n\nText.\n\n`,
    'unknown directive': () => `.. ${word(4)}:: x\n\n`,
    'unknown role': () => `:${word(6)}:\`x\`\n\n`,
    'unknown option': () => `.. image:: a.png\n   :${word(5)}: 1\n\n`,
    'a typo of emphasis and note': () => ':emphasys:`x` and\n\n.. nte:: hi\n\n',
    'many targets, references one letter off': () => {
      const names = Array.from({ length: 200 }, () => word(12));
      return `${names.map((n) => `.. _${n}: http://x/\n`).join('')}\n${names.map((n) => `${n.slice(0, -1)}q_ `).join('')}\n\n`;
    },
    'long names': () => `.. _${word(60)}: http://x/\n\n\`${word(60)}\`_\n\n`,
    'name bomb': () => `.. _${word(1100)}: http://x/\n\n\`${word(1100)}\`_\n\n`,
  };
}

async function main(): Promise<void> {
  const args = benchArgs({ numbers: ['runs', 'steps', 'seed'], strings: ['root'] });
  const runs = args.number('runs', 5, { min: 1, whole: true });
  const steps = args.number('steps', 40, { min: 0, whole: true });
  const random = seeded(args.number('seed', 27, { whole: true }));
  const root = args.string('root', '');
  const instance = await startInstance({}, root || undefined);
  try {
    console.log(`${root ? `service from ${root}; ` : ''}${os.availableParallelism()} CPUs; node ${process.version}; ${new Date().toISOString().slice(0, 10)}; median of ${runs}`);
    console.log('\n| document | KB | HTML ms | check ms | fix ms | fix unsafe ms | check / HTML | fix / check | not 200 |');
    console.log('|---|---|---|---|---|---|---|---|---|');
    const row = (name: string, text: string, c: Costs) =>
      console.log(`| ${name} | ${(Buffer.byteLength(text) / 1000).toFixed(1)} | ${c.ms.html.toFixed(1)} | ${c.ms.check.toFixed(1)} | ${c.ms.fix.toFixed(1)} | ${c.ms['fix-unsafe'].toFixed(1)} | ${c.checkRatio.toFixed(2)} | ${c.fixRatio.toFixed(2)} | ${c.statuses || '-'} |`);
    const fixed: Array<[string, string]> = [
      ['small document', smallDocument()],
      ['specification, first 60 KB', specificationText().slice(0, 60_000)],
      ['fix amplifier (issue 27)', fixAmplifier()],
      ['name bomb: 4 targets, 4 references, 1,100-letter names (issue 27)', longNames()],
    ];
    for (const [name, text] of fixed) row(name, text, await costs(instance, text, runs));

    // The fuzzer: grow a document block by block, keeping what makes either ratio worse.
    const makers = blocks(random);
    const kinds = Object.keys(makers);
    let parts: Array<[string, string]> = [['paragraph', 'A paragraph.\n\n']];
    let worst = await costs(instance, parts.map((p) => p[1]).join(''), Math.min(runs, 3));
    const score = (c: Costs) => Math.max(c.checkRatio, c.fixRatio / 3);
    for (let step = 0; step < steps; step++) {
      const kind = kinds[Math.floor(random() * kinds.length)]!;
      const candidate: Array<[string, string]> = [...parts, [kind, makers[kind]!()]];
      const text = candidate.map((p) => p[1]).join('');
      if (text.length > 200_000) break;
      const c = await costs(instance, text, Math.min(runs, 3));
      if (score(c) > score(worst)) [parts, worst] = [candidate, c];
    }
    const text = parts.map((p) => p[1]).join('');
    const confirmed = await costs(instance, text, runs);
    const shape = Object.entries(parts.reduce<Record<string, number>>((n, [k]) => ({ ...n, [k]: (n[k] ?? 0) + 1 }), {})).map(([k, n]) => `${n} × ${k}`).join('; ');
    row(`fuzzer's worst after ${steps} steps`, text, confirmed);
    console.log(`\nthe fuzzer's worst document: ${shape}`);
    console.log(`worst ratios: check / HTML ${Math.max(confirmed.checkRatio, 0).toFixed(2)}, fix / check ${confirmed.fixRatio.toFixed(2)}`);
  } finally {
    await instance.stop();
  }
}

await main();
