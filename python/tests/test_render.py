import json
import unittest

from rst2 import api
from rst2.latex_format import MARKER
from rst2.render import latex_classes, render_html, render_latex


class DocutilsCrashTest(unittest.TestCase):
    """Inputs on which docutils 0.19 itself raises (found by bench/fuzz.ts)."""

    # (``:math:`\frac``` was one until math became MathML: docutils'
    # latex2mathml writes an empty fraction where math2html raised.)
    CRASHES = (
        (
            "substitution defined twice, referring to an undefined one",
            "|s0|\n\n.. |s0| replace:: |s1| x\n.. |s0| replace:: |s1| x\n",
            ("html", "check"),
        ),
    )

    def test_docutils_failures_are_document_errors(self):
        for name, source, operations in self.CRASHES:
            for operation in operations:
                out = json.loads(api.handle(operation, source))
                self.assertFalse(out["ok"], name)
                self.assertEqual(out["code"], "docutils_failed", "%s (%s): %s" % (name, operation, out))
                self.assertIn("docutils", out["message"])
                self.assertNotIn("Traceback", out["message"])


    def test_a_fault_of_ours_under_docutils_stays_internal(self):
        import os

        from docutils import nodes, utils

        from rst2 import publish

        # A visitor compiled as if it lived in our package, or elsewhere,
        # called by docutils' walk(). (assertRaises drops the traceback, so
        # the error is caught by hand.)
        code = "class Visitor(nodes.SparseNodeVisitor):\n    def visit_paragraph(self, node):\n        raise ValueError('boom')\n"
        document = utils.new_document("test")
        document += nodes.paragraph(text="x")

        def failure(filename):
            scope = {"nodes": nodes}
            exec(compile(code, filename, "exec"), scope)
            try:
                document.walk(scope["Visitor"](document))
            except ValueError as error:
                return error
            self.fail("the visitor did not raise")

        self.assertIsNone(publish._docutils_module(failure(os.path.join(publish._OUR_ROOT, "visitor.py"))))
        self.assertEqual(publish._docutils_module(failure("/elsewhere/visitor.py")), "nodes")


class RenderHtmlTest(unittest.TestCase):
    def test_complete_page_with_embedded_stylesheet(self):
        out = render_html("Greeting\n========\n\nHello *world*.\n")
        self.assertIn("<!DOCTYPE html>", out["html"])
        self.assertIn("<em>world</em>", out["html"])
        self.assertIn('<meta charset="utf-8"', out["html"])
        self.assertIn("<style", out["html"])
        self.assertEqual(out["title"], "Greeting")

    def test_every_style_renders(self):
        import os
        from rst2.render import STYLES_DIR

        names = sorted(f[:-4] for f in os.listdir(os.path.join(STYLES_DIR, "html")) if f.endswith(".css"))
        self.assertGreaterEqual(len(names), 3)
        for name in names:
            with open(os.path.join(STYLES_DIR, "html", name + ".css"), encoding="utf-8") as css:
                first_rule = css.read().strip()[:40]
            self.assertIn(first_rule, render_html("x\n", name)["html"])

    def test_unknown_style_is_refused(self):
        with self.assertRaises(ValueError):
            render_html("x\n", "../../etc/passwd")

    def test_code_aliases_highlight(self):
        for directive, option in (("code", "number-lines"), ("code-block", "linenos"), ("sourcecode", "linenos")):
            src = ".. %s:: python\n   :%s:\n\n   def f():\n       return 1\n" % (directive, option)
            html = render_html(src)["html"]
            self.assertIn('<span class="k">def</span>', html, directive)
            self.assertNotIn('class="system-message"', html, directive)

    def test_file_inclusion_is_disabled(self):
        for src in (
            ".. include:: /etc/passwd\n",
            ".. raw:: html\n   :file: /etc/passwd\n",
            ".. csv-table::\n   :file: /etc/passwd\n",
            ".. csv-table::\n   :url: file:///etc/passwd\n",
        ):
            html = render_html(src)["html"]
            self.assertNotIn("root:", html, src)
            self.assertIn("System Message: WARNING", html, src)

    def test_raw_is_disabled(self):
        html = render_html(".. raw:: html\n\n   <script>alert(1)</script>\n")["html"]
        self.assertNotIn("<script>alert", html)

    def test_script_links_never_live(self):
        src = (
            "`a <javascript:alert(1)>`_ `b`_ `c <data:text/html;base64,PHNjcmlwdD4=>`_ "
            "`d <VBScript:x>`_ `ok <https://example.org/>`_\n\n"
            ".. _b: java\tscript:alert(2)\n"
        )
        html = render_html(src)["html"].lower()
        for bad in ('href="javascript', 'href="vbscript', 'href="data:', "alert(2)"):
            self.assertNotIn(bad, html)
        self.assertIn('href="https://example.org/"', html)

    def test_meta_refresh_is_dropped(self):
        html = render_html(".. meta::\n   :http-equiv=refresh: 0; url=https://evil.example/\n\nx\n")["html"]
        self.assertNotIn("refresh", html)


class RenderLatexTest(unittest.TestCase):
    def test_class_and_toc(self):
        out = render_latex("T\n=\n\nS\n-\n\nx\n", {"class": "scrreprt", "use_latex_toc": True})
        self.assertIn("\\documentclass[a4paper]{scrreprt}", out["latex"])
        self.assertIn("\\tableofcontents", out["latex"])

    def test_images_are_listed_not_refused(self):
        for src in ("x\n\n.. image:: a.png\n", "x\n\n.. figure:: a.png\n\n   caption\n"):
            out = render_latex(src)
            self.assertEqual(out["images"], [{"uri": "a.png", "alt": None}])
            self.assertIn("\\rsttwoimage{1}", out["latex"])

    def test_raw_latex_is_disabled(self):
        out = render_latex(".. raw:: latex\n\n   \\input{/etc/passwd}\n")
        self.assertNotIn("\\input{/etc/passwd}", out["latex"])

    def test_unknown_class_is_refused(self):
        with self.assertRaises(ValueError):
            render_latex("x\n", {"class": "letter"})


class LatexFormatTest(unittest.TestCase):
    """The preamble part a pdfTeX format holds (latex_format.py)."""

    DOC = (
        "Zebra Crossing\n==============\n\n:Author: Quentin Quill\n\n"
        "Text [#f]_ and ``code``.\n\n.. [#f] A footnote.\n\n"
        "=====  =====\nA      B\n=====  =====\n1      2\n=====  =====\n\n"
        ":math:`x^2`\n"
    )

    def test_the_document_starts_with_its_format_preamble_and_the_marker(self):
        out = render_latex(self.DOC)
        preamble = out["format_preamble"]
        self.assertIsNotNone(preamble)
        self.assertTrue(out["latex"].startswith(preamble + MARKER + "\n"))
        self.assertIn("\\documentclass[a4paper]{article}", preamble)
        self.assertIn("{hyperref}", preamble)
        self.assertIn('rst2 LaTeX style "default"', preamble)

    def test_nothing_of_the_document_is_in_the_format_preamble(self):
        out = render_latex(self.DOC)
        # "A footnote", not "footnote": docutils 0.23's hyperref options say hyperfootnotes=false.
        for own in ("Zebra", "Quentin", "A footnote", "DUfootnote", "pdftitle", "\\usepackage{cmap}"):
            self.assertNotIn(own, out["format_preamble"])
        rest = out["latex"][len(out["format_preamble"]):]
        self.assertIn("pdftitle={Zebra Crossing}", rest)
        self.assertIn("\\pdfgentounicode=1", rest)

    def test_one_preamble_per_class_and_style(self):
        seen = {}
        for documentclass in sorted(latex_classes()):
            for style in ("default", "style2", "zope"):
                first = render_latex(self.DOC, {"class": documentclass, "style": style})["format_preamble"]
                other = render_latex("Other\n=====\n\n* list\n", {"class": documentclass, "style": style, "use_latex_toc": True})
                self.assertEqual(first, other["format_preamble"], (documentclass, style))
                self.assertNotIn(first, seen.values())
                seen[(documentclass, style)] = first

    def test_position_sensitive_packages_keep_docutils_own_layout(self):
        out = render_latex(".. class:: language-de\n\nHallo Welt.\n")
        self.assertIsNone(out["format_preamble"])
        self.assertNotIn(MARKER, out["latex"])
        self.assertIn("\\usepackage{cmap}", out["latex"])
        self.assertIn("{babel}", out["latex"])


class ApiTest(unittest.TestCase):
    def test_failures_are_data(self):
        deep = "".join("  " * i + "* x\n\n" for i in range(400))
        out = json.loads(api.handle("html", deep))
        self.assertFalse(out["ok"])
        self.assertEqual(out["code"], "document_too_deep")

    def test_success_envelope(self):
        out = json.loads(api.handle("check", "ok\n"))
        self.assertEqual(out, {"ok": True, "result": {"messages": []}})


if __name__ == "__main__":
    unittest.main()
