/**
 * Memory under issue 19's image attacks: one instance in its own process
 * (`rst2 serve`, default settings), sent one PDF per case, one case after
 * another, each image a data: URI:
 *  - a GIF whose screen is 1 × 1 and whose first frame is 36000 × 36000
 *    (480 KB of LZW runs, test/support/gif-lzw.ts),
 *  - an SVG of 20 nested groups, each filtered by feTurbulence (10 octaves)
 *    and feGaussianBlur (stdDeviation 500) over a region 200000 units wide,
 *  - an SVG embedding a real 16000 × 16000 PNG behind a media type of 300
 *    characters,
 *  - a heavy drawing within every limit (a full-canvas drop shadow nested
 *    once, 2000 × 2000), which the converter must give back after,
 *  - a badge, to see the converter still draws.
 * Prints, per case, the answer, the problem count, and the RSS (VmRSS of the
 * process) before, at its peak while the case ran, and after; then the RSS
 * 10 s after the last response (settled), and the image converter's
 * restarts and recycles. Goals: each peak under 512 MB above the starting
 * RSS; settled under 900 MB.
 *
 * usage: npm run bench:image-abuse -- [--root DIR]   (DIR: another built
 * checkout to run instead, e.g. the code before the fix)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

import { pngChunk } from '../src/images/png-encode.js';
import { dataUri, filterAbuse, gifFrameBomb } from '../test/support/image-abuse.js';
import { badge, svgWithImage } from '../test/support/images.js';
import { startInstance, type InstanceProcess } from './instance-process.js';
import { benchArgs } from './support.js';

const PEAK_ABOVE_START_MB = 512;
const SETTLED_MB = 900;

/** A grey 8-bit PNG of `side` × `side`, one value, deflated row by row (16000²: 256 MB of pixels in about 250 KB). */
async function greyPng(side: number): Promise<Buffer> {
  const deflate = zlib.createDeflate({ level: 9 });
  const parts: Buffer[] = [];
  deflate.on('data', (chunk: Buffer) => parts.push(chunk));
  const done = new Promise((resolve) => deflate.on('end', resolve));
  const rows = Buffer.alloc((side + 1) * 500, 0xf0);
  for (let r = 0; r < 500; r++) rows[r * (side + 1)] = 0; // filter type None
  for (let written = 0; written < side; written += 500) {
    if (!deflate.write(rows.subarray(0, Math.min(500, side - written) * (side + 1)))) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 8; // bits; colour type 0 (grey)
  return Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), pngChunk('IHDR', ihdr), pngChunk('IDAT', Buffer.concat(parts)), pngChunk('IEND', Buffer.alloc(0))]);
}

interface Case {
  name: string;
  image: string;
}

async function cases(): Promise<Case[]> {
  const shadow = '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><filter id="s" x="-0.25" y="-0.25" width="1.5" height="1.5"><feGaussianBlur in="SourceAlpha" stdDeviation="8"/><feOffset dx="4" dy="4"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>' +
    '<g filter="url(#s)"><rect width="2000" height="2000" fill="#08c"/><g filter="url(#s)"><circle cx="1000" cy="1000" r="600" fill="#fc0"/></g></g></svg>';
  const png = await greyPng(16000);
  return [
    { name: `GIF: 1 × 1 screen, 36000 × 36000 first frame (${(gifFrameBomb(36000).length / 1000).toFixed(0)} KB)`, image: dataUri('image/gif', gifFrameBomb(36000)) },
    { name: 'SVG: 20 nested groups, turbulence + blur over a region 200000 units wide', image: dataUri('image/svg+xml', filterAbuse({ levels: 20, regionWidth: 200_000, regionHeight: 2000 })) },
    { name: `SVG: a 16000 × 16000 PNG (${(png.length / 1000).toFixed(0)} KB) behind a 300-character media type`, image: dataUri('image/svg+xml', svgWithImage(`data:image/png;x=${'a'.repeat(300)};base64,${png.toString('base64')}`)) },
    { name: 'SVG within every limit: 2000 × 2000, a drop shadow nested once', image: dataUri('image/svg+xml', shadow) },
    { name: 'SVG badge (the converter still draws)', image: dataUri('image/svg+xml', badge('after', 'abuse')) },
  ];
}

async function pdf(instance: InstanceProcess, image: string): Promise<string> {
  // docutils refuses lines past 10,000 characters; it joins a URI's lines again.
  const uri = image.replace(/.{1,1000}/g, '   $&\n').trimStart();
  const res = await fetch(`${instance.url}/1.0/rst2/pdf`, { method: 'POST', headers: { 'Content-Type': 'text/x-rst; charset=utf-8' }, body: `Abuse\n=====\n\n.. image:: ${uri}   :alt: the image\n` });
  await res.arrayBuffer();
  return `${res.status}, problems ${res.headers.get('x-rst2-image-problems') ?? 0}`;
}

async function imageCounter(instance: InstanceProcess, name: string): Promise<string> {
  const text = await (await fetch(`${instance.url}/metrics`)).text();
  return new RegExp(`^${name}\\{engine="image"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 'n/a';
}

async function main(): Promise<void> {
  const args = benchArgs({ strings: ['root'] });
  const root = args.string('root', '');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-image-abuse-'));
  const all = await cases();
  const instance = await startInstance({ RST2_DATA_DIR: path.join(dir, 'data') }, root || undefined);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    await sleep(1000);
    const start = instance.memory().rssMb;
    console.log(`${root ? `service from ${root}; ` : ''}${os.availableParallelism()} CPUs; node ${process.version}; ${new Date().toISOString().slice(0, 10)}`);
    console.log(`starting RSS ${start.toFixed(0)} MB\n`);
    console.log('| case | answer | s | RSS before / peak / after (MB) | peak above start (MB) |');
    console.log('|---|---|---|---|---|');
    let lastResponse = 0;
    let worstAbove = 0;
    for (const c of all) {
      const before = instance.memory().rssMb;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, instance.memory().rssMb)), 25);
      const t0 = performance.now();
      const answer = await pdf(instance, c.image);
      lastResponse = performance.now();
      clearInterval(sampler);
      const after = instance.memory().rssMb;
      peak = Math.max(peak, after);
      worstAbove = Math.max(worstAbove, peak - start);
      console.log(`| ${c.name} | ${answer} | ${((lastResponse - t0) / 1000).toFixed(1)} | ${before.toFixed(0)} / ${peak.toFixed(0)} / ${after.toFixed(0)} | ${(peak - start).toFixed(0)} |`);
    }
    await sleep(Math.max(0, lastResponse + 10_000 - performance.now()));
    const settled = instance.memory().rssMb;
    console.log(`\nsettled (10 s after the last response): ${settled.toFixed(0)} MB; image converter restarts ${await imageCounter(instance, 'rst2_engine_worker_restarts_total')}, recycled ${await imageCounter(instance, 'rst2_engine_worker_recycled_total')}`);
    console.log(`goal: every peak under ${PEAK_ABOVE_START_MB} MB above the start: ${worstAbove < PEAK_ABOVE_START_MB ? 'met' : 'NOT met'} (worst ${worstAbove.toFixed(0)} MB)`);
    console.log(`goal: settled under ${SETTLED_MB} MB: ${settled < SETTLED_MB ? 'met' : 'NOT met'}`);
  } finally {
    await instance.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
