"""Every problem check reports is named by a rule of rst2.rules, and the level fallbacks stay rare."""

import pathlib
import re
import unittest

from rst2 import rules
from rst2.fixes import check

HERE = pathlib.Path(__file__).parent

# One document per mistake, with the rule its first problem must carry: the
# issue's examples and docutils' frequent messages.
MISTAKES = [
    ("Long title\n=====\n", "title-underline-too-short"),
    ("=====\nTitle\n===\n\nText.\n", "title-overline-mismatch"),
    ("=====\nLong title\n=====\n\nText.\n", "title-overline-too-short"),
    ("A\n=\n\nB\n-\n\nC\n=\n\nD\n~\n", "inconsistent-title-style"),
    ("Text :unknownrole:`x`.\n", "unknown-role"),
    (".. nosuchdirective::\n", "unknown-directive"),
    ("See nowhere_.\n", "unknown-target"),
    ("Text *emphasis.\n", "inline-start-without-end"),
    ("Text ``literal.\n", "inline-start-without-end"),
    ("Text |nosub|.\n", "undefined-substitution"),
    (".. _a: http://a.example\n.. _a: http://b.example\n", "duplicate-target"),
    ("- item\ntext\n", "blank-line-after-block"),
    ("Line one\nline two\n    indented\n", "unexpected-indentation"),
    ("Para::\n\nNext.\n", "literal-block-expected"),
    (".. note::\n   :nosuch: 1\n\n   Text.\n", "unknown-option"),
    (".. image::\n", "directive-arguments"),
    (".. note::\n", "directive-content"),
    (".. |a| replace:: x\n.. |a| replace:: y\n\n|a|\n", "duplicate-substitution"),
    ("Text [#]_.\n", "footnote-reference-mismatch"),
    ("`a`__ and `b`__\n\n__ http://a.example\n", "anonymous-reference-mismatch"),
    ("+---+\n| a |\n+--\n", "malformed-table"),
    ("Text\n\n----\n\n----\n\nText\n", "misplaced-transition"),
    (".. |a| replace::\n\n|a|\n", "invalid-substitution"),
    (".. include:: /no/such/file.rst\n", "directive-disabled"),
]


def problems(text, dialect="docutils"):
    return check(text, dialect)


class RuleTable(unittest.TestCase):
    def test_codes_are_unique_kebab_case(self):
        self.assertEqual(len(rules.CODES), len(set(rules.CODES)))
        for code in rules.CODES:
            self.assertRegex(code, r"^[a-z]+(-[a-z]+)*$")

    def test_fixes_named_by_rules_exist(self):
        from rst2.fixes import RULES as FIXES

        fix_codes = {fix.code for fix in FIXES}
        # A lint rule's fix is made with its finding (rst2.lint), under the rule's own code.
        named = {rule.fix for rule in rules.RULES if rule.fix and rule.code not in rules.LINT}
        self.assertEqual({rule.fix for rule in rules.RULES if rule.fix and rule.code in rules.LINT} - {rule.code for rule in rules.RULES}, set())
        self.assertEqual(named, fix_codes)

    def test_every_rule_but_the_fallbacks_and_our_own_has_a_pattern(self):
        github = {"github-unknown-directive", "github-raw-emptied", "github-include", "github-contents-links"}
        self.assertEqual(rules.OWN, {"unused-suppression", "image-without-alt"} | github)
        for rule in rules.RULES:
            named_by_message = rule.code not in rules.FALLBACK.values() and rule.code not in rules.OWN and rule.code not in rules.LINT
            self.assertEqual(bool(rule.patterns), named_by_message, rule.code)

    def test_families(self):
        self.assertEqual({rule.family for rule in rules.RULES} - {"docutils", "rst2", "code", "markup", "whitespace"}, set())
        # A request that chooses no rules gets exactly what it got before the lint families.
        self.assertEqual(rules.API_DEFAULTS, {rule.code for rule in rules.RULES if rule.default and rule.family in ("docutils", "rst2")})
        self.assertLess(rules.API_DEFAULTS, rules.DEFAULTS)

    def test_lint_rules_are_found_by_a_checker(self):
        from rst2 import lint

        self.assertEqual(rules.LINT, lint.codes())


class NamedProblems(unittest.TestCase):
    def test_each_mistake_is_named(self):
        for text, expected in MISTAKES:
            with self.subTest(expected):
                found = problems(text)
                self.assertTrue(found, text)
                self.assertIn(expected, [item["rule"] for item in found], found)

    def test_every_item_has_a_rule_and_keeps_its_other_fields(self):
        for item in problems("Title\n===\n\nSee :bad:`x` and nowhere_.\n"):
            self.assertIn(item["rule"], rules.CODES)
            self.assertLessEqual({"message", "type", "line", "context", "rule"}, set(item))

    def test_fix_rule_keeps_its_own_code(self):
        (item,) = problems("Long title\n=====\n")
        self.assertEqual(item["rule"], "title-underline-too-short")
        self.assertEqual(item["fix"]["rule"], "title-underline")

    def test_unmatched_message_falls_back_by_level(self):
        self.assertEqual(rules.rule_of("Something new.", "warning"), "docutils-warning")
        self.assertEqual(rules.rule_of("Something new.", "error"), "docutils-error")
        self.assertEqual(rules.rule_of("Something new.", "severe"), "docutils-severe")

    def test_fallback_is_rare(self):
        """Over the fixtures, everything.rst and the mistakes, in every dialect: at most 5% fall back (listed on failure)."""
        texts = [p.read_text(encoding="utf-8") for p in sorted((HERE / "fixtures").rglob("*.rst"))]
        texts.append((HERE / "everything.rst").read_text(encoding="utf-8"))
        texts.extend(text for text, _ in MISTAKES)
        total, fallen = 0, []
        for dialect in ("docutils", "sphinx", "pypi"):
            for text in texts:
                for item in problems(text, dialect):
                    total += 1
                    if item["rule"] in rules.FALLBACK.values():
                        fallen.append((dialect, item["message"]))
        self.assertGreater(total, 100)
        self.assertLessEqual(len(fallen), total * 0.05, fallen)


DOCS_PAGE = HERE.parent.parent / "docs" / "rules.rst"
ROW = re.compile(r"^``([a-z-]+)``\n-+\n\n(.+)\n\n:Default: (on|off)\n:Fix: (?:``([a-z-]+)``|none)$", re.M)


class DocsPage(unittest.TestCase):
    @unittest.skipUnless(DOCS_PAGE.exists(), "docs/ is not beside python/ (Pyodide's copy)")
    def test_docs_page_lists_the_table(self):
        page = [(code, summary, state == "on", fix) for code, summary, state, fix in ROW.findall(DOCS_PAGE.read_text(encoding="utf-8"))]
        self.assertEqual(page, [(r["code"], r["summary"], r["default"], r["fix"] or "") for r in rules.table()])

    def test_table_is_plain_data(self):
        rows = rules.table()
        self.assertEqual([row["code"] for row in rows], list(rules.CODES))
        for row in rows:
            self.assertTrue(row["summary"].endswith("."), row)
            self.assertIsInstance(row["default"], bool)
            # Every rule of docutils' messages is on: a problem docutils reports is one.
            if row["family"] in ("docutils", "rst2"):
                self.assertIs(row["default"], True)


if __name__ == "__main__":
    unittest.main()
