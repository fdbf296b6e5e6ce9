import json
import os
import re
import unittest

from rst2 import api
from rst2.check import check
from rst2.dialects import get
from rst2.dialects.pypi.clean import ALLOWED_ATTRIBUTES, ALLOWED_TAGS, clean
from rst2.errors import DocumentError
from rst2.render import render_html, render_latex

HERE = os.path.dirname(os.path.abspath(__file__))

with open(os.path.join(HERE, "fixtures", "sphinx_page.rst"), encoding="utf-8") as _file:
    SPHINX_PAGE = _file.read()

# Three real mistakes: an option toctree does not have, a bullet list that
# ends without a blank line, a reference to a target that does not exist.
MISTAKES = (
    (".. toctree::\n", ".. toctree::\n   :depth: 2\n"),
    (".. centered:: SPAM", "* one\n* two\nthree\n\n.. centered:: SPAM"),
    ("Makes :class:`Spam`.", "Makes :class:`Spam` from nowhere_."),
)


def body(page):
    return page[page.index("<body") : page.index("</body>")]


class SphinxCheckTest(unittest.TestCase):
    def test_every_standard_role_and_directive_is_known(self):
        self.assertEqual(check(SPHINX_PAGE, "sphinx"), [])

    def test_plain_docutils_reports_them(self):
        messages = [item["message"] for item in check(SPHINX_PAGE)]
        self.assertIn('Unknown interpreted text role "ref".', messages)
        self.assertIn('Unknown directive type "toctree".', messages)

    def test_real_mistakes_are_still_reported(self):
        source = SPHINX_PAGE
        for before, after in MISTAKES:
            self.assertIn(before, source)
            source = source.replace(before, after, 1)
        lines = source.splitlines()
        found = check(source, "sphinx")
        self.assertEqual(len(found), 3, found)

        def one(start):
            (item,) = [item for item in found if item["message"].startswith(start)]
            return item

        toctree = one('Error in "toctree" directive')
        self.assertIn('unknown option: "depth"', toctree["message"])
        self.assertEqual(lines[toctree["line"] - 1], ".. toctree::")
        self.assertEqual(lines[one("Bullet list ends without a blank line")["line"] - 1], "three")
        self.assertIn("nowhere_", lines[one('Unknown target name: "nowhere".')["line"] - 1])

    def test_wrong_arguments_are_reported_as_sphinx_would(self):
        for source, expected in (
            (".. versionadded::\n", "1 argument(s) required, 0 supplied"),
            (".. autofunction:: f\n   :members:\n", 'unknown option: "members"'),
            (".. hlist::\n\n   Not a list.\n", ".. hlist content is not a list"),
            (":pep:`eight`\n", "invalid PEP number eight"),
            (":cwe:`use-after-free`\n", "invalid CWE number use-after-free"),
            (".. code-block:: python\n   :emphasize-lines: 5\n\n   x = 1\n", "line number spec is out of range(1-1)"),
            (".. glossary::\n\n   term\n\n   other\n      Definition.\n", "glossary terms must not be separated by empty lines"),
        ):
            messages = " | ".join(item["message"] for item in check(source, "sphinx"))
            self.assertIn(expected, messages, source)

    def test_docutils_tables_are_restored_after_a_sphinx_document(self):
        render_html(SPHINX_PAGE, dialect="sphinx")
        self.assertEqual([i["message"] for i in check(":ref:`x`\n")], ['Unknown interpreted text role "ref".'])
        # ``class`` is Python's class in Sphinx, docutils' own directive otherwise.
        html = render_html(".. class:: special\n\nText.\n")["html"]
        self.assertIn('<p class="special">Text.</p>', html)
        self.assertNotIn("object-description", html)


class SphinxStructureTest(unittest.TestCase):
    """Where Sphinx 9.2 and plain docutils disagree on what is a problem."""

    def test_a_transition_after_module_or_index_does_not_start_the_section(self):
        # Sphinx leaves an index node there, which docutils counts as content.
        for directive in (".. module:: spam", ".. index:: spam"):
            source = "Title\n=====\n\n%s\n\n--------\n\nText.\n" % directive
            self.assertEqual(check(source, "sphinx"), [], directive)
        # Without an index entry there is no index node, in Sphinx either.
        found = check("Title\n=====\n\n.. module:: spam\n   :no-index-entry:\n\n--------\n\nText.\n", "sphinx")
        self.assertEqual([i["message"] for i in found], ["Transition at the start of the section."])
        html = body(render_html("Title\n=====\n\n.. module:: spam\n\n--------\n\nText.\n", dialect="sphinx")["html"])
        self.assertIn('<!--  -->\n<hr class="docutils" id="module-spam" />', html)

    def test_index_entries_are_its_argument_and_it_has_no_content(self):
        # Sphinx 9.2's IndexDirective: one argument, which may go on over
        # the following lines, and no content.
        self.assertEqual(check("Title\n=====\n\n.. index::\n   single: a\n   pair: b; c\n\nText.\n", "sphinx"), [])
        self.assertEqual(check("Title\n=====\n\n.. index:: single: a\n\nText.\n", "sphinx"), [])
        messages = [i["message"] for i in check(".. index:: single: a\n\n   content\n", "sphinx")]
        self.assertEqual(messages, ['Error in "index" directive:\nno content permitted.'])
        messages = [i["message"] for i in check(".. index::\n\nText.\n", "sphinx")]
        self.assertEqual(messages, ['Error in "index" directive:\n1 argument(s) required, 0 supplied.'])

    def test_a_module_may_hold_sections(self):
        # Sphinx 9.2's PyModule parses its content with section headings allowed.
        source = "Title\n=====\n\n.. module:: spam\n\n   Sub\n   ---\n\n   Text in it.\n"
        self.assertEqual(check(source, "sphinx"), [])
        self.assertIn('<span id="module-spam"></span><h2>Sub</h2>', body(render_html(source, dialect="sphinx")["html"]))
        messages = [i["message"] for i in check(".. currentmodule:: spam\n\n   Text.\n", "sphinx")]
        self.assertEqual(messages, ['Error in "currentmodule" directive:\nno content permitted.'])

    def test_only_holds_section_level_content(self):
        source = "Title\n=====\n\n.. only:: html\n\n   .. contents::\n      :local:\n\nSub\n---\n\nText.\n"
        self.assertEqual(check(source, "sphinx"), [])
        self.assertRegex(body(render_html(source, dialect="sphinx")["html"]), r'<nav class="contents local" id="contents"[^>]*>\n<ul class="simple">\n<li><p><a class="reference internal" href="#sub"')
        self.assertIn("\\begin{DUclass}{contents}", render_latex(source.replace("html", "latex", 1), {"dialect": "sphinx"})["latex"])
        # Not shown: nothing of it is left, and its contents (whose
        # transform would look for a section around it) is not made.
        self.assertNotIn("contents", body(render_html(source.replace("html", "latex", 1), dialect="sphinx")["html"]))
        self.assertNotIn("DUclass}{contents}", render_latex(source, {"dialect": "sphinx"})["latex"])

    def test_a_section_in_only_goes_where_sphinx_moves_it(self):
        # A title in a style of the page is placed at that style's level;
        # the text after the only:: stays in the section it was in.
        source = "Doc\n===\n\nSub\n---\n\n.. only:: html\n\n   Other\n   -----\n\n   Body.\n\nAfter.\n"
        self.assertEqual(check(source, "sphinx"), [])
        html = body(render_html(source, dialect="sphinx")["html"])
        self.assertRegex(html, r'<section id="sub">\n<h2>Sub</h2>\n<p>After\.</p>\n</section>\n<section id="other">\n<h2>Other</h2>')
        # A new style starts a subsection of the section the only:: is in.
        html = body(render_html("Doc\n===\n\n.. only:: html\n\n   Inner\n   ~~~~~\n\n   Body.\n", dialect="sphinx")["html"])
        self.assertRegex(html, r'<section id="doc">\n<h1>Doc</h1>\n<section id="inner">\n<h2>Inner</h2>')

    def test_only_with_a_bad_expression_keeps_its_content(self):
        html = render_html(".. only:: html and (\n\n   Kept.\n", dialect="sphinx")["html"]
        self.assertIn("Kept.", html)
        self.assertIn("exception while evaluating only directive expression", html)

    def test_numbers_sphinx_accepts(self):
        # PEP 0 is the index of PEPs; Sphinx takes any number int() reads.
        for source, link in (
            (":pep:`0`", "https://peps.python.org/pep-0000/"),
            (":rfc:`0`", "https://datatracker.ietf.org/doc/html/rfc0.html"),
            (":cwe:`0`", "https://cwe.mitre.org/data/definitions/0.html"),
            (":pep:`-1`", "https://peps.python.org/pep--001/"),
        ):
            self.assertEqual(check(source + "\n", "sphinx"), [], source)
            self.assertIn('href="%s"' % link, render_html(source + "\n", dialect="sphinx")["html"])


class DocumentRolesTest(unittest.TestCase):
    def test_a_documents_own_role_is_gone_for_the_next_document(self):
        # A worker renders one user's document after another's: a role that
        # one defines with ``.. role::`` must be unknown to the next.
        for dialect in ("docutils", "sphinx", "pypi"):
            self.assertEqual(check(".. role:: custom\n\n:custom:`x`\n", dialect), [])
            self.assertEqual(
                [i["message"] for i in check(":custom:`x`\n", dialect)],
                ['Unknown interpreted text role "custom".'],
                dialect,
            )
            render_html(".. role:: custom2\n\n:custom2:`x`\n", dialect=dialect)
            self.assertIn("custom2", check(":custom2:`x`\n", dialect)[0]["message"])


class SphinxHtmlTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.html = body(render_html(SPHINX_PAGE, dialect="sphinx")["html"])

    def test_version_notes_as_sphinx_words_them(self):
        self.assertIn("Added in version 3.2.", self.html)
        self.assertRegex(self.html, r"Changed in version 3\.3: </span>The size may be zero\.")
        self.assertIn("Deprecated since version 3.4: ", self.html)
        # Sphinx 9's names of the same directives.
        self.assertIn('<div class="versionadded docutils container">\n<p><span class="versionmodified added">Added in version 4.0.</span>', self.html)
        self.assertRegex(self.html, r"Changed in version 4\.1: </span>Sphinx 9’s names\.")
        self.assertIn('<span class="versionmodified deprecated">Deprecated since version 4.2.</span>', self.html)
        self.assertIn('<span class="versionmodified removed">Removed in version 4.3.</span>', self.html)

    def test_references_link_within_the_document_or_stay_text(self):
        self.assertRegex(self.html, r'<a [^>]*href="#intro"><span [^>]*>Sphinx page</span></a>')
        self.assertRegex(self.html, r'<a [^>]*href="#api"><span [^>]*>the API</span></a>')
        self.assertRegex(self.html, r'<span class="xref std std-ref">elsewhere</span>')
        self.assertRegex(self.html, r'<span class="xref std std-doc">install</span>')
        self.assertRegex(self.html, r'href="#term-spam-can"')
        self.assertRegex(self.html, r'href="#fig-spam"><span [^>]*>Fig\. 1</span>')

    def test_api_roles_are_literals_linked_to_their_description(self):
        self.assertRegex(self.html, r'<a [^>]*href="#spam\.make"><span class="xref py py-func docutils literal">make\(\)</span></a>')
        self.assertRegex(self.html, r'<span class="xref py py-mod docutils literal">os\.path</span>')
        self.assertRegex(self.html, r'<dt id="spam\.Spam\.eat">')
        self.assertRegex(self.html, r'<span class="xref py py-meth docutils literal">noref\(\)</span>')
        # :deco: shows the @, and a decorator is described without "()".
        self.assertIn('href="#spam.cached"><span class="xref py py-deco docutils literal">&#64;cached</span></a>', self.html)
        self.assertIn('<dt id="spam.cached"><em>&#64;</em><strong><span class="sig-name docutils literal">cached</span></strong></dt>', self.html)
        # :autolink: is :obj:.
        self.assertRegex(self.html, r'href="#spam\.Spam"><span class="xref py py-obj docutils literal">spam\.Spam</span>')

    def test_confval_shows_its_type_and_default_and_is_linked(self):
        self.assertRegex(self.html, r'<dt id="confval-spam_level"><span class="docutils literal">spam_level</span></dt>\n<dd><dl class="field-list simple">\n<dt>Type<span class="colon">:</span></dt>\n<dd><p><span class="docutils literal">int</span></p>')
        self.assertRegex(self.html, r'<dt>Default<span class="colon">:</span></dt>\n<dd><p><span class="docutils literal">3</span></p>')
        self.assertIn('href="#confval-spam_level"><span class="xref std std-confval docutils literal">spam_level</span></a>', self.html)
        self.assertIn('href="#confval-spam_colour"><span class="xref std std-confval docutils literal">spam_colour</span></a>', self.html)
        self.assertIn('unknown option: "noindex"', check(".. confval:: x\n   :noindex:\n", "sphinx")[0]["message"])

    def test_toctree_is_a_list_of_its_entries(self):
        toctree = re.search(r'<ul class="toctree[^"]*">(.*?)</ul>', self.html, re.S).group(1)
        self.assertEqual(re.findall(r'toctree-entry">([^<]*)<', toctree), ["install", "Usage"])
        self.assertIn('<p class="caption">Contents</p>', self.html)

    def test_autodoc_and_literalinclude_are_placeholders(self):
        self.assertRegex(self.html, r"autodoc would insert the documentation of the class <span [^>]*>Spam</span>")
        self.assertRegex(self.html, r"autodoc would insert the documentation of the type alias <span [^>]*>Alias</span>")
        self.assertRegex(self.html, r"The contents of </em><span [^>]*>example\.py</span>")

    def test_inline_roles(self):
        self.assertIn("<abbr>LIFO</abbr> (last-in, first-out)", self.html)
        self.assertIn('<span class="menuselection">Start \N{TRIANGULAR BULLET} Programs</span>', self.html)
        self.assertIn('href="https://peps.python.org/pep-0008/">PEP 8</a>', self.html)
        self.assertIn('href="https://www.cve.org/CVERecord?id=CVE-2024-3094">CVE 2024-3094</a>', self.html)
        self.assertIn('href="https://cwe.mitre.org/data/definitions/416.html">CWE 416</a>', self.html)
        self.assertIn('<span class="guilabel">Cancel</span>', self.html)

    def test_only_follows_the_output(self):
        self.assertIn("Shown in HTML.", self.html)
        latex = render_latex(".. only:: html\n\n   Web only.\n\n.. only:: latex\n\n   Print only.\n", {"dialect": "sphinx"})["latex"]
        self.assertIn("Print only.", latex)
        self.assertNotIn("Web only.", latex)

    def test_latex_of_the_whole_page(self):
        latex = render_latex(SPHINX_PAGE.replace(".. figure:: spam.png", ".. rubric:: no images in PDF"), {"dialect": "sphinx"})["latex"]
        self.assertIn("Added in version 3.2.", latex)
        self.assertIn("See also", latex)


ACCEPTED = "Spam\n====\n\nA *fine* package. Mail spam@example.org.\n\n.. code:: python\n\n   import spam\n\n.. math::\n\n   a^2\n"
WARNING_ONLY = "Spam package\n=======\n\nThe underline is too short: only a warning.\n"
ERRORS = "Spam\n====\n\n:ref:`x` and `missing`_.\n\n.. toctree::\n"


class PypiTest(unittest.TestCase):
    def test_an_accepted_description_has_no_problems(self):
        self.assertEqual(check(ACCEPTED, "pypi"), [])

    def test_a_warning_alone_is_a_refusal(self):
        items = check(WARNING_ONLY, "pypi")
        self.assertEqual([(i["type"], i["line"]) for i in items], [("warning", 2)])
        with self.assertRaises(DocumentError) as raised:
            render_html(WARNING_ONLY, dialect="pypi")
        self.assertEqual(raised.exception.code, "pypi_refused")
        self.assertIn("Title underline too short", raised.exception.message)

    def test_every_problem_is_listed_not_only_the_first(self):
        messages = [i["message"] for i in check(ERRORS, "pypi")]
        self.assertEqual(len(messages), 3, messages)
        self.assertIn('Unknown interpreted text role "ref".', messages)
        self.assertIn('Unknown directive type "toctree".', messages)
        self.assertIn('Unknown target name: "missing".', messages)

    def test_a_description_with_nothing_to_show_is_refused(self):
        for source in ("", ".. a comment only\n", ".. _target: https://example.org\n\n.. |sub| replace:: x\n"):
            self.assertEqual([i["message"] for i in check(source, "pypi")], ["No content rendered from RST source."], source)

    def test_a_title_alone_is_accepted_since_46(self):
        # 44 made a lone title the document title, which a description never
        # shows, and so refused it; 46 keeps it as the description's <h1>.
        self.assertEqual(check("Spam\n====\n", "pypi"), [])
        self.assertEqual(check("Spam\n====\n\nEggs\n----\n", "pypi"), [])
        html = body(render_html("Spam\n====\n", dialect="pypi")["html"])
        self.assertIn('<h1>Spam<a title="link to this section" href="#user-content-spam" rel="nofollow"></a></h1>', html)

    def test_standard_includes_are_refused_as_readme_renderer_does(self):
        # readme_renderer turns file insertion off, docutils' own sets included.
        source = "Spam\n====\n\n.. include:: <isonum.txt>\n\n|copy| text\n"
        self.assertEqual([i["message"] for i in check(source, "pypi")][:1], ['"include" directive disabled.'])
        # The other dialects still allow them, before and after a pypi check.
        self.assertEqual(check(source, "docutils"), [])

    def test_readme_renderer_settings(self):
        page = render_html(ACCEPTED + "\nSub\n---\n\nMore \"quoted\" text...\n\n.. a comment\n", dialect="pypi")
        html = body(page["html"])
        self.assertEqual(page["title"], "Spam")  # our page's <title>: the first section's
        # 46: the top title is the description's <h1>, its lone subsection a section of its own.
        self.assertIn('<section id="user-content-spam">\n<h1>Spam<a title="link to this section" href="#user-content-spam" rel="nofollow"></a></h1>', html)
        self.assertIn('<section id="user-content-sub">\n<h2>Sub<a title="link to this section" href="#user-content-sub" rel="nofollow"></a></h2>', html)
        self.assertNotIn("section-subtitle", html)
        self.assertNotIn("spam@example.org", html)  # cloaked
        self.assertIn("\N{LEFT DOUBLE QUOTATION MARK}quoted\N{RIGHT DOUBLE QUOTATION MARK} text\N{HORIZONTAL ELLIPSIS}", html)
        self.assertNotIn("a comment", html)
        self.assertIn('<div class="math">\n\\begin{equation*}', html)  # MathJax-style math
        self.assertIn('<span class="kn">import</span>', html)

    def test_html_stays_inside_the_allow_list(self):
        source = ACCEPTED + (
            "\n.. image:: https://example.org/a.svg\n   :width: 20\n\n"
            "+---+---+\n| a | b |\n+---+---+\n\n:Field: value\n\n.. note:: Note.\n\nTerm\n   Definition.\n\n"
            "A footnote [#]_ and `link <https://example.org>`_.\n\n.. [#] Foot.\n\n.. contents::\n"
        )
        html = body(render_html(source, dialect="pypi")["html"])[len("<body>") :]
        for tag, attributes in re.findall(r"<([a-zA-Z][\w-]*)([^>]*)>", html):
            self.assertIn(tag, ALLOWED_TAGS)
            # rel="nofollow" is not in the list: the cleaner adds it to every link.
            for name in re.findall(r'([\w-]+)="', attributes):
                allowed = ALLOWED_ATTRIBUTES["*"] | ALLOWED_ATTRIBUTES.get(tag, frozenset()) | ({"rel"} if tag == "a" else set())
                self.assertIn(name, allowed, (tag, name))
        self.assertRegex(html, r'<img [^>]*src="https://example.org/a.svg"[^>]* width="20">')
        self.assertIn('href="https://example.org" rel="nofollow"', html)

    def test_pdf_refuses_what_pypi_refuses(self):
        with self.assertRaises(DocumentError) as raised:
            render_latex(WARNING_ONLY, {"dialect": "pypi"})
        self.assertEqual(raised.exception.code, "pypi_refused")
        self.assertIn("\\section", render_latex(ACCEPTED.replace(".. math::\n\n   a^2\n", "") + "\nSub\n---\n\nx\n", {"dialect": "pypi"})["latex"])

    def test_refusal_crosses_the_api(self):
        out = json.loads(api.handle("html", WARNING_ONLY, json.dumps({"dialect": "pypi"})))
        self.assertEqual((out["ok"], out["code"]), (False, "pypi_refused"))


class Pypi46Test(unittest.TestCase):
    """What readme_renderer 45.0 and 46.0 changed, each setting and behaviour on its own (expected HTML worked out from their rst.py and clean.py)."""

    def description(self, source):
        return body(render_html(source, dialect="pypi")["html"])[len("<body>\n") :].rstrip("\n")

    def test_ids_and_links_take_the_user_content_prefix(self):
        html = self.description("Install\n=======\n\nSee `Install`_.\n")
        self.assertEqual(
            html,
            '<section id="user-content-install">\n'
            '<h1>Install<a title="link to this section" href="#user-content-install" rel="nofollow"></a></h1>\n'
            '<p>See <a href="#user-content-install" rel="nofollow">Install</a>.</p>\n'
            "</section>",
        )

    def test_footnote_ids_follow_the_prefix(self):
        # With an id_prefix docutils keeps a label's digits as its id.
        html = self.description("Text [1]_ and [#]_.\n\n.. [1] One.\n.. [#] Auto.\n")
        self.assertIn('href="#user-content-1"', html)
        self.assertIn('id="user-content-footnote-reference-1"', html)
        self.assertIn('<aside class="footnote brackets" id="user-content-1"', html)
        self.assertIn('id="user-content-footnote-1"', html)
        self.assertNotIn('"#footnote-', html)

    def test_a_self_link_points_at_the_last_id_of_its_section(self):
        # An explicit target before a section gives the section its id last.
        html = self.description(".. _tgt:\n\nSection\n=======\n\nGo to tgt_.\n")
        self.assertIn('<span id="user-content-tgt"></span><h1>Section<a title="link to this section" href="#user-content-tgt" rel="nofollow"></a></h1>', html)
        self.assertIn('<a href="#user-content-tgt" rel="nofollow">tgt</a>', html)

    def test_a_lone_subsection_stays_a_section(self):
        html = self.description("Intro\n=====\n\nPart\n====\n\nOnly\n----\n\nx\n")
        self.assertIn("<h1>Part<a", html)
        self.assertIn('<section id="user-content-only">\n<h2>Only<a title="link to this section" href="#user-content-only" rel="nofollow"></a></h2>\n<p>x</p>\n</section>', html)

    def test_fields_after_a_title_are_a_field_list_at_the_top_docinfo(self):
        after = self.description("Spam\n====\n\n:Author: Me\n:Version: 1.0\n\nBody.\n")
        self.assertIn('<dl class="field-list simple">\n<dt>Author<span class="colon">:</span></dt>', after)
        self.assertNotIn("docinfo", after)
        top = self.description(":Author: Me\n:Version: 1.0\n\nBody.\n")
        self.assertIn('<dl class="docinfo simple">', top)

    def test_a_scaled_image_is_shown_unscaled_not_refused(self):
        source = ".. image:: https://example.com/badge.svg\n   :scale: 50%\n"
        self.assertEqual(check(source, "pypi"), [])
        self.assertEqual(self.description(source), '<img alt="https://example.com/badge.svg" src="https://example.com/badge.svg">')
        # With a width, the node's own width is what the tag carries (emptytag), not the scaled one.
        self.assertIn('width="200"', self.description(".. image:: https://example.com/b.png\n   :width: 200\n   :scale: 50%\n"))
        self.assertEqual(check(".. figure:: https://example.com/f.png\n   :scale: 30\n\n   Caption.\n", "pypi"), [])

    def test_literal_and_code_blocks_keep_their_class(self):
        html = self.description(".. code:: python\n\n   x = 1\n\n::\n\n   lit\n\n>>> 1\n1\n")
        self.assertIn('<pre class="code python literal-block"><code><span class="n">x</span>', html)
        self.assertIn('<pre class="literal-block">lit</pre>', html)
        self.assertIn('<pre class="code python doctest">&gt;&gt;&gt; 1\n1\n</pre>', html)

    def test_contents_lists_the_top_section_too(self):
        html = self.description("Spam\n====\n\n.. contents::\n\nA\n---\n\nx\n")
        nav = html[html.index("<nav") : html.index("</nav>")]
        # The contents sit inside section Spam and list Spam itself, then A.
        self.assertLess(nav.index('href="#user-content-spam"'), nav.index('href="#user-content-a"'))
        self.assertIn('id="user-content-toc-entry-2"', nav)
        self.assertIn('<h2><a href="#user-content-toc-entry-2" rel="nofollow">A</a>', html[html.index("</nav>") :])
        # The contents' own title links to the top of the page, unprefixed.
        self.assertNotIn("#user-content-top", html)

    def test_every_input_is_disabled(self):
        self.assertEqual(clean('<input type="checkbox" checked="">'), '<input type="checkbox" checked="" disabled="">')
        self.assertEqual(clean('<input disabled type="checkbox">'), '<input disabled="" type="checkbox">')
        self.assertEqual(clean('<input disabled="no" type="text">'), '<input disabled="" type="text">')


class CleanTest(unittest.TestCase):
    def test_tags_outside_the_list_go_their_text_stays(self):
        self.assertEqual(clean("<p>a <blink>b</blink> <object data=x>c</object></p>"), "<p>a b c</p>")

    def test_script_and_style_go_with_their_content(self):
        self.assertEqual(clean("<p>a<script>alert(1)</script><style>p{}</style>b</p>"), "<p>ab</p>")

    def test_attributes_outside_the_list_go(self):
        self.assertEqual(clean('<p class="x" style="y" onclick="z" id="i">t</p>'), '<p class="x" id="i">t</p>')
        self.assertEqual(clean('<table class="docutils" border="1"><tr><td colspan="2">x</td></tr></table>'), '<table><tr><td colspan="2">x</td></tr></table>')

    def test_urls_keep_only_allowed_schemes(self):
        self.assertEqual(clean('<a href="javascript:alert(1)">x</a>'), '<a rel="nofollow">x</a>')
        self.assertEqual(clean('<a href="java\tscript:x">x</a>'), '<a rel="nofollow">x</a>')
        self.assertEqual(clean('<a href="#top" rel="me">x</a>'), '<a href="#top" rel="nofollow">x</a>')
        self.assertEqual(clean('<img src="data:image/png;base64,AA" alt="a">'), '<img alt="a">')
        self.assertEqual(clean('<a href="mailto:a@b.c">m</a>'), '<a href="mailto:a@b.c" rel="nofollow">m</a>')

    def test_text_is_escaped_and_comments_dropped(self):
        self.assertEqual(clean("<p>&lt;b&gt; &amp; <!-- secret --></p>"), "<p>&lt;b&gt; &amp; </p>")


class DialectNamesTest(unittest.TestCase):
    def test_unknown_dialect(self):
        with self.assertRaises(ValueError):
            get("markdown")


if __name__ == "__main__":
    unittest.main()


class TitlesOutsideTheFlowTest(unittest.TestCase):
    """Sections that only:: puts in a list, table or admonition: rubrics in the LaTeX, sections in the HTML.

    As in Sphinx, the titles inside only:: have title styles of their own
    (the first is a top-level title there), and Sphinx leaves them in the
    list item: the item is not yet in the document when it is parsed, so
    there is no section to move them up to.
    """

    SOURCE = (
        "Doc\n===\n\n* item\n\n  .. only:: latex or html\n\n     Inner\n     =====\n\n     Text.\n\n"
        "     Deeper\n     ------\n\n     More.\n\n.. list-table::\n\n   * - a\n     - .. rubric:: Cell rubric\n"
    )

    def test_latex_has_no_sectioning_inside_a_body_element(self):
        latex = render_latex(self.SOURCE, {"dialect": "sphinx"})["latex"]
        body = latex.split("\\begin{document}", 1)[1]
        self.assertIn("\\rsttworubric{Inner}", body)
        self.assertIn("\\rsttworubric{Deeper}", body)
        self.assertIn("\\rsttworubric{Cell rubric}", body)
        self.assertNotIn("\\subsection", body)
        self.assertIn("\\section{Doc", body)

    def test_html_keeps_the_sections(self):
        html = render_html(self.SOURCE, dialect="sphinx")["html"]
        self.assertRegex(html, r"<h\d[^>]*>Inner</h\d>")
