/** A realistic small document (about 5 KB): headings, lists, a table, code, links. */
export function smallDocument(): string {
  return documentWithSections(8, 'Small document');
}

/** The same kind of content over about 10 pages (PDF, article, default style), with its contents topic. */
export function tenPageDocument(): string {
  return documentWithSections(19, 'Ten-page document');
}

/** The same kind of content at about 100 KB (190 sections), for large-document load. */
export function largeDocument(): string {
  return documentWithSections(190, 'Large document');
}

/** Whole sections of the same content, at least `lines` lines (29 more a section), for the language server's latency. */
export function documentOfLines(lines: number): string {
  let sections = 1;
  while (documentWithSections(sections, 'A document of some length').split('\n').length < lines) sections++;
  return documentWithSections(sections, 'A document of some length');
}

/** `sections` short sections, each a title, a paragraph with a link to a named target, and the target: six lines each. */
export function sectionsAndLinks(sections: number): string {
  const parts = ['Sections and links', '==================', ''];
  for (let n = 1; n <= sections; n++) parts.push(`Part ${n}`, `-----${'-'.repeat(String(n).length)}`, '', `Text of part ${n} with a link to target${n}_ and *emphasis*.`, '', `.. _target${n}: https://example.org/${n}`, '');
  return parts.join('\n');
}

function documentWithSections(count: number, title: string): string {
  const section = (n: number) => `
Section ${n}
----------${'-'.repeat(String(n).length)}

Some *emphasis*, **strong** text, \`\`inline literals\`\` and a link to
\`the docutils site <https://docutils.sourceforge.io/>\`_. A footnote [#f${n}]_.

* First item with a bit of text that wraps
  over two lines.
* Second item

  1. nested
  2. list

=====  =====  ======
A      B      A or B
=====  =====  ======
False  False  False
True   False  True
=====  =====  ======

.. code:: python

   def greet(name: str) -> str:
       return f"Hello, {name}!"

.. note:: An admonition in section ${n}.

.. [#f${n}] The footnote text.
`;
  const rule = '='.repeat(title.length);
  return `${rule}
${title}
${rule}

:Author: rst2 bench
:Version: 1

.. contents::

${Array.from({ length: count }, (_, i) => section(i + 1)).join('')}`;
}

/**
 * The substitution bomb of the memory issue: a 9,000-character substitution
 * used 7,000 times, 37 KB of source that docutils expands to 63 MB of text
 * (then as much again per copy the writer makes). `tag` makes it unique.
 */
export function substitutionExpansion(tag = ''): string {
  const text = `${'x'.repeat(89)} `.repeat(100);
  const uses = `${'|a| '.repeat(100)}\n`.repeat(70);
  return `.. |a| replace:: ${text}\n\n${uses}${tag}\n`;
}

/** Block quotes nested `levels` deep: each paragraph one space deeper than the last (2,000 levels: 2 MB). */
export function nestedQuotes(levels: number): string {
  return Array.from({ length: levels }, (_, i) => `${' '.repeat(i)}level ${i}\n`).join('\n');
}

/** Bullet lists nested `levels` deep. */
export function nestedLists(levels: number): string {
  return Array.from({ length: levels }, (_, i) => `${'  '.repeat(i)}* level ${i}\n`).join('\n');
}

/** Sphinx's `:emphasize-lines:` with a range far past its one-line block (70 bytes; Sphinx lists every number of it). */
export function emphasizedRange(last = 50_000_000): string {
  return `.. code-block:: python\n   :emphasize-lines: 1-${last}\n\n   spam = 1\n`;
}

/**
 * A code block whose first line number has `digits` digits: docutils pads
 * every line's number to that width (4,000 digits on 20,000 lines: 104 KB of
 * source, 80 MB of numbers). `directive` is `code` (`:number-lines:`) or
 * `code-block` (`:lineno-start:`).
 */
export function numberedLines(directive: 'code' | 'code-block' = 'code-block', digits = 4000, lines = 20_000): string {
  const option = directive === 'code' ? 'number-lines' : 'lineno-start';
  return `.. ${directive}:: text\n   :${option}: ${'9'.repeat(digits)}\n\n${'   x\n'.repeat(lines)}\nAfter the block.\n`;
}

/** A Sphinx grammar whose one long name pads each of `lines` continuation lines (219 KB; 270 MB of spaces unbounded). */
export function productionPadding(nameLength = 9000, lines = 30_000): string {
  return `.. productionlist::\n   ${'a'.repeat(nameLength)}: x\n${'   : y\n'.repeat(lines)}`;
}

/**
 * Issue 27's fix amplifier: two paragraphs of 7,900 characters with one
 * unmatched `*` each (every place is a trial), eight overlines that do not
 * match their underlines (fixed, they become level skips), eight `.. nte::`
 * and eight `:emphasys:` (suggested renames).
 */
export function fixAmplifier(): string {
  const para = `${Array.from({ length: 655 }, () => 'w *e* a * b').join(' ')} *x`;
  const out = ['Title\n=====\n', `${para}\n`, `${para}\n`];
  for (let i = 0; i < 8; i++) {
    const style = '=-~^+'[i % 5]!;
    out.push(`${style.repeat(7)}\nSec ${i}\n${style.repeat(9)}\n\nText.\n`, '.. nte:: hi\n\n:emphasys:`x`\n');
  }
  return out.join('\n');
}

/** Issue 27's name bomb: `count` targets and `count` unknown references, every name `length` random letters. */
export function longNames(length = 1100, count = 4, seed = 27): string {
  let a = seed;
  const letter = () => {
    a = (a * 1103515245 + 12345) % 2147483648;
    return String.fromCharCode(97 + (a % 26));
  };
  const name = () => Array.from({ length }, letter).join('');
  const targets = Array.from({ length: count }, (_, i) => `.. _${name()}: http://x/${i}\n\n`).join('');
  return `Doc\n===\n\n${targets}${Array.from({ length: count }, () => `See \`${name()}\`_.\n\n`).join('')}`;
}
