"""What untrusted documents may put into the LaTeX that pdfTeX runs."""

import re
import unittest

from rst2.latex_safety import MATH_COMMANDS, REFUSED_EXAMPLES, link_target, math_refusal
from rst2.render import render_latex


def body_of(latex):
    return latex.split("\\begin{document}", 1)[1]


class MathPolicyTest(unittest.TestCase):
    ORDINARY = (
        r"\alpha^2 + \frac{1}{2} \le \sqrt{x}",
        r"\int_0^1 x^2\,dx = \frac{1}{3}",
        r"\begin{pmatrix} a & b \\ c & d \end{pmatrix}",
        r"f(x) = \begin{cases} 0 & \text{if } x < 0 \\ 1 & \text{otherwise} \end{cases}",
        r"\left( \sum_{i=1}^{n} i \right)^2 \neq \mathbb{R} \cup \mathcal{O}(n \log n)",
        r"\begin{aligned} a &= b \\ &= c \end{aligned} \tag{1}",
        r"\operatorname{argmax}_x \, \hat{y} \cdot \vec{v} \quad \{a\} \% \# \&",
        r"x' + y'' \to \infty, \ldots, \overbrace{a+b}^{n}",
        # Left docutils 0.23's math_alphabets table (its converter now knows
        # them by name); still amsmath's bold.
        r"\boldsymbol{\alpha} + \pmb{x}",
    )

    def test_ordinary_math_passes(self):
        for code in self.ORDINARY:
            self.assertIsNone(math_refusal(code), code)

    def test_refused_commands_are_never_on_the_list(self):
        self.assertFalse(REFUSED_EXAMPLES & MATH_COMMANDS)
        self.assertFalse([name for name in MATH_COMMANDS if name.startswith("pdf")])

    def test_every_refused_example_is_refused(self):
        for name in REFUSED_EXAMPLES:
            self.assertIn("\\%s is not allowed" % name, math_refusal("x + \\%s{y}" % name) or "", name)

    def test_tricks_are_refused(self):
        tricks = {
            r"\pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}": "\\pdfcatalog",
            r"\csname pdfcatalog\endcsname{/OpenAction 1 0 R}": "\\csname",
            r"\pdfprimitive\pdfcatalog{}": "\\pdfprimitive",
            r"^^5cpdfcatalog{/OpenAction 1 0 R}": "^^",
            r"\^^5cpdfcatalog": "^^",
            r"\catcode`\|=0 |pdfcatalog{}": "\\catcode",
            r"\def\x{\x}\x": "\\def",
            r"\expandafter\x": "\\expandafter",
            r"\href{javascript:app.alert(1)}{x}": "\\href",
            r"\url{file:///etc/passwd}": "\\url",
            r"\input{/etc/passwd}": "\\input",
            r"\immediate\write18{ls}": "\\immediate",
            r"\special{pdf: x}": "\\special",
            r"x % comment swallowing the closing $": "%",
            r"x$ \text{out of math} $": "$",
            r"#1": "#",
            r"}\pdfcatalog{": "unbalanced",
            r"\frac{1": "unbalanced",
            r"\begin{document}": "document",
            r"\end {equation*}": "equation*",
            "\\begin x": "environment name",
            "x\\": "backslash at the end",
            "x \x0c y": "control character",
            "\\\u00e9": "\\\u00e9 is not allowed",
            "\\\x01": "U+0001",
        }
        for code, reason in tricks.items():
            refusal = math_refusal(code)
            self.assertIsNotNone(refusal, code)
            self.assertIn(reason, refusal, code)


class LinkPolicyTest(unittest.TestCase):
    def test_web_and_mail_links_stay(self):
        self.assertEqual(link_target("https://example.org/a?b=c&d=e#f"), "https://example.org/a?b=c&d=e#f")
        self.assertEqual(link_target("HTTP://example.org/"), "HTTP://example.org/")
        self.assertEqual(link_target("mailto:ann@example.org"), "mailto:ann@example.org")
        self.assertEqual(link_target("#section-1"), "#section-1")

    def test_other_links_are_refused(self):
        for uri in (
            "javascript:app.alert(1)", "JavaScript:x", "java\tscript:x", "file:///etc/passwd", "run:calc.exe",
            "CONTRIBUTING.rst", "doc.pdf", "../up.html", "//example.org/x", "data:text/html,x", "", " https://x/",
        ):
            self.assertIsNone(link_target(uri), repr(uri))

    def test_tex_specials_are_percent_encoded(self):
        self.assertEqual(
            link_target("https://x.example/}\\pdfcatalog{^^5c\"<>| é"),
            "https://x.example/%7D%5Cpdfcatalog%7B%5E%5E5c%22%3C%3E%7C%20%C3%A9",
        )
        self.assertEqual(link_target("https://x.example/%41%zz%"), "https://x.example/%41%25zz%25")


class RenderLatexPolicyTest(unittest.TestCase):
    def test_unsafe_math_is_shown_as_source_with_a_warning(self):
        src = (
            "Title\n=====\n\n"
            "Inline :math:`\\pdfcatalog{/OpenAction <</S/JavaScript/JS(app.alert(1))>>}` here.\n\n"
            ".. math::\n\n   \\csname pdfcatalog\\endcsname{/X 1}\n\n"
            "Fine :math:`\\alpha^2`.\n"
        )
        latex = render_latex(src)["latex"]
        body = body_of(latex)
        self.assertNotIn("\\pdfcatalog{", body)
        self.assertNotIn("\\csname pdfcatalog", body)
        self.assertIn("\\texttt{\\textbackslash{}pdfcatalog\\{/OpenAction", body)
        self.assertIn("\\textbackslash{}csname pdfcatalog\\textbackslash{}endcsname", body)
        self.assertIn("Math not typeset: \\textbackslash{}pdfcatalog is not allowed in math", body)
        self.assertIn("Math not typeset: \\textbackslash{}csname is not allowed in math", body)
        self.assertIn("$\\alpha^2$", body)

    def test_links_other_than_web_and_mail_become_text(self):
        src = (
            "`run <run:calc.exe>`_ `file <file:///etc/passwd>`_ `rel <CONTRIBUTING.rst>`_ `pdf <doc.pdf>`_ "
            "`web <https://example.org/p?q=1#top>`_ https://example.org/ ann@example.org `brace`_\n\n"
            ".. _brace: https://example.org/}\\pdfcatalog{x}\n"
        )
        body = body_of(render_latex(src)["latex"])
        for gone in ("run:", "file:", "CONTRIBUTING.rst}", "doc.pdf}", "\\pdfcatalog"):
            self.assertNotIn(gone, body)
        for text in ("{run}", "{file}", "{rel}", "{pdf}"):
            self.assertIn(text, body)
        self.assertIn("\\href{https://example.org/p?q=1\\#top}{web}", body)
        self.assertIn("\\url{https://example.org/}", body)
        self.assertIn("\\href{mailto:ann@example.org}{ann@example.org}", body)
        # reST took the backslash as an escape; TeX's specials are encoded, the % escaped.
        self.assertIn("\\href{https://example.org/\\%7Dpdfcatalog\\%7Bx\\%7D}{brace}", body)

    def test_meta_is_escaped_and_odd_names_dropped(self):
        src = (
            ".. meta::\n"
            "   :keywords: x},pdfstartview={FitH\n"
            "   :subject: }\\\\pdfcatalog{/OpenAction 1 0 R}\n"
            "   :Custom: fine\n"
            "   :bad}name: dropped\n\nx\n"
        )
        latex = render_latex(src)["latex"]
        setup = latex[latex.index("\\hypersetup{\n"):latex.index("\\begin{document}")]
        self.assertIn("pdfkeywords={x\\},pdfstartview=\\{FitH},", setup)
        self.assertIn("pdfsubject={\\}\\textbackslash{}pdfcatalog\\{/OpenAction 1 0 R\\}},", setup)
        self.assertIn("pdfinfo={Custom={fine}},", setup)
        self.assertNotIn("dropped", setup)
        self.assertNotIn("\\pdfcatalog{", setup)

    def test_class_values_are_identifiers(self):
        src = (
            ".. code:: }\\pdfcatalog{/Y}\n\n   a\n\n"
            ".. role:: r(code)\n   :language: }\\pdfcatalog{/Z}\n\n:r:`q`\n\n"
            ".. container:: ok-class\n\n   text\n"
        )
        body = body_of(render_latex(src)["latex"])
        self.assertNotIn("\\pdfcatalog", body)
        self.assertIn("\\begin{DUclass}{pdfcatalog-y}", body)
        self.assertIn("\\begin{DUclass}{ok-class}", body)
        for name in re.findall(r"\\DUrole\{([^}]*)\}|\\begin\{DUclass\}\{([^}]*)\}", body):
            self.assertRegex("".join(name), r"^[a-z0-9-]+$")

    def test_the_preamble_ends_with_the_primitive_lock(self):
        latex = render_latex("x\n")["latex"]
        head = latex[:latex.index("\\begin{document}")]
        self.assertLess(head.index("\\hypersetup"), head.index("rst2: the document body cannot reach"))
        self.assertIn("\\AddToHook{begindocument/end}", head)
        self.assertIn("\\rst@lock\\pdfcatalog", head)

    def test_raw_role_stays_disabled(self):
        src = ".. role:: raw-latex(raw)\n   :format: latex\n\n:raw-latex:`\\pdfcatalog{/X 1}`\n"
        self.assertNotIn("\\pdfcatalog{", body_of(render_latex(src)["latex"]))


if __name__ == "__main__":
    unittest.main()
