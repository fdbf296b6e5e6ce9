/** A realistic small document (about 5 KB): headings, lists, a table, code, links. */
export function smallDocument(): string {
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
  return `=============
Small document
=============

:Author: rst2 bench
:Version: 1

.. contents::

${Array.from({ length: 8 }, (_, i) => section(i + 1)).join('')}`;
}
