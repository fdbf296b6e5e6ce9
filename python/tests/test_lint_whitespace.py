"""The whitespace rules (rst2.lint.whitespace): found where they are, fixed without changing what docutils reads."""

import unittest

from rst2 import rules
from rst2.fixes import check, fix_document, problems
from rst2.fixes.edits import apply
from rst2.publish import publish

ALL = rules.LINT | rules.DEFAULTS


def found(text, enabled=ALL, dialect="docutils"):
    return [(item["rule"], item["line"], item["column"]) for item in problems(text, dialect, enabled) if item["rule"] in rules.LINT]


def body(text):
    return publish(text, "html5")[0]["body"]


class Found(unittest.TestCase):
    def test_trailing_whitespace_at_its_column(self):
        self.assertEqual(found("Text.  \nMore.\t\n\n"), [("trailing-whitespace", 1, 6), ("trailing-whitespace", 2, 6), ("tab", 2, 6)])

    def test_tab_anywhere(self):
        self.assertEqual(found("- a\n\n\tindented\n", frozenset({"tab"})), [("tab", 3, 1)])

    def test_lone_carriage_return_but_not_crlf(self):
        self.assertEqual(found("One\rTwo\n", frozenset({"carriage-return"})), [("carriage-return", 1, 4)])
        self.assertEqual(found("One\r\nTwo\r\n", frozenset({"carriage-return"})), [])

    def test_missing_final_newline(self):
        self.assertEqual(found("Text.", frozenset({"missing-final-newline"})), [("missing-final-newline", 1, 6)])
        self.assertEqual(found("Text.\n", frozenset({"missing-final-newline"})), [])
        self.assertEqual(found("", frozenset({"missing-final-newline"})), [])

    def test_line_too_long_is_off_by_default_and_spares_what_cannot_be_broken(self):
        long_prose = ("word " * 20).rstrip() + "\n"
        self.assertEqual(found(long_prose, rules.DEFAULTS), [])
        self.assertEqual(found(long_prose, frozenset({"line-too-long"})), [("line-too-long", 1, 80)])
        spared = (
            "x" * 100 + "\n\n"
            "See https://example.com/" + "a" * 90 + " here.\n\n"
            ".. _target: https://example.com/" + "b" * 90 + "\n\n"
            "Code::\n\n    " + "y " * 60 + "\n\n"
            "+-" + "-" * 90 + "+\n| " + "z" * 90 + "|\n+-" + "-" * 90 + "+\n"
        )
        self.assertEqual(found(spared, frozenset({"line-too-long"})), [])

    def test_line_length_is_the_dialects(self):
        from rst2.api import _dialect

        chosen = _dialect({"dialect": "docutils", "line_length": 10})
        self.assertEqual([i["rule"] for i in problems("A longer line.\n", chosen, frozenset({"line-too-long"}))], ["line-too-long"])

    def test_off_unless_enabled(self):
        # A request that chooses no rules gets the docutils and rst2 families alone: today's answer.
        self.assertEqual(check("Text.  \tand a tab\n"), [])

    def test_suppressed(self):
        text = ".. rst2: disable-next trailing-whitespace\n\nText.  \n"
        self.assertEqual(found(text), [])


class Fixed(unittest.TestCase):
    def test_fixes_leave_what_docutils_reads(self):
        text = "Title  \n=====\n\n- item\n\n\tindented\tquote\n\nOne\rTwo\n\nLast line.   "
        fixed, applied, left = fix_document(text, "docutils", enabled=ALL)
        self.assertEqual([item["rule"] for item in left if item["rule"] in rules.LINT], [])
        self.assertTrue(applied)
        self.assertEqual(body(fixed), body(text))
        self.assertTrue(fixed.endswith("\n"))
        self.assertNotIn("\t", fixed)

    def test_trailing_spaces_in_literal_text_are_a_suggestion(self):
        text = "Code::\n\n    x = 1   \n\nText.  \n"
        fixes = {item["line"]: item["fix"]["applicability"] for item in check(text, enabled=frozenset({"trailing-whitespace"}))}
        self.assertEqual(fixes, {3: "suggested", 5: "safe"})

    def test_each_fix_alone(self):
        for text, rule in (("a\tb\n", "tab"), ("a  \n", "trailing-whitespace"), ("a\rb\n", "carriage-return"), ("a", "missing-final-newline")):
            with self.subTest(rule):
                (item,) = check(text, enabled=frozenset({rule}))
                self.assertEqual(item["fix"]["rule"], rule)
                new, done = apply(text, [item["fix"]])
                self.assertEqual(len(done), 1)
                self.assertEqual(check(new, enabled=frozenset({rule})), [])


if __name__ == "__main__":
    unittest.main()
