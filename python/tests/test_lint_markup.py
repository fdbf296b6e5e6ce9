"""The markup mistakes docutils parses as text (rst2.lint.markup): found, not found in their valid look-alikes, fixed."""

import unittest

from rst2 import rules
from rst2.fixes import check, problems
from rst2.fixes.edits import apply

ALL = frozenset(rules.CODES)


def found(text, dialect="sphinx", enabled=ALL):
    return [(item["rule"], item["line"], item["column"]) for item in problems(text, dialect, enabled) if item["rule"] in rules.LINT]


def fixed(text, rule, dialect="sphinx"):
    (item,) = [i for i in check(text, dialect, enabled=frozenset({rule})) if i["rule"] == rule]
    new, done = apply(text, [item["fix"]])
    return new, item["fix"]["applicability"]


class Found(unittest.TestCase):
    def test_each_mistake(self):
        cases = [
            ("See :func:pdb.main here.\n", "role-without-backticks", 1, 5),
            ("A word:meth:`foo` glued.\n", "role-glued", 1, 7),
            ("Call :func:``bar`` now.\n", "role-extra-backticks", 1, 6),
            ("Call :func`baz` now.\n", "role-missing-colon", 1, 6),
            ("Call func:`baz` now.\n", "role-missing-colon", 1, 6),
            ("Call `:func:`baz` now.\n", "backtick-before-role", 1, 6),
            ("... versionchanged:: 3.11\n\n   Changed.\n", "directive-three-dots", 1, 1),
            (".. versionchanged 3.6\n\n   Changed.\n", "directive-missing-colons", 1, 4),
            ("Go `there<https://example.com/>`_.\n", "hyperlink-missing-space", 1, 4),
            ("Go `there <https://example.com/>` now.\n", "hyperlink-missing-underscore", 1, 4),
            ("Go there <https://example.com/>`_ now.\n", "hyperlink-missing-backtick", 1, 4),
            ("Go [there](https://example.com/) now.\n", "markdown-link", 1, 4),
            ("Use this:\n\n```python\nx = 1\n```\n", "triple-backticks", 3, 1),
            ("Both :meth:`!~list.pop` kinds.\n", "role-exclamation-and-tilde", 1, 6),
            ("Here ``Callable``s are.\n", "literal-glued", 1, 6),
            ("The ``double`` at the end ``\nof a line.\n", "unbalanced-inline-literal", 1, 27),
            ("A word split by the dual-\nstack client.\n", "dangling-hyphen", 1, 25),
            ("A `name` with the default role.\n", "default-role", 1, 3),
        ]
        for text, rule, line, column in cases:
            with self.subTest(rule, text=text):
                self.assertIn((rule, line, column), found(text))

    def test_valid_look_alikes_are_not_reported(self):
        valid = [
            "See :func:`pdb.main` and :c:func:`PyObject_Hash` here.\n",
            "Literal ``:func:pdb.main`` and ``[a](https://b.c/)`` text.\n",
            "Example::\n\n   :func:pdb.main [a](https://b.c/) ... note::\n",
            ".. code:: rst\n\n   See :func:pdb.main.\n",
            ".. TODO: write this\n\n.. a comment about notes\n",
            ".. note::\n\n   A note.\n",
            "Go `there <https://example.com/>`_ and https://example.com:8080/x now.\n",
            "A phrase `over\nthe line <https://example.com/>`_ here.\n",
            ":Author: Me\n:Version: 1\n",
            ":emphasis:`with ``backticks`` inside` is fine.\n",
            "A well-known\nword, and a dash -\nalone.\n",
            "Write ```x``` for the literal `x`, and name the \"``\" token.\n",
            "PDF\n```\n\nA title underlined with backticks.\n",
        ]
        for text in valid:
            with self.subTest(text=text):
                self.assertEqual([f for f in found(text) if f[0] != "default-role"], [])

    def test_roles_the_dialect_does_not_know_are_not_guessed(self):
        self.assertEqual(found("See :func:pdb.main here.\n", "docutils"), [])
        self.assertEqual(found("See :emphasis:word here.\n", "docutils"), [("role-without-backticks", 1, 5)])

    def test_default_role_is_off_by_default_and_sphinx_only(self):
        self.assertEqual(found("A `name`.\n", enabled=rules.DEFAULTS), [])
        self.assertEqual(found("A `name`.\n", "docutils"), [])

    def test_suppressed(self):
        self.assertEqual(found(".. rst2: disable-next markdown-link\n\nGo [there](https://example.com/) now.\n"), [])


class Fixes(unittest.TestCase):
    def test_fixes_give_the_markup_meant(self):
        self.assertEqual(fixed("See :func:pdb.main here.\n", "role-without-backticks"), ("See :func:`pdb.main` here.\n", "suggested"))
        self.assertEqual(fixed("Call :func:``bar`` now.\n", "role-extra-backticks")[0], "Call :func:`bar` now.\n")
        self.assertEqual(fixed("Call :func`baz` now.\n", "role-missing-colon")[0], "Call :func:`baz` now.\n")
        self.assertEqual(fixed("... note::\n\n   A.\n", "directive-three-dots")[0], ".. note::\n\n   A.\n")
        self.assertEqual(fixed(".. versionchanged 3.6\n\n   A.\n", "directive-missing-colons")[0], ".. versionchanged:: 3.6\n\n   A.\n")
        self.assertEqual(fixed("Go `there<https://example.com/>`_.\n", "hyperlink-missing-space"), ("Go `there <https://example.com/>`_.\n", "safe"))
        self.assertEqual(fixed("Go `there <https://e.com/>` now.\n", "hyperlink-missing-underscore")[0], "Go `there <https://e.com/>`_ now.\n")
        self.assertEqual(fixed("Go there <https://e.com/>`_ now.\n", "hyperlink-missing-backtick")[0], "Go `there <https://e.com/>`_ now.\n")
        self.assertEqual(fixed("Go [there](https://e.com/) now.\n", "markdown-link")[0], "Go `there <https://e.com/>`_ now.\n")
        self.assertEqual(fixed("A word:meth:`foo` glued.\n", "role-glued")[0], "A word\\ :meth:`foo` glued.\n")
        self.assertEqual(fixed("Here ``Callable``s are.\n", "literal-glued")[0], "Here ``Callable``\\ s are.\n")

    def test_each_fix_leaves_no_docutils_problem_and_ends_its_own(self):
        for text, rule in (
            ("Go `there<https://example.com/>`_.\n", "hyperlink-missing-space"),
            ("Go [there](https://e.com/) now.\n", "markdown-link"),
            ("See :func:pdb.main here.\n", "role-without-backticks"),
        ):
            with self.subTest(rule):
                new, _ = fixed(text, rule)
                self.assertEqual(check(new, "sphinx", enabled=rules.DEFAULTS), [])


if __name__ == "__main__":
    unittest.main()
