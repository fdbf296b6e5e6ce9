"""Code blocks that do not parse (rst2.lint.code): found at their place in the document, and not where authors show broken code on purpose."""

import unittest

from rst2 import rules
from rst2.fixes import check, problems

ALL = rules.LINT | rules.DEFAULTS


def found(text, dialect="docutils", enabled=ALL):
    return [(item["rule"], item["line"], item["column"]) for item in problems(text, dialect, enabled) if item["rule"].startswith("code-")]


class Languages(unittest.TestCase):
    def test_python_at_its_line_and_column_in_the_document(self):
        text = "Intro.\n\n.. code:: python\n   :number-lines:\n\n   x = 1\n   y = (2,\n"
        self.assertEqual(found(text), [("code-python", 7, 8)])

    def test_in_a_list_and_in_sphinx_code_block(self):
        text = "- item\n\n  .. code-block:: python3\n\n     def f(:\n         pass\n"
        self.assertEqual(found(text, "sphinx"), [("code-python", 5, 12)])
        # docutils 0.23 knows code-block too, as an alias of code.
        self.assertEqual(found(text), [("code-python", 5, 12)])
        # A directive the dialect does not know is reported as unknown; its content is not code.
        self.assertEqual(found(".. testcode::\n\n   x = (\n"), [])
        self.assertEqual(found(".. testcode::\n\n   x = (\n", "sphinx"), [("code-python", 3, 8)])

    def test_sessions_statement_by_statement_with_output_skipped(self):
        text = "Example:\n\n>>> x = [1,\n... 2]\n>>> print(x)\n[1, 2]\n>>> if x\n...     pass\n"
        self.assertEqual(found(text), [("code-python", 7, 9)])

    def test_json_toml_xml(self):
        # A missing colon: every Python puts it just after the key (a trailing comma moved between versions).
        self.assertEqual(found('.. code:: json\n\n   {"a" 1}\n'), [("code-json", 3, 9)])
        self.assertEqual(found(".. code:: toml\n\n   [a]\n   b = = 1\n"), [("code-toml", 4, 8)])
        self.assertEqual([r for r, _, _ in found(".. code:: xml\n\n   <a><b></a>\n")], ["code-xml"])

    def test_nested_rst_with_its_own_problems(self):
        text = ".. code:: rst\n\n   Long title\n   =====\n"
        self.assertEqual([r for r, _, _ in found(text)], ["code-rst"])

    def test_a_language_we_cannot_parse_is_never_reported(self):
        self.assertEqual(found(".. code:: haskell\n\n   main = (((\n"), [])
        self.assertEqual(found(".. code::\n\n   x = (((\n"), [])


class OnPurpose(unittest.TestCase):
    def test_tracebacks_and_errors_shown(self):
        text = ".. code:: python\n\n   Traceback (most recent call last):\n     File \"x.py\", line 1\n       x = (\n   SyntaxError: '(' was never closed\n"
        self.assertEqual(found(text), [])

    def test_session_whose_output_shows_the_error(self):
        text = ">>> x = (\n  File \"<stdin>\", line 1\nSyntaxError: '(' was never closed\n"
        self.assertEqual(found(text), [])

    def test_the_sentence_before_says_it_is_broken(self):
        text = "Consider this code (notice the unclosed brace):\n\n.. code:: python\n\n   d = {1: 2,\n"
        self.assertEqual(found(text), [])

    def test_placeholders(self):
        self.assertEqual(found(".. code:: python\n\n   token = <your-token>\n   def f():\n       ... do something ...\n"), [])
        self.assertEqual(found('.. code:: json\n\n   {"a": 1, ...}\n'), [])
        self.assertEqual(found('.. code:: json\n\n   "part": {"of": "an object"}\n'), [])

    def test_code_in_a_comment_or_literal_block_is_text(self):
        self.assertEqual(found("..\n   .. code:: python\n\n      x = (\n"), [])
        self.assertEqual(found("Example::\n\n   .. code:: python\n\n      x = (\n"), [])


class Choice(unittest.TestCase):
    def test_off_for_a_request_that_chooses_none_and_suppressible(self):
        text = ".. code:: python\n\n   x = (\n"
        self.assertEqual(check(text), [])
        self.assertEqual(found(".. rst2: disable-next code-python\n\n" + text), [])
        self.assertEqual(found(text, enabled=frozenset({"code-json"})), [])

    def test_sphinx_highlight_makes_literal_blocks_code(self):
        text = ".. highlight:: python\n\nExample::\n\n   x = (\n"
        self.assertEqual(found(text, "sphinx"), [("code-python", 5, 8)])
        self.assertEqual(found("Example::\n\n   x = (\n", "sphinx"), [])


if __name__ == "__main__":
    unittest.main()


class GrammarLanguages(unittest.TestCase):
    """Shell, C, C++, JavaScript, TypeScript: what is judged. Their parsers live in the worker (tested over HTTP in test/http-check-code.test.ts)."""

    def test_a_session_is_judged_by_its_commands(self):
        from rst2.lint.code.treesitter import _commands

        session = "$ ./configure \\\n    --prefix=/opt\nchecking for gcc... yes\n(venv) $ make\nuser@host:~/src$ make install\n"
        self.assertEqual(
            _commands(session).split("\n"),
            ["  ./configure \\", "    --prefix=/opt", "", "         make", "                 make install", ""],
        )
        script = "cd build\nmake\n"
        self.assertEqual(_commands(script), script)

    def test_without_the_parsers_nothing_is_reported(self):
        # Native Python has no rst2_syntax module: a language rst2 cannot parse is never reported.
        text = "Example:\n\n.. code:: bash\n\n   echo \"unclosed\n"
        self.assertEqual(found(text), [])

    def test_the_languages_and_their_rules(self):
        from rst2.lint.code import languages

        for name, rule in (("bash", "code-bash"), ("sh", "code-bash"), ("c", "code-c"), ("c++", "code-cpp"), ("js", "code-javascript"), ("ts", "code-typescript")):
            self.assertEqual(languages.get(name).rule, rule)
        self.assertIsNone(languages.get("console"))  # a session with output, not a script
        self.assertNotIn("code-c", rules.DEFAULTS)  # C documentation shows fragments: only when asked
        self.assertIn("code-bash", rules.DEFAULTS)
