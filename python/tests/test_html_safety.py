"""Script injection through the HTML output: math, meta, images, and the
final safety pass (rst2.sanitize) on its own."""

import os
import re
import unittest
from html.parser import HTMLParser

from docutils.core import publish_parts
from docutils.parsers.rst.directives.misc import Include
from docutils.utils.math import latex2mathml

from rst2.directives import STANDARD_INCLUDES
from rst2.mathml import tex_to_mathml
from rst2.publish import publish
from rst2.render import STYLES_DIR, render_html
from rst2.sanitize import active_css, sanitize

HERE = os.path.dirname(os.path.abspath(__file__))
ACTIVE_ELEMENTS = {"script", "iframe", "object", "embed", "base", "form", "link", "svg", "frame", "applet"}


class _Inventory(HTMLParser):
    """Every element and attribute of a page, as a browser-like parser reads it."""

    def __init__(self):
        super().__init__()
        self.problems = []
        self.head = False

    def handle_starttag(self, tag, attrs):
        if tag in ACTIVE_ELEMENTS:
            self.problems.append("<%s>" % tag)
        for name, value in attrs:
            value = (value or "").lower()
            squeezed = "".join(c for c in value if c > " ")
            if name.startswith("on") or name == "http-equiv":
                self.problems.append("%s on <%s>" % (name, tag))
            if name in ("href", "src", "action", "formaction", "xlink:href") and squeezed.startswith(("javascript:", "vbscript:", "data:text")):
                self.problems.append("%s=%s" % (name, value[:30]))
            if name == "style" and ("url(" in squeezed or "expression" in squeezed):
                self.problems.append("style on <%s>" % tag)

    handle_startendtag = handle_starttag


def problems(page):
    inventory = _Inventory()
    inventory.feed(page)
    inventory.close()
    return inventory.problems


def body_of(page):
    return page[page.index("<body"):]


MATH_PAYLOADS = (
    r":math:`\text{<script>alert(1)</script>}`",
    r':math:`\mbox{"><svg onload=alert(1)>}`',
    r":math:`\href{javascript:alert(1)}{x}`",
    r":math:`\url{javascript:alert(1)}`",
    r':math:`\color{red" onmouseover="alert(1)"}`',
    r":math:`\sqrt[<script>alert(1)</script>`",
    r':math:`\hspace{1em" onload="alert(1)}`',
    r':math:`\mspace{1em"/><img src=x onerror=alert(1)>}`',
    r":math:`\left<img src=x onerror=alert(1)> x \right.`",
    r":math:`\operatorname{<img src=x onerror=alert(1)>}`",
    ".. math::\n\n   \\text{<script>alert(1)</script>} \\\\ \\mbox{<img src=x onerror=alert(1)>}\n",
    ".. math::\n\n   \\href{javascript:alert(1)}{x}\n",
    ".. default-role:: math\n\n`\\text{<script>alert(1)</script>}`\n",
    "|m|\n\n.. |m| replace:: :math:`\\text{<script>alert(1)</script>}`\n",
    "Title :math:`\\text{<script>alert(1)</script>}`\n" + "=" * 50 + "\n\n:Author: :math:`\\mbox{<svg onload=alert(1)>}`\n",
)


class MathTest(unittest.TestCase):
    def test_payloads_stay_text(self):
        for payload in MATH_PAYLOADS:
            out = render_html("Doc\n===\n\n%s\n" % payload)
            self.assertEqual(problems(out["html"]), [], payload)
            # The writer itself is clean: the safety pass had nothing to do.
            self.assertEqual(out["removed"], [], payload)
            self.assertNotIn('href="javascript', out["html"], payload)

    def test_ordinary_math_is_docutils_mathml(self):
        formulas = (
            r"\frac{a}{b} + x_i^2 - \sqrt[3]{y}",
            r"\alpha\beta\Gamma \sum_{i=0}^{n} i = \frac{n(n+1)}{2}",
            r"\int_0^\infty e^{-x}\,dx \le \left(\frac{1}{2}\right)",
            r"\begin{pmatrix}a & b\\ c & d\end{pmatrix} \mathbf{A}\vec{v}",
            r"\text{if } x > 0 \operatorname{sgn} x \hspace{1em} a < b",
        )
        for tex in formulas:
            for inline in (True, False):
                # Our serialiser writes what docutils' own one does for
                # formulas that carry nothing to escape.
                self.assertEqual(tex_to_mathml(tex, inline), latex2mathml.tex2mathml(tex, as_block=not inline), tex)

    def test_pages_carry_mathml(self):
        html = render_html("x :math:`\\frac{a}{b}`\n\n.. math::\n\n   \\alpha^2\n")["html"]
        self.assertIn('<math xmlns="http://www.w3.org/1998/Math/MathML">\n  <mfrac>', html)
        self.assertIn('<math xmlns="http://www.w3.org/1998/Math/MathML" display="block">', html)
        self.assertNotIn('class="formula"', html)  # math2html's markup

    def test_unconvertible_math_is_a_visible_message(self):
        for tex, message in (
            # docutils 0.23's own wording, quoted as its messages are.
            (r"\nosuch{x}", "Unknown LaTeX command &quot;\\nosuch&quot;."),
            # docutils' converter raises AttributeError here; the page still renders.
            (r"a & b", "could not be converted to MathML (AttributeError"),
        ):
            out = render_html(":math:`%s`\n" % tex)
            self.assertIn("System Message: ERROR/3", out["html"], tex)
            self.assertIn(message, out["html"], tex)
            self.assertIn('<pre class="literal-block">\n%s\n</pre>' % tex.replace("&", "&amp;"), out["html"], tex)


class WriterPathsTest(unittest.TestCase):
    X = '"><script>alert(1)</script><img src=x onerror=alert(2)>'

    def test_meta_attribute_names_are_allowlisted(self):
        src = (
            ".. meta::\n"
            "   :keywords a><script>alert(1)</script><x=y: d\n"
            "   :description a><meta/http-equiv=refresh: 0;url=https://evil/\n"
            "   :name=a http-equiv=refresh: 0\n"
            "   :charset=utf-7 name=c: x\n"
            "   :ids=x name=i: y\n"
            "   :description lang=en dir=rtl scheme=s: kept\n"
            "   :property=og:title: Open Graph\n"
            "   :http-equiv=refresh: 0;url=https://evil/\n"
            "\nx\n"
        )
        out = render_html(src)
        html = out["html"]
        self.assertEqual(problems(html), [])
        self.assertEqual(out["removed"], [])
        self.assertNotIn("refresh", html)
        self.assertNotIn("charset=\"utf-7", html)
        self.assertIn('<meta content="d" name="keywords" />', html)
        self.assertIn('<meta content="kept" dir="rtl" lang="en" name="description" scheme="s" xml:lang="en" />', html)
        self.assertIn('<meta content="Open Graph" property="og:title" />', html)

    def test_image_paths_escape_their_text(self):
        for src in (
            ".. image:: movie.mp4\n   :alt: %s\n" % self.X,
            ".. figure:: movie.webm\n   :class: controls\n   :alt: %s\n" % self.X,
            ".. image:: %s.mp4\n" % self.X.replace(" ", "_"),
            ".. image:: flash.swf\n   :alt: %s\n" % self.X,
            ".. image:: x.png\n   :alt: %s\n   :target: javascript:alert(1)\n" % self.X,
            "|x|\n\n.. |x| image:: javascript:alert(1)\n",
            ".. image:: data:image/svg+xml,<svg/onload=alert(1)>\n",
        ):
            out = render_html(src)
            self.assertEqual(problems(out["html"]), [], src)
            self.assertEqual(out["removed"], [], src)
            self.assertNotIn("<object", out["html"], src)

    def test_image_uris_python_cannot_parse_do_not_fail_the_page(self):
        # mimetypes parses an image's URI and raised on these (a 500 for the page).
        for uri in ("//[x/a.png", "http://[::1/a.mp4", "https://[bad]/a.swf"):
            for base in (None, "https://code.example/README.rst"):
                out = render_html(".. image:: %s\n   :alt: still here\n" % uri, base=base)
                self.assertIn("still here", out["html"].split("<main>", 1)[1], (uri, base))
                self.assertEqual(problems(out["html"]), [], uri)
                self.assertNotIn("[", re.findall(r'src="([^"]*)"', out["html"])[0], uri)

    def test_other_writer_paths(self):
        x = self.X
        sources = (
            ".. class:: %s\n\npara\n" % x,
            ".. title:: </title>%s\n" % x,
            ".. code:: %s\n\n   x\n" % x.replace(" ", "_"),
            ".. code:: html\n\n   %s\n" % x,
            "[#f]_ [CIT]_\n\n.. [#f] %s\n.. [CIT] %s\n" % (x, x),
            ":Author: %s\n:Date: %s\n:Copyright: %s\n:%s: f\n" % (x, x, x, x.replace(":", "")),
            ".. sectnum::\n   :prefix: %s\n\nS\n-\n\nx\n" % x,
            ".. role:: l\n   :class: language-%s\n\n:l:`x`\n" % x.replace(" ", "_"),
            ".. csv-table:: %s\n   :header: h\n\n   \"%s\"\n" % (x, x.replace('"', "'")),
            ".. |d| date:: %s\n\n|d|\n" % x,
            ".. --> %s\n\n.. --!> %s\n" % (x, x),
            "`a <java\x01script:alert(1)>`_ `b < jAvAsCrIpT:alert(1)>`_ c_\n\n.. _c: javascript\\:alert(1)\n",
            "Title %s\n%s\n\nx\n" % (x, "=" * 80),
            ".. role:: r(raw)\n   :format: html\n\n:r:`<script>alert(1)</script>`\n",
        )
        for src in sources:
            out = render_html(src)
            self.assertEqual(problems(out["html"]), [], src)
            self.assertEqual(out["removed"], [], src)
        for src in sources + tuple("Doc\n===\n\n%s\n" % payload for payload in MATH_PAYLOADS):
            assert_parts_clean(self, src)

    def test_pypi_parts_are_clean(self):
        x = self.X
        for src in ("Doc\n===\n\n*%s*\n" % x.replace("`", ""), ":Author: %s\n\nText.\n" % x):
            assert_parts_clean(self, src, dialect="pypi")


def assert_parts_clean(case, src, dialect="docutils"):
    """format=parts and format=fragment: each part as clean as the page, and unchanged by a second safety pass."""
    out = render_html(src, "default", dialect, None, "parts")
    for name, part in out["parts"].items():
        case.assertEqual(problems(part), [], (name, src))
        # Head parts are read where they belong (sanitize keeps <style>/<meta> only in <head>).
        wrapped = "<head>%s</head>" % part if name in ("stylesheet", "meta") else part
        case.assertEqual(sanitize(wrapped), (wrapped, []), (name, src))
    case.assertEqual(out["removed"], [], src)
    fragment = render_html(src, "default", dialect, None, "fragment")
    case.assertEqual(fragment["html"], out["parts"]["fragment"], src)


class SafetyPassTest(unittest.TestCase):
    def test_line_number_attribute_is_escaped(self):
        # docutils writes the text of an ``ln`` inline into data-lineno as it
        # is; a user-made role reaches that path with any text.
        source = (
            "T\n=\n\n.. role:: ln\n\n.. parsed-literal::\n   :class: code\n\n"
            '   :ln:`"><head><math><style><img src=x onerror=alert(1)></style></math>`\n'
        )
        page = render_html(source)["html"]
        self.assertEqual(problems(page), [])
        self.assertIn('data-lineno="&quot;&gt;&lt;head&gt;', page)
        numbered = render_html("T\n=\n\n.. code:: python\n   :number-lines: 9\n\n   x = 1\n")["html"]
        self.assertIn('<code data-lineno=" 9 ">', numbered)

    def test_clean_pages_pass_unchanged(self):
        with open(os.path.join(HERE, "everything.rst"), encoding="utf-8") as f:
            everything = f.read()
        names = sorted(f[:-4] for f in os.listdir(os.path.join(STYLES_DIR, "html")) if f.endswith(".css"))
        for name in names:
            parts, _ = publish(
                everything,
                "html5",
                stylesheet_path=[os.path.join(STYLES_DIR, "html", "base", "docutils.css"), os.path.join(STYLES_DIR, "html", name + ".css")],
                stylesheet_dirs=[],
                embed_stylesheet=True,
                syntax_highlight="short",
                report_level=2,
            )
            page, removed = sanitize(parts["whole"])
            self.assertEqual(removed, [], name)
            self.assertEqual(page, parts["whole"], name)
            self.assertIn("<math", page)

    def test_our_stylesheets_are_inert(self):
        for root, _, files in os.walk(os.path.join(STYLES_DIR, "html")):
            for name in files:
                with open(os.path.join(root, name), encoding="utf-8") as f:
                    self.assertFalse(active_css(f.read()), name)

    def test_active_css_is_recognised(self):
        for css in ("a{background:url(x)}", "a{b:u\\72l(x)}", "@import 'x';", "a{width:expression(alert(1))}", "</style><script>", "a{-moz-binding:x}"):
            self.assertTrue(active_css(css), css)
        self.assertFalse(active_css("a > b { list-style-type: '\\2B29\\ '; } /* <x> */"))

    def test_closes_the_known_holes_without_our_writer(self):
        # docutils' stock writer: every hole the attack report found is
        # closed by the safety pass alone.  Math through math2html ("HTML"):
        # docutils 0.23's default MathML output escapes what it writes, its
        # math2html still copies markup.
        for payload in MATH_PAYLOADS[:5] + (
            ".. meta::\n   :keywords a><script>alert(1)</script><x=y: d\n",
            ".. meta::\n   :description a><meta/http-equiv=refresh: 0;url=https://evil/\n",
            ".. image:: x.mp4\n   :alt: <img src=x onerror=alert(1)>\n",
            "`x <javascript:alert(1)>`_\n",
        ):
            raw = publish_parts(
                "Doc\n===\n\n%s\n" % payload,
                writer_name="html5",
                settings_overrides={"_disable_config": True, "report_level": 5, "embed_stylesheet": False, "stylesheet_path": [], "math_output": "HTML"},
            )["whole"]
            self.assertNotEqual(problems(raw), [], payload)
            page, removed = sanitize(raw)
            self.assertEqual(problems(page), [], payload)
            self.assertNotEqual(removed, [], payload)

    def test_removes_each_kind_of_active_content(self):
        head = '<!DOCTYPE html>\n<html><head><meta charset="utf-8" /><title>t</title>%s</head><body>%s</body></html>'
        cases = (
            ("", "<script>alert(1)</script>", "script element"),
            ("", "<SCRIPT SRC=//evil/x.js></SCRIPT>", "script element"),
            ("", '<iframe src="https://evil/"></iframe>', "iframe element"),
            ("", '<object data="x.html"></object>', "object element"),
            ("", '<embed src="x.swf">', "embed element"),
            ('<base href="https://evil/">', "", "base element"),
            ("", '<form action="https://evil/"><button formaction="javascript:x">b</button></form>', "form element"),
            ('<meta http-equiv="refresh" content="0;url=https://evil/">', "", "http-equiv attribute on meta"),
            ('<link rel="stylesheet" href="https://evil/x.css">', "", "link element"),
            ("", '<img src="x" onerror="alert(1)">', "onerror attribute on img"),
            ("", '<p OnClick="alert(1)">p</p>', "onclick attribute on p"),
            ("", '<a href="javascript:alert(1)">a</a>', "javascript URL in href on a"),
            ("", '<a href=" &#x6A;ava&#09;script&colon;alert(1)">a</a>', "javascript URL in href on a"),
            ("", '<a href="data:text/html,<script>alert(1)</script>">a</a>', "data URL in href on a"),
            ("", '<img src="data:text/html,x">', "data URL in src on img"),
            ("", '<a href="VBScript:x">a</a>', "vbscript URL in href on a"),
            ("", '<span style="background:url(javascript:alert(1))">s</span>', "style attribute on span"),
            ("", '<span style="width: expression(alert(1))">s</span>', "style attribute on span"),
            ("", "<style>*{background:url(https://evil/)}</style>", "style element"),
            ("<style>@import 'https://evil/x.css';</style>", "", "style element with active content"),
            ("", '<svg><script>alert(1)</script></svg>', "svg element"),
            ("", '<math><mi xlink:href="javascript:alert(1)">x</mi></math>', "xlink:href attribute on mi"),
            ("", '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>', "style element"),
            ("", "<![CDATA[x]]>", "declaration <![CDATA[x]>"),
            ("", "<?xml-stylesheet href='x'?>", "processing instruction <?xml-stylesheet href='x'?>"),
            ("", '<meta name="x" content="y">', "meta element"),
            ("", '<p x="1" x2>t</p><noscript><p>n</p></noscript>', "x attribute on p"),
            # A second <head> in the body is not leave to keep <style>, and
            # inside <math> a browser reads <style> as markup (found by review).
            ("", '<code><head><math><style><img src=x onerror=alert(1)></style></math></code>', "head element"),
            ("", '<code><head><math><style><img src=x onerror=alert(1)></style></math></code>', "style element"),
            ("", "<head><style>p{}</style></head><body><title>t</title></body>", "head element"),
            ("", "<head><style>p{}</style></head><body><title>t</title></body>", "body element"),
            ("", "<math><p>html inside math</p></math>", "p element"),
            ("", "<mi>MathML outside math</mi>", "mi element"),
        )
        for head_extra, body, expected in cases:
            page, removed = sanitize(head % (head_extra, body))
            self.assertIn(expected, removed, body or head_extra)
            self.assertEqual(problems(page), [], body or head_extra)

    def test_kept_content_is_written_canonically(self):
        page, removed = sanitize('<body><p class="a&quot;b" id=x>1 &lt; 2 &amp; 3 &#64; &copy; & <b>b</b><br/><img src="data:image/png;base64,AAAA" alt=x></p><!--a--b--></body>')
        self.assertEqual(removed, [])
        self.assertEqual(
            page,
            '<body><p class="a&quot;b" id="x">1 &lt; 2 &amp; 3 &#64; &copy; &amp; <b>b</b><br /><img src="data:image/png;base64,AAAA" alt="x"></p><!--a- -b--></body>',
        )

    def test_text_never_becomes_markup(self):
        # Whatever the parser took as text is written escaped, so a browser
        # that parses differently still sees text.
        for tricky in ("<scr<script>ipt>alert(1)</script>", "< script>alert(1)</script>", "<a/href=javascript:alert(1)>x</a>"):
            page, _ = sanitize("<body><p>%s</p></body>" % tricky)
            self.assertEqual(problems(page), [], tricky)
            self.assertNotIn("<script", page.lower(), tricky)

    def test_comments_cannot_end_early(self):
        # "<!-->", "<!--->" and "--!>" end a comment in browsers (and in newer
        # Pythons' html.parser); what is written back has none of them, so a
        # browser reads the same comments the pass did.
        for comment in (
            "<!--><script>alert(1)</script>-->",
            "<!---><script>alert(1)</script>-->",
            "<!-- a --!><script>alert(1)</script> -->",
            "<!-- a -- b --><p>kept</p>",
        ):
            page, _ = sanitize("<body>%s</body>" % comment)
            self.assertEqual(problems(page), [], comment)
            for content in re.findall(r"<!--(.*?)-->", page, re.S):
                self.assertNotIn("--", content, comment)
                self.assertFalse(content.startswith((">", "->")), comment)
            self.assertNotIn("<script", re.sub(r"<!--.*?-->", "", page, flags=re.S), comment)
        self.assertEqual(sanitize("<body><!-- a -- b --><p>kept</p></body>")[0], "<body><!-- a - - b --><p>kept</p></body>")


class StandardIncludeTest(unittest.TestCase):
    def test_the_list_is_what_docutils_ships(self):
        shipped = {name for name in os.listdir(Include.standard_include_path) if name.endswith(".txt")} - {"README.txt"}
        self.assertEqual(STANDARD_INCLUDES, shipped)

    def test_standard_sets_can_be_included(self):
        html = render_html(".. include:: <isonum.txt>\n.. include:: <isolat1.txt>\n\n|frac12| |copy| |eacute|\n")["html"]
        self.assertIn("<p>\u00bd \u00a9 \u00e9</p>", html)
        self.assertNotIn('class="system-message"', html)
        html = render_html(".. include:: <s5defs.txt>\n\n:red:`x`\n")["html"]
        self.assertIn('<span class="red">x</span>', html)

    def test_everything_else_stays_refused(self):
        for target in ("/etc/passwd", "../etc/passwd", "isonum.txt", "<../../../../etc/passwd>", "<README.txt>", "<isonum.txt/../../../../../etc/passwd>", "< isonum.txt>", "<isonum.txt>x"):
            html = render_html(".. include:: %s\n" % target)["html"]
            self.assertIn("&quot;include&quot; directive disabled.", html, target)
            self.assertNotIn("root:", html, target)

    def test_parser_option_imports_nothing_else(self):
        html = render_html(".. include:: <isonum.txt>\n   :parser: this\n\n|copy|\n")["html"]
        self.assertIn("only the reStructuredText parser", html)
        # With a parser, docutils parses the file as a document of its own,
        # so its substitutions do not reach ours; it is included all the same.
        html = render_html(".. include:: <isonum.txt>\n   :parser: rst\n")["html"]
        self.assertIn("This data file has been placed in the public domain.", html)
        self.assertNotIn('class="system-message"', html)


if __name__ == "__main__":
    unittest.main()


class ImageLoadingTest(unittest.TestCase):
    """docutils 0.21+ inlines the file an image names when asked to
    (``:loading: embed``), whatever file_insertion_enabled says."""

    # Files that exist inside the worker (our sources, docutils' data) and
    # one that never ends.
    PATHS = (
        "/rst2/python/rst2/settings.py",
        "/usr/share/docutils/writers/html5_polyglot/minimal.css",
        os.path.join(HERE, "everything.rst"),
        "/dev/urandom",
        "x.svg",
    )

    def test_embed_is_a_link_with_a_warning(self):
        for path in self.PATHS:
            for source in (
                ".. image:: %s\n   :loading: embed\n" % path,
                ".. figure:: %s\n   :loading: embed\n\n   Caption.\n" % path,
                "An |i| inline.\n\n.. |i| image:: %s\n   :loading: embed\n" % path,
            ):
                out = render_html(source)
                html = body_of(out["html"])
                self.assertIn('src="%s"' % path, html, source)
                self.assertNotIn("data:", html, source)
                self.assertNotIn("Cannot embed image", html, source)
                self.assertIn("Images are not embedded here", html, source)
                self.assertEqual(out["removed"], [], source)

    def test_lazy_and_link_are_kept(self):
        html = body_of(render_html(".. image:: x.png\n   :loading: lazy\n")["html"])
        self.assertIn('loading="lazy"', html)
        self.assertNotIn("Images are not embedded", html)

    def test_the_writer_links_images_made_after_the_transforms(self):
        from docutils import frontend, nodes, utils

        from rst2 import html_writer

        writer = html_writer.Writer()
        settings = frontend.get_default_settings(writer)
        settings.image_loading = "embed"
        settings.embed_stylesheet = False
        settings.stylesheet_path = []
        document = utils.new_document("untitled", settings)
        document += nodes.image(uri="/rst2/python/rst2/settings.py", loading="embed")
        html = writer.write(document, __import__("docutils.io", fromlist=["StringOutput"]).StringOutput(encoding="unicode"))
        self.assertIn('src="/rst2/python/rst2/settings.py"', html)
        self.assertNotIn("data:", html)
