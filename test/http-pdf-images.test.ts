/**
 * Images in PDF over HTTP (issue 11): a local server on 127.0.0.1 serves
 * every kind of image and every kind of failure; the service (allowed to
 * fetch from private addresses in these tests only) renders documents that
 * use them, and the PDFs are read back with pdf.js: images painted, text of
 * the placeholders, the problem header.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

import { expect } from 'chai';

import { badge, gif, jpegImage, png, pngBadColourType, pngClaiming, pngDamaged, svgWithImage, webp } from './support/images.js';
import { pdfImages, pdfLinks, pdfPages } from './support/pdf.js';
import { imagePdf } from './support/pdf-file.js';
import { findActiveContent } from '../src/pdf/safety.js';
import { api, form, ownServer, query, server } from './support/server.js';
import { createLogger } from '../src/log.js';
import type { RunningServer } from '../src/server.js';

const PROBLEMS = 'x-rst2-image-problems';

interface Upstream {
  base: string;
  hits: Map<string, number>;
  maxConcurrent: number;
  close(): Promise<void>;
}

async function upstream(includedPdf: Buffer): Promise<Upstream> {
  const hits = new Map<string, number>();
  const state = { current: 0, max: 0 };
  const files: Record<string, { type: string; body: Buffer }> = {
    '/img/red.png': { type: 'image/png', body: png(60, 30) },
    // Served with a misleading type: the format is known by its bytes.
    '/img/blue.jpg': { type: 'text/plain', body: jpegImage(64, 32) },
    '/img/green.gif': { type: 'image/gif', body: gif(40, 20) },
    '/img/orange.webp': { type: 'application/octet-stream', body: webp(50, 25) },
    '/img/badge.svg': { type: 'image/svg+xml', body: Buffer.from(badge('build', 'passing')) },
    '/img/page.pdf': { type: 'application/pdf', body: includedPdf },
    // The same PDF with a JavaScript action object added at its end.
    '/img/scripted.pdf': { type: 'application/pdf', body: Buffer.concat([includedPdf, Buffer.from('\n99 0 obj\n<< /S /JavaScript /JS (app.alert(1)) >>\nendobj\n')]) },
    // Issue 19: page resources (which pdfTeX copies) reaching actions through references.
    '/img/launch-by-reference.pdf': { type: 'application/pdf', body: imagePdf('/Properties << /Act << /S 6 0 R /F (calc.exe) >> >>', '/Launch') },
    '/img/gotor-by-chain.pdf': { type: 'application/pdf', body: imagePdf('/Properties << /Act << /S 6 0 R /F (x.pdf) /D [0 /Fit] >> >>', '7 0 R', '/GoToR') },
    '/img/submit-by-reference.pdf': { type: 'application/pdf', body: imagePdf('/Properties << /Act 6 0 R >>', '<< /S 7 0 R /F (https://example.org/) >>', '/SubmitForm') },
    '/img/attachment-by-reference.pdf': { type: 'application/pdf', body: imagePdf('/Properties << /Att << /Type /Annot /Subtype 6 0 R /FS (a.exe) /Rect [0 0 1 1] >> >>', '/FileAttachment') },
    '/img/action-nowhere.pdf': { type: 'application/pdf', body: imagePdf('/Properties << /Act << /S 9 0 R /F (calc.exe) >> >>') },
    '/img/bomb.png': { type: 'image/png', body: pngClaiming(100_000, 100_000) },
    '/img/damaged.png': { type: 'image/png', body: pngDamaged(30, 30) },
    '/img/bad-type.png': { type: 'image/png', body: pngBadColourType(30, 30) },
    // A small SVG carrying a decompression bomb inside, as a data: URI in an SVG data: URI.
    '/img/bomb-inside.svg': {
      type: 'image/svg+xml',
      body: Buffer.from(svgWithImage(`data:image/svg+xml;base64,${Buffer.from(svgWithImage(`data:image/png;base64,${pngClaiming(100_000, 100_000).toString('base64')}`)).toString('base64')}`)),
    },
    // The same bomb written as resvg also reads it: base64 wrapped in lines, a character reference, an entity-laden SVG inside.
    '/img/bomb-wrapped.svg': {
      type: 'image/svg+xml',
      body: Buffer.from(svgWithImage(`data:image/png;base64,${pngClaiming(100_000, 100_000).toString('base64').replace(/.{8}/g, '$&\n')}`)),
    },
    '/img/bomb-escaped.svg': {
      type: 'image/svg+xml',
      body: Buffer.from(svgWithImage(`data:image/png;base64,&#105;${pngClaiming(100_000, 100_000).toString('base64').slice(1)}`)),
    },
    '/img/entities-inside.svg': {
      type: 'image/svg+xml',
      body: Buffer.from(svgWithImage(`data:image/svg+xml;base64,${Buffer.from('<!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]><svg xmlns="http://www.w3.org/2000/svg" width="9" height="9"><text>&b;</text></svg>').toString('base64')}`)),
    },
    // Minutes of drawing (25 layers of turbulence and blur over 4 megapixels: 50 primitives, the most RST2_SVG_MAX_FILTER_PRIMITIVES allows).
    '/img/slow.svg': {
      type: 'image/svg+xml',
      body: Buffer.from(
        '<svg xmlns="http://www.w3.org/2000/svg" width="2000" height="2000"><filter id="f"><feTurbulence baseFrequency="0.01" numOctaves="10"/>' +
          '<feGaussianBlur stdDeviation="50"/></filter>' + '<rect width="2000" height="2000" filter="url(#f)" opacity="0.5"/>'.repeat(25) + '</svg>',
      ),
    },
    // Vector: a huge declared size is drawn smaller, not refused.
    '/img/huge.svg': { type: 'image/svg+xml', body: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="100000" height="50000"><rect width="100000" height="50000" fill="#08c"/></svg>') },
    '/img/notes.txt': { type: 'image/png', body: Buffer.from('these are not the pixels you are looking for\n') },
    '/docs/img/shot.png': { type: 'image/png', body: png(80, 50, [20, 120, 20]) },
    '/docs/README.rst': { type: 'text/x-rst', body: Buffer.from('Read me\n=======\n\n.. image:: img/shot.png\n   :alt: relative screenshot\n') },
    '/docs/ROOTED.rst': { type: 'text/x-rst', body: Buffer.from('Rooted\n======\n\n.. image:: /docs/img/shot.png?rooted\n   :alt: rooted screenshot\n') },
  };
  const big = Buffer.alloc(20 * 1024 * 1024, 0x41);
  const srv = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const path = url.pathname;
    hits.set(path + url.search, (hits.get(path + url.search) ?? 0) + 1);
    state.current++;
    state.max = Math.max(state.max, state.current);
    res.on('close', () => state.current--);
    const file = files[path];
    if (file) {
      res.writeHead(200, { 'content-type': file.type });
      res.end(file.body);
    } else if (path.startsWith('/many/')) {
      // A moment's delay, so that fetches overlap and the concurrency bound is what limits them.
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'image/png' });
        res.end(png(8, 8));
      }, 20);
    } else if (path === '/img/big.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.concat([png(10, 10), big]));
    } else if (path === '/img/moved') {
      res.writeHead(302, { location: '/img/red.png' });
      res.end();
    } else if (path === '/img/hang.png') {
      // Never answers: only the document's time budget ends the wait.
    } else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('no such image');
    }
  });
  await new Promise<void>((resolve) => srv.listen(0, '127.0.0.1', resolve));
  return {
    base: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    hits,
    get maxConcurrent() {
      return state.max;
    },
    close: () =>
      new Promise<void>((resolve) => {
        srv.closeAllConnections();
        srv.close(() => resolve());
      }),
  };
}

async function pdfOf(s: RunningServer, rst: string, options: Record<string, string> = {}) {
  const res = await api(s, '/1.0/rst2/pdf', form({ rst, ...options }));
  const body = await res.arrayBuffer();
  expect(res.status, Buffer.from(body).toString('utf8').slice(0, 500)).to.equal(200);
  return { res, body, text: (await pdfPages(body)).join(' '), counts: await pdfImages(body) };
}

describe('PDF with images (HTTP, real engines, a local image server)', function () {
  this.timeout(180_000);

  let open: RunningServer;
  let closed: RunningServer;
  let up: Upstream;
  let baseline: { images: number; forms: number };

  before(async () => {
    open = await server({ RST2_ALLOW_PRIVATE_URI: '1', RST2_WORKERS: '1', RST2_IMAGE_TIME_BUDGET_MS: '3000' });
    closed = await server();
    // The PDF served as an image is one the service made.
    const made = await api(open, '/1.0/rst2/pdf', form({ rst: 'Included\n========\n\nA page included as a picture.\n' }));
    expect(made.status).to.equal(200);
    up = await upstream(Buffer.from(await made.arrayBuffer()));
    baseline = (await pdfOf(open, 'No pictures\n===========\n\nJust text.\n')).counts;
  });

  after(async () => {
    await up?.close();
  });

  for (const [name, path] of [
    ['PNG', '/img/red.png'],
    ['JPEG (served as text/plain)', '/img/blue.jpg'],
    ['GIF', '/img/green.gif'],
    ['WebP (served as octet-stream)', '/img/orange.webp'],
    ['SVG badge with text', '/img/badge.svg'],
    ['PNG behind a redirect', '/img/moved'],
    ['SVG declaring 100,000 × 50,000 pixels', '/img/huge.svg'],
  ] as const) {
    it(`a ${name} becomes an image in the PDF`, async () => {
      const { res, counts } = await pdfOf(open, `Picture\n=======\n\n.. image:: ${up.base}${path}\n   :alt: the ${name}\n`);
      expect(res.headers.get(PROBLEMS)).to.equal(null);
      expect(counts.images - baseline.images).to.be.at.least(1);
    });
  }

  it('a PDF becomes a form XObject with its text, after passing the PDF check', async () => {
    const { res, counts, text } = await pdfOf(open, `Page\n====\n\n.. figure:: ${up.base}/img/page.pdf\n   :width: 50%\n\n   A figure that is a PDF.\n`);
    expect(res.headers.get(PROBLEMS)).to.equal(null);
    expect(counts.forms - baseline.forms).to.be.at.least(1);
    expect(text).to.include('A page included as a picture.');
    expect(text).to.include('A figure that is a PDF.');
  });

  it('a PDF with active content is a placeholder, not a refused document', async () => {
    const { res, text, counts } = await pdfOf(open, `Scripted\n========\n\n.. image:: ${up.base}/img/scripted.pdf\n   :alt: scripted page\n`);
    expect(res.headers.get(PROBLEMS)).to.equal('1');
    expect(text).to.include('scripted page');
    expect(text).to.not.include('A page included as a picture.');
    expect(counts.forms).to.equal(baseline.forms);
  });

  for (const name of ['launch-by-reference', 'gotor-by-chain', 'submit-by-reference', 'attachment-by-reference', 'action-nowhere']) {
    it(`a PDF whose resources reach a refused action through references is a placeholder: ${name}`, async () => {
      const { res, body, text } = await pdfOf(open, `Referenced\n==========\n\n.. image:: ${up.base}/img/${name}.pdf\n   :alt: ${name} image\n`);
      expect(res.headers.get(PROBLEMS)).to.equal('1');
      expect(text).to.include(`${name} image`);
      expect(findActiveContent(new Uint8Array(body))).to.deep.equal([]);
    });
  }

  it('an image in a section title: in the heading, the contents and the bookmarks (by its alt text), tagged or not', async () => {
    // Its \IfFileExists broke the title's copy for the table of contents: no PDF at all ("Extra \else").
    const rst = `Title\n=====\n\nIntro.\n\n.. contents::\n\nWith |red| inside\n-----------------\n\nText.\n\nWith |gone| too\n---------------\n\nMore.\n\n.. |red| image:: ${up.base}/img/red.png\n   :alt: Red\n.. |gone| image:: ${up.base}/img/nowhere.png\n   :alt: Gone\n`;
    for (const options of [{}, { tagged: 'yes' }, { 'use-latex-toc': 'yes' }] as Record<string, string>[]) {
      const { res, body, text, counts } = await pdfOf(open, rst, options);
      expect(res.headers.get(PROBLEMS), JSON.stringify(options)).to.equal('1');
      expect((await pdfLinks(body)).outline, JSON.stringify(options)).to.include.members(['With Red inside', 'With Gone too']);
      expect(counts.images, JSON.stringify(options)).to.be.at.least(baseline.images + 1);
      expect(text, JSON.stringify(options)).to.include('inside');
      expect(text, JSON.stringify(options)).to.include('Gone');
    }
  });

  it('each failure is a placeholder with its alt text, a 200 and the problem count', async () => {
    const failures = {
      'too large': '/img/big.png',
      'claims too many pixels': '/img/bomb.png',
      'not found': '/img/nowhere.png',
      'not an image': '/img/notes.txt',
      'never answers': '/img/hang.png',
      'hides a bomb': '/img/bomb-inside.svg',
      'wraps a bomb': '/img/bomb-wrapped.svg',
      'escapes a bomb': '/img/bomb-escaped.svg',
      'nests entities': '/img/entities-inside.svg',
    };
    const rst = ['Failures\n========\n'].concat(
      Object.entries(failures).map(([what, path]) => `.. image:: ${up.base}${path}\n   :alt: placeholder ${what.replace(/ /g, '-')}\n`),
    ).join('\n');
    const { res, text, counts } = await pdfOf(open, rst);
    expect(res.headers.get(PROBLEMS)).to.equal(String(Object.keys(failures).length));
    for (const what of Object.keys(failures)) expect(text).to.include(`placeholder ${what.replace(/ /g, '-')}`);
    expect(counts.images).to.equal(baseline.images);
    // 20 MB was not read to the end: the fetch stops at the limit.
    expect(up.hits.get('/img/big.png')).to.equal(1);
  });

  it('an SVG built to draw for minutes is ended at the time budget, off the main thread', async () => {
    const slow = api(open, '/1.0/rst2/pdf', form({ rst: `Slow\n====\n\n.. image:: ${up.base}/img/slow.svg\n   :alt: slow drawing\n` }));
    // While it draws, the service answers other requests.
    const ready = await api(open, '/ready');
    expect(ready.status).to.equal(200);
    const res = await slow;
    expect(res.status).to.equal(200);
    expect(res.headers.get(PROBLEMS)).to.equal('1');
    expect((await pdfPages(await res.arrayBuffer())).join(' ')).to.include('slow drawing');
    // The converter was replaced and works.
    const after = await pdfOf(open, `Badge\n=====\n\n.. image:: ${up.base}/img/badge.svg?after-slow\n`);
    expect(after.res.headers.get(PROBLEMS)).to.equal(null);
  });

  it('a rendering with a transient problem (the time budget) is not cached; one with lasting problems is', async () => {
    const hanging = `Hang\n====\n\n.. image:: ${up.base}/img/hang.png\n   :alt: slow image\n`;
    const first = await api(open, '/1.0/rst2/pdf', form({ rst: hanging }));
    const again = await api(open, '/1.0/rst2/pdf', form({ rst: hanging }));
    expect([first.headers.get('x-cache'), again.headers.get('x-cache')]).to.deep.equal(['miss', 'miss']);
    expect(again.headers.get(PROBLEMS)).to.equal('1');
    // Nor kept by the client: no ETag to revalidate, no-store.
    expect(again.headers.get('etag')).to.equal(null);
    expect(again.headers.get('cache-control')).to.equal('no-store');
    const missing = `Gone\n====\n\n.. image:: ${up.base}/img/gone-for-good.png\n`;
    await api(open, '/1.0/rst2/pdf', form({ rst: missing }));
    const cached = await api(open, '/1.0/rst2/pdf', form({ rst: missing }));
    expect(cached.headers.get('x-cache')).to.equal('hit');
    // A cache hit says what the miss said.
    expect(cached.headers.get(PROBLEMS)).to.equal('1');
  });

  it('sizes past TeX\'s largest dimension are clamped to the page: the image is there, the PDF is 200', async () => {
    // Each of these was 422 latex_failed ("Dimension too large").
    for (const options of [':width: 5000cm', ':height: 99999in', ':scale: 100000', ':width: 99999999px', ':width: 400pt\n   :scale: 100000']) {
      const { res, counts, text } = await pdfOf(open, `Huge\n====\n\n.. image:: ${up.base}/img/red.png\n   ${options}\n\nAfter the picture.\n`);
      expect(res.headers.get(PROBLEMS), options).to.equal(null);
      expect(counts.images - baseline.images, options).to.equal(1);
      expect(text, options).to.include('After the picture.');
    }
    // A placeholder (no such image) of that width, in a figure.
    const { res, text } = await pdfOf(open, `Huge\n====\n\n.. figure:: ${up.base}/img/missing.png\n   :width: 5000cm\n   :alt: gone\n\n   The caption.\n`);
    expect(res.headers.get(PROBLEMS)).to.equal('1');
    expect(text).to.include('gone').and.to.include('The caption.');
  });

  it('PNGs that stop pdfTeX become placeholders; the other images stay', async () => {
    // Two different URLs of the same broken file: pdfTeX names one per failed run.
    const rst = `Damaged\n=======\n\n.. image:: ${up.base}/img/bad-type.png?1\n   :alt: broken pixels one\n\n` +
      `.. image:: ${up.base}/img/bad-type.png?2\n   :alt: broken pixels two\n\n.. image:: ${up.base}/img/red.png\n`;
    const { res, text, counts } = await pdfOf(open, rst);
    expect(res.headers.get(PROBLEMS)).to.equal('2');
    expect(text).to.include('broken pixels one').and.to.include('broken pixels two');
    expect(counts.images - baseline.images).to.equal(1);
  });

  it('a PNG with damaged data passes through as pdfTeX copies it (no decoding), without failing the document', async () => {
    const { res } = await pdfOf(open, `Damaged\n=======\n\n.. image:: ${up.base}/img/damaged.png\n   :alt: damaged data\n`);
    expect(res.headers.get('content-type')).to.equal('application/pdf');
  });

  it('without RST2_ALLOW_PRIVATE_URI a loopback image is refused: placeholder, and no request reaches the server', async () => {
    const before = up.hits.get('/img/only-when-allowed.png') ?? 0;
    const res = await api(closed, '/1.0/rst2/pdf', form({ rst: `Refused\n=======\n\n.. image:: ${up.base}/img/only-when-allowed.png\n   :alt: loopback picture\n` }));
    expect(res.status).to.equal(200);
    expect(res.headers.get(PROBLEMS)).to.equal('1');
    expect((await pdfPages(await res.arrayBuffer())).join(' ')).to.include('loopback picture');
    expect(up.hits.get('/img/only-when-allowed.png') ?? 0).to.equal(before);
  });

  it('data: images are decoded locally', async () => {
    const uri = `data:image/png;base64,${png(24, 24, [10, 10, 200]).toString('base64')}`;
    const { res, counts } = await pdfOf(closed, `Inline data\n===========\n\nA square |sq| in the text.\n\n.. |sq| image:: ${uri}\n   :alt: square\n`);
    expect(res.headers.get(PROBLEMS)).to.equal(null);
    expect(counts.images - baseline.images).to.equal(1);
  });

  it('relative images resolve against a uri document\'s URL, and are placeholders for an rst document', async () => {
    const viaUri = await api(open, `/1.0/rst2/pdf${query({ uri: `${up.base}/docs/README.rst` })}`);
    expect(viaUri.status).to.equal(200);
    expect(viaUri.headers.get(PROBLEMS)).to.equal(null);
    expect((await pdfImages(await viaUri.arrayBuffer())).images - baseline.images).to.equal(1);
    expect(up.hits.get('/docs/img/shot.png')).to.equal(1);
    // A path from the server's root, as a browser reads it in that document.
    const rooted = await api(open, `/1.0/rst2/pdf${query({ uri: `${up.base}/docs/ROOTED.rst` })}`);
    expect(rooted.headers.get(PROBLEMS)).to.equal(null);
    expect((await pdfImages(await rooted.arrayBuffer())).images - baseline.images).to.equal(1);

    const same = 'Read me\n=======\n\n.. image:: img/shot.png\n   :alt: relative screenshot\n';
    const { res, text } = await pdfOf(open, same);
    expect(res.headers.get(PROBLEMS)).to.equal('1');
    expect(text).to.include('relative screenshot');
    expect(up.hits.get('/docs/img/shot.png')).to.equal(1);
  });

  it('the service\'s own files are never read: /etc/passwd, file:, .. paths', async () => {
    const rst = 'Files\n=====\n\n.. image:: /etc/passwd\n\n.. image:: file:///etc/passwd\n\n.. image:: ../../etc/passwd\n\n.. figure:: /etc/passwd\n\n   caption\n' +
      // Ones docutils' path conversion raised on, failing the whole document with a 500.
      '\n.. image:: file://otherhost/etc/passwd\n\n.. image:: //127.0.0.1/etc/passwd\n';
    for (const s of [open, closed]) {
      const { res, text } = await pdfOf(s, rst);
      expect(res.status).to.equal(200);
      expect(res.headers.get(PROBLEMS)).to.equal('6');
      expect(text).to.include('passwd');
      expect(text).to.not.include('root:');
    }
  });

  it('alt text that looks like TeX is typeset as text', async () => {
    const alt = '\\input{/etc/passwd} } \\ % # $ & _ ^ ~';
    const { res, text } = await pdfOf(open, `Alt\n===\n\n.. image:: ${up.base}/img/nowhere-else.png\n   :alt: ${alt}\n`);
    expect(res.headers.get(PROBLEMS)).to.equal('1');
    expect(text.replace(/\s+/g, ' ')).to.include('\\input{/etc/passwd}');
    expect(text).to.not.include('root:');
  });

  it('a document with more images than allowed stays within the limits', async () => {
    const count = 70;
    const rst = ['Many\n====\n'].concat(Array.from({ length: count }, (_, i) => `.. image:: ${up.base}/many/${i}.png\n`)).join('\n');
    const { res, counts } = await pdfOf(open, rst);
    expect(res.headers.get(PROBLEMS)).to.equal(String(count - 64));
    const fetched = [...up.hits.keys()].filter((p) => p.startsWith('/many/')).length;
    expect(fetched).to.equal(64);
    expect(up.maxConcurrent).to.be.at.most(4);
    expect(counts.images - baseline.images).to.equal(64);
  });

  it('logs each problem at warn, with its URI and reason, under the request id', async () => {
    const lines: string[] = [];
    const own = await ownServer({ RST2_LOG_LEVEL: 'warn' }, createLogger('warn', (line) => lines.push(line)));
    try {
      const res = await api(own, '/1.0/rst2/pdf', { ...form({ rst: 'Logged\n======\n\n.. image:: shot.png\n' }), headers: { 'X-Request-Id': 'images-log-1' } });
      expect(res.status).to.equal(200);
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => l.msg === 'image replaced by a placeholder');
      expect(logged).to.have.length(1);
      expect(logged[0]).to.include({ level: 'warn', requestId: 'images-log-1', uri: 'shot.png' });
      expect(String(logged[0]!.reason)).to.match(/relative path/);
    } finally {
      await own.close();
    }
  });

  it('data: images count against the document\'s time budget: one document cannot hold the converter for a drawing deadline per image', async () => {
    const lines: string[] = [];
    const own = await ownServer({ RST2_LOG_LEVEL: 'warn', RST2_IMAGE_TIME_BUDGET_MS: '1500' }, createLogger('warn', (line) => lines.push(line)));
    try {
      const slow = (await (await fetch(`${up.base}/img/slow.svg`)).text());
      const rst = ['Slow\n====\n'].concat([1, 2, 3, 4].map((n) => `.. image:: data:image/svg+xml;base64,${Buffer.from(`${slow}<!-- ${n} -->`).toString('base64')}\n`)).join('\n');
      const res = await api(own, '/1.0/rst2/pdf', form({ rst }));
      expect(res.status).to.equal(200);
      expect(res.headers.get(PROBLEMS)).to.equal('4');
      const logged = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      const reasons = logged.filter((l) => l.msg === 'image replaced by a placeholder').map((l) => String(l.reason));
      expect(reasons).to.have.length(4);
      for (const reason of reasons) expect(reason).to.match(/time budget/);
      // The drawing under way when the budget ended was stopped; the others never started.
      expect(logged.filter((l) => /^image job .*terminating worker/.test(String(l.msg)))).to.have.length(1);
    } finally {
      await own.close();
    }
  });

  it('a document\'s images are bounded in bytes together: past RST2_IMAGE_DOCUMENT_BYTES they are placeholders and no more are fetched', async () => {
    const size = png(60, 30).length;
    const own = await ownServer({ RST2_ALLOW_PRIVATE_URI: '1', RST2_IMAGE_DOCUMENT_BYTES: String(Math.floor(size * 2.5)), RST2_IMAGE_FETCH_CONCURRENCY: '1' });
    try {
      // The same URL twice is one file, counted once.
      const uris = [1, 1, 2, 3, 4, 5].map((n) => `${up.base}/img/red.png?total=${n}`);
      const { res, counts } = await pdfOf(own, ['Total\n=====\n'].concat(uris.map((u) => `.. image:: ${u}\n`)).join('\n'));
      expect(res.headers.get(PROBLEMS)).to.equal('3');
      expect(counts.images - baseline.images).to.equal(3);
      // The third was cut off at what was left; the rest were never asked for.
      expect([1, 2, 3, 4, 5].map((n) => up.hits.get(`/img/red.png?total=${n}`) ?? 0)).to.deep.equal([1, 1, 1, 0, 0]);
    } finally {
      await own.close();
    }
  });

  it('a second rendering of the same images fetches nothing again (the image cache)', async () => {
    const rst = `Badges\n======\n\n.. image:: ${up.base}/img/badge.svg?c=1\n\n.. image:: ${up.base}/img/green.gif?c=1\n`;
    await pdfOf(open, rst);
    const hits = [up.hits.get('/img/badge.svg?c=1'), up.hits.get('/img/green.gif?c=1')];
    expect(hits).to.deep.equal([1, 1]);
    // Another class: a different rendering (no render-cache hit), the same images.
    const { res } = await pdfOf(open, rst, { class: 'scrartcl' });
    expect(res.headers.get('x-cache')).to.equal('miss');
    expect([up.hits.get('/img/badge.svg?c=1'), up.hits.get('/img/green.gif?c=1')]).to.deep.equal(hits);
  });
});
