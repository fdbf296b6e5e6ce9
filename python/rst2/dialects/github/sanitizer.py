"""The allow-list github/markup's tests apply to rest2html's output.

GitHub.com's own sanitizer is not public. github/markup's test suite pipes
every rendering through html-pipeline's ``SanitizationFilter::DEFAULT_CONFIG``
(html-pipeline 3.2.4, applied by selma 0.5.0), so that configuration is the
public description of what a README keeps; this module is it, written as
data for the standard library's HTML parser. Where DEFAULT_CONFIG says
nothing, selma's defaults are followed: script, style, math and svg go with
their content, as do the elements of its tag filter; any other element
outside the list is dropped with its content kept; comments go.
"""

import html
import re
from html.parser import HTMLParser

ELEMENTS = frozenset(
    """h1 h2 h3 h4 h5 h6 br b i strong em a pre code img tt div ins del sup sub p picture ol ul
    table thead tbody tfoot blockquote dl dt dd kbd q samp var hr ruby rt rp li tr td th s strike
    summary details caption figure figcaption abbr bdo cite dfn mark small source span time wbr""".split()
)

ATTRIBUTES = {
    "a": frozenset({"href"}),
    "img": frozenset({"src", "longdesc", "loading", "alt"}),
    "div": frozenset({"itemscope", "itemtype"}),
    "blockquote": frozenset({"cite"}),
    "del": frozenset({"cite"}),
    "ins": frozenset({"cite"}),
    "q": frozenset({"cite"}),
    "source": frozenset({"srcset"}),
    # No class, no style, no data-*: GitHub styles a README itself.
    "*": frozenset(
        """abbr accept accept-charset accesskey action align alt aria-describedby aria-hidden aria-label
        aria-labelledby axis border char charoff charset checked clear cols colspan compact coords datetime dir
        disabled enctype for frame headers height hreflang hspace id ismap label lang maxlength media method
        multiple name nohref noshade nowrap open progress prompt readonly rel rev role rows rowspan rules scope
        selected shape size span start summary tabindex title type usemap valign value width itemprop""".split()
    ),
}

# "relative" is selma's name for a value whose first ``:``, ``/`` or ``#``
# is a ``/`` or ``#``.
_WEB = frozenset({"http", "https", "relative"})
PROTOCOLS = {
    ("a", "href"): _WEB | {"mailto"},
    ("img", "src"): _WEB,
    ("img", "longdesc"): _WEB,
    ("blockquote", "cite"): _WEB,
    ("del", "cite"): _WEB,
    ("ins", "cite"): _WEB,
    ("q", "cite"): _WEB,
}

# Removed together with everything inside them (selma: elements with text
# content, and its tag filter, on by default).
REMOVED_WITH_CONTENT = frozenset({"script", "style", "math", "svg", "title", "textarea", "xmp", "iframe", "noembed", "noframes", "plaintext"})

VOID = frozenset({"br", "img", "hr", "wbr", "source", "input", "col", "area", "base", "embed", "link", "meta", "param", "track"})

_PROTOCOL_END = re.compile(r"[:/#]")


def protocol_allowed(value, allowed):
    """selma's test: the text before the first ``:``, ``/`` or ``#`` names the protocol.

    A value with none of the three has no protocol and is not relative
    either, so it fails: ``INSTALL.rst`` loses its href, ``docs/x.rst``
    keeps it (an upstream quirk, kept because it is what the tests see).
    """
    found = _PROTOCOL_END.search(value)
    if found is None:
        return False
    if found.group() in "/#":
        return "relative" in allowed
    return value[: found.start()].strip().lower() in allowed


def keep_attribute(tag, name, value):
    if name not in ATTRIBUTES.get(tag, ()) and name not in ATTRIBUTES["*"]:
        return False
    allowed = PROTOCOLS.get((tag, name))
    if allowed is not None:
        return protocol_allowed(value, allowed)
    # selma drops an attribute with no protocol list whose value holds a URL
    # (docutils' default alt, the image's address, goes this way).
    return "://" not in value


class _Sanitizer(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []
        self.removing = []  # the open elements removed with their content

    def handle_starttag(self, tag, attrs):
        self._start(tag, attrs, tag in VOID)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, attrs, True)

    def _start(self, tag, attrs, void):
        if self.removing:
            if tag in REMOVED_WITH_CONTENT and not void:
                self.removing.append(tag)
            return
        if tag in REMOVED_WITH_CONTENT:
            if not void:
                self.removing.append(tag)
            return
        if tag not in ELEMENTS:
            return
        kept = "".join(' %s="%s"' % (name, html.escape(value or "", quote=True)) for name, value in attrs if keep_attribute(tag, name, value or ""))
        self.out.append("<%s%s>" % (tag, kept))

    def handle_endtag(self, tag):
        if self.removing:
            if tag in self.removing:
                while self.removing.pop() != tag:
                    pass
            return
        if tag in ELEMENTS and tag not in VOID:
            self.out.append("</%s>" % tag)

    def handle_data(self, data):
        if not self.removing:
            self.out.append(html.escape(data, quote=False))

    def handle_comment(self, data):
        pass

    def handle_decl(self, decl):
        pass

    def handle_pi(self, data):
        pass

    def unknown_decl(self, data):
        pass


def sanitize(text):
    """``text`` (an HTML fragment) with only what the allow-list keeps."""
    parser = _Sanitizer()
    parser.feed(text)
    parser.close()
    return "".join(parser.out)


def emptied(text):
    """Whether ``text`` keeps nothing visible once sanitized: no text, no image, rule or break."""
    kept = sanitize(text)
    return not re.sub(r"<[^>]*>", "", kept).strip() and not re.search(r"<(img|hr|br|input)\b", kept)
