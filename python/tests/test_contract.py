"""What Python really does, against the worker contract (rst2/worker.schema.json).

TypeScript's types are generated from the same file and its worker checks
every reply against it (test/unit/contract.test.ts holds that side). Here:
every operation's real replies and every way a job can fail are what the
contract says, Python reads exactly the options it declares with the
defaults it declares, and the lists Python keeps (dialects, message types,
scripts, paths) are the contract's. Each check is shown failing on a
deliberately broken copy, so that it cannot pass by checking nothing.
"""

import copy
import json
import os
import sys
import unittest

from rst2 import api, contract, dialects, messages, render, scripts
from rst2.errors import DocumentError

from .schema_check import problems, reply_problems, unknown_keywords

DEFS = contract.DEFS
OPERATIONS = DEFS["Operation"]["enum"]

PLAIN = "Title\n=====\n\nSome *text*.\n"
# Images with and without alt text, scripts beyond Latin, and problems
# `check` reports (an unknown role, a list that ends without a blank line).
RICH = (
    "Обзор\n=====\n\n"
    ".. image:: https://example.org/a.png\n   :alt: A picture\n\n"
    ".. image:: b.png\n\n"
    "Καλημέρα, 你好, 😀 and :nosuchrole:`x`.\n\n"
    "* one\n* two\nthree\n"
)


def reply(operation, source, options=None):
    return json.loads(api.handle(operation, source, json.dumps(options or {})))


class SchemaTest(unittest.TestCase):
    def test_uses_only_what_both_checkers_know(self):
        for name, schema in DEFS.items():
            self.assertEqual(unknown_keywords(schema, name), [])

    def test_a_keyword_one_checker_would_ignore_is_refused(self):
        broken = copy.deepcopy(DEFS["CheckItem"])
        broken["properties"]["line"]["minimum"] = 1
        self.assertEqual(unknown_keywords(broken, "CheckItem"), ["CheckItem.properties.line: keyword minimum"])

    def test_results_are_declared_for_every_operation(self):
        self.assertEqual(sorted(DEFS["Results"]["properties"]), sorted(OPERATIONS))


class RepliesTest(unittest.TestCase):
    def test_every_operation_in_every_dialect_replies_as_declared(self):
        for operation in OPERATIONS:
            for dialect in contract.DIALECTS:
                for source in (PLAIN, RICH):
                    out = reply(operation, source, {"dialect": dialect})
                    where = "%s %s %r" % (operation, dialect, source[:10])
                    self.assertEqual(reply_problems(DEFS, operation, out), [], where)
                    # Only PyPI refuses, and only the document with problems.
                    self.assertEqual(out["ok"], not (dialect == "pypi" and source is RICH and operation not in ("check", "fix", "conf")), (where, out))
        out = reply("html", RICH, {"base": "https://example.org/docs/"})
        self.assertEqual(reply_problems(DEFS, "html", out), [])

    def test_a_broken_copy_of_a_real_reply_is_refused(self):
        latex = reply("latex", RICH)
        self.assertEqual(reply_problems(DEFS, "latex", latex), [])
        self.assertEqual(latex["result"]["images"][1]["alt"], None)
        check = reply("check", RICH)
        self.assertEqual(reply_problems(DEFS, "check", check), [])
        self.assertTrue(check["result"]["messages"])
        breaks = (
            ("latex", latex, lambda r: r["result"].update(format_preamble=0), "$.result.format_preamble: 0 is not string or null"),
            ("latex", latex, lambda r: r["result"]["images"][0].pop("alt"), "$.result.images[0].alt: missing"),
            ("latex", latex, lambda r: r["result"]["scripts"].append("klingon"), "$.result.scripts[%d]" % len(latex["result"]["scripts"])),
            ("latex", latex, lambda r: r["result"].update(pages=3), "$.result.pages: not in the contract"),
            ("latex", latex, lambda r: r["result"].update(replaced_characters=True), "$.result.replaced_characters: True is not integer"),
            ("check", check, lambda r: r["result"]["messages"][0].update(type="notice"), "$.result.messages[0].type"),
            ("check", check, lambda r: r.update(result=r["result"]["messages"]), "$.result: "),
            ("check", check, lambda r: r.update(ok=False), "$.ok: must be true"),
        )
        for operation, real, damage, expected in breaks:
            broken = copy.deepcopy(real)
            damage(broken)
            found = reply_problems(DEFS, operation, broken)
            self.assertTrue(any(p.startswith(expected) for p in found), (expected, found))

    def test_every_way_a_job_fails_replies_as_declared(self):
        def failing(error):
            def operation(source, options):
                raise error

            return operation

        document_codes = sorted(contract.FAILURE_CODES - {"internal"})
        cases = [(DocumentError(code, "x"), code) for code in document_codes] + [
            (RecursionError(), "document_too_deep"),
            (MemoryError(), "document_too_large"),
            (KeyboardInterrupt(), "render_timeout"),
            (ValueError("ours"), "internal"),
        ]
        saved = api.OPERATIONS["html"]
        try:
            for error, code in cases:
                api.OPERATIONS["html"] = failing(error)
                out = reply("html", PLAIN)
                self.assertEqual(reply_problems(DEFS, "html", out), [], code)
                self.assertEqual(out["code"], code)
                self.assertEqual(out["trace"] is not None, code == "internal", code)
        finally:
            api.OPERATIONS["html"] = saved
        # And real documents that fail, each with its own code.
        deep = "".join("  " * i + "* x\n\n" for i in range(400))
        for operation, source, options, code in (
            ("html", deep, {}, "document_too_deep"),
            ("html", "|s0|\n\n.. |s0| replace:: |s1| x\n.. |s0| replace:: |s1| x\n", {}, "docutils_failed"),
            ("latex", RICH, {"dialect": "pypi"}, "pypi_refused"),
            ("latex", PLAIN, {"class": "no-such-class"}, "internal"),
        ):
            out = reply(operation, source, options)
            self.assertEqual(reply_problems(DEFS, operation, out), [], code)
            self.assertEqual(out["code"], code)

    def test_a_code_outside_the_contract_is_refused_where_it_is_raised(self):
        for code in ("made_up", "internal", "overloaded"):
            with self.assertRaises(ValueError, msg=code):
                DocumentError(code, "x")
        broken = {"ok": False, "code": "made_up", "message": "x", "trace": None}
        self.assertTrue(reply_problems(DEFS, "html", broken)[0].startswith("$.code: 'made_up' is not one of"))


class Recording(dict):
    """Options that note which of them Python asks for."""

    def __init__(self, *args):
        super().__init__(*args)
        self.read = set()

    def get(self, key, default=None):
        self.read.add(key)
        return super().get(key, default)

    def __getitem__(self, key):
        self.read.add(key)
        return super().__getitem__(key)

    def __contains__(self, key):
        self.read.add(key)
        return super().__contains__(key)


def declared_options(operation):
    job = next(j for j in DEFS["Job"]["oneOf"] if j["properties"]["op"]["const"] == operation)
    return DEFS[job["properties"]["options"]["$ref"][len("#/$defs/"):]]["properties"]


class OptionsTest(unittest.TestCase):
    def test_python_reads_exactly_the_options_declared(self):
        for operation in OPERATIONS:
            options = Recording()
            api.OPERATIONS[operation](PLAIN, options)
            self.assertEqual(sorted(options.read), sorted(declared_options(operation)), operation)

    def test_an_option_python_reads_beyond_the_contract_is_found(self):
        options = Recording()
        options.get("paper")
        self.assertNotEqual(sorted(options.read), sorted(declared_options("check")))

    def test_an_absent_option_means_its_declared_default(self):
        for operation in OPERATIONS:
            if not declared_options(operation):
                continue  # conf takes none
            defaults = {name: spec["default"] for name, spec in declared_options(operation).items() if "default" in spec}
            self.assertTrue(defaults, operation)
            self.assertEqual(reply(operation, RICH), reply(operation, RICH, defaults), operation)


# Each list Python keeps, against the contract's (given as a parameter, so
# that a broken copy can be given instead).
def dialect_problems(defs):
    names = defs["Dialect"]["enum"]
    return [] if sorted(dialects._BY_NAME) == sorted(names) and all(dialects.get(n).name == n for n in names) else ["dialects"]


def message_type_problems(defs):
    reported = [messages.TYPES[level] for level in range(messages.REPORTED_LEVEL, max(messages.TYPES) + 1)]
    return [] if reported == defs["CheckItem"]["properties"]["type"]["enum"] else ["message types"]


def script_problems(defs):
    return [] if sorted(scripts.REPORTED) == sorted(defs["Script"]["enum"]) else ["scripts"]


def failure_code_problems(defs):
    return [] if "internal" in defs["FailureCode"]["enum"] and set(defs["FailureCode"]["enum"]) == contract.FAILURE_CODES else ["codes"]


LISTS = (dialect_problems, message_type_problems, script_problems, failure_code_problems)


class ListsTest(unittest.TestCase):
    def test_the_lists_python_keeps_are_the_contracts(self):
        self.assertEqual(dialects.NAMES, contract.DIALECTS)
        for check in LISTS:
            self.assertEqual(check(DEFS), [], check.__name__)

    def test_each_list_check_fails_on_a_broken_copy(self):
        breaks = {
            dialect_problems: lambda d: d["Dialect"]["enum"].remove("pypi"),
            message_type_problems: lambda d: d["CheckItem"]["properties"]["type"]["enum"].reverse(),
            script_problems: lambda d: d["Script"]["enum"].append("klingon"),
            failure_code_problems: lambda d: d["FailureCode"]["enum"].remove("internal"),
        }
        self.assertEqual(set(breaks), set(LISTS))
        for check, damage in breaks.items():
            broken = copy.deepcopy(DEFS)
            damage(broken)
            self.assertNotEqual(check(broken), [], check.__name__)

    @unittest.skipUnless(sys.platform == "emscripten", "the paths are Pyodide's")
    def test_python_finds_its_files_at_the_contracts_paths(self):
        paths = contract.PATHS
        self.assertEqual(os.path.dirname(os.path.dirname(os.path.abspath(contract.__file__))), paths["python"])
        self.assertEqual(render.STYLES_DIR, paths["styles"])
        self.assertEqual(scripts.TABLE_PATH, paths["scripts_table"])
        self.assertTrue(os.path.isfile(os.path.join(paths["styles"], "latex", "classes.txt")))


if __name__ == "__main__":
    unittest.main()
