/** Which lines of a failed TeX run the client is shown. */
import { expect } from 'chai';

import { relevantLogLines } from '../../src/engines/tex/log-lines.js';

const LOG = [
  'This is pdfTeX, Version 3.141592653-2.6-1.40.24',
  '(./document.tex',
  'LaTeX2e <2022-11-01>',
  '(/texmf/tex/latex/base/article.cls',
  ')',
  '! Undefined control sequence.',
  'l.12 \\nosuchmacro',
  '                 {x}',
  'Overfull \\hbox (3.0pt too wide) in paragraph at lines 14--15',
  '! Missing $ inserted.',
  '<inserted text> ',
  '                $',
  'l.20 a_b',
  '',
  'Output written on document.pdf (1 page).',
].join('\n');

describe('TeX log lines', () => {
  it('picks each "!" error with its context up to the line number, and nothing else', () => {
    expect(relevantLogLines(LOG).split('\n')).to.deep.equal([
      '! Undefined control sequence.',
      'l.12 \\nosuchmacro',
      '! Missing $ inserted.',
      '<inserted text> ',
      '                $',
      'l.20 a_b',
    ]);
  });

  it('stops at the limit of lines', () => {
    const many = Array.from({ length: 30 }, (_, i) => `! Error ${i}.\nl.${i + 1} x`).join('\n');
    const picked = relevantLogLines(many, 5).split('\n');
    expect(picked).to.have.length(5);
    expect(picked[0]).to.equal('! Error 0.');
  });

  it('gives nothing for a log without errors', () => {
    expect(relevantLogLines('This is pdfTeX\nOutput written on document.pdf (1 page).\n')).to.equal('');
  });

  it('takes at most six lines for an error without a line number', () => {
    const log = ['! Emergency stop.', 'a', 'b', 'c', 'd', 'e', 'f', 'g'].join('\n');
    expect(relevantLogLines(log).split('\n')).to.have.length(6);
  });
});
