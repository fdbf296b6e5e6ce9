/**
 * The language server's coordinates (src/lsp/positions.ts): check's docutils
 * lines and code point columns become LSP's lines and UTF-16 characters; and
 * the one-edit replacement of a fixed text (src/lsp/diagnostics.ts).
 */
import { expect } from 'chai';
import { TextDocument } from 'vscode-languageserver-textdocument';

import { replacement } from '../../src/lsp/diagnostics.js';
import { advanceCodePoints, CheckCoordinates, pythonLines } from '../../src/lsp/positions.js';

function at(text: string): CheckCoordinates {
  return new CheckCoordinates(TextDocument.create('file:///t.rst', 'restructuredtext', 1, text));
}

describe('LSP coordinates', function () {
  it('splits lines as docutils does: str.splitlines\' breaks but \\v and \\f, which docutils reads as spaces', function () {
    const text = 'a\r\nb\rc\nd\u2028e\x0cf\x85g\x0bh';
    const { starts, ends } = pythonLines(text);
    const lines = starts.map((s, i) => text.slice(s, ends[i]));
    expect(lines).to.deep.equal(['a', 'b', 'c', 'd', 'e\x0cf', 'g\x0bh']);
    // A final line break starts an empty line: Python's line count + 1, column 1 is the end of the text.
    expect(pythonLines('a\n').starts).to.deep.equal([0, 2]);
    expect(pythonLines('').starts).to.deep.equal([0]);
  });

  it('counts code points: a character beyond the BMP is two UTF-16 units, one column', function () {
    expect(advanceCodePoints('🎉 *', 0, 2)).to.equal(3);
    expect(advanceCodePoints('é🎉🎉 *', 0, 4)).to.equal(6);
    // A lone surrogate is one code point, as in Python; never past the end.
    expect(advanceCodePoints('\ud83c*', 0, 1)).to.equal(1);
    expect(advanceCodePoints('ab', 0, 9)).to.equal(2);
  });

  it('maps check positions to LSP positions', function () {
    const c = at('Title\n====\n\n🎉 *party\n');
    expect(c.position(4, 3)).to.deep.equal({ line: 3, character: 3 });
    expect(c.editRange({ line: 4, column: 3, endLine: 4, endColumn: 4, text: '\\*' })).to.deep.equal({
      start: { line: 3, character: 3 },
      end: { line: 3, character: 4 },
    });
    // The end of the text, and lines past it, clamp.
    expect(c.position(5, 1)).to.deep.equal({ line: 4, character: 0 });
    expect(c.position(99, 1)).to.deep.equal({ line: 4, character: 0 });
    expect(c.lineRange(4)).to.deep.equal({ start: { line: 3, character: 0 }, end: { line: 3, character: 9 } });
    expect(c.lineRange(null)).to.deep.equal({ start: { line: 0, character: 0 }, end: { line: 0, character: 5 } });
  });

  it('follows docutils\' lines where LSP has none (U+2028), and \\r\\n where both have one', function () {
    const c = at('A\u2028line 🎉 *x\r\nnext *y');
    expect(c.position(2, 8)).to.deep.equal({ line: 0, character: 10 });
    expect(c.position(3, 6)).to.deep.equal({ line: 1, character: 5 });
    expect(c.lineRange(2)).to.deep.equal({ start: { line: 0, character: 2 }, end: { line: 0, character: 12 } });
  });
});

describe('the fix-all replacement', function () {
  function check(before: string, after: string): ReturnType<typeof replacement> {
    const document = TextDocument.create('file:///t.rst', 'restructuredtext', 1, before);
    const edit = replacement(document, before, after);
    expect(TextDocument.applyEdits(document, [edit])).to.equal(after);
    return edit;
  }

  it('replaces only what differs between the common start and end', function () {
    expect(check('Title\n====\n\ntext\n', 'Title\n=====\n\ntext\n')).to.deep.equal({
      range: { start: { line: 1, character: 4 }, end: { line: 1, character: 4 } },
      newText: '=',
    });
    expect(check('same', 'same').newText).to.equal('');
  });

  it('never splits a surrogate pair or a \\r\\n', function () {
    // Two emoji sharing their high surrogate: the edit takes the whole pair.
    const emoji = check('a🎉b', 'a🎊b');
    expect(emoji.range).to.deep.equal({ start: { line: 0, character: 1 }, end: { line: 0, character: 3 } });
    const crlf = check('a\r\nb', 'a\nb');
    expect(crlf.newText).to.equal('\n');
    check('x\r\n', 'x\r\r\n');
  });
});
