"""What a project tells check: declared names, suppression comments, chosen rules, columns, and its conf.py read without running it."""

import json
import unittest

from rst2 import api, dialects
from rst2.fixes import check, fix_document
from rst2.project import declared, sphinx_conf, suppressions


def problems(text, **options):
    reply = json.loads(api.handle("check", text, json.dumps(options)))
    assert reply["ok"], reply
    return reply["result"]["messages"]


def rules_of(text, **options):
    return [(item["line"], item["rule"]) for item in problems(text, **options)]


class DeclaredNames(unittest.TestCase):
    DOC = "See :issue:`12`, |release| and :gh:`4`.\n\n.. availability:: Linux >= 3.2\n   :since: 3.11\n   :flag:\n\n   Text with *broken emphasis.\n\n.. grammar::\n\n   rule ::= *this is not emphasis\n"

    def test_undeclared_names_are_unknown(self):
        rules = [rule for _, rule in rules_of(self.DOC)]
        self.assertEqual(rules.count("unknown-role"), 2)
        self.assertEqual(rules.count("unknown-directive"), 2)
        self.assertIn("undefined-substitution", rules)

    def test_declared_names_are_known_and_content_is_still_checked(self):
        found = rules_of(self.DOC, roles=["issue", "GH"], directives=["availability"], literal_directives=["grammar"], substitutions=["Release"])
        # The availability block's content is parsed: its broken emphasis is found; grammar's is literal.
        self.assertEqual(found, [(7, "inline-start-without-end")])

    def test_a_declared_name_never_replaces_a_known_one(self):
        text = ".. note:: Real note.\n   :nosuch: 1\n\n:emphasis:`x`\n"
        self.assertEqual(rules_of(text, directives=["note"], roles=["emphasis"]), rules_of(text))
        # And the dialect's own tables are left as they were for the next request.
        self.assertNotIn("availability", dialects.get("sphinx").directives)
        declared.dialect_for(dialects.get("sphinx"), directives=["availability"])
        self.assertNotIn("availability", dialects.get("sphinx").directives)

    def test_declared_names_hold_in_every_dialect(self):
        for dialect in ("docutils", "sphinx", "pypi"):
            self.assertEqual(rules_of("Text :issue:`1`.\n", dialect=dialect, roles=["issue"]), [], dialect)

    def test_fix_leaves_declared_names_alone(self):
        text = "Title\n===\n\nSee :isue:`1` and :issue:`2`.\n"
        fixed, _, left = fix_document(text, declared.dialect_for(dialects.get("docutils"), roles=["issue"]), unsafe=True)
        self.assertIn(":issue:`2`", fixed)
        self.assertIn(":issue:`1`", fixed)  # the typo's closest name is the declared one
        self.assertEqual(left, [])


class Suppressions(unittest.TestCase):
    def test_disable_next_covers_the_next_block_and_its_content(self):
        text = (
            "Intro :bad:`x`.\n\n"
            ".. rst2: disable-next unknown-role, unknown-directive\n\n"
            "- item :bad:`y`\n\n"
            "  continued :bad:`z`\n"
            "- item two :bad:`w`\n\n"
            "After :bad:`v`.\n"
        )
        self.assertEqual(rules_of(text), [(1, "unknown-role"), (10, "unknown-role"), (3, "unused-suppression")])

    def test_disable_runs_to_enable_or_the_end(self):
        text = ".. rst2: disable unknown-role\n\nA :bad:`x`.\n\n.. rst2: enable\n\nB :bad:`y`.\n\n.. rst2: disable\n\nC :bad:`z` and |nosub|.\n"
        self.assertEqual(rules_of(text), [(7, "unknown-role")])

    def test_a_prefix_and_all_name_rules(self):
        text = ".. rst2: disable-next title\n\nLong title\n=====\n\n.. rst2: disable-next ALL\n\nText :bad:`x` and |y|.\n"
        self.assertEqual(rules_of(text), [])

    def test_unused_suppressions_are_reported_and_can_be_ignored(self):
        text = ".. rst2: disable-next unknown-role, no-such-rule\n\nFine text.\n"
        found = problems(text)
        self.assertEqual([item["rule"] for item in found], ["unused-suppression", "unused-suppression"])
        self.assertIn('"unknown-role" silenced nothing', found[0]["message"])
        self.assertIn("which is no rule", found[1]["message"])
        self.assertEqual((found[0]["line"], found[0]["column"]), (1, 1))
        enabled = [code for code in __import__("rst2.rules", fromlist=["CODES"]).CODES if code != "unused-suppression"]
        self.assertEqual(problems(text, rules=enabled), [])

    def test_a_section_title_block_is_the_title_alone(self):
        text = ".. rst2: disable-next ALL\n\n======\nTitle\n=====\n\nBody :bad:`x`.\n"
        self.assertEqual(rules_of(text), [(7, "unknown-role")])

    def test_a_simple_table_with_blank_lines_is_one_block(self):
        text = ".. rst2: disable-next unknown-role\n\n=======  =====\nA        B\n=======  =====\n:x:`1`   2\n\n:y:`3`   4\n=======  =====\n\nAfter :z:`5`.\n"
        self.assertEqual(rules_of(text), [(11, "unknown-role")])

    def test_rendering_ignores_the_comments(self):
        from docutils import nodes
        from docutils.core import publish_doctree

        tree = publish_doctree(".. rst2: disable unknown-role\n\nText.\n")
        self.assertEqual([type(child) for child in tree.children], [nodes.comment, nodes.paragraph])

    def test_a_comment_in_a_literal_block_is_text(self):
        text = "Example::\n\n   .. rst2: disable\n\n.. code:: rst\n\n   .. rst2: disable-next unknown-role\n\n.. note::\n\n   .. rst2: disable-next unknown-role\n\n   A :bad:`x`.\n\nB :bad:`y`.\n"
        self.assertEqual(rules_of(text), [(15, "unknown-role")])

    def test_thousands_of_comments_cost_little_and_the_bound_is_said(self):
        import time

        text = ".. rst2: disable unknown-role\n\n" * 20000 + "Text :x:`y`.\n" * 5000
        began = time.perf_counter()
        found = problems(text)
        self.assertLess(time.perf_counter() - began, 30)
        over = [item for item in found if "More than 500" in item["message"]]
        self.assertEqual([item["line"] for item in over], [1001])
        self.assertNotIn("unknown-role", [item["rule"] for item in found])

    def test_comments_inside_one_long_paragraph_stay_linear(self):
        import time

        text = ".. note::\n\n" + "   .. rst2: disable-next unknown-role\n   x :y:`z`\n" * 400
        began = time.perf_counter()
        self.assertNotIn("unknown-role", [rule for _, rule in rules_of(text)])
        self.assertLess(time.perf_counter() - began, 30)

    def test_find_reads_continuation_lines(self):
        found = suppressions.find(".. rst2: disable-next unknown-role,\n   unknown-directive\n\nText.\n")
        self.assertEqual(found[0].names, ("unknown-role", "unknown-directive"))
        self.assertEqual(found[0].ranges, [(4, 4)])


class ChosenRules(unittest.TestCase):
    def test_only_the_enabled_rules_are_reported_and_fixed(self):
        text = "Title\n===\n\nText :bad:`x`.\n"
        self.assertEqual(rules_of(text, rules=["unknown-role"]), [(4, "unknown-role")])
        reply = json.loads(api.handle("fix", text, json.dumps({"rules": ["unknown-role"]})))["result"]
        self.assertEqual(reply["text"], text)  # the too-short underline is not a chosen rule: left as it is
        self.assertEqual(problems(text, rules=[]), [])


class FixLines(unittest.TestCase):
    TEXT = "Title\n====\n\nA *b.\n\nC *d.\n"

    def test_fixes_only_for_the_lines_asked(self):
        every = problems(self.TEXT)
        self.assertEqual([("fix" in item) for item in every], [True, True, True])
        none = problems(self.TEXT, fix_lines=[])
        self.assertEqual([("fix" in item) for item in none], [False, False, False])
        some = problems(self.TEXT, fix_lines=[6, 6])
        self.assertEqual([("fix" in item) for item in some], [False, False, True])
        # The same problems, each field as a check without fix_lines gives it.
        self.assertEqual(some[2], every[2])
        self.assertEqual([{k: v for k, v in item.items() if k != "fix"} for item in none], [{k: v for k, v in item.items() if k != "fix"} for item in every])

    def test_the_last_checks_problems_are_reused_only_for_the_same_text_and_options(self):
        problems(self.TEXT, fix_lines=[])
        self.assertEqual(api._last["key"][0], self.TEXT)
        # Another dialect is another key: its own problems, not the cached ones.
        self.assertEqual(rules_of("See :ref:`x`.\n", fix_lines=[]), [(1, "unknown-role")])
        self.assertEqual(rules_of("See :ref:`x`.\n", dialect="sphinx", fix_lines=[1, 1]), [])


class Columns(unittest.TestCase):
    def test_a_quoted_name_is_placed_where_it_is_written(self):
        found = problems("Some text :nosuch:`x` here.\n\n.. nodirective:: a\n\n   Ünïcode |nosub| x\n\n- Ünïcode |nosub| x\n")
        self.assertEqual([(item["line"], item["column"]) for item in found], [(1, 12), (3, 4), (7, 12)])

    def test_an_unclosed_start_string_is_placed_where_it_opens(self):
        found = problems("Use *args and **kwargs here, or ``x.\n")
        self.assertEqual([(item["message"][:16], item["column"]) for item in found], [("Inline emphasis ", 5), ("Inline strong st", 15), ("Inline literal s", 33)])

    def test_otherwise_the_first_character_of_the_line(self):
        found = problems("Line one\nline two\n    indented\n")
        self.assertEqual([(item["rule"], item["line"], item["column"]) for item in found], [("unexpected-indentation", 3, 5)])


class ConfPy(unittest.TestCase):
    CONF = '''
import os
extensions = ["sphinx.ext.extlinks", "sphinx.ext.todo"]
if os.environ.get("X"):
    extensions.append("sphinx_issues")
extensions += ["unknown.extension"]
extlinks = {"issue": ("https://bugs.python.org/issue?@action=redirect&bpo=%s", "bpo-%s")}
extlinks["gh"] = ("https://github.com/python/cpython/issues/%s", "gh-%s")
rst_prolog = """
.. |python_version_literal| replace:: ``Python 3.11``
.. role:: gh-label
""" + ".. |x| replace:: y\\n"
primary_domain = "py"
default_role = compute_role()
open("/etc/passwd")
'''

    def test_names_come_from_the_literals(self):
        found = sphinx_conf.read(self.CONF)
        self.assertEqual(found["extensions"], ["sphinx.ext.extlinks", "sphinx.ext.todo", "sphinx_issues", "unknown.extension"])
        self.assertEqual(found["roles"], ["commit", "cve", "cwe", "gh", "gh-label", "issue", "pr", "user"])
        self.assertEqual(found["directives"], ["todo", "todolist"])
        self.assertEqual(found["substitutions"], ["python_version_literal", "x"])
        self.assertEqual(found["primary_domain"], "py")
        self.assertIsNone(found["default_role"])
        self.assertEqual([note["line"] for note in found["notes"]], [14])

    def test_nothing_is_run_and_broken_python_is_a_note(self):
        found = sphinx_conf.read("raise SystemExit(1)\nimport os; os._exit(3)\nextensions = [\n")
        self.assertEqual(found["roles"], [])
        self.assertIn("not valid Python", found["notes"][0]["message"])

    def test_values_stay_small_and_odd_ones_are_notes(self):
        source = 'x = "ab"\n' + "x += x\n" * 40 + 'extlinks = {}\nextlinks.update({1: ("a", "b")})\nextlinks[[1]] = 2\nextensions = [[]] + [1]\nrst_prolog = x\n'
        found = sphinx_conf.read(source)
        self.assertEqual(found["substitutions"], [])
        self.assertEqual(found["roles"], [])
        self.assertEqual([note["message"].split()[0] for note in found["notes"]], ["extlinks", "rst_prolog"])

    def test_all_values_together_stay_small(self):
        # Each under MAX_VALUE, together gigabytes: the read stops building at MAX_TOTAL.
        import tracemalloc

        source = "l = ['x']\n" + "l += l\n" * 15 + "".join("b%d = l + l\n" % n for n in range(2000))
        source += "extlinks = {}\n" + "".join("extlinks['k%d'] = ('a', 'b')\n" % n for n in range(3000))
        tracemalloc.start()
        try:
            found = sphinx_conf.read(source + "extensions = ['sphinx.ext.todo']\n")
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        self.assertLess(peak, 200 * 1024 * 1024)
        self.assertIn("todo", found["directives"])
        self.assertIn("extlinks", [note["message"].split()[0] for note in found["notes"]])

    def test_through_the_worker_entry(self):
        reply = json.loads(api.handle("conf", 'extlinks = {"pypi": ("https://pypi.org/project/%s/", "%s")}\n'))
        self.assertEqual(reply["result"]["roles"], ["pypi"])


if __name__ == "__main__":
    unittest.main()
