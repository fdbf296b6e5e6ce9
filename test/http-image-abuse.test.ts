/**
 * Issue 19's attacks on the image converter, over HTTP against real
 * servers: each image is refused before it is decoded, with a reason that
 * names the limit (logged; counted in X-Rst2-Image-Problems, the PDF still
 * 200), and a converter that failed or grew past its budget is replaced,
 * as the pool's counters show. Memory figures are bench/abuse.ts's.
 */
import { expect } from 'chai';

import { gifWithFrames } from './support/gif-lzw.js';
import { dataUri, filterAbuse, gifFrameBomb, longMediaType } from './support/image-abuse.js';
import { apng, badge, pngClaiming, svgWithImage, webpExtended } from './support/images.js';
import { sample } from './support/metrics.js';
import { api, form, ownServer } from './support/server.js';
import { createLogger } from '../src/log.js';
import type { RunningServer } from '../src/server.js';

const PROBLEMS = 'x-rst2-image-problems';

interface Logged {
  server: RunningServer;
  lines: string[];
}

async function logged(env: Record<string, string> = {}): Promise<Logged> {
  const lines: string[] = [];
  const server = await ownServer({ RST2_LOG_LEVEL: 'warn', ...env }, createLogger('warn', (line) => lines.push(line)));
  return { server, lines };
}

let requests = 0;

/** A PDF of the images (data: URIs) with the reasons logged for each, in order. */
async function pdfWith({ server, lines }: Logged, uris: readonly string[]): Promise<{ status: number; problems: string | null; reasons: string[] }> {
  const id = `abuse-${++requests}`;
  // docutils refuses lines past 10,000 characters; it joins a URI's lines again.
  const wrapped = (uri: string): string => uri.replace(/.{1,1000}/g, '   $&\n').trimStart();
  const rst = ['Abuse\n=====\n'].concat(uris.map((uri, i) => `.. image:: ${wrapped(uri)}   :alt: image ${i + 1}\n`)).join('\n');
  const res = await api(server, '/1.0/rst2/pdf', { ...form({ rst }), headers: { 'X-Request-Id': id } });
  await res.arrayBuffer();
  const reasons = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((line) => line.msg === 'image replaced by a placeholder' && line.requestId === id)
    .map((line) => String(line.reason));
  return { status: res.status, problems: res.headers.get(PROBLEMS), reasons };
}

async function imageCounter(server: RunningServer, name: string): Promise<number | undefined> {
  return sample(await (await api(server, '/metrics')).text(), name, { engine: 'image' });
}

describe('image abuse (issue 19): refused before decoding, converters replaced', function () {
  this.timeout(180_000);

  let service: Logged;

  before(async () => {
    service = await logged();
  });

  after(async () => {
    await service?.server.close();
  });

  it('a GIF is sized by every frame, not its screen: a 1 × 1 screen with a 4000 × 4000 frame, and the variants', async () => {
    const cases: [string, RegExp][] = [
      [dataUri('image/gif', gifFrameBomb(4000)), /^frame 1 of the GIF is 4000 × 4000 pixels, more than the limit of 12000000 pixels$/],
      [dataUri('image/gif', gifWithFrames(100, 100, [{ width: 100, height: 100 }, { width: 4000, height: 4000 }])), /^frame 2 of the GIF is 4000 × 4000 pixels/],
      [dataUri('image/gif', gifWithFrames(10, 10, [{ width: 200, height: 200 }])), /^frame 1 of the GIF \(200 × 200 at 0, 0\) lies outside its 10 × 10 canvas$/],
      [dataUri('image/gif', gifWithFrames(100, 100, [{ width: 60, height: 60, left: 50, top: 50 }])), /at 50, 50\) lies outside its 100 × 100 canvas/],
    ];
    const { status, problems, reasons } = await pdfWith(service, cases.map(([uri]) => uri));
    expect(status).to.equal(200);
    expect(problems).to.equal(String(cases.length));
    cases.forEach(([, reason], i) => expect(reasons[i], `image ${i + 1}`).to.match(reason));
  });

  it('so are APNG and animated WebP frames, and an extended WebP\'s bitstream', async () => {
    const cases: [string, RegExp][] = [
      [dataUri('image/png', apng(10, 10, [{ width: 10, height: 10 }, { width: 5000, height: 5000 }])), /^frame 2 of the PNG is 5000 × 5000 pixels/],
      [dataUri('image/webp', webpExtended(100, 100, [{ width: 100, height: 100 }, { width: 16000, height: 16000 }])), /^frame 3 of the WEBP is 16000 × 16000 pixels/],
      [dataUri('image/webp', webpExtended(10, 10, [{ width: 16000, height: 16000 }], true)), /^frame 1 of the WEBP is 16000 × 16000 pixels/],
    ];
    const { problems, reasons } = await pdfWith(service, cases.map(([uri]) => uri));
    expect(problems).to.equal(String(cases.length));
    cases.forEach(([, reason], i) => expect(reasons[i], `image ${i + 1}`).to.match(reason));
  });

  it('an SVG\'s embedded data: image is sized whatever the length of its media type', async () => {
    const entities = '<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa">]><svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><text>&a;</text></svg>';
    const cases: [string, RegExp][] = [
      [dataUri('image/svg+xml', longMediaType(300)), /100000 × 100000 pixels, more than the limit/],
      [dataUri('image/svg+xml', longMediaType(100_000)), /100000 × 100000 pixels, more than the limit/],
      [dataUri('image/svg+xml', svgWithImage(`data:image/gif;x=${'g'.repeat(300)};base64,${gifFrameBomb(36000).toString('base64')}`)), /frame 1 of the GIF is 36000 × 36000 pixels/],
      [dataUri('image/svg+xml', svgWithImage(`data:image/svg+xml;y=${'s'.repeat(300)};base64,${Buffer.from(entities).toString('base64')}`)), /service can check|entities/],
      [dataUri('image/svg+xml', svgWithImage(`data:image/png;z=${'z'.repeat(300)}`)), /cannot be read/],
    ];
    const { problems, reasons } = await pdfWith(service, cases.map(([uri]) => uri));
    expect(problems).to.equal(String(cases.length));
    cases.forEach(([, reason], i) => expect(reasons[i], `image ${i + 1}`).to.match(reason));
  });

  it('an SVG\'s filters are bounded: nesting, region against the canvas, primitives, and none in embedded SVGs', async () => {
    const small = { regionWidth: 300, regionHeight: 300 };
    const cases: [string, RegExp][] = [
      [dataUri('image/svg+xml', filterAbuse({ levels: 20, regionWidth: 200_000, regionHeight: 2000 })), /nests filtered groups 3 deep, more than the limit of 2/],
      [dataUri('image/svg+xml', filterAbuse({ levels: 3, ...small })), /nests filtered groups 3 deep, more than the limit of 2/],
      [dataUri('image/svg+xml', filterAbuse({ levels: 1, regionWidth: 200_000, regionHeight: 20 })), /filter region of \d+ pixels is more than 3 times the 800 × 800 pixels drawn, the limit/],
      // Large only through a transform: the region is judged in pixels.
      [dataUri('image/svg+xml', '<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400"><filter id="f"><feGaussianBlur stdDeviation="3"/></filter><g transform="scale(100)"><g filter="url(#f)"><rect x="-100" width="200" height="4"/></g></g></svg>'), /filter region .* the limit/],
      [dataUri('image/svg+xml', filterAbuse({ levels: 1, ...small, primitives: 51 })), /more than 50 filter primitives, the limit/],
      [dataUri('image/svg+xml', svgWithImage(dataUri('image/svg+xml', filterAbuse({ levels: 1, ...small })))), /embeds an SVG image with filters/],
    ];
    const { problems, reasons } = await pdfWith(service, cases.map(([uri]) => uri));
    expect(problems).to.equal(String(cases.length));
    cases.forEach(([, reason], i) => expect(reasons[i], `image ${i + 1}`).to.match(reason));
    // An ordinary drop shadow, nested once, is drawn.
    const shadow = '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="200"><filter id="s" x="-0.25" y="-0.25" width="1.5" height="1.5"><feGaussianBlur in="SourceAlpha" stdDeviation="4"/><feOffset dx="3" dy="3"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>' +
      '<g filter="url(#s)"><rect width="300" height="200" fill="#08c"/><g filter="url(#s)"><circle cx="150" cy="100" r="60" fill="#fc0"/></g></g></svg>';
    const drawn = await pdfWith(service, [dataUri('image/svg+xml', shadow)]);
    expect(drawn.problems).to.equal(null);
  });

  it('a converter whose drawing failed is replaced (its memory goes with it), and the next drawing works', async () => {
    // A drawing within the filter limits that needs more than resvg's 32 MiB ceiling here.
    const own = await logged({ RST2_SVG_MAX_MEMORY_BYTES: String(32 * 1024 * 1024) });
    try {
      const before = (await imageCounter(own.server, 'rst2_engine_worker_restarts_total')) ?? 0;
      const heavy = '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><filter id="b"><feGaussianBlur stdDeviation="20"/></filter><rect width="2000" height="2000" fill="#08c" filter="url(#b)"/></svg>';
      const failed = await pdfWith(own, [dataUri('image/svg+xml', heavy)]);
      expect(failed.status).to.equal(200);
      expect(failed.problems).to.equal('1');
      expect(failed.reasons[0]).to.match(/^the SVG could not be drawn/);
      expect(await imageCounter(own.server, 'rst2_engine_worker_restarts_total')).to.equal(before + 1);
      expect(own.lines.some((line) => line.includes('image worker damaged by its job: replacing it'))).to.equal(true);
      const next = await pdfWith(own, [dataUri('image/svg+xml', badge('after', 'replaced'))]);
      expect(next.problems).to.equal(null);
    } finally {
      await own.server.close();
    }
  });

  it('a converter whose memory passed RST2_IMAGE_WORKER_BUDGET_BYTES after a job is recycled, and the next drawing works', async () => {
    const own = await logged({ RST2_IMAGE_WORKER_BUDGET_BYTES: '1' });
    try {
      const first = await pdfWith(own, [dataUri('image/svg+xml', badge('budget', 'one'))]);
      expect(first.problems).to.equal(null);
      expect(await imageCounter(own.server, 'rst2_engine_worker_recycled_total')).to.equal(1);
      const second = await pdfWith(own, [dataUri('image/svg+xml', badge('budget', 'two'))]);
      expect(second.problems).to.equal(null);
      expect(await imageCounter(own.server, 'rst2_engine_worker_recycled_total')).to.equal(2);
      expect(await imageCounter(own.server, 'rst2_engine_worker_restarts_total')).to.equal(0);
    } finally {
      await own.server.close();
    }
  });
});
