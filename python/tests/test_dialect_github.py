"""dialect=github: rest2html's behaviours, its sanitizer, check's github-* rules, pdf.

Each fixture is compared DOM-equal with the HTML GitHub's pipeline gives
(worked out from rest2html at github/markup aca8395 and html-pipeline
3.2.4's DEFAULT_CONFIG), the way github/markup's markup_test.rb compares:
whitespace runs and typographic quotes normalised, blank text ignored,
attributes as sets, and an ``id`` present only in our output ignored.
"""

import os
import re
import unittest
from html.parser import HTMLParser

os.environ.setdefault("RST2_STYLES_DIR", os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "styles"))

from rst2 import api  # noqa: E402
from rst2.check import check  # noqa: E402
from rst2.dialects import get  # noqa: E402
from rst2.dialects.github.sanitizer import sanitize  # noqa: E402
from rst2.fixes import problems  # noqa: E402
from rst2.render import render_html, render_latex  # noqa: E402

_QUOTES = re.compile("[\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2039\u203a\u00ab\u00bb]")
_VOID = {"br", "img", "hr", "wbr", "source", "input", "col", "meta", "link"}


def _normal(text):
    text = _QUOTES.sub('"', text.replace("&amp;quot;", '"')).replace("\u2026", "...")
    return re.sub(r"\s+", " ", text).strip()


class _Tree(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = ("#root", {}, [])
        self.stack = [self.root]

    def handle_starttag(self, tag, attrs):
        node = (tag, dict((name, value or "") for name, value in attrs), [])
        self.stack[-1][2].append(node)
        if tag not in _VOID:
            self.stack.append(node)

    def handle_startendtag(self, tag, attrs):
        self.stack[-1][2].append((tag, dict((name, value or "") for name, value in attrs), []))

    def handle_endtag(self, tag):
        for depth in range(len(self.stack) - 1, 0, -1):
            if self.stack[depth][0] == tag:
                del self.stack[depth:]
                return

    def handle_data(self, data):
        text = _normal(data)
        if text:
            self.stack[-1][2].append(text)


def _tree(text):
    parser = _Tree()
    parser.feed(text)
    parser.close()
    return parser.root


def _differences(expected, actual, path="/"):
    """Where two trees differ; an id only ``actual`` has does not count."""
    if isinstance(expected, str) or isinstance(actual, str):
        return [] if expected == actual else ["%s: %r != %r" % (path, expected, actual)]
    (etag, eattrs, ekids), (atag, aattrs, akids) = expected, actual
    if etag != atag:
        return ["%s: <%s> != <%s>" % (path, etag, atag)]
    here = path + etag + "/"
    attrs = {name: value for name, value in aattrs.items() if name != "id" or "id" in eattrs}
    found = [] if eattrs == attrs else ["%s attributes %r != %r" % (here, eattrs, attrs)]
    if len(ekids) != len(akids):
        return found + ["%s children %r != %r" % (here, ekids, akids)]
    for e, a in zip(ekids, akids):
        found += _differences(e, a, here)
    return found


def fragment(source):
    """What GitHub shows: rest2html's html_body through the allow-list (before rst2's own safety pass)."""
    return get("github").render_html(source, [])["description"]


def served(source):
    return render_html(source, dialect="github", format="fragment")["html"]


class Comparator(unittest.TestCase):
    def assertDomEqual(self, expected, actual):
        self.assertEqual(_differences(_tree(expected), _tree(actual)), [], actual)


class Rest2htmlBehaviours(Comparator):
    def test_sections_get_named_anchors_and_no_div(self):
        source = "Top\n===\n\nIntro.\n\nFirst part\n----------\n\nText.\n\n.. _label:\n\nSecond part\n-----------\n\nMore.\n"
        expected = """
            <h1>Top</h1><p>Intro.</p>
            <a name="first-part"></a><h2>First part</h2><p>Text.</p>
            <a name="second-part"></a><a name="label"></a><h2>Second part</h2><p>More.</p>"""
        self.assertDomEqual(expected, fragment(source))

    def test_unknown_directive_is_shown_as_its_source(self):
        source = "Before.\n\n.. toctree::\n   :maxdepth: 2\n\n   install\n\nAfter.\n"
        expected = "<p>Before.</p><pre>.. toctree:: :maxdepth: 2 install</pre><p>After.</p>"
        self.assertDomEqual(expected, fragment(source))
        self.assertIn(".. toctree::\n   :maxdepth: 2\n\n   install\n", fragment(source))

    def test_github_display_comments(self):
        source = (
            ".. github display off\n\n.. automodule:: spam\n\nShown.\n\n"
            ".. github display on\n\n.. automodule:: eggs\n\n"
            ".. github display\n\n   only on GitHub\n\n.. an ordinary comment\n"
        )
        expected = "<p>Shown.</p><pre>.. automodule:: eggs</pre><pre>only on GitHub</pre>"
        self.assertDomEqual(expected, fragment(source))

    def test_unknown_options_are_dropped(self):
        source = ".. code:: python\n   :caption: spam.py\n   :emphasize-lines: 1\n\n   x = 1\n\n.. note::\n   :unknown: yes\n\n   Noted.\n"
        expected = '<pre lang="python">x = 1</pre><div><p>Note</p><p>Noted.</p></div>'
        self.assertDomEqual(expected, fragment(source))
        self.assertEqual(check(source, "github"), [])

    def test_kbd_role_escapes_its_text(self):
        html = fragment("Press :kbd:`Ctrl+<C>` now.\n")
        self.assertDomEqual("<p>Press <kbd>Ctrl+&lt;C&gt;</kbd> now.</p>", html)
        self.assertNotIn("<C>", html)

    def test_doctest_and_highlight(self):
        source = ".. doctest:: group\n\n   >>> 1\n   1\n\n>>> 2\n2\n\n.. highlight:: ruby\n\n::\n\n   puts 1\n"
        expected = '<pre lang="python">&gt;&gt;&gt; 1\n1</pre><pre lang="pycon">&gt;&gt;&gt; 2\n2</pre><pre lang="ruby">puts 1</pre>'
        self.assertDomEqual(expected, fragment(source))

    def test_code_block_alias_and_inline_literals(self):
        source = ".. code-block:: python\n\n   x = 1\n\nA ``literal`` and :code:`x`.\n"
        expected = '<pre lang="python">x = 1</pre><p>A <code>literal</code> and <code>x</code>.</p>'
        self.assertDomEqual(expected, fragment(source))

    def test_svg_image_becomes_img(self):
        source = ".. image:: https://e.org/b.svg\n   :alt: badge\n   :width: 20\n\n.. image:: https://e.org/p.png\n"
        expected = '<img alt="badge" src="https://e.org/b.svg" width="20"><img src="https://e.org/p.png">'
        self.assertDomEqual(expected, fragment(source))

    def test_table_and_footnote(self):
        source = "=  =\na  b\n=  =\n\nSee [#]_.\n\n.. [#] Note.\n"
        html = fragment(source)
        self.assertDomEqual(
            '<table><tbody valign="top"><tr><td>a</td><td>b</td></tr></tbody></table>'
            '<p>See <a href="#id2" id="id1">[1]</a>.</p>'
            '<table frame="void" id="id2" rules="none"><tbody valign="top"><tr><td><a href="#id1">[1]</a></td><td>Note.</td></tr></tbody></table>',
            html,
        )

    def test_served_fragment_is_what_github_shows_less_presentational_attributes(self):
        source = "Top\n===\n\nPress :kbd:`K`.\n\nPart\n----\n\n.. raw:: html\n\n   <b>x</b>\n"
        self.assertEqual(served(source), fragment(source))
        self.assertIn('<a name="part"></a>', served(source))
        # rst2's own safety pass keeps no table presentation attributes.
        self.assertDomEqual("<table><tbody><tr><td>a</td><td>b</td></tr></tbody></table>", served("=  =\na  b\n=  =\n"))

    def test_title_and_subtitle(self):
        source = "Title\n=====\n\nSub\n---\n\nText.\n"
        self.assertDomEqual('<h1>Title</h1><h2 id="sub">Sub</h2><p>Text.</p>', fragment(source))

    def test_state_does_not_leak_between_documents(self):
        fragment(".. github display off\n\n.. highlight:: ruby\n")
        self.assertDomEqual("<pre>.. toctree::</pre><pre>x</pre>", fragment(".. toctree::\n\n::\n\n   x\n"))

    def test_other_dialects_are_unchanged(self):
        fragment(".. toctree::\n")
        self.assertIn('Unknown directive type "toctree".', [item["message"] for item in check(".. toctree::\n")])
        self.assertNotIn("<kbd>", render_html(":kbd:`x`\n", format="fragment")["html"])
        docutils_raw = render_html(".. raw:: html\n\n   <b>x</b>\n", format="fragment")["html"]
        self.assertNotIn("<b>x</b>", docutils_raw)
        self.assertIn("directive disabled", docutils_raw)


class Sanitizer(Comparator):
    def test_raw_html_goes_through_the_allow_list(self):
        source = (
            ".. raw:: html\n\n"
            '   <div class="c" style="color: red" onclick="evil()"><b>bold</b><script>alert(1)</script></div>\n'
            '   <iframe src="https://e.org">gone</iframe><a href="javascript:alert(1)">js</a>\n'
            '   <a href="INSTALL.rst">bare</a><a href="docs/x.rst">docs</a><a href="#frag" title="https://e.org">f</a>\n'
            "   <!-- comment --><custom>kept text</custom><img src=\"x.png\" alt=\"https://e.org/x.png\">\n"
        )
        html = fragment(source)
        self.assertDomEqual(
            '<div><b>bold</b></div><a>js</a><a>bare</a><a href="docs/x.rst">docs</a><a href="#frag">f</a>kept text<img>',
            html,
        )
        for active in ("<script", "onclick", "javascript:", "<iframe", "style=", "class="):
            self.assertNotIn(active, html)

    def test_allow_list_as_data(self):
        self.assertEqual(sanitize('<p id="x" class="y" data-a="1" lang="en">t</p>'), '<p id="x" lang="en">t</p>')
        self.assertEqual(sanitize('<a href="mailto:a@b.c">m</a><a href="ftp://x">f</a>'), '<a href="mailto:a@b.c">m</a><a>f</a>')
        self.assertEqual(sanitize("<svg><text>t</text></svg><math><mi>x</mi></math><u>u</u>"), "u")
        self.assertEqual(sanitize("<table><colgroup><col width=\"50%\"></colgroup></table>"), "<table></table>")

    def test_page_keeps_no_active_content(self):
        page = render_html(".. raw:: html\n\n   <script>alert(1)</script><b onmouseover=\"x()\">b</b>\n", dialect="github")
        self.assertNotIn("alert", page["html"])
        self.assertNotIn("onmouseover", page["html"])
        self.assertEqual(page["removed"], [])


class Checks(unittest.TestCase):
    def rules(self, source):
        return [(item["line"], item["rule"]) for item in problems(source, "github")]

    def test_unknown_directive(self):
        self.assertEqual(self.rules("Text.\n\n.. toctree::\n\n   install\n"), [(3, "github-unknown-directive")])
        self.assertEqual(self.rules(".. github display off\n\n.. toctree::\n\n   install\n"), [])

    def test_raw_emptied(self):
        source = ".. raw:: html\n\n   <script>x()</script>\n\n.. raw:: html\n\n   <div style=\"a\"></div>\n\n.. raw:: html\n\n   <hr>\n"
        self.assertEqual(self.rules(source), [(1, "github-raw-emptied"), (5, "github-raw-emptied")])

    def test_include(self):
        self.assertEqual(self.rules(".. include:: other.rst\n"), [(1, "github-include")])
        self.assertEqual(self.rules(".. include:: <isonum.txt>\n"), [(1, "github-include")])

    def test_contents_links(self):
        doc = "Title\n=====\n\n%s\nOne\n---\n\nTwo\n---\n"
        self.assertEqual(self.rules(doc % ".. contents::\n"), [(4, "github-contents-links")])
        self.assertEqual(self.rules(doc % ".. contents::\n   :backlinks: none\n"), [])
        self.assertEqual(self.rules(doc % ".. contents::\n   :backlinks: top\n"), [])

    def test_through_the_api_and_rules(self):
        import json

        reply = json.loads(api.handle("check", ".. toctree::\n", json.dumps({"dialect": "github"})))
        self.assertEqual([m["rule"] for m in reply["result"]["messages"]], ["github-unknown-directive"])
        reply = json.loads(api.handle("check", ".. toctree::\n", json.dumps({"dialect": "github", "rules": ["docutils-error"]})))
        self.assertEqual(reply["result"]["messages"], [])

    def test_docutils_problems_still_reported(self):
        # GitHub shows them as source text and says nothing; check still does.
        self.assertEqual(self.rules("A :nosuch:`role`.\n"), [(1, "unknown-role")])


class Pdf(unittest.TestCase):
    def test_latex_keeps_key_text_and_directive_source(self):
        source = "Press :kbd:`Ctrl+C`.\n\n.. toctree::\n\n   install\n\n.. doctest::\n\n   >>> 1\n   1\n\n.. raw:: latex\n\n   \\input{/etc/passwd}\n"
        latex = render_latex(source, {"dialect": "github"})["latex"]
        self.assertIn("Ctrl+C", latex)
        self.assertIn(".. toctree::", latex)
        self.assertNotIn("/etc/passwd", latex)

    def test_dialect_is_known(self):
        self.assertEqual(get("github").name, "github")


if __name__ == "__main__":
    unittest.main()
