"""PyPI's HTML allow-list, applied to a rendered description.

PyPI passes readme_renderer's output through nh3 (Rust's ammonia), which
Pyodide cannot load; this is the same allow-list written with the standard
library's HTML parser. The lists are those of readme_renderer 46.0
(readme_renderer/clean.py, read at its main branch 8c51629, which 46.0 was
tagged from); the behaviour follows ammonia's defaults as readme_renderer
configures them: a tag outside the list is dropped but its text kept,
except inside script and style whose text goes too; an attribute outside
the list is dropped; a URL attribute whose scheme is not http, https or
mailto is dropped (relative URLs pass); every link gets rel="nofollow" and
every input disabled=""; comments and doctype declarations go.
"""

import html
import re
from html.parser import HTMLParser

ALLOWED_TAGS = frozenset(
    {
        # bleach's historical defaults
        "a", "abbr", "acronym", "b", "blockquote", "code", "em", "i", "li", "ol", "strong", "ul",
        # readme_renderer's additions
        "br", "caption", "cite", "col", "colgroup", "dd", "del", "details", "div", "dl", "dt",
        "h1", "h2", "h3", "h4", "h5", "h6", "hr", "img", "p", "pre", "span", "sub", "summary",
        "sup", "table", "tbody", "td", "th", "thead", "tr", "tt", "kbd", "var", "input",
        "section", "aside", "nav", "figure", "figcaption", "picture",
    }
)  # fmt: skip

ALLOWED_ATTRIBUTES = {
    "*": frozenset({"id"}),
    "a": frozenset({"href", "title"}),
    "abbr": frozenset({"title"}),
    "acronym": frozenset({"title"}),
    "hr": frozenset({"class"}),
    "img": frozenset({"src", "width", "height", "alt", "align", "class"}),
    "span": frozenset({"class"}),
    "th": frozenset({"align", "class"}),
    "td": frozenset({"align", "colspan", "rowspan"}),
    "div": frozenset({"align", "class"}),
    "h1": frozenset({"align"}),
    "h2": frozenset({"align"}),
    "h3": frozenset({"align"}),
    "h4": frozenset({"align"}),
    "h5": frozenset({"align"}),
    "h6": frozenset({"align"}),
    "code": frozenset({"class"}),
    "p": frozenset({"align", "class"}),
    # Since 45.0: docutils' classes on literal and code blocks are kept.
    "pre": frozenset({"class", "lang"}),
    "ol": frozenset({"start"}),
    "input": frozenset({"type", "checked", "disabled"}),
    "aside": frozenset({"class"}),
    "dd": frozenset({"class"}),
    "dl": frozenset({"class"}),
    "dt": frozenset({"class"}),
    "ul": frozenset({"class"}),
    "nav": frozenset({"class"}),
    "figure": frozenset({"class"}),
}

URL_SCHEMES = frozenset({"http", "https", "mailto"})

# ammonia's defaults: the attributes it reads as URLs, and the tags whose
# content is removed along with them.
URL_ATTRIBUTES = frozenset({"href", "src", "cite", "longdesc", "action", "formaction", "poster", "background", "usemap"})
CLEAN_CONTENT_TAGS = frozenset({"script", "style"})

VOID_TAGS = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})

# Browsers ignore ASCII control characters and spaces in a scheme.
_IGNORED = re.compile(r"[\x00-\x20\x7f]+")
_SCHEME = re.compile(r"^([a-zA-Z][a-zA-Z0-9+.-]*):")


def allowed_attribute(tag, name):
    return name in ALLOWED_ATTRIBUTES["*"] or name in ALLOWED_ATTRIBUTES.get(tag, ())


def url_allowed(value):
    """Relative URLs pass; absolute ones only with an allowed scheme."""
    match = _SCHEME.match(_IGNORED.sub("", value or ""))
    return match is None or match.group(1).lower() in URL_SCHEMES


class _Cleaner(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self._dropping = None  # the script/style tag whose content is being removed

    def handle_starttag(self, tag, attrs):
        self._start(tag, attrs, closed=False)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, attrs, closed=True)

    def _start(self, tag, attrs, closed):
        if self._dropping:
            return
        if tag in CLEAN_CONTENT_TAGS:
            if not closed:
                self._dropping = tag
            return
        if tag not in ALLOWED_TAGS:
            return
        kept = []
        for name, value in attrs:
            value = "" if value is None else value
            if not allowed_attribute(tag, name) or (name in URL_ATTRIBUTES and not url_allowed(value)):
                continue
            kept.append((name, value))
        if tag == "a":
            kept = [(n, v) for n, v in kept if n != "rel"] + [("rel", "nofollow")]
        if tag == "input":
            # Since 45.0 (nh3's set_tag_attribute_values): a disabled
            # attribute keeps its place with an empty value, else one is
            # added last. No form on a package's page is for filling in.
            if any(n == "disabled" for n, _ in kept):
                kept = [(n, "" if n == "disabled" else v) for n, v in kept]
            else:
                kept.append(("disabled", ""))
        rendered = "".join(' %s="%s"' % (name, html.escape(value, quote=True)) for name, value in kept)
        self.out.append("<%s%s>" % (tag, rendered))

    def handle_endtag(self, tag):
        if self._dropping:
            if tag == self._dropping:
                self._dropping = None
            return
        if tag in ALLOWED_TAGS and tag not in VOID_TAGS:
            self.out.append("</%s>" % tag)

    def handle_data(self, data):
        if not self._dropping:
            self.out.append(html.escape(data, quote=False))

    # Comments, declarations and processing instructions are dropped by
    # simply not handling them.


def clean(fragment):
    """``fragment`` with only PyPI's allowed tags, attributes and URL schemes left."""
    cleaner = _Cleaner()
    cleaner.feed(fragment)
    cleaner.close()
    return "".join(cleaner.out)
