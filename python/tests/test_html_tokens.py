"""rst2.html_tokens: the calls html.parser would make, or no answer at all.

The safety pass trusts ``replay`` to read a page exactly as ``html.parser``
does; these tests compare the two call by call wherever ``replay`` answers,
on the pages rst2 writes and on generated near-HTML.
"""

import os
import random
import unittest
from html.parser import HTMLParser

from rst2 import dialects, html_tokens
from rst2.publish import publish
from rst2.render import STYLES_DIR, render_html
from rst2.sanitize import sanitize, sanitize_with_html_parser

HERE = os.path.dirname(os.path.abspath(__file__))


class _Calls:
    """Records each handler call the way it was made."""

    def __init__(self):
        self.calls = []

    def __getattr__(self, name):
        if not name.startswith(("handle_", "unknown_decl")):
            raise AttributeError(name)
        return lambda *args: self.calls.append((name,) + args)


class _ParserCalls(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.calls = []

    def handle_starttag(self, *args):
        self.calls.append(("handle_starttag",) + args)

    def handle_startendtag(self, *args):
        self.calls.append(("handle_startendtag",) + args)

    def handle_endtag(self, *args):
        self.calls.append(("handle_endtag",) + args)

    def handle_data(self, *args):
        self.calls.append(("handle_data",) + args)

    def handle_entityref(self, *args):
        self.calls.append(("handle_entityref",) + args)

    def handle_charref(self, *args):
        self.calls.append(("handle_charref",) + args)

    def handle_comment(self, *args):
        self.calls.append(("handle_comment",) + args)

    def handle_decl(self, *args):
        self.calls.append(("handle_decl",) + args)

    def handle_pi(self, *args):
        self.calls.append(("handle_pi",) + args)

    def unknown_decl(self, *args):
        self.calls.append(("unknown_decl",) + args)


def parser_calls(page):
    parser = _ParserCalls()
    parser.feed(page)
    parser.close()
    return parser.calls


def replay_calls(page):
    """The calls replay makes, or None when it does not read the page."""
    calls = _Calls()
    return calls.calls if html_tokens.replay(page, calls) else None


def rst2_pages():
    """What rst2's writers produce (before the safety pass) for the test documents."""
    sources = []
    for name in ("everything.rst",) + tuple(os.path.join("fixtures", f) for f in sorted(os.listdir(os.path.join(HERE, "fixtures")))):
        with open(os.path.join(HERE, name), encoding="utf-8") as f:
            sources.append(f.read())
    stylesheets = [os.path.join(STYLES_DIR, "html", "base", "docutils.css"), os.path.join(STYLES_DIR, "html", "default.css")]
    for source in sources:
        for dialect in ("docutils", "sphinx"):
            parts, _ = publish(
                source, "html5", dialect=dialects.get(dialect), stylesheet_path=stylesheets, stylesheet_dirs=[], embed_stylesheet=True, syntax_highlight="short", report_level=2
            )
            yield parts["whole"]


# Pieces of near-HTML: mostly the form replay reads, with the constructs
# where parsers disagree (raw text, comments that end early, bare "&",
# upper case, unquoted values) mixed in.
PIECES = (
    "<p>", "</p>", "<span class=\"n\">", "</span>", "<br />", "<br/>", "<img src=\"a.png\" alt=\"a &amp; b\" />",
    "<a href=\"x?a=1&amp;b=2\">", "<a href=\"mailto:a&#64;b\">", "</a>", "<title>", "</title>", "<style>", "</style>",
    "<style type=\"text/css\">", "</STYLE>", "</style >", "<script>", "</script>", "<textarea>", "<math>", "<mi>", "</mi>",
    "</math>", "<!--", "-->", "--!>", "<!-->", "<!DOCTYPE html>", "<!doctype html>", "<?pi?>", "<![CDATA[x]]>", "<!x>",
    "&amp;", "&lt;", "&gt;", "&quot;", "&#64;", "&#x41;", "&#X41;", "&#12a;", "&copy;", "&notanentity;", "&", "&amp", "&#",
    "<", ">", "</", "</ p>", "<P>", "<p class=x>", "<p class='x'>", "<p  class=\"x\">", "<p class=\"a\"class=\"b\">",
    "<p hidden>", "<p data-x=\"&amp;=\">", "<p title=\"a&ampb\">", "<p title=\"&notin;\">", "<h1 id=\"s\">", "</h1>",
    "text", "more text", " ", "\n", "-", "--", "\"", "=", "'", "/", "p{color:red}", "a > b", "\u00e9\u2014",
)
REGULAR = PIECES[:4] + ("text", " ", "&amp;", "<br />", "</p>", "<p>")


def soup(rng):
    parts = []
    for _ in range(rng.randint(1, 30)):
        parts.append(rng.choice(REGULAR if rng.random() < 0.6 else PIECES))
    return "".join(parts)


class ReplayTest(unittest.TestCase):
    def test_reads_rst2_pages_as_html_parser_does(self):
        count = 0
        for page in rst2_pages():
            calls = replay_calls(page)
            # The pages rst2 writes are all in the form (the fast path is the usual one).
            self.assertIsNotNone(calls)
            self.assertEqual(calls, parser_calls(page))
            count += 1
        self.assertGreaterEqual(count, 4)

    def test_reads_generated_html_as_html_parser_does_or_not_at_all(self):
        rng = random.Random(20)
        answered = 0
        for _ in range(3000):
            page = soup(rng)
            calls = replay_calls(page)
            if calls is not None:
                answered += 1
                self.assertEqual(calls, parser_calls(page), page)
        # Enough of them are in the form for the comparison to mean something.
        self.assertGreater(answered, 300)

    def test_changed_pages_are_read_as_html_parser_does_or_not_at_all(self):
        with open(os.path.join(HERE, "everything.rst"), encoding="utf-8") as f:
            page = render_html(f.read())["html"]
        rng = random.Random(7)
        answered = 0
        for _ in range(40):
            where = rng.randrange(len(page))
            changed = page[:where] + "".join(rng.choice(PIECES) for _ in range(rng.randint(1, 3))) + page[where:]
            calls = replay_calls(changed)
            if calls is not None:
                answered += 1
                self.assertEqual(calls, parser_calls(changed), changed[max(0, where - 80) : where + 80])
        self.assertGreater(answered, 5)

    def test_what_it_does_not_read(self):
        for page in (
            "<script>alert(1)</script>",
            "<p>a & b</p>",
            "<P>x</P>",
            "<p class=x>",
            "<br/>",
            "<!-- a -- b -->",
            "<!-- a --->",
            "<style>a{}</style >",
            "<style>/* </p> */</style>",
            "<title>a <b>b</b></title>",
            "<title>unterminated",
            "<?pi?>",
            "<![CDATA[x]]>",
            "<textarea>x</textarea>",
        ):
            self.assertIsNone(replay_calls(page), page)


class SafetyPassTest(unittest.TestCase):
    def test_both_readings_give_the_same_page(self):
        # Pages in the form take the fast reading, the rest html.parser's;
        # the answer is the same either way.
        rng = random.Random(3)
        pages = list(rst2_pages()) + [soup(rng) for _ in range(500)]
        for page in pages:
            self.assertEqual(sanitize(page), sanitize_with_html_parser(page), page[:200])


if __name__ == "__main__":
    unittest.main()
