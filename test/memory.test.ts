/**
 * Documents built to make a render grow without bound, over HTTP: they are
 * refused before the heap grows, and a worker whose heap did grow past its
 * budget is replaced after its job without anyone waiting for the new one.
 */
import { expect } from 'chai';

import { emphasizedRange, largeDocument, nestedLists, nestedQuotes, numberedLines, productionPadding, substitutionExpansion } from '../bench/documents.js';
import type { RunningServer } from '../src/server.js';
import { sample } from './support/metrics.js';
import { api, errorOf, server } from './support/server.js';

const MiB = 1024 * 1024;
const RST = { 'Content-Type': 'text/x-rst; charset=utf-8' };
const post = (s: RunningServer, operation: string, rst: string) => api(s, `/1.0/rst2/${operation}`, { method: 'POST', headers: RST, body: rst });

async function expectRenders(s: RunningServer, marker: string): Promise<void> {
  const res = await post(s, 'html', `${marker}\n${'='.repeat(marker.length)}\n\nfine\n`);
  expect(res.status).to.equal(200);
  expect(await res.text()).to.include(`<title>${marker}</title>`);
}

describe('memory: documents that would make a render grow without bound', () => {
  let s: RunningServer;
  before(async () => {
    s = await server();
  });

  it('a substitution bomb (37 KB that expand to 63 MB) is 422 output_too_large for html, pdf and check', async () => {
    const bomb = substitutionExpansion();
    expect(bomb.length).to.be.below(40_000);
    for (const operation of ['html', 'pdf', 'check']) {
      const res = await post(s, operation, bomb);
      expect(res.status, operation).to.equal(422);
      expect(res.headers.get('content-type')).to.match(/^application\/json/);
      const error = await errorOf(res);
      expect(error.code, operation).to.equal('output_too_large');
      expect(error.message).to.include('32.0 MiB (33554432 bytes)');
      expect(error.message).to.include('RST2_MAX_OUTPUT_BYTES');
    }
    await expectRenders(s, 'AfterBomb');
  });

  it('two bombs at once are both refused, and the pool is untouched', async () => {
    const restarts = s.python.stats().restarts;
    const answers = await Promise.all([post(s, 'html', substitutionExpansion('one')), post(s, 'html', substitutionExpansion('two'))]);
    for (const res of answers) {
      expect(res.status).to.equal(422);
      expect((await errorOf(res)).code).to.equal('output_too_large');
    }
    expect(s.python.stats().restarts).to.equal(restarts);
    await expectRenders(s, 'AfterTwo');
  });

  it('2,000 nested block quotes and 1,000 nested lists are 422 document_too_deep, naming the depth and the limit', async () => {
    // 1,000 lists are 1 MB; 2,000 would pass the 2 MiB body limit.
    for (const [name, levels, doc] of [['quotes', 2000, nestedQuotes(2000)], ['lists', 1000, nestedLists(1000)]] as const) {
      for (const operation of ['html', 'check']) {
        const res = await post(s, operation, doc);
        expect(res.status, `${name} ${operation}`).to.equal(422);
        const error = await errorOf(res);
        expect(error.code).to.equal('document_too_deep');
        expect(error.message).to.include('nested too deeply');
        expect(error.message).to.include(`${levels - 1} levels`);
        expect(error.message).to.include('more than the 32 allowed');
      }
    }
    await expectRenders(s, 'AfterNesting');
  });

  it('nesting up to the limit still renders', async () => {
    const res = await post(s, 'html', `Deep\n====\n\n${nestedQuotes(33)}`);
    expect(res.status).to.equal(200);
    expect(await res.text()).to.include('level 32');
  });
});

describe('memory: counts and numbers a document gives are bounded before anything is expanded', () => {
  // A warm worker is 36 MiB; each of these took 0.5 to 2 GB before. A worker
  // that passes the budget is recycled, which the metric shows.
  let s: RunningServer;
  before(async () => {
    s = await server({ RST2_WORKERS: '1', RST2_WORKER_HEAP_BUDGET_BYTES: String(96 * MiB), RST2_RENDER_TIMEOUT_MS: '60000' });
  });
  const recycled = async () => sample(await (await api(s, '/metrics')).text(), 'rst2_engine_worker_recycled_total', { engine: 'python' });
  const render = (operation: string, rst: string, dialect = 'docutils') =>
    api(s, `/1.0/rst2/${operation}?dialect=${dialect}`, { method: 'POST', headers: RST, body: rst });

  it('emphasize-lines 1-50000000 on a one-line block is a warning, and the block is shown', async () => {
    const before = await recycled();
    const res = await render('html', emphasizedRange(), 'sphinx');
    expect(res.status).to.equal(200);
    const html = await res.text();
    expect(html).to.include('line number spec is out of range(1-1)');
    expect(html).to.include('spam');
    const check = await render('check', emphasizedRange(10 ** 15), 'sphinx');
    expect(check.status).to.equal(200);
    expect(JSON.stringify(await check.json())).to.include('out of range(1-1)');
    expect(await recycled(), 'the heap stayed within its budget').to.equal(before);
  });

  for (const [directive, dialect] of [['code-block', 'sphinx'], ['code', 'docutils']] as const) {
    it(`a 4,000-digit first line number on 20,000 lines (${directive}, ${dialect}) is an error in the document, which renders`, async () => {
      const before = await recycled();
      const res = await render('html', numberedLines(directive), dialect);
      expect(res.status).to.equal(200);
      const html = await res.text();
      expect(html).to.include('a line number may be at most 2147483647');
      expect(html).to.include('After the block.');
      expect(html.length).to.be.below(4 * MiB);
      expect(await recycled(), 'the heap stayed within its budget').to.equal(before);
    });
  }

  it('a grammar name pads continuation lines only up to a bound', async () => {
    const before = await recycled();
    const res = await render('html', productionPadding(), 'sphinx');
    expect(res.status).to.equal(200);
    expect((await res.text()).length).to.be.below(4 * MiB);
    expect(await recycled(), 'the heap stayed within its budget').to.equal(before);
  });
});

describe('memory: a worker whose heap passed its budget is recycled', () => {
  // A warm worker's heap is 36 MiB; 200 KB of sections, tables and code take
  // it to 75. The budget sits between, with room on either side.
  const budget = 56 * MiB;
  const heavyDocument = () => `${largeDocument()}\n${largeDocument().replace('Large document', 'Second part')}\n.. heavy ${Date.now()}\n`;
  let s: RunningServer;
  before(async () => {
    // The heavy document takes seconds on a busy machine; the deadline is not under test.
    s = await server({ RST2_WORKERS: '1', RST2_WORKER_HEAP_BUDGET_BYTES: String(budget), RST2_RENDER_TIMEOUT_MS: '60000' });
  });

  const recycledMetric = async () => sample(await (await api(s, '/metrics')).text(), 'rst2_engine_worker_recycled_total', { engine: 'python' });

  it('answers the heavy document normally, counts the recycling, and the next requests are served at once', async () => {
    const before = s.python.stats();
    expect(await recycledMetric()).to.equal(before.recycled);
    const heavy = await post(s, 'html', heavyDocument());
    expect(heavy.status).to.equal(200);
    expect(await heavy.text()).to.include('Section 190');
    const during = s.python.stats();
    expect(during.recycled).to.equal(before.recycled + 1);
    expect(during.restarts, 'recycling is not a failure').to.equal(before.restarts);
    expect(during.starting, 'the successor boots beside the old worker').to.equal(1);

    // The only worker is being replaced, yet requests do not wait for the
    // boot: the old worker serves them, so the first is answered while its
    // successor is still starting.
    const next = post(s, 'html', 'Next\n====\n\nserved by the old worker\n');
    const concurrent = post(s, 'check', 'Concurrent\n==========\n\nok\n');
    const [nextRes, concurrentRes] = await Promise.all([next, concurrent]);
    const startingWhenAnswered = s.python.stats().starting;
    expect(nextRes.status).to.equal(200);
    expect(await nextRes.text()).to.include('<title>Next</title>');
    expect(concurrentRes.status).to.equal(200);
    expect(await concurrentRes.json()).to.deep.equal([]);
    expect(startingWhenAnswered, 'answered before the successor was warm').to.equal(1);

    const deadline = Date.now() + 60_000;
    while (s.python.stats().starting > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(s.python.stats()).to.include({ size: 1, ready: 1, starting: 0, restarts: before.restarts });
    expect(await recycledMetric()).to.equal(before.recycled + 1);
    await expectRenders(s, 'OnTheSuccessor');
    expect(s.python.stats().recycled, 'a small document keeps the fresh worker').to.equal(before.recycled + 1);
  });
});
