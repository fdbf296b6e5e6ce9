/**
 * The PDF check on hand-made files: what it must find (however it is
 * spelled: name escapes, hex, octal and UTF-16 strings, object streams) and
 * what it must leave alone (the same words in strings, comments and page
 * content). Real pdfTeX output is checked in http-pdf-safety.test.ts.
 */
import { expect } from 'chai';
import zlib from 'node:zlib';

import { findActiveContent, pdfText } from '../../src/engines/tex/pdf-safety.js';

type Part = string | Buffer;

function stream(dict: string, data: Part, length?: number): Buffer {
  const bytes = Buffer.from(data);
  return Buffer.concat([Buffer.from(`<< ${dict} /Length ${length ?? bytes.length} >>\nstream\n`), bytes, Buffer.from('\nendstream')]);
}

/** An object stream holding these objects (numbered from `first`), deflated. */
function objectStream(first: number, objects: string[], filter = '/Filter /FlateDecode'): Buffer {
  let offset = 0;
  const header: string[] = [];
  for (const [i, o] of objects.entries()) {
    header.push(`${first + i} ${offset}`);
    offset += o.length + 1;
  }
  const head = `${header.join(' ')}\n`;
  const plain = Buffer.from(head + objects.join('\n') + '\n', 'latin1');
  const data = filter.includes('Flate') ? zlib.deflateSync(plain) : plain;
  return stream(`/Type /ObjStm /N ${objects.length} /First ${head.length} ${filter}`, data);
}

/** A whole file: objects numbered from 1, a cross-reference table and a trailer. */
function pdf(objects: Part[], trailer = '<< /Size 9 /Root 1 0 R >>'): Uint8Array {
  const parts: Buffer[] = [Buffer.from('%PDF-1.5\n%\xd0\xd4\xc5\xd8\n', 'latin1')];
  const offsets: number[] = [];
  let at = parts[0]!.length;
  objects.forEach((o, i) => {
    const chunk = Buffer.concat([Buffer.from(`${i + 1} 0 obj\n`), Buffer.from(o), Buffer.from('\nendobj\n')]);
    offsets.push(at);
    at += chunk.length;
    parts.push(chunk);
  });
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f ', ...offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n `)].join('\n');
  parts.push(Buffer.from(`${xref}\ntrailer\n${trailer}\nstartxref\n${at}\n%%EOF\n`));
  return new Uint8Array(Buffer.concat(parts));
}

const catalog = (extra = ''): string => `<< /Type /Catalog /Pages 2 0 R ${extra} >>`;
const pages = '<< /Type /Pages /Kids [3 0 R] /Count 1 >>';
const page = (extra = ''): string => `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R ${extra} >>`;
const content = (text = 'BT /F1 12 Tf (hello) Tj ET'): Buffer => stream('', text);
/** A one-page PDF with an extra annotation (object 5). */
const withAnnotation = (annot: string): Uint8Array => pdf([catalog(), pages, page('/Annots [5 0 R]'), content(), annot]);
const link = (action: string): string => `<< /Type /Annot /Subtype /Link /Rect [0 0 10 10] /A ${action} >>`;

describe('PDF active-content check', () => {
  it('passes a plain PDF, internal links and web links', () => {
    expect(findActiveContent(pdf([catalog('/OpenAction [3 0 R /Fit] /PageMode /UseOutlines'), pages, page(), content()]))).to.deep.equal([]);
    expect(findActiveContent(withAnnotation(link('<< /S /GoTo /D (section.1) >>')))).to.deep.equal([]);
    for (const uri of ['(https://example.org/a?b=c#d)', '(http://example.org/)', '(mailto:ann@example.org)', '<FEFF00680074007400700073003A002F002F0078>']) {
      expect(findActiveContent(withAnnotation(link(`<< /Type /Action /S /URI /URI ${uri} >>`))), uri).to.deep.equal([]);
    }
  });

  it('leaves the same words alone in page content, strings and comments', () => {
    const lookalikes = 'BT (/JS) Tj (<< /S /JavaScript /JS \\(app.alert\\(1\\)\\) >>) Tj (/Launch /AcroForm) Tj ET';
    const plainPage = pdf([catalog(), pages, page(), content(lookalikes)]);
    expect(findActiveContent(plainPage)).to.deep.equal([]);
    const deflated = pdf([catalog(), pages, page(), stream('/Filter /FlateDecode', zlib.deflateSync(Buffer.from(lookalikes)))]);
    expect(findActiveContent(deflated)).to.deep.equal([]);
    const info = '<< /Title (/JavaScript /S /Launch /URI \\(javascript:x\\)) /Subject <2F4A53> >>';
    expect(findActiveContent(pdf([catalog(), pages, page(), content(), info]))).to.deep.equal([]);
    expect(findActiveContent(pdf([catalog('% /OpenAction << /S /JavaScript /JS (x) >>\n'), pages, page(), content()]))).to.deep.equal([]);
  });

  it('finds JavaScript, however the name is spelled', () => {
    const js = findActiveContent(pdf([catalog('/OpenAction 5 0 R'), pages, page(), content(), '<< /S /JavaScript /JS (app.alert(1)) >>']));
    expect(js).to.include('/S /JavaScript (object 5 0)');
    expect(js).to.include('/JS (object 5 0)');
    expect(findActiveContent(pdf([catalog('/OpenAction << /S /J#61vaScript /J#53 (x) >>'), pages, page(), content()]))).to.include('/S /JavaScript (object 1 0)');
    expect(findActiveContent(pdf([catalog('/Names << /JavaScript 5 0 R >>'), pages, page(), content(), '<< /Names [] >>']))).to.include('/JavaScript (object 1 0)');
    expect(findActiveContent(pdf([catalog(), pages, page('/AA << /O << /S /JavaScript /JS (x) >> >>'), content()]))).to.include('/S /JavaScript (object 3 0)');
  });

  it('finds launch, remote and multimedia actions, forms and embedded files', () => {
    const cases: Array<[string, Uint8Array]> = [
      ['/S /Launch', withAnnotation(link('<< /S /Launch /F (calc.exe) >>'))],
      ['/S /GoToR', withAnnotation(link('<< /S /GoToR /F (doc.pdf) /D [0 /Fit] >>'))],
      ['/S /GoToE', withAnnotation(link('<< /S /GoToE /T << /R /C /N (x) >> >>'))],
      ['/S /SubmitForm', withAnnotation(link('<< /S /SubmitForm /F (https://x) >>'))],
      ['/S /ImportData', withAnnotation(link('<< /S /ImportData /F (x.fdf) >>'))],
      ['/S /Rendition', withAnnotation(link('<< /S /Rendition /OP 0 >>'))],
      ['/Subtype /Sound', withAnnotation('<< /Type /Annot /Subtype /Sound /Rect [0 0 1 1] >>')],
      ['/Subtype /Movie', withAnnotation('<< /Type /Annot /Subtype /Movie /Rect [0 0 1 1] >>')],
      ['/Subtype /RichMedia', withAnnotation('<< /Type /Annot /Subtype /RichMedia /Rect [0 0 1 1] >>')],
      ['/Subtype /Widget', withAnnotation('<< /Type /Annot /Subtype /Widget /FT /Tx /Rect [0 0 1 1] >>')],
      ['/AcroForm', pdf([catalog('/AcroForm << /Fields [] >>'), pages, page(), content()])],
      ['/XFA', pdf([catalog('/AcroForm 5 0 R'), pages, page(), content(), '<< /Fields [] /XFA 6 0 R >>'])],
      ['/EmbeddedFiles', pdf([catalog('/Names << /EmbeddedFiles << /Names [(a) 5 0 R] >> >>'), pages, page(), content(), '<< /Type /Filespec /F (a) >>'])],
      ['/Type /EmbeddedFile', pdf([catalog(), pages, page(), content(), stream('/Type /EmbeddedFile', 'secret')])],
      ['/Encrypt', pdf([catalog(), pages, page(), content()], '<< /Size 5 /Root 1 0 R /Encrypt << /Filter /Standard >> >>')],
    ];
    for (const [what, file] of cases) {
      expect(findActiveContent(file).join('\n'), what).to.include(what);
    }
  });

  it('reads URI targets through escapes, hex and UTF-16', () => {
    const cases: Array<[string, string]> = [
      ['(javascript:app.alert\\(1\\))', '"javascript:app.alert(1)"'],
      ['(java\\163cript:x)', '"javascript:x"'],
      ['(java\\\nscript:x)', '"javascript:x"'],
      ['<6A617661736372697074 3A78>', '"javascript:x"'],
      ['<FEFF006A00610076006100730063007200690070007400 3A0078>', '"javascript:x"'],
      ['( https://example.org/)', '" https://example.org/"'],
      ['(file:///etc/passwd)', '"file:///etc/passwd"'],
      ['(CONTRIBUTING.rst)', '"CONTRIBUTING.rst"'],
      ['7 0 R', '"run:calc"'],
    ];
    for (const [uri, shown] of cases) {
      const file = pdf([catalog(), pages, page('/Annots [5 0 R]'), content(), link(`<< /S /URI /URI ${uri} >>`), '<< >>', '(run:calc)']);
      expect(findActiveContent(file).join('\n'), uri).to.include(`a URI action to ${shown}`);
    }
    expect(pdfText(Buffer.from('\xef\xbb\xbfhttps://x/\u00e9'.replace('\u00e9', '\xc3\xa9'), 'latin1'))).to.equal('https://x/é');
  });

  it('looks into object streams, and refuses one it cannot read', () => {
    const hidden = pdf([catalog(), pages, page('/Annots [6 0 R]'), content(), objectStream(6, [link('<< /S /Launch /F (calc.exe) >>'), '<< /S /JavaScript /JS <6170702E616C657274283129> >>'])]);
    const found = findActiveContent(hidden);
    expect(found).to.include('/S /Launch (object 6 0 in object stream 5 0)');
    expect(found).to.include('/JS (object 7 0 in object stream 5 0)');
    const benign = pdf([catalog(), pages, page('/Annots [6 0 R]'), content(), objectStream(6, [link('<< /S /URI /URI (https://example.org/) >>'), '<< /Title (/JS) >>'])]);
    expect(findActiveContent(benign)).to.deep.equal([]);
    // A reader takes objects from a stream that does not say /Type /ObjStm too.
    const untyped = Buffer.from(objectStream(6, ['<< /S /JavaScript /JS (x) >>'])).toString('latin1').replace('/Type /ObjStm ', '');
    expect(findActiveContent(pdf([catalog(), pages, page(), content(), Buffer.from(untyped, 'latin1')]))).to.include('/JS (object 6 0 in object stream 5 0)');
    const unreadable = pdf([catalog(), pages, page(), content(), objectStream(6, ['<< >>'], '/Filter /LZWDecode')]);
    expect(findActiveContent(unreadable)[0]).to.match(/cannot read .*object stream 5 0 uses a filter/);
  });

  it('does not inflate an object stream past its bound (a small file asking for gigabytes)', () => {
    // 40 MB of spaces after the object: 40 KB compressed, more than one object stream may hold.
    const plain = Buffer.concat([Buffer.from('6 0\n<< /S /JavaScript /JS (x) >>'), Buffer.alloc(40 * 1024 * 1024, 0x20)]);
    const bomb = stream('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', zlib.deflateSync(plain, { level: 9 }));
    const found = findActiveContent(pdf([catalog(), pages, page(), content(), bomb]));
    expect(found).to.have.length(1);
    expect(found[0]).to.match(/cannot read .*object stream 5 0 inflates to more than/);
    // Many smaller ones: together bounded by the file's size too.
    const streams = Array.from({ length: 6 }, () => stream('/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode', zlib.deflateSync(plain.subarray(0, 15 * 1024 * 1024), { level: 9 })));
    expect(findActiveContent(pdf([catalog(), pages, page(), content(), ...streams]))[0]).to.match(/inflates to more than/);
  });

  it('reads every object in the file, also ones the cross-reference table does not list and both values of a repeated key', () => {
    const base = Buffer.from(pdf([catalog(), pages, page(), content()]));
    const extra = Buffer.from('\n99 0 obj\n<< /S /Launch /F (calc.exe) >>\nendobj\n');
    expect(findActiveContent(new Uint8Array(Buffer.concat([base, extra])))).to.include('/S /Launch (object 99 0)');
    expect(findActiveContent(withAnnotation(link('<< /S /GoTo /D (x) /S /JavaScript /JS (x) >>')))).to.include('/S /JavaScript (object 5 0)');
  });

  it('finds the stream end when /Length is wrong or indirect', () => {
    const lying = stream('', 'BT (/JS) Tj ET', 3);
    const indirect = Buffer.from(stream('', 'BT (/JS) Tj ET').toString('latin1').replace(/\/Length \d+/, '/Length 9 0 R'), 'latin1');
    for (const s of [lying, indirect]) {
      expect(findActiveContent(pdf([catalog(), pages, page(), s, '<< /S /Launch /F (x) >>']))).to.deep.equal(['/S /Launch (object 5 0)']);
    }
  });

  it('refuses what it cannot parse', () => {
    expect(findActiveContent(pdf([catalog(), pages, page(), content(), '<< /A (unterminated >>']))[0]).to.match(/cannot read/);
    expect(findActiveContent(pdf([catalog(), pages, page(), content(), `${'['.repeat(200)}${']'.repeat(200)}`]))[0]).to.match(/nesting too deep/);
    expect(findActiveContent(pdf([catalog(), pages, page(), content(), '<< /A 1 >> >>']))[0]).to.match(/cannot read/);
  });
});
