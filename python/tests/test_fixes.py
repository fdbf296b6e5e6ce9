import unittest

from rst2.check import check as plain_check
from rst2.fixes import check, fix_document
from rst2.fixes.edits import apply

# (mistake, the document as its author meant it, applicability of the fix)
CASES = {
    "underline": ("Title long\n=====\n\ntext\n", "Title long\n==========\n\ntext\n", "safe"),
    "underline, wide characters": ("日本語の題\n=====\n\ntext\n", "日本語の題\n==========\n\ntext\n", "safe"),
    "overline": ("=====\nTitle long\n=====\n\ntext\n", "==========\nTitle long\n==========\n\ntext\n", "safe"),
    "mismatch": ("=====\nTitle\n-----\n\ntext\n", "=====\nTitle\n=====\n\ntext\n", "safe"),
    "explicit markup": (".. note:: x\nfoo\n", ".. note:: x\n\nfoo\n", "safe"),
    "bullet list": ("* a\n* b\nc\n", "* a\n* b\n\nc\n", "safe"),
    "block quote": ("para\n\n  quote\nc\n", "para\n\n  quote\n\nc\n", "safe"),
    "indentation": ("para one\nline two\n  indented\n", "para one\nline two\n\n  indented\n", "safe"),
    "emphasis on a later line": ("line one\nsome *emph text\nend\n", "line one\nsome \\*emph text\nend\n", "safe"),
    "emphasis broken by a space": ("a *broken emphasis * here\n", "a *broken emphasis* here\n", "suggested"),
    "literal broken by a space": ("the ``code ``, said\n", "the ``code``, said\n", "suggested"),
    "literal": ("x ``lit and more\n", "x \\`\\`lit and more\n", "safe"),
    "interpreted": ("x `interp and\n", "x \\`interp and\n", "safe"),
    "target": ("see Foo_\n\n.. _Fo: http://x\n", "see Fo_\n\n.. _Fo: http://x\n", "suggested"),
    "phrase target": ("see `Bar baz`_\n\n.. _bar bz: http://y\n", "see `Bar bz`_\n\n.. _bar bz: http://y\n", "suggested"),
    "target, the author's case kept": ("see Flke8_\n\n.. _flake8: http://x\n", "see Flake8_\n\n.. _flake8: http://x\n", "suggested"),
    "indirect target": ("see a_\n\n.. _a: howo_\n.. _howto: http://x\n", "see a_\n\n.. _a: howto_\n.. _howto: http://x\n", "suggested"),
    "anonymous indirect target": ("see `a`__\n\n__ howo_\n.. _howto: http://x\n", "see `a`__\n\n__ howto_\n.. _howto: http://x\n", "suggested"),
    "section target": ("Getting Started\n===============\n\nSee `Getting Stared`_.\n", "Getting Started\n===============\n\nSee `Getting Started`_.\n", "suggested"),
    "role": ("x :emphsis:`y`\n", "x :emphasis:`y`\n", "suggested"),
    "role in capitals, two letters swapped": ("see :PPE:`8`\n", "see :PEP:`8`\n", "suggested"),
    "role of a standard include": (".. include:: <s5defs.txt>\n\n:purpel:`x`\n", ".. include:: <s5defs.txt>\n\n:purple:`x`\n", "suggested"),
    "directive": (".. notee:: hi\n", ".. note:: hi\n", "suggested"),
    "option": (".. image:: a.png\n   :widht: 3\n", ".. image:: a.png\n   :width: 3\n", "suggested"),
    "title level": ("A\n=\n\nB\n-\n\nC\n=\n\nD\n~\n", "A\n=\n\nB\n-\n\nC\n=\n\nD\n-\n", "suggested"),
    "duplicate target": (".. _a: http://x\n.. _a: http://y\n\na_\n", ".. _a: http://x\n.. _a-2: http://y\n\na_\n", "suggested"),
}


class FixTest(unittest.TestCase):
    def test_each_mistake_has_its_fix(self):
        for name, (mistake, meant, applicability) in CASES.items():
            with self.subTest(name):
                problems = check(mistake)
                self.assertTrue(problems, "the mistake is a problem")
                fixes = [p["fix"] for p in problems if "fix" in p]
                self.assertEqual({f["applicability"] for f in fixes}, {applicability})
                fixed, applied, left = fix_document(mistake, unsafe=applicability == "suggested")
                self.assertEqual(fixed, meant)
                self.assertEqual(left, [])
                self.assertTrue(applied)

    def test_safe_fixes_wait_for_unsafe(self):
        mistake, _, _ = CASES["role"]
        fixed, applied, left = fix_document(mistake)
        self.assertEqual((fixed, applied), (mistake, []))
        self.assertEqual(len(left), 1)

    def test_suggested_fixes_wait_for_the_safe_ones(self):
        # The mismatched overline loses "One", so "Two" (=/=, then a new
        # style) skips from level 1 to 3; the overline's safe fix ends both
        # problems, and the suggested level change for "Two" must not be
        # applied with it.
        meant = "=====\nOne\n=====\n\nA\n=\n\nB\n-\n\nC\n=\n\n=====\nTwo\n=====\n\ntext\n"
        mistake = "====" + meant[5:]
        self.assertTrue(any(p["message"].startswith("Inconsistent title style") and "fix" in p for p in check(mistake)))
        fixed, _, left = fix_document(mistake, unsafe=True)
        self.assertEqual((fixed, left), (meant, []))

    def test_fixing_is_idempotent(self):
        for name, (mistake, _, _) in CASES.items():
            with self.subTest(name):
                once, _, _ = fix_document(mistake, unsafe=True)
                twice, applied, _ = fix_document(once, unsafe=True)
                self.assertEqual((twice, applied), (once, []))

    def test_problems_and_fields_are_those_of_check(self):
        # The fix is one more field; every other field is check's own.
        for mistake, _, _ in CASES.values():
            self.assertEqual([{k: v for k, v in p.items() if k not in ("fix", "rule", "column")} for p in check(mistake)], plain_check(mistake))

    def test_every_problem_of_a_kind_in_one_paragraph(self):
        fixed, applied, left = fix_document("a *b and *c, then ``d\n")
        self.assertEqual((fixed, len(applied), left), ("a \\*b and \\*c, then \\`\\`d\n", 3, []))

    def test_line_endings_are_the_documents(self):
        fixed, _, left = fix_document("Title long\r\n=====\r\n\r\n* a\r\nb\r\n")
        self.assertEqual((fixed, left), ("Title long\r\n==========\r\n\r\n* a\r\n\r\nb\r\n", []))

    def test_lines_are_docutils_lines(self):
        # docutils reads a form feed as a space, not as a line break: the
        # fix's line is the line check reports.
        [problem] = check("A\fB\n\n* a\nb\n")
        self.assertEqual((problem["line"], problem["fix"]["edits"][0]["line"]), (4, 4))
        fixed, _, left = fix_document("A\fB\n\n* a\nb\n")
        self.assertEqual((fixed, left), ("A\fB\n\n* a\n\nb\n", []))

    def test_columns_count_code_points(self):
        # An emoji is one column (one code point); the LSP converts to UTF-16.
        [problem] = check("🎉 *party\n")
        self.assertEqual(problem["fix"]["edits"], [{"line": 1, "column": 3, "endLine": 1, "endColumn": 4, "text": "\\*"}])

    def test_overlapping_fixes_wait_for_the_next_pass(self):
        a = {"description": "a", "applicability": "safe", "edits": [{"line": 1, "column": 1, "endLine": 1, "endColumn": 3, "text": "X"}]}
        b = {"description": "b", "applicability": "safe", "edits": [{"line": 1, "column": 2, "endLine": 1, "endColumn": 4, "text": "Y"}]}
        c = {"description": "c", "applicability": "safe", "edits": [{"line": 2, "column": 1, "endLine": 2, "endColumn": 1, "text": "Z"}]}
        self.assertEqual(apply("abcd\nef\n", [a, b, c]), ("Xcd\nZef\n", [a, c]))

    def test_a_sphinx_name_in_a_docutils_document_gets_no_look_alike(self):
        # :ref: is Sphinx's; "rfc" would be a wrong guess: the dialect is what to change.
        [problem] = check("See :ref:`install`.\n")
        self.assertNotIn("fix", problem)
        [problem] = check(".. toctree::\n")
        self.assertNotIn("fix", problem)

    def test_trials_are_bounded(self):
        # Each inline fix is tried on its block: a document of many unmatched
        # stars must not cost a trial per star. Every problem is still
        # reported; past the budget, without a fix.
        from rst2 import fixes

        text = "\n\n".join("para %d *x" % i for i in range(fixes.MAX_TRIALS * 2)) + "\n"
        problems = check(text)
        self.assertEqual(len(problems), fixes.MAX_TRIALS * 2)
        with_fix = [p for p in problems if "fix" in p]
        self.assertTrue(0 < len(with_fix) <= fixes.MAX_TRIALS)
        # A block too long to try is reported without a fix.
        [long_one] = check("*x " + "word " * 2000 + "\n")
        self.assertNotIn("fix", long_one)

    def test_a_name_of_its_own_is_no_typo(self):
        # CPython's :opcode: role and deprecated-removed directive are two
        # and eight edits from "code" and "deprecated": names of their own.
        for text in (":opcode:`NOP`\n", ".. deprecated-removed:: 3.12 3.14\n\n   Gone.\n"):
            with self.subTest(text):
                [problem] = check(text, "sphinx")
                self.assertNotIn("fix", problem)

    def test_the_fewest_typos_win(self):
        from rst2.fixes.names import closest

        self.assertEqual(closest("ppe", {"pep", "purple"}), "pep")
        self.assertEqual(closest("widht", {"width", "height", "align"}), "width")
        self.assertIsNone(closest("opcode", {"code", "option"}))

    def test_a_markdown_code_fence_is_not_escaped(self):
        # One backslash in three backticks would hide that the text is Markdown.
        problems = check("Intro.\n\n```python\nimport os\n\nprint(os)\n```\n")
        self.assertTrue(problems)
        self.assertEqual([p for p in problems if "fix" in p], [])

    def test_no_fix_is_offered_where_none_is_known(self):
        problems = check(".. include:: other.rst\n")
        self.assertTrue(problems)
        self.assertNotIn("fix", problems[0])


if __name__ == "__main__":
    unittest.main()
