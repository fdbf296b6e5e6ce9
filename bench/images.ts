/**
 * Images in PDF: what a README's badges and screenshots cost. A local
 * server on 127.0.0.1 serves six shields-style SVG badges and two PNG
 * screenshots; the service (in this process, allowed to fetch from
 * loopback, render cache off so every PDF is really made) renders
 *  - the README with its images not cached yet (new URLs every run),
 *  - the README with its images cached (the same URLs, after a first run),
 *  - the same README without images,
 * over HTTP, and Debian's rst2pdf renders the README with the images as
 * local files (the baseline; rst2pdf and python3-svglib are installed
 * when missing, as root). Prints
 * medians and ratios; nothing here is a pass/fail test.
 *
 * usage: npm run bench:images   (or node dist/bench/images.js [--quick])
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

import { encodePng } from '../src/images/png-encode.js';
import { benchArgs, ensureDebianPackages, fmt, median, startInProcess } from './support.js';

const quick = benchArgs({ flags: ['quick'] }).has('quick');
const RUNS = quick ? 3 : 9;

const BADGES: readonly [string, string, string][] = [
  ['build', 'passing', '#4c1'], ['coverage', '97%', '#97ca00'], ['pypi', 'v2.31.0', '#007ec6'],
  ['python', '3.8 | 3.9 | 3.10 | 3.11', '#3776ab'], ['license', 'Apache 2.0', '#blue'], ['downloads', '41M/month', '#e05d44'],
];

function badge(label: string, message: string, colour: string): string {
  // About shields.io's geometry: 6.5 px per character of 11 px Verdana.
  const left = Math.round(label.length * 6.5 + 10);
  const right = Math.round(message.length * 6.5 + 10);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${left + right}" height="20" role="img" aria-label="${label}: ${message}">
<linearGradient id="s" x2="0" y2="100%"><stop offset="0" stop-color="#bbb" stop-opacity=".1"/><stop offset="1" stop-opacity=".1"/></linearGradient>
<clipPath id="r"><rect width="${left + right}" height="20" rx="3" fill="#fff"/></clipPath>
<g clip-path="url(#r)"><rect width="${left}" height="20" fill="#555"/><rect x="${left}" width="${right}" height="20" fill="${colour}"/><rect width="${left + right}" height="20" fill="url(#s)"/></g>
<g fill="#fff" text-anchor="middle" font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11">
<text x="${left / 2}" y="14">${label}</text><text x="${left + right / 2}" y="14">${message}</text></g></svg>`;
}

/** A screenshot-like PNG: a window with a title bar, text lines and a gradient, so it compresses like one. */
function screenshot(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 4);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      const bar = y < 28;
      const text = !bar && y % 18 < 9 && x > 24 && x < width - 80 && (x * 7 + y * 3) % 11 < 6;
      const v = bar ? 60 : text ? 40 : 245 - Math.floor((x / width) * 20);
      data[i] = v;
      data[i + 1] = bar ? 90 : v;
      data[i + 2] = bar ? 140 : v;
      data[i + 3] = 255;
    }
  }
  return encodePng(width, height, data);
}

const FILES: Record<string, { type: string; body: Buffer }> = {};
BADGES.forEach(([label, message, colour], i) => {
  FILES[`badge${i}.svg`] = { type: 'image/svg+xml', body: Buffer.from(badge(label, message, colour)) };
});
FILES['screen1.png'] = { type: 'image/png', body: Buffer.from(screenshot(1280, 800)) };
FILES['screen2.png'] = { type: 'image/png', body: Buffer.from(screenshot(1024, 640)) };

function readme(src: (name: string) => string | undefined): string {
  const badges = BADGES.map((_, i) => `|b${i}|`).join(' ');
  const definitions = BADGES.map((_, i) => `.. |b${i}| image:: ${src(`badge${i}.svg`)}\n   :alt: badge ${i}\n`).join('');
  const figure = (name: string, caption: string) => `.. figure:: ${src(name)}\n   :width: 90%\n\n   ${caption}\n\n`;
  const withImages = src('x') !== undefined;
  return [
    'Requests: HTTP for Humans\n=========================\n\n',
    withImages ? `${badges}\n\n${definitions}\n` : '',
    'Requests is a simple, yet elegant, HTTP library. It allows you to send HTTP/1.1 requests extremely easily. ',
    "There's no need to manually add query strings to your URLs, or to form-encode your POST data.\n\n",
    'Installing\n----------\n\n::\n\n   $ python -m pip install requests\n\n',
    withImages ? figure('screen1.png', 'The documentation on a wide screen.') : '',
    'Features\n--------\n\n* Keep-Alive & Connection Pooling\n* International Domains and URLs\n* Sessions with Cookie Persistence\n',
    '* Browser-style TLS/SSL Verification\n* Basic & Digest Authentication\n* Automatic Content Decompression\n\n',
    withImages ? figure('screen2.png', 'A session in the terminal.') : '',
    'Contributing\n------------\n\nPlease read the contribution guide before you send a pull request.\n',
  ].join('');
}

async function imageServer(): Promise<{ base: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server = http.createServer((req, res) => {
    hits++;
    const name = path.posix.basename(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    const file = FILES[name];
    if (!file) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': file.body.length });
    res.end(file.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits: () => hits,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function timePdf(url: string, rst: string): Promise<{ ms: number; problems: string | null }> {
  const started = performance.now();
  const res = await fetch(`${url}/1.0/rst2/pdf`, { method: 'POST', body: new URLSearchParams({ rst }) });
  const body = await res.arrayBuffer();
  const ms = performance.now() - started;
  if (res.status !== 200 || body.byteLength < 1000) throw new Error(`PDF request failed: ${res.status} ${Buffer.from(body).toString('utf8').slice(0, 300)}`);
  return { ms, problems: res.headers.get('x-rst2-image-problems') };
}

function rst2pdfBaseline(): { ms: number } | { error: string } {
  try {
    ensureDebianPackages('/usr/bin/rst2pdf', ['rst2pdf']);
    // rst2pdf draws SVG with svglib, which Debian only recommends.
    ensureDebianPackages('/usr/lib/python3/dist-packages/svglib', ['python3-svglib']);
  } catch (error) {
    return { error: String(error) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rst2-bench-images-'));
  try {
    for (const [name, file] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), file.body);
    fs.writeFileSync(path.join(dir, 'README.rst'), readme((name) => name));
    const times: number[] = [];
    for (let i = 0; i < Math.max(3, Math.ceil(RUNS / 2)); i++) {
      const started = performance.now();
      const run = spawnSync('rst2pdf', ['README.rst', '-o', 'README.pdf'], { cwd: dir, encoding: 'utf8' });
      times.push(performance.now() - started);
      if (run.status !== 0 || !fs.existsSync(path.join(dir, 'README.pdf'))) return { error: `rst2pdf failed: ${(run.stderr || run.stdout).slice(-400)}` };
    }
    return { ms: median(times) };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const images = await imageServer();
  // Render cache off (0 bytes): every request makes its PDF.
  const service = await startInProcess({ RST2_ALLOW_PRIVATE_URI: '1', RST2_CACHE_BYTES: '0', RST2_TEX_WORKERS: '1' });
  try {
    const plain = readme(() => undefined);
    const at = (run: string) => (name: string) => `${images.base}/${run}/${name}`;
    // Warm-up: engines, formats, resvg's WebAssembly and font.
    for (let i = 0; i < 2; i++) {
      await timePdf(service.url, plain);
      await timePdf(service.url, readme(at(`warm${i}`)));
    }
    const noImages: number[] = [];
    const uncached: number[] = [];
    const cached: number[] = [];
    await timePdf(service.url, readme(at('cached')));
    const before = images.hits();
    let problems: string | null = null;
    for (let i = 0; i < RUNS; i++) {
      // Interleaved, so that drift in the machine's load touches all three alike.
      noImages.push((await timePdf(service.url, plain)).ms);
      const fresh = await timePdf(service.url, readme(at(`run${i}`)));
      uncached.push(fresh.ms);
      problems ??= fresh.problems;
      cached.push((await timePdf(service.url, readme(at('cached')))).ms);
    }
    const fetchedPerRun = (images.hits() - before) / RUNS;
    const baseline = rst2pdfBaseline();
    const base = median(noImages);
    const rows: [string, number][] = [
      ['README without images, HTTP', base],
      ['README, 6 SVG badges + 2 PNG screenshots not cached yet, HTTP', median(uncached)],
      ['README, the same images cached, HTTP', median(cached)],
    ];
    const load = os.loadavg()[0]!.toFixed(2);
    console.log(`\nimages in PDF, ${new Date().toISOString().slice(0, 10)}, ${RUNS} runs each, medians (load ${load}, ${os.cpus().length} CPUs)\n`);
    console.log('| what | median ms | × without images |');
    console.log('|---|---:|---:|');
    for (const [name, ms] of rows) console.log(`| ${name} | ${fmt(ms)} | ${(ms / base).toFixed(2)} |`);
    if ('ms' in baseline) console.log(`| Debian's rst2pdf, images as local files (spawned) | ${fmt(baseline.ms)} | ${(baseline.ms / base).toFixed(2)} |`);
    else console.log(`\nrst2pdf baseline: ${baseline.error}`);
    console.log(`\nimage fetches per uncached README: ${fetchedPerRun.toFixed(1)} (8 expected); image problems: ${problems ?? 'none'}`);
    console.log(`PNG screenshots ${FILES['screen1.png']!.body.length} and ${FILES['screen2.png']!.body.length} bytes; badges ${FILES['badge0.svg']!.body.length}–${FILES['badge3.svg']!.body.length} bytes`);
  } finally {
    await service.close();
    await images.close();
  }
}

await main();
