/**
 * Emoji in PDF (issue 19): hwemoji's pictures read once per document and
 * placed by reference, so that many emoji fit in the PDF time budget.
 */
import { expect } from 'chai';

import { loadConfig } from '../src/config.js';
import type { RunningServer } from '../src/server.js';
import { drawnCounts } from './support/pdf-glyphs.js';
import { api, form, server } from './support/server.js';
import { describeTex } from './support/tex.js';

const FIVE = ['👋', '😃', '🎉', '🚀', '🍕'];

/** `n` emoji drawn in turn from `set`, 20 to a line, 10 lines to a paragraph. */
function emojiDoc(set: string[], n: number): string {
  const lines: string[] = [];
  for (let i = 0; i < n; i += 20) {
    lines.push(Array.from({ length: Math.min(20, n - i) }, (_, j) => set[(i + j) % set.length]).join(' '));
    if ((i / 20) % 10 === 9) lines.push('');
  }
  return `Emoji\n=====\n\n${lines.join('\n')}\n`;
}

/** Form XObjects the file holds: streams, so their dictionaries are never packed into an object stream. */
function formObjects(pdf: ArrayBuffer): number {
  return Buffer.from(pdf).toString('latin1').match(/\/Subtype\s*\/Form\b/g)?.length ?? 0;
}

describeTex('PDF emoji: one picture per distinct emoji', function () {
  let s: RunningServer;
  before(async () => {
    // The default time budget: nothing here is given more time than a client gets.
    s = await server();
  });

  async function pdf(rst: string): Promise<ArrayBuffer> {
    const res = await api(s, '/1.0/rst2/pdf', form({ rst }));
    expect(res.status, res.status === 200 ? '' : JSON.stringify(await res.clone().json())).to.equal(200);
    return res.arrayBuffer();
  }

  it('2,000 occurrences of 5 emoji: 5 embedded pictures, 2,000 placed', async () => {
    const bytes = await pdf(emojiDoc(FIVE, 2000));
    expect(formObjects(bytes)).to.equal(FIVE.length);
    expect((await drawnCounts(bytes)).forms).to.equal(2000);
  });

  it(`30,000 emoji of 50 kinds render within the default PDF budget (${loadConfig({}).pdfTimeoutMs} ms)`, async () => {
    const fifty = [...Array.from({ length: 40 }, (_, i) => String.fromCodePoint(0x1f600 + i)), ...Array.from({ length: 10 }, (_, i) => String.fromCodePoint(0x1f330 + i))];
    const bytes = await pdf(emojiDoc(fifty, 30_000));
    expect(formObjects(bytes)).to.equal(50);
    expect((await drawnCounts(bytes)).forms).to.equal(30_000);
  });

  it('an emoji in math keeps hwemoji\'s own setting and is drawn', async () => {
    const bytes = await pdf('Math :math:`x + 🚀` and text 🚀.\n');
    expect(formObjects(bytes)).to.equal(1);
    expect((await drawnCounts(bytes)).forms).to.equal(2);
  });
});
