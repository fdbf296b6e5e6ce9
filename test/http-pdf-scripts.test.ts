/**
 * PDF in every common script (issue 12): real paragraphs (article 1 of the
 * Universal Declaration of Human Rights) as title and body, over HTTP, and
 * the text read back from the PDF with pdf.js.
 */
import { expect } from 'chai';

import type { RunningServer } from '../src/server.js';
import { pdfFacts, pdfPages } from './support/pdf.js';
import { drawnCounts } from './support/pdf-glyphs.js';
import { api, form, server } from './support/server.js';
import { describeTex } from './support/tex.js';

interface Case {
  name: string;
  title: string;
  body: string;
  /**
   * The CB fonts draw the tonos of a capital (Ό) as a glyph of its own
   * before the letter, so the text layer has U+0301 then Ο: compared
   * without combining marks (lowercase accented letters are single glyphs
   * and still compared as such in the words around).
   */
  marksApart?: true;
}

const CASES: Case[] = [
  { name: 'Russian', title: 'Всеобщая декларация прав человека', body: 'Все люди рождаются свободными и равными в своем достоинстве и правах. Они наделены разумом и совестью и должны поступать в отношении друг друга в духе братства.' },
  { name: 'Ukrainian', title: 'Загальна декларація прав людини', body: 'Всі люди народжуються вільними і рівними у своїй гідності та правах. Вони наділені розумом і совістю і повинні діяти у відношенні один до одного в дусі братерства.' },
  { name: 'Bulgarian', title: 'Всеобща декларация за правата на човека', body: 'Всички хора се раждат свободни и равни по достойнство и права. Те са надарени с разум и съвест и следва да се отнасят помежду си в дух на братство.' },
  { name: 'Greek', title: 'Οικουμενική Διακήρυξη για τα Ανθρώπινα Δικαιώματα', body: 'Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα. Είναι προικισμένοι με λογική και συνείδηση, και οφείλουν να συμπεριφέρονται μεταξύ τους με πνεύμα αδελφοσύνης.', marksApart: true },
  { name: 'Vietnamese', title: 'Tuyên ngôn Quốc tế Nhân quyền', body: 'Tất cả mọi người sinh ra đều được tự do và bình đẳng về nhân phẩm và quyền lợi. Mọi con người đều được tạo hóa ban cho lý trí và lương tâm và cần phải đối xử với nhau trong tình bằng hữu.' },
  { name: 'Polish', title: 'Powszechna deklaracja praw człowieka', body: 'Wszyscy ludzie rodzą się wolni i równi pod względem swej godności i swych praw. Są oni obdarzeni rozumem i sumieniem i powinni postępować wobec innych w duchu braterstwa.' },
  { name: 'Czech', title: 'Všeobecná deklarace lidských práv', body: 'Všichni lidé rodí se svobodní a sobě rovní co do důstojnosti a práv. Jsou nadáni rozumem a svědomím a mají spolu jednat v duchu bratrství.' },
  { name: 'Turkish', title: 'İnsan Hakları Evrensel Beyannamesi', body: 'Bütün insanlar hür, haysiyet ve haklar bakımından eşit doğarlar. Akıl ve vicdana sahiptirler ve birbirlerine karşı kardeşlik zihniyeti ile hareket etmelidirler.' },
  { name: 'Chinese (simplified)', title: '世界人权宣言', body: '人人生而自由，在尊严和权利上一律平等。他们赋有理性和良心，并应以兄弟关系的精神相对待。' },
  { name: 'Chinese (traditional)', title: '世界人權宣言', body: '人人生而自由，在尊嚴和權利上一律平等。他們賦有理性和良心，並應以兄弟關係的精神相對待。' },
  { name: 'Japanese', title: '世界人権宣言', body: 'すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。人間は、理性と良心とを授けられており、互いに同胞の精神をもって行動しなければならない。' },
  { name: 'Korean', title: '세계 인권 선언', body: '모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다. 인간은 천부적으로 이성과 양심을 부여받았으며 서로 형제애의 정신으로 행동하여야 한다.' },
  { name: 'symbols', title: 'Symbols → ✓', body: 'Arrows → ← ↑ ↓ ⇒, operators ≤ ∞ ∑, marks ✓ ✗ ★ •, currency € £ ¥, § and ♥.' },
];

const EMOJI = ['👋', '😃', '🎉', '🚀'];
// Scripts no shipped font has (Arabic, Hebrew, Indic and Thai go to LuaHBTeX: http-pdf-shaped.test.ts).
const GEORGIAN = 'ყველა ადამიანი';
const ETHIOPIC = 'የሰው ልጅ';

function doc(title: string, body: string): string {
  return `${title}\n${'='.repeat(title.length * 2)}\n\n${body}\n`;
}

/** Text as compared: NFKC (ligatures, full-width forms), no whitespace, no hyphens (line breaks hyphenate). */
function comparable(text: string, marksApart = false): string {
  const t = marksApart ? text.normalize('NFD').replace(/\p{Mn}/gu, '') : text;
  return t.normalize('NFKC').replace(/[\s\-\u2010\u00ad]/gu, '');
}

describeTex('PDF in every common script over HTTP', function () {
  let s: RunningServer;
  before(async function () {
    s = await server({ RST2_PDF_TIMEOUT_MS: '60000', RST2_TEX_WORKERS: '2' });
  });
  // A shared server (support/server.ts): closed once, at the end of the run.

  async function pdf(rst: string): Promise<{ res: Response; bytes: ArrayBuffer; text: string }> {
    const res = await api(s, '/1.0/rst2/pdf', form({ rst }));
    expect(res.status, res.status === 200 ? '' : JSON.stringify(await res.clone().json())).to.equal(200);
    const bytes = await res.arrayBuffer();
    expect(Buffer.from(bytes.slice(0, 5)).toString('latin1')).to.equal('%PDF-');
    return { res, bytes, text: (await pdfPages(bytes)).join('\n') };
  }

  for (const c of CASES) {
    it(`${c.name}: 200, and the title and paragraph read back from the PDF`, async () => {
      const { res, text } = await pdf(doc(c.title, c.body));
      expect(res.headers.get('x-rst2-replaced-characters')).to.equal(null);
      expect(comparable(text, c.marksApart)).to.include(comparable(c.title, c.marksApart));
      expect(comparable(text, c.marksApart)).to.include(comparable(c.body, c.marksApart));
      // Where marks are compared apart, the words whose accents are on small letters still match exactly.
      if (c.marksApart) expect(comparable(text)).to.include(comparable(c.body.split(' ').slice(1, 8).join(' ')));
    });
  }

  it('CJK, Cyrillic and Greek in literal blocks and inline literals (a README showing output): 200, the text reads back', async () => {
    const samples = ['한시간 전', '中文 字', '漢字 繁體', 'かな カナ', 'Привет мир', 'Καλημέρα'];
    const rst = `Output\n======\n\n::\n\n${samples.map((t) => `   >>> say()\n   '${t}'`).join('\n')}\n\nInline: ${samples.map((t) => `\`\`${t}\`\``).join(', ')}.\n`;
    const { res, text } = await pdf(rst);
    expect(res.headers.get('x-rst2-replaced-characters')).to.equal(null);
    for (const t of samples) expect(comparable(text).split(comparable(t)).length - 1, t).to.equal(2);
  });

  it('emoji: 200, each one a picture (Twemoji via hwemoji; pictures have no text), the words around them text', async () => {
    const rst = doc('Emoji', `Hello ${EMOJI[0]} world ${EMOJI.slice(1).join(' ')} end.`);
    const { res, bytes, text } = await pdf(rst);
    expect(res.headers.get('x-rst2-replaced-characters')).to.equal(null);
    expect(comparable(text)).to.include(comparable('Hello world'));
    expect((await drawnCounts(bytes)).forms).to.be.at.least(EMOJI.length);
  });

  it('one document mixing every script: 200, every paragraph reads back, the emoji are pictures', async () => {
    const rst = [
      doc('Все 人人 모든 Όλοι Việt', 'Mixed scripts.'),
      ...CASES.flatMap((c) => [c.title, '', c.body, '']),
      `Emoji ${EMOJI.join(' ')}`,
      '',
    ].join('\n');
    const { bytes, text } = await pdf(rst);
    for (const c of CASES) expect(comparable(text, c.marksApart), c.name).to.include(comparable(c.body, c.marksApart));
    expect((await drawnCounts(bytes)).forms).to.be.at.least(EMOJI.length);
  });

  for (const [name, text] of [['Georgian', GEORGIAN], ['Ethiopic', ETHIOPIC]] as const) {
    it(`${name}: 200, each character a visible code point, counted in X-Rst2-Replaced-Characters`, async () => {
      const letters = [...text].filter((ch) => !/\s/u.test(ch));
      const { res, text: extracted } = await pdf(doc('Placeholders', `Latin words, then ${text}, then Latin again.`));
      expect(res.headers.get('x-rst2-replaced-characters')).to.equal(String(letters.length));
      const shown = extracted.match(/U\+[0-9A-F]{4}/g) ?? [];
      expect(shown).to.deep.equal(letters.map((ch) => `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`));
      expect(comparable(extracted)).to.include(comparable('Latin again'));
    });
  }

  it('titles, headings, bookmarks and the PDF title keep the characters (and a placeholder its code point)', async () => {
    const rst = `${doc('Декларация 人权 Ελλάδα', 'Body.')}\nРаздел первый\n-------------\n\nText.\n\n世界人权宣言\n------------\n\nText.\n\nქართ ა\n------\n\nText.\n`;
    const { bytes } = await pdf(rst);
    const facts = await pdfFacts(bytes);
    expect(facts.info).to.include('Декларация 人权 Ελλάδα');
    expect(facts.outline).to.include('Раздел первый');
    expect(facts.outline).to.include('世界人权宣言');
    expect(facts.outline).to.include('U+10E5');
  });

  it('a language-* class (docutils loads babel for it): 200, the text reads back', async () => {
    const rst = '.. role:: ru\n   :class: language-ru\n.. role:: vi\n   :class: language-vi\n\nText :ru:`Все люди` and :vi:`Tiếng Việt` here.\n';
    const { text } = await pdf(rst);
    expect(comparable(text)).to.include(comparable('Text Все люди and Tiếng Việt here.'));
  });

  it('a Latin-only document carries no replaced-characters header', async () => {
    const { res, text } = await pdf(doc('Plain', 'Zażółć gęślą jaźń. Příliš žluťoučký kůň.'));
    expect(res.headers.get('x-rst2-replaced-characters')).to.equal(null);
    expect(comparable(text)).to.include(comparable('Příliš žluťoučký kůň'));
  });
});
