/**
 * The PDF check on hand-made files: what it must find (however it is
 * spelled: name escapes, hex, octal and UTF-16 strings, object streams) and
 * what it must leave alone (the same words in strings, comments and page
 * content). Real pdfTeX output is checked in http-pdf-safety.test.ts.
 */
import { expect } from 'chai';
import zlib from 'node:zlib';

import { findActiveContent, pdfText } from '../../src/pdf/safety.js';
import { objectStream, pdf, stream, type Part } from '../support/pdf-file.js';

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
    const indirect = Buffer.from(stream('', 'BT (/JS) Tj ET').toString('latin1').replace(/\/Length \d+/, '/Length 6 0 R'), 'latin1');
    const wrong = Buffer.from(stream('', 'BT (/JS) Tj ET').toString('latin1').replace(/\/Length \d+/, '/Length 7 0 R'), 'latin1');
    for (const s of [lying, indirect, wrong]) {
      expect(findActiveContent(pdf([catalog(), pages, page(), s, '<< /S /Launch /F (x) >>', '14', '3']))).to.deep.equal(['/S /Launch (object 5 0)']);
    }
  });

  it('refuses what it cannot parse', () => {
    expect(findActiveContent(pdf([catalog(), pages, page(), content(), '<< /A (unterminated >>']))[0]).to.match(/cannot read/);
    expect(findActiveContent(pdf([catalog(), pages, page(), content(), `${'['.repeat(200)}${']'.repeat(200)}`]))[0]).to.match(/nesting too deep/);
    expect(findActiveContent(pdf([catalog(), pages, page(), content(), '<< /A 1 >> >>']))[0]).to.match(/cannot read/);
  });
  // Issue 19: a value given as `n g R` is what the object n holds; readers
  // (pdfTeX's xpdf, pdf.js, Acrobat) follow the reference, so the check must too.
  describe('values given by reference', () => {
    /** A one-page PDF whose annotation (object 5) is `annot`, with objects 6, 7... after it. */
    const annotated = (annot: string, ...more: Part[]): Uint8Array => pdf([catalog(), pages, page('/Annots [5 0 R]'), content(), annot, ...more]);
    const joined = (file: Uint8Array): string => findActiveContent(file).join('\n');

    it('finds an action type given by reference (the reproduction: /S 6 0 R, 6 0 obj /Launch)', () => {
      expect(findActiveContent(annotated(link('<< /S 6 0 R /F (calc.exe) >>'), '/Launch'))).to.include('/S /Launch (object 5 0)');
    });

    it('finds every refused action type, annotation subtype and object type given by reference', () => {
      for (const type of ['Launch', 'GoToR', 'GoToE', 'SubmitForm', 'ImportData', 'ResetForm', 'JavaScript', 'Rendition', 'Sound', 'Movie', 'RichMedia']) {
        expect(joined(annotated(link('<< /S 6 0 R /F (x) >>'), `/${type}`)), `/S ${type}`).to.include(`/S /${type}`);
      }
      for (const type of ['FileAttachment', 'Sound', 'Movie', 'RichMedia', 'Widget', '3D']) {
        expect(joined(annotated('<< /Type /Annot /Subtype 6 0 R /Rect [0 0 1 1] /FS (a) >>', `/${type}`)), `/Subtype ${type}`).to.include(`/Subtype /${type}`);
      }
      expect(joined(annotated(link('(https://example.org/)'), stream('/Type 7 0 R', 'secret'), '/EmbeddedFile'))).to.include('/Type /EmbeddedFile');
    });

    it('follows chains of references, also into object streams', () => {
      expect(joined(annotated(link('<< /S 6 0 R >>'), '7 0 R', '8 0 R', '/Launch'))).to.include('/S /Launch (object 5 0)');
      const packed = annotated(link('<< /S 7 0 R /F (calc.exe) >>'), objectStream(7, ['8 0 R', '/GoToR']));
      expect(joined(packed)).to.include('/S /GoToR (object 5 0)');
      const uri = annotated(link('<< /S /URI /URI 6 0 R >>'), objectStream(7, ['(javascript:app.alert\\(1\\))']));
      expect(joined(Buffer.from(Buffer.from(uri).toString('latin1').replace('/URI 6 0 R', '/URI 7 0 R'), 'latin1'))).to.include('a URI action to "javascript:app.alert(1)"');
    });

    it('judges every version of an object that the file holds (an update may replace it)', () => {
      const base = Buffer.from(annotated(link('<< /S 6 0 R /D (x) >>'), '/GoTo'));
      const update = Buffer.from('\n6 0 obj\n/Launch\nendobj\n');
      expect(joined(new Uint8Array(Buffer.concat([base, update])))).to.include('/S /Launch');
      // The reference names generation 1; a reader that ignores a mismatch would still find object 6.
      expect(joined(annotated(link('<< /S 6 1 R /F (calc.exe) >>'), '/Launch'))).to.include('/S /Launch');
    });

    it('refuses a checked value whose reference cannot be resolved: missing, a loop, or a chain too long', () => {
      const unresolved = /cannot resolve/;
      const cases: Array<[string, Uint8Array]> = [
        ['missing /S', annotated(link('<< /S 9 0 R /F (calc.exe) >>'))],
        ['missing /Subtype', annotated('<< /Type /Annot /Subtype 9 0 R /Rect [0 0 1 1] >>')],
        ['missing /Type', pdf([catalog(), pages, page(), content(), stream('/Type 9 0 R', 'secret')])],
        ['missing /URI', annotated(link('<< /S /URI /URI 9 0 R >>'))],
        ['missing /A', annotated(link('9 0 R'))],
        ['missing /OpenAction', pdf([catalog('/OpenAction 9 0 R'), pages, page(), content()])],
        ['missing /AA entry', pdf([catalog(), pages, page('/AA << /O 9 0 R >>'), content()])],
        ['missing /Next', annotated(link('<< /S /GoTo /D (x) /Next [6 0 R 9 0 R] >>'), '<< /S /GoTo /D (y) >>')],
        ['missing annotation', pdf([catalog(), pages, page('/Annots [9 0 R]'), content()])],
        ['a loop', annotated(link('<< /S 6 0 R >>'), '7 0 R', '6 0 R')],
        ['a self-reference', annotated(link('<< /S 6 0 R >>'), '6 0 R')],
        ['a chain too long', pdf([catalog(), pages, page('/Annots [5 0 R]'), content(), link('<< /S 6 0 R >>'), ...Array.from({ length: 40 }, (_, i) => `${i + 7} 0 R`), '/Launch'])],
      ];
      for (const [what, file] of cases) expect(joined(file), what).to.match(unresolved);
    });

    it('passes safe values given by reference', () => {
      expect(findActiveContent(annotated('<< /Type 6 0 R /Subtype 7 0 R /Rect [0 0 10 10] /A 8 0 R >>', '/Annot', '/Link', '<< /S 9 0 R /URI 10 0 R /Next 11 0 R >>', '/URI', '12 0 R', '[13 0 R]', '(https://example.org/)', '<< /S /GoTo /D (x) >>'))).to.deep.equal([]);
      expect(findActiveContent(pdf([catalog('/OpenAction 5 0 R'), pages, page(), content(), '[3 0 R /Fit]']))).to.deep.equal([]);
    });

    it('refuses a stream whose indirect /Length ends it elsewhere than the first "endstream" in its data', () => {
      // The data holds "endstream" and opens a string: read only up to there,
      // the string would swallow the annotation after the stream, up to the
      // ")" that a reader sees in a comment. A reader takes the length from
      // object 5, which the string swallows too, or which comes first.
      const data = 'q Q\nendstream\n(';
      const lying = Buffer.from(`<< /Length 5 0 R >>\nstream\n${data}\nendstream`, 'latin1');
      const hidden = pdf([catalog(), pages, page('/Annots [6 0 R]'), lying, String(data.length), link('<< /S /Launch /F (calc.exe) >>'), '% )\n<< >>']);
      expect(joined(hidden)).to.match(/stream 4 0 .*\/Length 5 0 R/);
      const first = Buffer.from(`<< /Length 4 0 R >>\nstream\n${data}\nendstream`, 'latin1');
      const visible = pdf([catalog(), pages, page('/Annots [6 0 R]'), String(data.length), first, link('<< /S /Launch /F (calc.exe) >>'), '% )\n<< >>']);
      expect(joined(visible)).to.match(/stream 5 0 .*\/Length 4 0 R/);
    });
  });
});
