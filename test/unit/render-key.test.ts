/** The render key (cache key and ETag) and the PDF's file name. */
import { expect } from 'chai';

import { makeDocument, tokenOf } from '../../src/documents/document.js';
import { renderKey } from '../../src/renderer.js';
import { fileName } from '../../src/rendering.js';

describe('render key', () => {
  const doc = makeDocument('Title\n=====\n');

  it('is the same for the same operation, options (in any order) and document', () => {
    const a = renderKey('salt', 'pdf', { class: 'article', style: 'default', 'use-latex-toc': 'no' }, doc);
    const b = renderKey('salt', 'pdf', { 'use-latex-toc': 'no', style: 'default', class: 'article' }, makeDocument('Title\n=====\n'));
    expect(a).to.match(/^[0-9a-f]{64}$/).and.equal(b);
  });

  it('changes with the salt (engine versions), the operation, any option and the document', () => {
    const base = renderKey('salt', 'html', { style: 'default' }, doc);
    const others = [
      renderKey('other salt', 'html', { style: 'default' }, doc),
      renderKey('salt', 'check', { style: 'default' }, doc),
      renderKey('salt', 'html', { style: 'modern' }, doc),
      renderKey('salt', 'html', {}, doc),
      renderKey('salt', 'html', { style: 'default' }, makeDocument('Title\n=====\n\n')),
    ];
    expect(new Set([base, ...others]).size).to.equal(others.length + 1);
  });

  it("changes with a uri document's base (relative images and links resolve against it), and keeps the key of a document without one", () => {
    const text = 'Title\n=====\n';
    const plain = renderKey('salt', 'pdf', { class: 'article' }, makeDocument(text));
    const a = renderKey('salt', 'pdf', { class: 'article' }, makeDocument(text, 'https://a.example/README.rst'));
    const b = renderKey('salt', 'pdf', { class: 'article' }, makeDocument(text, 'https://b.example/README.rst'));
    expect(new Set([plain, a, b]).size).to.equal(3);
    expect(makeDocument(text, 'https://a.example/README.rst').digest).to.equal(makeDocument(text).digest);
    expect(plain).to.equal(renderKey('salt', 'pdf', { class: 'article' }, { text, digest: makeDocument(text).digest }));
  });

  it('cannot be forged by moving text between option names and values', () => {
    expect(renderKey('s', 'html', { a: 'b,c' }, doc)).to.not.equal(renderKey('s', 'html', { 'a,b': 'c' }, doc));
  });

  it("gives a document's token as the first 128 bits of its digest", () => {
    expect(tokenOf(doc)).to.equal(doc.digest.slice(0, 32)).and.match(/^[0-9a-f]{32}$/);
  });
});

describe('file name of a rendering', () => {
  it('is the title made safe for a header, or "document"', () => {
    expect(fileName('Über "quoted" / title', 'pdf')).to.equal('Uber-quoted-title.pdf');
    expect(fileName('  ', 'pdf')).to.equal('document.pdf');
    expect(fileName('x'.repeat(200), 'pdf')).to.equal(`${'x'.repeat(80)}.pdf`);
  });
});
