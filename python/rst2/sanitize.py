"""The last pass over every HTML page: only inert markup leaves the service.

The writer (``rst2.html_writer``) and the link transform (``rst2.safety``)
close every path we know of; this pass makes a path we do not know of
harmless too.  The page is parsed with ``html.parser`` and written out again
from what was parsed, so a browser reads exactly what was checked:

* elements: only those docutils' html5 writer and our MathML use; ``meta``,
  ``title`` and ``style`` only inside ``head``; ``script`` and ``style``
  elsewhere go with their content, other unknown elements lose their tags
  and keep their text;
* attributes: a fixed list per element, never ``on*`` or ``http-equiv``;
  values re-escaped; ``href``/``src`` without ``javascript:``, ``vbscript:``
  or ``data:`` (``data:image/...`` allowed for ``img``); ``style`` only as
  plain ``property: value`` declarations (no ``url()``, no functions);
* text re-escaped, comments defused, other declarations and processing
  instructions dropped; embedded stylesheets kept only without ``</``,
  ``url()``, ``@import``, ``expression()`` and the like.

What is removed is returned so the service can log it; a clean page comes
back byte for byte as docutils wrote it.

Pages are read by ``rst2.html_tokens`` when they are in the regular form
docutils writes (the same handler calls, in under half the time), else by
``html.parser``; either way the same handlers below decide what is kept.
"""

import functools
import html
import html.entities
import re
from html.parser import HTMLParser

from . import html_tokens, mathml
from .safety import is_blocked_uri

HTML_ELEMENTS = frozenset(
    (
        "html head body title meta style main header footer div section nav aside p "
        "h1 h2 h3 h4 h5 h6 a span em strong code kbd dfn samp var bdi del ins mark small "
        "b i q s u sub sup abbr cite pre blockquote ol ul li dl dt dd table caption "
        "colgroup col thead tbody tfoot tr th td img video figure figcaption hr br "
        "details summary"
    ).split()
)
VOID_ELEMENTS = frozenset("meta img col hr br".split())
HEAD_ONLY = frozenset(("meta", "title", "style"))
PAGE_ELEMENTS = ("html", "head", "body")
# Elements whose content goes with them (the parser hands it over as text).
DROPPED_WITH_CONTENT = frozenset(("script", "style"))

GLOBAL_ATTRIBUTES = frozenset("id class lang xml:lang title role style dir aria-level".split())
ELEMENT_ATTRIBUTES = {
    "html": frozenset(("xmlns",)),
    "meta": frozenset(("charset", "name", "property", "content", "scheme")),
    "style": frozenset(("type",)),
    # rel only names the relation (PyPI adds nofollow); it loads nothing.
    # name: the section anchors GitHub's renderer writes (<a name>), as
    # inert as an id (a window names no <a> by it).
    "a": frozenset(("href", "rel", "name")),
    "img": frozenset(("src", "alt", "width", "height", "loading")),
    "video": frozenset(("src", "width", "height", "controls")),
    "ol": frozenset(("start",)),
    "th": frozenset(("colspan", "rowspan")),
    "td": frozenset(("colspan", "rowspan")),
    "code": frozenset(("data-lineno",)),
    "details": frozenset(("open",)),
}
URL_ATTRIBUTES = frozenset(("href", "src"))
SELF_CLOSING = VOID_ELEMENTS | mathml.ELEMENTS
_ALLOWED_ATTRIBUTES = {tag: GLOBAL_ATTRIBUTES | ELEMENT_ATTRIBUTES.get(tag, frozenset()) for tag in HTML_ELEMENTS}
_ALLOWED_ATTRIBUTES.update((tag, mathml.ATTRIBUTES) for tag in mathml.ELEMENTS)

# One declaration of an inline style as docutils writes them: ``width: 40%``,
# ``--field-indent: 5em``.  No functions, quotes or escapes.
_PLAIN_DECLARATION = re.compile(r"-{0,2}[a-z][a-z0-9-]*\s*:\s*[a-z0-9.%#+ -]*\Z", re.I)
# CSS that can fetch or run something, looked for after escapes are decoded.
_ACTIVE_CSS = re.compile(r"url\(|image-set\(|image\(|@import|expression|javascript:|vbscript:|binding|behavior", re.I)
_CSS_ESCAPE = re.compile(r"\\([0-9a-fA-F]{1,6})\s?|\\(.)", re.S)
_CSS_COMMENT = re.compile(r"/\*.*?\*/", re.S)
_DATA_IMAGE = re.compile(r"data:image/", re.I)
_IGNORED_IN_SCHEME = re.compile(r"[\x00-\x20\x7f]+")

# docutils' attribute escaping (writers._html_base.HTMLTranslator.attval).
_ATTRIBUTE_ESCAPES = {ord("&"): "&amp;", ord("<"): "&lt;", ord('"'): "&quot;", ord(">"): "&gt;", ord("@"): "&#64;"}
_TEXT_ESCAPES = {ord("&"): "&amp;", ord("<"): "&lt;", ord(">"): "&gt;"}
_CHARREF = re.compile(r"(?:[0-9]+|[xX][0-9a-fA-F]+)\Z")


def sanitize(page):
    """(page, removed): the page with active content taken out, and what was."""
    parser = _Sanitizer()
    if not html_tokens.replay(page, parser):
        # Not in the regular form: read from the start again, by html.parser.
        return sanitize_with_html_parser(page)
    parser.finish()
    return "".join(parser.out), parser.removed


def sanitize_with_html_parser(page):
    """``sanitize`` reading the page with ``html.parser`` whatever its form (for tests)."""
    parser = _Sanitizer()
    parser.feed(page)
    parser.close()
    parser.finish()
    return "".join(parser.out), parser.removed


# Every page embeds the same stylesheets, and reading one for active content
# costs about 1 ms in a worker; the verdicts on the last few are kept
# (stylesheets past the size are read each time, so the cache stays small).
_REMEMBERED_CSS_CHARS = 256 * 1024


def active_css(css):
    """Whether a stylesheet could load or run something."""
    return _remembered_active_css(css) if len(css) <= _REMEMBERED_CSS_CHARS else _active_css(css)


@functools.lru_cache(maxsize=8)
def _remembered_active_css(css):
    return _active_css(css)


def _active_css(css):
    decoded = _CSS_ESCAPE.sub(_css_unescape, _CSS_COMMENT.sub("", css))
    return "</" in css or bool(_ACTIVE_CSS.search(re.sub(r"\s+", "", decoded)))


def _css_unescape(match):
    if match.group(1) is None:
        return match.group(2)
    code = int(match.group(1), 16)
    return chr(code) if 0 < code <= 0x10FFFF else "\ufffd"


class _Sanitizer(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=False)
        self.out = []
        self.removed = []
        # Where the page is: html, head and body each open once, in that
        # order; a browser would treat a second <head> in the body as noise,
        # but this pass must not take it as leave to keep head-only elements.
        self._seen = set()
        self._in_head = False
        # Depth of <math>: MathML elements only inside it, nothing else there
        # (inside <math> a browser parses <style> as markup, not as CSS).
        self._math = 0
        # The element whose content is being dropped, or a kept <style> being read.
        self._skipping = None
        self._style = None
        # (tag, attributes) -> (opening as written, what it left out); see _opening.
        self._openings = {}

    def updatepos(self, i, j):
        # The base class counts lines and columns for getpos(), which this
        # pass never asks for; skipping it saves a sixth of the time.
        return j

    def finish(self):
        if self._style is not None:
            self._remove("unterminated style element")
        self._style = None

    def _remove(self, what):
        if what not in self.removed and len(self.removed) < 50:
            self.removed.append(what)

    # Tags -----------------------------------------------------------------

    def handle_starttag(self, tag, attrs):
        self._start(tag, attrs, closed=False)

    def handle_startendtag(self, tag, attrs):
        self._start(tag, attrs, closed=True)

    def _start(self, tag, attrs, closed):
        if self._skipping or self._style is not None:
            # Only reachable if the parser left raw-text mode early; nothing
            # inside a dropped element is kept.
            return
        if not self._allowed_here(tag):
            self._remove("%s element" % tag)
            if tag in DROPPED_WITH_CONTENT and not closed:
                self._skipping = tag
            return
        if tag in PAGE_ELEMENTS:
            self._seen.add(tag)
            self._in_head = tag == "head"
        elif tag == "math" and not closed:
            self._math += 1
        start = self._opening(tag, attrs)
        if tag == "style":
            # A browser ignores "/>" here and would read the rest of the page
            # as a stylesheet.
            self._style = [start + ">"]
            if closed:
                self._close_style()
        elif closed and tag in SELF_CLOSING:
            self.out.append(start + " />")
        elif closed:
            # "<div/>" opens a div in HTML; written out as the parser read it.
            self.out.append(start + "></%s>" % tag)
        else:
            self.out.append(start + ">")

    def _allowed_here(self, tag):
        if self._math:
            return tag in mathml.ELEMENTS
        if tag in mathml.ELEMENTS:
            return tag == "math" and not self._in_head
        if tag not in HTML_ELEMENTS:
            return False
        if tag in PAGE_ELEMENTS:
            # Each once and in order: <html>, <head>, <body>.
            later = PAGE_ELEMENTS[PAGE_ELEMENTS.index(tag):]
            return not self._seen.intersection(later)
        if self._in_head:
            return tag in HEAD_ONLY
        return tag not in HEAD_ONLY

    def _end_allowed_here(self, tag):
        if self._math:
            return tag in mathml.ELEMENTS
        if tag in PAGE_ELEMENTS:
            return tag in self._seen and (tag != "head" or self._in_head)
        if tag in HEAD_ONLY:
            return self._in_head
        return tag in HTML_ELEMENTS

    def _opening(self, tag, attrs):
        """``<tag`` and the attributes kept, escaped; what was left out goes to ``removed``.

        Worked out once per distinct tag and attributes in a page: a page
        repeats the same few openings (``<span class="n">``) hundreds of times.
        """
        key = (tag, tuple(attrs))
        known = self._openings.get(key)
        if known is None:
            problems = []
            kept = _kept_attributes(tag, attrs, problems)
            start = "<%s%s" % (tag, "".join(' %s="%s"' % (k, v.translate(_ATTRIBUTE_ESCAPES)) for k, v in kept))
            known = self._openings[key] = (start, problems)
        for what in known[1]:
            self._remove(what)
        return known[0]

    def handle_endtag(self, tag):
        if self._skipping:
            if tag == self._skipping:
                self._skipping = None
            return
        if self._style is not None:
            if tag == "style":
                self._close_style()
            return
        if tag in VOID_ELEMENTS or not self._end_allowed_here(tag):
            return
        if tag == "head":
            self._in_head = False
        elif tag == "math":
            self._math -= 1
        self.out.append("</%s>" % tag)

    def _close_style(self):
        start, css = self._style[0], "".join(self._style[1:])
        self._style = None
        if active_css(css):
            self._remove("style element with active content")
        else:
            self.out.append(start + css + "</style>")

    # Content --------------------------------------------------------------

    def handle_data(self, data):
        if self._skipping:
            return
        if self._style is not None:
            self._style.append(data)
        else:
            self.out.append(data.translate(_TEXT_ESCAPES))

    def handle_entityref(self, name):
        if self._skipping:
            return
        known = name + ";" in html.entities.html5
        self._text("&%s;" % name if known else "&amp;%s" % name)

    def handle_charref(self, name):
        if self._skipping:
            return
        self._text("&#%s;" % name if _CHARREF.match(name) else "&amp;#%s" % name)

    def _text(self, text):
        if self._style is not None:
            self._style.append(text)
        else:
            self.out.append(text)

    def handle_comment(self, data):
        if self._skipping or self._style is not None:
            return
        # No "--" (which could end the comment early in some parser) and no
        # ">" or "-" right at the start ("<!-->" is a complete comment).
        safe = data
        while "--" in safe:
            safe = safe.replace("--", "- -")
        safe = safe.lstrip("->")
        self.out.append("<!--%s-->" % (safe + " " if safe.endswith("-") else safe))

    def handle_decl(self, decl):
        if decl.strip().lower() == "doctype html":
            self.out.append("<!%s>" % decl)
        else:
            self._remove("declaration <!%s>" % decl[:40])

    def unknown_decl(self, data):
        self._remove("declaration <![%s]>" % data[:40])

    def handle_pi(self, data):
        self._remove("processing instruction <?%s>" % data[:40])


def _kept_attributes(tag, attrs, problems):
    """The attributes of a ``tag`` that stay, in order; each left out is named in ``problems``."""
    kept, seen = [], set()
    allowed = _ALLOWED_ATTRIBUTES[tag]
    for name, value in attrs:
        value = "" if value is None else value
        if name in seen:
            continue  # browsers keep the first of duplicate attributes
        seen.add(name)
        if name not in allowed:
            problems.append("%s attribute on %s" % (name, tag))
        elif name in URL_ATTRIBUTES and _blocked_url(tag, value):
            problems.append("%s URL in %s on %s" % (_scheme(value), name, tag))
        elif name == "style" and not _plain_style(value):
            problems.append("style attribute on %s" % tag)
        else:
            kept.append((name, value))
    return kept


def _plain_style(value):
    return all(not part.strip() or _PLAIN_DECLARATION.match(part.strip()) for part in value.split(";"))


def _blocked_url(tag, value):
    if not is_blocked_uri(value):
        return False
    cleaned = _IGNORED_IN_SCHEME.sub("", value)
    return not (tag == "img" and _DATA_IMAGE.match(cleaned))


def _scheme(value):
    return _IGNORED_IN_SCHEME.sub("", value).partition(":")[0].lower()[:20]
