"""rst2.speedups does what docutils' own code does: the same doctree and messages."""

import gc
import os
import unittest
import weakref

from docutils import nodes, statemachine
from docutils.parsers.rst import states
from docutils.parsers.rst.directives import body
from docutils.utils import code_analyzer

from rst2 import dialects, speedups
from rst2.messages import collect
from rst2.publish import publish

HERE = os.path.dirname(os.path.abspath(__file__))

# Every kind of block that makes a nested state machine, with mistakes that
# docutils reports while parsing and while transforming.
NESTED = """\
=====
Title
=====

Section
-------

* item

  1. nested
  2. list
     with *broken emphasis

  term
     definition
* item
unindented

:field: value
:other: - a
        - b

.. note:: An admonition with a list:

   - one
   - two

   | a line
   |   block

.. unknown:: directive

+-----+-----+
| a   | b   |
+=====+=====+
| *c* | - d |
+-----+-----+

=====  =====
A      B
=====  =====
x      y
=====  =====

>>> doctest = 1

Option list:

-a          all
--bee=B     bee

.. [#] A footnote [#]_ with a dangling_ reference.

.. code:: nosuchlanguage

   x = 1

.. code:: python
   :number-lines:

   def f():
       return "a string"

Sub
~~~

Text `unknown role`:nope: and |undefined| substitution.

Skipped
^^^^^^^

.. _dup:
.. _dup:

A section inside a directive:

.. sidebar:: Side

   Title
   -----
"""


# Pygments drops a leading U+FEFF from what it highlights: the title's text,
# and so its name, would differ if inline code were left unhighlighted.
INLINE_CODE_TITLE = """\
.. role:: py(code)
   :language: python

Title :py:`\ufeffx`
=====================

See `Title x`_.
"""


def documents():
    texts = {"nested": NESTED, "inline code title": INLINE_CODE_TITLE}
    for name in ("everything.rst",) + tuple(os.path.join("fixtures", f) for f in sorted(os.listdir(os.path.join(HERE, "fixtures")))):
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            texts[name] = f.read()
    return texts


def published(text, writer, dialect):
    items, parts, document = collect(text, writer, dialects.get(dialect))
    return items, parts.get("body"), document.pformat()


class SameAsDocutilsTest(unittest.TestCase):
    def test_disabled_keeps_lazy_machines_out(self):
        publish(NESTED, "null")
        with speedups.disabled():
            self.assertEqual(states.RSTState.nested_sm_cache, [])
            publish(NESTED, "null")
            reused = list(states.RSTState.nested_sm_cache)
        self.assertTrue(reused)
        self.assertFalse(any(isinstance(machine.states, speedups.LazyStates) for machine in reused))
        self.assertNotIn(reused[0], states.RSTState.nested_sm_cache)

    def test_disabled_puts_docutils_own_code_back(self):
        def now():
            return (statemachine.StateMachine.add_state, nodes.Node._fast_findall, code_analyzer.Lexer.__init__, code_analyzer.get_lexer_by_name, body.CodeBlock.run)

        patched = now()
        with speedups.disabled():
            plain = now()
        self.assertEqual([a is b for a, b in zip(patched, plain)], [False] * 5)
        self.assertEqual(now(), patched)

    def test_the_documents_render_and_check_alike(self):
        for name, text in documents().items():
            for dialect in ("docutils", "sphinx"):
                for writer in ("html5", "null"):
                    with self.subTest(document=name, dialect=dialect, writer=writer):
                        fast = published(text, writer, dialect)
                        with speedups.disabled():
                            plain = published(text, writer, dialect)
                        self.assertEqual(fast[0], plain[0])  # the messages
                        self.assertEqual(fast[1], plain[1])  # the HTML body
                        if writer == "html5":
                            self.assertEqual(fast[2], plain[2])  # the doctree

    def test_the_nested_document_has_its_problems(self):
        # So that the comparison above compares something.
        messages = [item["message"] for item in published(NESTED, "null", "docutils")[0]]
        for expected in (
            "Inline emphasis start-string without end-string.",
            "Bullet list ends without a blank line; unexpected unindent.",
            'Unknown directive type "unknown".',
            'Unknown interpreted text role "nope".',
            'Duplicate explicit target name: "dup".',
            'Undefined substitution referenced: "undefined".',
            'Unknown target name: "dangling".',
        ):
            self.assertTrue(any(m.startswith(expected) for m in messages), (expected, messages))

    def test_a_check_leaves_code_whole_and_a_render_highlights_it(self):
        text = ".. code:: python\n\n   x = 1\n"
        checked = collect(text, "null", dialects.get("docutils"))[2]
        block = next(checked.findall(nodes.literal_block))
        self.assertEqual([type(child) for child in block.children], [nodes.Text])
        self.assertEqual(block.astext(), "x = 1")
        _, document = publish(text, "html5")
        rendered = next(document.findall(nodes.literal_block))
        self.assertIn(nodes.inline, [type(child) for child in rendered.children])
        self.assertEqual(rendered.astext(), "x = 1")


    def test_inline_code_is_highlighted_in_a_check_too(self):
        checked = collect(INLINE_CODE_TITLE, "null", dialects.get("docutils"))
        self.assertEqual(checked[0], [])
        literal = next(checked[2].findall(nodes.literal))
        self.assertIn(nodes.inline, [type(child) for child in literal.children])


class FindallTest(unittest.TestCase):
    def tree(self):
        return publish(NESTED, "null")[1]

    def test_the_same_nodes_in_the_same_order(self):
        document = self.tree()
        for condition in (None, nodes.Element, nodes.Text, (nodes.list_item, nodes.paragraph), nodes.section):
            fast = list(document.findall(condition))
            with speedups.disabled():
                plain = list(document.findall(condition))
            self.assertEqual([id(n) for n in fast], [id(n) for n in plain])
            self.assertGreater(len(fast), 0)

    def test_changes_made_while_iterating_are_seen_as_before(self):
        # Replacing the node just found, dropping a later sibling, and
        # giving a node new children: what transforms do while they iterate.
        def visit(document):
            seen = []
            for node in document.findall(nodes.Element):
                seen.append(node.tagname)
                if isinstance(node, nodes.emphasis):
                    node.replace_self(nodes.strong("", "", nodes.Text("new")))
                elif isinstance(node, nodes.paragraph) and node.parent is not None and len(node.parent) > 2:
                    node.parent.remove(node.parent[-1])
                elif isinstance(node, nodes.title):
                    node.children = [nodes.literal("", "lit")]
            return seen, document.pformat()

        fast = visit(self.tree())
        with speedups.disabled():
            plain = visit(self.tree())
        self.assertEqual(fast, plain)


class LexerTest(unittest.TestCase):
    def test_each_call_gets_a_new_lexer_and_unknown_names_still_fail(self):
        first = code_analyzer.get_lexer_by_name("python")
        second = code_analyzer.get_lexer_by_name("python", stripnl=False)
        self.assertIsNot(first, second)
        self.assertIs(type(first), type(second))
        self.assertFalse(second.stripnl)
        self.assertIs(type(code_analyzer.get_lexer_by_name("PyThOn")), type(first))
        for _ in range(2):
            with self.assertRaises(code_analyzer.pygments.util.ClassNotFound):
                code_analyzer.get_lexer_by_name("nosuchlanguage")

    def test_a_document_with_an_unknown_language_is_not_kept_alive(self):
        # A remembered ClassNotFound would hold, through its traceback, the
        # document being parsed when it was raised.
        for writer in ("null", "html5"):
            document = collect(".. code:: nosuchlanguage%s\n\n   x = 1\n" % writer, writer, dialects.get("docutils"))[2]
            alive = weakref.ref(document)
            del document
            gc.collect()
            self.assertIsNone(alive(), writer)


class LazyStatesTest(unittest.TestCase):
    def test_states_are_built_when_entered(self):
        class First(statemachine.State):
            pass

        class Second(statemachine.State):
            pass

        machine = statemachine.StateMachine([First, Second], "First")
        self.assertIn("Second", machine.states)
        self.assertEqual(list(machine.states.values()), [])
        self.assertIsInstance(machine.get_state(), First)
        self.assertEqual([type(s) for s in machine.states.values()], [First])
        with self.assertRaises(statemachine.DuplicateStateError):
            machine.add_state(Second)
        with self.assertRaises(statemachine.UnknownStateError):
            machine.get_state("Third")


if __name__ == "__main__":
    unittest.main()
