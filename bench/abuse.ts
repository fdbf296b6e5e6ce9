/**
 * Memory under issue 19's seven attacks: one instance in its own process
 * (`rst2 serve`, default settings but `RST2_ALLOW_PRIVATE_URI=1`, so case 7
 * shows that metadata addresses stay refused even then), sent each case's
 * requests one after another:
 *  1. a GIF whose screen is 1 × 1 and whose first frame is 36000 × 36000
 *     (480 KB of LZW runs, test/support/gif-lzw.ts), as a data: URI in a PDF,
 *  2. an SVG of 20 nested groups, each filtered by feTurbulence (10 octaves)
 *     and feGaussianBlur (stdDeviation 500) over a region 200000 units wide,
 *  3. an SVG embedding a real 16000 × 16000 PNG behind a media type of 300
 *     characters,
 *  then two controls: a heavy drawing within every limit (a full-canvas drop
 *  shadow nested once, 2000 × 2000), which the converter must give back
 *  after, and a badge, to see the converter still draws;
 *  4. Sphinx's `:emphasize-lines: 1-50000000` on a one-line block (HTML, PDF),
 *  5. a first line number of 4,000 digits on 20,000 lines: Sphinx's
 *     `:lineno-start:` and docutils' `:number-lines:` (HTML),
 *  6. a PDF image whose action type is a reference (`/S 6 0 R`, object 6
 *     `/Launch`), as a data: URI in a PDF (the PDF made must carry no action),
 *  7. `uri=` and image URIs at IPv6 forms of 169.254.169.254 (NAT64
 *     `64:ff9b:1::/48` in several RFC 6052 layouts, SIIT `::ffff:0:a9fe:a9fe`).
 *     That no connection is attempted is the tests' (test/http-uri.test.ts,
 *     with a connection guard); here the refusal and its cost show;
 *  8. issue 27's fix amplifier (bench/documents.ts fixAmplifier): check,
 *     fix and fix with unsafe=1, each once (bench:fix-cost has the ratios),
 *  9. issue 27's name bomb (longNames): two checks and a small one at
 *     once; the small one's time is what it waited,
 *  10. inert typos one rename from raw, include, a file read, an embedded
 *     image and a raw role, beside a genuine typo: fix with unsafe=1, which
 *     must apply only the genuine one (the answer shows how many).
 * Prints, per case, the answers (status and error code or image problems),
 * and the RSS (VmRSS of the process) before, at its peak while the case ran,
 * and after; then the RSS 10 s after the last response (settled), and the
 * image converter's restarts and recycles. Goals: each peak under 512 MB
 * above the starting RSS; settled under 900 MB.
 *
 * usage: npm run bench:abuse -- [--root DIR]   (DIR: another built checkout
 * to run instead, e.g. the code before the fix; `bench:image-abuse` is the
 * same script)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

import { findActiveContent } from '../src/pdf/safety.js';
import { pngChunk } from '../src/images/png-encode.js';
import { dataUri, filterAbuse, gifFrameBomb } from '../test/support/image-abuse.js';
import { badge, svgWithImage } from '../test/support/images.js';
import { imagePdf } from '../test/support/pdf-file.js';
import { emphasizedRange, fixAmplifier, longNames, numberedLines } from './documents.js';
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

interface Request {
  operation: 'html' | 'pdf' | 'check' | 'fix';
  /** fix: the suggested fixes too. */
  unsafe?: boolean;
  /** Sent together with the next request, not waited for first. */
  together?: boolean;
  /** The document, sent as the body; or */
  rst?: string;
  /** a URI for the service to fetch (`uri=`). */
  uri?: string;
  dialect?: string;
  /** A PDF answer must carry no active content. */
  inert?: boolean;
}

interface Case {
  id: string;
  name: string;
  requests: Request[];
}

/** A document holding one image given as a data: URI. */
function withImage(image: string): string {
  // docutils refuses lines past 10,000 characters; it joins a URI's lines again.
  const uri = image.replace(/.{1,1000}/g, '   $&\n').trimStart();
  return `Abuse\n=====\n\n.. image:: ${uri}   :alt: the image\n`;
}

const imageCase = (id: string, name: string, image: string): Case => ({ id, name, requests: [{ operation: 'pdf', rst: withImage(image) }] });

/** IPv6 addresses that carry 169.254.169.254. */
const METADATA = ['64:ff9b:1::a9fe:a9fe', '64:ff9b:1:a9fe:a9:fe00::', '64:ff9b:1:a9:fe:a9fe::', '64:ff9b:1:0:a9:fea9:fe00::', '::ffff:0:a9fe:a9fe'];

async function cases(): Promise<Case[]> {
  const shadow = '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><filter id="s" x="-0.25" y="-0.25" width="1.5" height="1.5"><feGaussianBlur in="SourceAlpha" stdDeviation="8"/><feOffset dx="4" dy="4"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>' +
    '<g filter="url(#s)"><rect width="2000" height="2000" fill="#08c"/><g filter="url(#s)"><circle cx="1000" cy="1000" r="600" fill="#fc0"/></g></g></svg>';
  const png = await greyPng(16000);
  const launch = imagePdf('/Properties << /Act << /S 6 0 R /F (calc.exe) >> >>', '/Launch');
  const images = METADATA.map((address, i) => `.. image:: http://[${address}]/latest/meta-data/${i}.png\n   :alt: image ${i}\n`).join('\n');
  return [
    imageCase('1', `GIF: 1 × 1 screen, 36000 × 36000 first frame (${(gifFrameBomb(36000).length / 1000).toFixed(0)} KB), PDF`, dataUri('image/gif', gifFrameBomb(36000))),
    imageCase('2', 'SVG: 20 nested groups, turbulence + blur over a region 200000 units wide, PDF', dataUri('image/svg+xml', filterAbuse({ levels: 20, regionWidth: 200_000, regionHeight: 2000 }))),
    imageCase('3', `SVG: a 16000 × 16000 PNG (${(png.length / 1000).toFixed(0)} KB) behind a 300-character media type, PDF`, dataUri('image/svg+xml', svgWithImage(`data:image/png;x=${'a'.repeat(300)};base64,${png.toString('base64')}`))),
    imageCase('control', 'SVG within every limit: 2000 × 2000, a drop shadow nested once, PDF', dataUri('image/svg+xml', shadow)),
    imageCase('control', 'SVG badge (the converter still draws), PDF', dataUri('image/svg+xml', badge('after', 'abuse'))),
    {
      id: '4',
      name: `Sphinx \`:emphasize-lines: 1-50000000\` on one line (${Buffer.byteLength(emphasizedRange())} bytes), HTML and PDF`,
      requests: [{ operation: 'html', rst: emphasizedRange(), dialect: 'sphinx' }, { operation: 'pdf', rst: emphasizedRange(), dialect: 'sphinx' }],
    },
    {
      id: '5',
      name: `first line number of 4,000 digits on 20,000 lines (${(Buffer.byteLength(numberedLines()) / 1000).toFixed(0)} KB): Sphinx \`:lineno-start:\`, docutils \`:number-lines:\`, HTML`,
      requests: [{ operation: 'html', rst: numberedLines('code-block'), dialect: 'sphinx' }, { operation: 'html', rst: numberedLines('code') }],
    },
    { id: '6', name: `PDF image whose action type is \`/S 6 0 R\` → \`/Launch\` (${launch.length} bytes), PDF`, requests: [{ operation: 'pdf', rst: withImage(dataUri('application/pdf', launch)), inert: true }] },
    {
      id: '8',
      name: `fix amplifier: two 7,900-character paragraphs with an unmatched \`*\`, 8 mismatched overlines, 8 \`nte\` (${(Buffer.byteLength(fixAmplifier()) / 1000).toFixed(0)} KB): check, fix, fix unsafe`,
      requests: [{ operation: 'check', rst: fixAmplifier() }, { operation: 'fix', rst: fixAmplifier() }, { operation: 'fix', rst: fixAmplifier(), unsafe: true }],
    },
    {
      id: '9',
      name: `name bomb: 4 targets and 4 references of 1,100 letters (${(Buffer.byteLength(longNames()) / 1000).toFixed(1)} KB), two checks and a small one at once (its ms: what it waited)`,
      requests: [{ operation: 'check', rst: longNames(), together: true }, { operation: 'check', rst: longNames(1100, 4, 28), together: true }, { operation: 'check', rst: 'A *b\n', together: true }],
    },
    {
      id: '10',
      name: 'inert typos one rename from `raw`, `include`, `:file:`, `:loading: embed`, a raw role, beside `:emphasys:`: fix unsafe',
      requests: [{ operation: 'fix', unsafe: true, rst: ':emphasys:`typo`\n\n.. rwa:: html\n\n   <script>alert(1)</script>\n\n.. includ:: /etc/passwd\n\n.. csv-table:: T\n   :fil: /etc/passwd\n\n.. image:: /etc/passwd\n   :loadng: embed\n\n.. role:: rawhtml(raw)\n   :format: html\n\n:rawhtm:`<img src=x onerror=alert(1)>`\n' }],
    },
    {
      id: '7',
      name: `169.254.169.254 in IPv6 (${METADATA.map((a) => `\`${a}\``).join(', ')}): \`uri=\` each, HTML, then all as images, PDF`,
      requests: [...METADATA.map((address): Request => ({ operation: 'html', uri: `http://[${address}]/latest/meta-data/` })), { operation: 'pdf', rst: `Metadata\n========\n\n${images}` }],
    },
  ];
}

async function send(instance: InstanceProcess, request: Request): Promise<string> {
  const query = new URLSearchParams();
  if (request.dialect) query.set('dialect', request.dialect);
  if (request.uri) query.set('uri', request.uri);
  if (request.unsafe) query.set('unsafe', '1');
  const url = `${instance.url}/1.0/rst2/${request.operation}${query.size ? `?${query}` : ''}`;
  const started = performance.now();
  const res = await fetch(url, request.rst === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'text/x-rst; charset=utf-8' }, body: request.rst });
  const body = Buffer.from(await res.arrayBuffer());
  if (res.status !== 200) {
    const error = (JSON.parse(body.toString('utf8')) as { error?: { code?: string; message?: string } }).error;
    // Which refusal: with private addresses allowed, only the metadata one may answer case 7.
    const metadata = error?.message?.includes('cloud metadata') ? ' (cloud metadata)' : '';
    return `${request.operation} ${res.status} ${error?.code ?? '?'}${metadata}`;
  }
  const fixes = res.headers.get('x-rst2-fixes-applied');
  if (request.operation === 'check' || request.operation === 'fix') {
    const answer = request.operation === 'check' ? `${(JSON.parse(body.toString('utf8')) as unknown[]).length} problems` : `${fixes} fixes applied, ${res.headers.get('x-rst2-problems-left')} problems left`;
    return `${request.operation}${request.unsafe ? ' unsafe' : ''} 200 (${answer}, ${(performance.now() - started).toFixed(0)} ms)`;
  }
  const size = body.length < 1e5 ? `${(body.length / 1000).toFixed(0)} KB` : `${(body.length / 1e6).toFixed(1)} MB`;
  const problems = res.headers.get('x-rst2-image-problems');
  const active = request.inert ? findActiveContent(new Uint8Array(body)) : [];
  const inert = request.inert ? (active.length ? `, ACTIVE: ${active.join(' ')}` : ', no active content') : '';
  return `${request.operation} 200 (${size})${problems === null ? '' : `, image problems ${problems}`}${inert}`;
}

async function imageCounter(instance: InstanceProcess, name: string): Promise<string> {
  const text = await (await fetch(`${instance.url}/metrics`)).text();
  return new RegExp(`^${name}\\{engine="image"\\} (\\d+)`, 'm').exec(text)?.[1] ?? 'n/a';
}

async function main(): Promise<void> {
  const args = benchArgs({ strings: ['root'] });
  const root = args.string('root', '');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-abuse-'));
  const all = await cases();
  const instance = await startInstance({ RST2_DATA_DIR: path.join(dir, 'data'), RST2_ALLOW_PRIVATE_URI: '1' }, root || undefined);
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
  try {
    await sleep(1000);
    const start = instance.memory().rssMb;
    console.log(`${root ? `service from ${root}; ` : ''}${os.availableParallelism()} CPUs; node ${process.version}; ${new Date().toISOString().slice(0, 10)}`);
    console.log(`starting RSS ${start.toFixed(0)} MB\n`);
    console.log('| # | case | answers | s | RSS before / peak / after (MB) | peak above start (MB) |');
    console.log('|---|---|---|---|---|---|');
    let lastResponse = 0;
    let worstAbove = 0;
    for (const c of all) {
      const before = instance.memory().rssMb;
      let peak = before;
      const sampler = setInterval(() => (peak = Math.max(peak, instance.memory().rssMb)), 25);
      const t0 = performance.now();
      const answers: string[] = [];
      let together: Array<Promise<string>> = [];
      for (const request of c.requests) {
        together.push(send(instance, request));
        if (request.together) continue;
        answers.push(...(await Promise.all(together)));
        together = [];
      }
      answers.push(...(await Promise.all(together)));
      lastResponse = performance.now();
      clearInterval(sampler);
      const after = instance.memory().rssMb;
      peak = Math.max(peak, after);
      worstAbove = Math.max(worstAbove, peak - start);
      console.log(`| ${c.id} | ${c.name} | ${answers.join('; ')} | ${((lastResponse - t0) / 1000).toFixed(1)} | ${before.toFixed(0)} / ${peak.toFixed(0)} / ${after.toFixed(0)} | ${(peak - start).toFixed(0)} |`);
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
