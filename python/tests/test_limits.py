import json
import unittest

from docutils import nodes

from rst2 import api, limits
from rst2.errors import DocumentError

OPERATIONS = ("html", "latex", "check")


def substitution_bomb(text_length, uses):
    """One long substitution used many times: tiny source, large expansion."""
    words = ("x" * 89 + " ") * (text_length // 90)
    lines = ["|a| " * 100] * (uses // 100)
    return ".. |a| replace:: %s\n\n%s\n" % (words, "\n".join(lines))


def exponential_bomb(depth):
    defs = ["|s%d| replace:: |s%d| |s%d| |s%d|" % (i, i + 1, i + 1, i + 1) for i in range(depth)]
    return "".join(".. %s\n" % d for d in defs) + ".. |s%d| replace:: boom\n\n|s0|\n" % depth


def nested_quotes(levels):
    """Each paragraph one space deeper than the last: a block quote in the previous one."""
    return "\n".join(" " * i + "level %d\n" % i for i in range(levels))


class Bounded(unittest.TestCase):
    """Runs each test with the limits it sets, then restores the interpreter's."""

    def setUp(self):
        saved = limits.current()
        self.addCleanup(lambda: limits.configure(**saved))

    def handle(self, operation, source):
        return json.loads(api.handle(operation, source))

    def assertRefused(self, source, code, operations=OPERATIONS):
        for operation in operations:
            out = self.handle(operation, source)
            self.assertFalse(out["ok"], operation)
            self.assertEqual(out["code"], code, "%s: %s" % (operation, out))
        return out["message"]

    def assertRenders(self, source, operations=OPERATIONS):
        for operation in operations:
            out = self.handle(operation, source)
            self.assertTrue(out["ok"], "%s: %s" % (operation, out))


class NestingDepthTest(unittest.TestCase):
    def test_counts_levels_of_indentation_not_columns(self):
        self.assertEqual(limits.nesting_depth("Title\n=====\n\ntext\n"), 0)
        self.assertEqual(limits.nesting_depth("* a\n\n  * b\n\n    * c\n"), 2)
        self.assertEqual(limits.nesting_depth("para\n\n          quoted ten columns in\n"), 1)
        self.assertEqual(limits.nesting_depth(nested_quotes(40)), 39)

    def test_a_shallower_line_closes_the_levels_it_leaves(self):
        src = "".join("* item %d\n\n  * inner\n\n    more\n\n" % i for i in range(100))
        self.assertEqual(limits.nesting_depth(src), 2)

    def test_tabs_count_as_docutils_expands_them(self):
        self.assertEqual(limits.nesting_depth("a\n\n\tb\n\n\t  c\n\n        d\n"), 2)


class NestingLimitTest(Bounded):
    def test_deeper_than_the_limit_is_refused_before_parsing(self):
        limits.configure(max_nesting_depth=10)
        message = self.assertRefused(nested_quotes(2000), "document_too_deep")
        self.assertIn("nested too deeply", message)
        self.assertIn("1999 levels", message)
        self.assertIn("10 allowed", message)
        self.assertRefused("".join("%s* level %d\n\n" % ("  " * i, i) for i in range(12)), "document_too_deep")

    def test_up_to_the_limit_renders(self):
        limits.configure(max_nesting_depth=10)
        self.assertRenders(nested_quotes(11))


class SubstitutionLimitTest(Bounded):
    def test_a_long_substitution_used_often_is_refused_before_it_is_expanded(self):
        # 38 KB of source, 63 MB of text once expanded.
        source = substitution_bomb(9000, 7000)
        self.assertLess(len(source), 40000)
        limits.configure(max_output_bytes=16 * 1024 * 1024)
        message = self.assertRefused(source, "output_too_large")
        self.assertIn("substitutions", message)
        self.assertIn("16.0 MiB (16777216 bytes)", message)

    def test_exponential_substitutions_are_refused_at_once(self):
        limits.configure(max_output_bytes=1024 * 1024)
        self.assertRefused(exponential_bomb(30), "output_too_large")

    def test_substitutions_within_the_limit_render(self):
        limits.configure(max_output_bytes=1024 * 1024)
        source = substitution_bomb(900, 200)
        for operation in OPERATIONS:
            out = self.handle(operation, source)
            self.assertTrue(out["ok"], out)
        self.assertGreater(len(self.handle("html", source)["result"]["html"]), 900 * 200)

    def test_the_estimate_follows_nested_definitions(self):
        # Each level triples the text: 3^6 * 1,000 characters is past 512 KiB,
        # though no single definition is long.
        chain = "".join(".. |s%d| replace:: |s%d| |s%d| |s%d|\n" % (i, i + 1, i + 1, i + 1) for i in range(6))
        source = chain + ".. |s6| replace:: %s\n\n|s0|\n" % ("y" * 1000)
        limits.configure(max_output_bytes=512 * 1024)
        self.assertRefused(source, "output_too_large", ("check",))
        limits.configure(max_output_bytes=4 * 1024 * 1024)
        self.assertRenders(source, ("check",))

    def test_circular_and_undefined_substitutions_are_left_to_docutils(self):
        limits.configure(max_output_bytes=1024 * 1024)
        source = ".. |a| replace:: x |b|\n.. |b| replace:: y |a|\n\n|a| |nowhere|\n"
        messages = [m["message"] for m in self.handle("check", source)["result"]["messages"]]
        self.assertTrue(any("Circular substitution" in m for m in messages), messages)
        self.assertTrue(any('Undefined substitution referenced: "nowhere"' in m for m in messages), messages)

    def test_a_long_chain_of_definitions_is_sized_without_recursion(self):
        count = 3000
        defs = {"s%d" % i: _definition(reference="s%d" % (i + 1)) for i in range(count)}
        defs["s%d" % count] = _definition(text="end")
        sizes = limits._expanded_sizes(defs, lambda ref: ref["refname"])
        self.assertEqual(sizes["s0"], sizes["s%d" % count])
        self.assertEqual(sizes["s0"], len("end") + limits.NODE_BYTES)


def _definition(text=None, reference=None):
    definition = nodes.substitution_definition()
    if reference:
        definition += nodes.substitution_reference("|%s|" % reference, reference, refname=reference)
    else:
        definition += nodes.Text(text)
    return definition


class OutputLimitTest(Bounded):
    def test_output_past_the_limit_is_refused(self):
        # Pygments wraps every token of a code block in markup.
        code = ".. code:: python\n\n" + "".join("   x%d = [a, b, c, d]\n" % i for i in range(300))
        limits.configure(max_output_bytes=64 * 1024)
        out = self.handle("html", code)
        self.assertEqual(out["code"], "output_too_large", out)
        self.assertIn("The rendered document would be", out["message"])
        self.assertIn("(65536 bytes)", out["message"])
        limits.configure(max_output_bytes=None)
        self.assertGreater(len(self.handle("html", code)["result"]["html"]), 64 * 1024)

    def test_bytes_are_counted_not_characters(self):
        limits.configure(max_output_bytes=1000)
        for fits, too_large in (("a" * 1000, "a" * 1001), ("é" * 500, "é" * 501)):
            for encode in (str, lambda text: text.encode("utf-8")):
                limits.check_output(encode(fits))
                with self.assertRaises(DocumentError) as ctx:
                    limits.check_output(encode(too_large))
                self.assertEqual(ctx.exception.code, "output_too_large")

    def test_non_ascii_output_near_the_limit(self):
        source = "Überschrift\n===========\n\n" + "Grüße aus Köln. " * 2000 + "\n"
        size = len(json.loads(api.handle("html", source))["result"]["html"].encode("utf-8"))
        limits.configure(max_output_bytes=size + 1024)
        self.assertRenders(source, ("html", "latex"))
        limits.configure(max_output_bytes=size - 1024)
        self.assertRefused(source, "output_too_large", ("html",))

    def test_unconfigured_means_unbounded(self):
        limits.configure()
        self.assertEqual(limits.current(), {"max_output_bytes": None, "max_nesting_depth": None})
        self.assertRenders(nested_quotes(60), ("check",))


class WritingLimitTest(Bounded):
    """The writer stops once its output passes the limit, not after writing all of it."""

    # 300 KB of source that Pygments turns into 10 MB of HTML.
    CODE = ".. code:: python\n\n" + "".join("   x%d = [a, b, c, d]\n" % i for i in range(12000))

    def test_the_writer_stops_at_the_limit(self):
        limits.configure(max_output_bytes=64 * 1024)
        for operation in ("html", "latex"):
            source = self.CODE.replace(".. code:: python", ".. code:: python\n   :number-lines:")
            out = self.handle(operation, source)
            self.assertEqual(out["code"], "output_too_large", "%s: %s" % (operation, out))
            # Only a refusal after the whole output was written could name its size.
            self.assertIn("would be more than 0.1 MiB (65536 bytes)", out["message"], operation)

    def test_every_dialect_is_bounded(self):
        limits.configure(max_output_bytes=64 * 1024)
        for dialect in ("docutils", "sphinx", "pypi"):
            out = json.loads(api.handle("html", self.CODE, json.dumps({"dialect": dialect})))
            self.assertEqual(out["code"], "output_too_large", "%s: %s" % (dialect, out))
            self.assertIn("would be more than", out["message"], dialect)


class LineNumbersTest(Bounded):
    """Line numbers are padded to the widest, so their width is bounded at parse time."""

    LINES = "".join("   x\n" for _ in range(20000))

    def assertShownWithError(self, source, dialect="docutils", needle="a line number may be at most 2147483647"):
        for operation in OPERATIONS:
            out = json.loads(api.handle(operation, source, json.dumps({"dialect": dialect})))
            self.assertTrue(out["ok"], "%s: %s" % (operation, str(out)[:300]))
            text = json.dumps(out["result"])
            self.assertLess(len(text), 4 * 1024 * 1024, operation)
            self.assertIn(needle, text, operation)
            if operation != "check":
                self.assertIn("After.", text, operation)

    def test_a_4000_digit_start_is_an_error_in_the_document(self):
        limits.configure(max_output_bytes=32 * 1024 * 1024)
        huge = "9" * 4000
        self.assertShownWithError(".. code:: text\n   :number-lines: %s\n\n%s\nAfter.\n" % (huge, self.LINES))
        for directive, dialect in (("code-block", "sphinx"), ("sourcecode", "docutils")):
            source = ".. %s:: text\n   :lineno-start: %s\n\n%s\nAfter.\n" % (directive, huge, self.LINES)
            self.assertShownWithError(source, dialect)

    def test_the_bound_is_teXs_largest_number(self):
        for value, allowed in (("2147483647", True), ("-2147483647", True), ("2147483648", False), ("-2147483648", False)):
            source = ".. code:: text\n   :number-lines: %s\n\n   x\n\nAfter.\n" % value
            html = json.loads(api.handle("html", source))["result"]["html"]
            self.assertEqual('class="system-message"' not in html, allowed, value)
        html = json.loads(api.handle("html", ".. code:: text\n   :number-lines: seven\n\n   x\n"))["result"]["html"]
        self.assertIn("non-integer start value", html)

    def test_standard_includes_are_bounded_too(self):
        source = ".. include:: <isonum.txt>\n   :literal:\n   :number-lines: %s\n\nAfter.\n" % ("9" * 4000)
        self.assertShownWithError(source)


class UserCountsTest(Bounded):
    """Sphinx options whose numbers or text were repeated without bound."""

    def test_emphasize_lines_are_ranges_not_lists(self):
        from rst2.dialects.sphinx.code_blocks import parse_line_numbers

        self.assertEqual(parse_line_numbers("1,3-5,8-", 10), [(1, 1), (3, 5), (8, 10)])
        self.assertEqual(parse_line_numbers("-2", 10), [(1, 2)])
        self.assertEqual(parse_line_numbers("1-%d" % 10**15, 1), [(1, 10**15)])
        for bad in ("3-1", "1-2-3", "-", "x", "1,,2"):
            with self.assertRaises(ValueError, msg=bad):
                parse_line_numbers(bad, 10)

    def test_a_huge_emphasized_range_warns_and_shows_the_block(self):
        limits.configure(max_output_bytes=32 * 1024 * 1024)
        # 1-50000000 took 1.9 GB; a range this long cannot even be listed.
        source = ".. code-block:: python\n   :emphasize-lines: 1-%d\n\n   spam = 1\n\nAfter.\n" % 10**15
        for operation in OPERATIONS:
            out = json.loads(api.handle(operation, source, json.dumps({"dialect": "sphinx"})))
            self.assertTrue(out["ok"], "%s: %s" % (operation, str(out)[:300]))
            text = json.dumps(out["result"])
            self.assertIn("line number spec is out of range(1-1)", text, operation)
            if operation != "check":
                self.assertIn("spam", text, operation)

    def test_production_padding_is_bounded(self):
        limits.configure(max_output_bytes=32 * 1024 * 1024)
        # 219 KB of source; every continuation line was padded to the 9,000-letter name.
        source = ".. productionlist::\n   %s: x\n" % ("a" * 9000) + "   : y\n" * 30000
        out = json.loads(api.handle("html", source, json.dumps({"dialect": "sphinx"})))
        self.assertTrue(out["ok"], str(out)[:300])
        self.assertLess(len(out["result"]["html"]), 8 * len(source))
        # Short names are still aligned as Sphinx aligns them.
        html = json.loads(api.handle("html", ".. productionlist::\n   ab: x\n   : y\n   abcd: z\n", json.dumps({"dialect": "sphinx"})))["result"]["html"]
        self.assertIn("</strong>   ::= x\n         y\n", html)
