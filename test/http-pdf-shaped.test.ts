/**
 * The scripts pdfTeX cannot set (issue 31): Arabic and Hebrew right to
 * left, Devanagari, Bengali and Tamil shaped into conjuncts, Thai without
 * spaces. Each goes through LuaHBTeX, over HTTP, in a title, a paragraph
 * and a list item; the PDF has no placeholder and no character a font
 * lacked (both would show in X-Rst2-Replaced-Characters), and pdftotext
 * gives the words back in logical order.
 */
import { expect } from 'chai';

import type { RunningServer } from '../src/server.js';
import { pdfText, requirePdftotext } from './support/pdftotext.js';
import { api, form, server } from './support/server.js';
import { describeTex } from './support/tex.js';

// Article 1 of the Universal Declaration of Human Rights, in part.
const CASES = [
  { name: 'Arabic', title: 'الإعلان العالمي لحقوق الإنسان', body: 'يولد جميع الناس أحرارا متساوين في الكرامة والحقوق', item: 'وقد وهبوا عقلا وضميرا' },
  { name: 'Hebrew', title: 'ההכרזה לכל באי עולם בדבר זכויות האדם', body: 'כל בני האדם נולדו בני חורין ושווים בערכם ובזכויותיהם', item: 'כולם חוננו בתבונה ובמצפון' },
  { name: 'Hindi (Devanagari)', title: 'मानव अधिकारों की सार्वभौम घोषणा', body: 'सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता प्राप्त है', item: 'क्षत्रिय द्वारा' },
  { name: 'Bengali', title: 'মানবাধিকারের সার্বজনীন ঘোষণা', body: 'সমস্ত মানুষ স্বাধীনভাবে সমান মর্যাদা এবং অধিকার নিয়ে জন্মগ্রহণ করে', item: 'ক্ষমা' },
  { name: 'Tamil', title: 'மனித உரிமைகள் பற்றிய உலகப் பிரகடனம்', body: 'மனிதப் பிறவியினர் சகலரும் சுதந்திரமாகவே பிறக்கின்றனர்', item: 'க்ஷ' },
  // A tone mark stacked on a vowel sign (ทั้ง) is drawn where it belongs, but
  // pdftotext takes it for a line of its own, after the next consonant:
  // Thai is compared without its marks, and every mark is counted.
  { name: 'Thai', title: 'ปฏิญญาสากลว่าด้วยสิทธิมนุษยชน', body: 'มนุษย์ทั้งหลายเกิดมามีอิสระและเสมอภาคกันในเกียรติศักดิ์และสิทธิ', item: 'ภาษาไทย', marksApart: true },
] as const;

type Case = (typeof CASES)[number];
const marksApart = (c: Case): boolean => 'marksApart' in c;
const marks = (text: string): string => [...text.normalize('NFC')].filter((ch) => /\p{Mn}/u.test(ch)).sort().join('');

/**
 * Text as compared: NFKC (Arabic presentation forms are compatibility
 * characters of the letters), no whitespace, no bidi controls pdftotext
 * puts around a right-to-left run, no hyphens (line breaks hyphenate).
 */
function comparable(text: string, withoutMarks = false): string {
  const t = text.normalize('NFKC').replace(/[\s\p{Cf}\-\u2010\u00ad]/gu, '');
  return withoutMarks ? t.replace(/\p{Mn}/gu, '') : t;
}

const doc = (c: Case): string =>
  `${c.title}\n${'='.repeat(c.title.length * 2)}\n\n${c.body}.\n\n* ${c.item}\n* Latin 2026\n`;

describeTex('PDF in the scripts that need shaping or right-to-left setting (LuaHBTeX) over HTTP', function () {
  let s: RunningServer;
  before(async function () {
    requirePdftotext(this);
    s = await server({ RST2_PDF_TIMEOUT_MS: '120000', RST2_TEX_WORKERS: '1' });
  });
  // A shared server (support/server.ts): closed once, at the end of the run.

  async function pdf(rst: string): Promise<{ res: Response; text: string }> {
    const res = await api(s, '/1.0/rst2/pdf', form({ rst }));
    expect(res.status, res.status === 200 ? '' : JSON.stringify(await res.clone().json())).to.equal(200);
    const bytes = await res.arrayBuffer();
    expect(Buffer.from(bytes.slice(0, 5)).toString('latin1')).to.equal('%PDF-');
    return { res, text: pdfText(bytes) };
  }

  for (const c of CASES) {
    it(`${c.name}: title, paragraph and list item set with no placeholder, and read back in logical order`, async () => {
      const { res, text } = await pdf(doc(c));
      expect(res.headers.get('x-rst2-replaced-characters')).to.equal(null);
      const got = comparable(text, marksApart(c));
      for (const part of [c.title, c.body, c.item, 'Latin 2026']) expect(got, part).to.include(comparable(part, marksApart(c)));
      if (marksApart(c)) expect(marks(text)).to.equal(marks(`${c.title}${c.body}${c.item}`));
    });
  }

  it('Latin words and numbers inside a right-to-left paragraph keep their place', async () => {
    const { res, text } = await pdf('Mixed\n=====\n\nمرحبا بالعالم Latin بالعالم\n\nשלום עולם 2026 עולם\n');
    expect(res.headers.get('x-rst2-replaced-characters')).to.equal(null);
    const got = comparable(text);
    expect(got).to.include(comparable('مرحبا بالعالم Latin بالعالم'));
    expect(got).to.include(comparable('שלום עולם 2026 עולם'));
  });

  it('right-to-left field and definition lists: each label beside its text, read back in order', async () => {
    // A field list's label was printed over its body (pdftotext read the two
    // interleaved); it turns as a whole now, as definition lists do.
    // So was an Arabic definition under a Latin term (the word under the term came apart).
    const { res, text } = await pdf('Lists\n=====\n\nمقدمة.\n\n:الحقل: قيمة الحقل\n:حقل ثان: قيمة أخرى\n\nمصطلح\n   تعريف المصطلح.\n\nTerm\n   تعريف المصطلح هنا بكلمات كثيرة\n');
    expect(res.headers.get('x-rst2-replaced-characters')).to.equal(null);
    const got = comparable(text);
    for (const line of ['الحقل: قيمة الحقل', 'حقل ثان: قيمة أخرى', 'مصطلح تعريف المصطلح.', 'Term تعريف المصطلح هنا بكلمات كثيرة']) expect(got, line).to.include(comparable(line));
  });

  it('every script in one document with Latin around: one PDF, nothing replaced', async () => {
    const rst = ['Many scripts', '============', '', ...CASES.flatMap((c) => [`${c.name}: ${c.body}.`, '']), 'Latin at the end.', ''].join('\n');
    const { res, text } = await pdf(rst);
    expect(res.headers.get('x-rst2-replaced-characters')).to.equal(null);
    for (const c of CASES) expect(comparable(text, marksApart(c)), c.name).to.include(comparable(c.body, marksApart(c)));
    expect(comparable(text)).to.include('Latinattheend.');
  });

  it("characters pdfLaTeX's inputenc maps (≠, ≤, a narrow no-break space, a zero-width space in Thai) and a Russian class in an Arabic document", async () => {
    const rst = '.. class:: language-ru\n\nСлово.\n\nمرحبا: x ≠ y ≤ z, 10\u202f%.\n\nสวัสดี\u200bครับ\n';
    const { res, text } = await pdf(rst);
    const got = comparable(text, true);
    // Inside a right-to-left paragraph the neutral ≠, ≤ and commas take its direction (as in a browser): the order of x, y, z is not compared.
    for (const part of ['Слово.', 'مرحبا', '≤', 'สวัสดี', 'ครับ']) expect(got, part).to.include(comparable(part, true));
    // A character no shipped font has (≠ is not in Latin Modern's or Noto's text faces) is a counted placeholder, never a failure.
    const replaced = Number(res.headers.get('x-rst2-replaced-characters') ?? 0);
    expect(replaced).to.equal(got.includes('U+2260') ? 1 : 0);
  });

  it('a character no shipped font has (Georgian) next to Arabic is still a counted placeholder', async () => {
    const { res, text } = await pdf('Placeholder\n===========\n\nمرحبا ქ بالعالم\n');
    expect(res.headers.get('x-rst2-replaced-characters')).to.equal('1');
    expect(text).to.include('U+10E5');
  });
});
