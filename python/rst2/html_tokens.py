"""The HTML docutils writes, read quickly into the calls ``html.parser`` would make.

``rst2.sanitize`` reads every page with ``html.parser``, whose tokenizer is
pure Python and costs more than the checks themselves (about 2 ms of a 4 ms
pass on a 5 KB document, twice that in the workers). docutils and our
MathML write markup in one narrow, regular form; ``replay`` reads exactly
that form with a handful of regular expressions and makes the same handler
calls, with the same arguments, that ``HTMLParser.feed`` + ``close`` would.
Anything outside the form (and anything a parser could read two ways) makes
it answer False, and the caller reads the page again with ``html.parser``.

The form, and why ``html.parser`` (3.11 and 3.14, convert_charrefs=False)
reads it the same way:

* text: ``[^<&]+``, one ``handle_data`` per run (html.parser splits text at
  the same ``<`` and ``&``);
* ``&name;`` and ``&#digits;``/``&#xhex;``, always closed by ``;``: the
  parser's ``entityref``/``charref`` patterns match exactly these, with the
  same name;
* start tags ``<tag name="value" ...>`` or ``... />``: lower-case names,
  one space before each attribute, values in double quotes (unescaped with
  the parser's own function); ``/>`` is ``handle_startendtag``;
* end tags ``</tag>``; ``<!DOCTYPE html>``;
* comments ``<!--text-->`` whose text holds no ``--`` and does not end in
  ``-``, so every parser version ends them at the same ``-->``;
* ``<style>``: its content up to the first ``</``, which must be
  ``</style>`` (a content with ``</`` could end differently); ``<title>``
  (character data in 3.14's parser): only text and references until
  ``</title>``; other raw-text elements (script, textarea, ...) are out.
"""

import re
from html import parser as _html_parser
from html import unescape

# The parser's own unescaping of attribute values: 3.14 has its own rules
# for attributes, 3.11 used html.unescape.
_unescape_attribute = getattr(_html_parser, "_unescape_attrvalue", unescape)

_TEXT = re.compile(r"[^<&]+")
_START = re.compile(r'<([a-z][a-z0-9]*)((?: [a-z][a-z0-9_:.-]*="[^"]*")*)( /)?>')
_ATTRIBUTES = re.compile(r' ([a-z][a-z0-9_:.-]*)="([^"]*)"')
_END = re.compile(r"</([a-z][a-z0-9]*)>")
_ENTITY = re.compile(r"&([a-zA-Z][-.a-zA-Z0-9]*);")
_CHARREF = re.compile(r"&#([0-9]+|[xX][0-9a-fA-F]+);")
_DOCTYPE = "<!DOCTYPE html>"

# Elements whose content some version of html.parser reads as raw text or
# character data (CDATA_CONTENT_ELEMENTS, RCDATA_CONTENT_ELEMENTS, plaintext;
# noscript only when scripting, kept out all the same).
_RAW_TEXT = frozenset(("script", "style", "xmp", "iframe", "noembed", "noframes", "textarea", "title", "plaintext", "noscript"))


def replay(page, handler):
    """Makes ``handler``'s calls for ``page``; False (part-way) when the page is not in the form."""
    pos = 0
    size = len(page)
    text = _TEXT.match
    start = _START.match
    # Inside <title>: text and references only, until </title>.
    in_title = False
    while pos < size:
        char = page[pos]
        if char == "<":
            if page.startswith("</", pos):
                match = _END.match(page, pos)
                if match is None:
                    return False
                tag = match.group(1)
                if in_title and tag != "title":
                    return False
                in_title = False
                handler.handle_endtag(tag)
                pos = match.end()
            elif in_title:
                return False
            elif page.startswith("<!--", pos):
                close = page.find("-->", pos + 4)
                if close < 0:
                    return False
                comment = page[pos + 4 : close]
                if "--" in comment or comment.endswith("-"):
                    return False
                handler.handle_comment(comment)
                pos = close + 3
            elif page.startswith(_DOCTYPE, pos):
                handler.handle_decl(_DOCTYPE[2:-1])
                pos += len(_DOCTYPE)
            else:
                match = start(page, pos)
                if match is None:
                    return False
                tag, written, closed = match.groups()
                attrs = [(name, _unescape_attribute(value) if "&" in value else value) for name, value in _ATTRIBUTES.findall(written)] if written else []
                pos = match.end()
                if closed:
                    handler.handle_startendtag(tag, attrs)
                elif tag not in _RAW_TEXT:
                    handler.handle_starttag(tag, attrs)
                elif tag == "title":
                    handler.handle_starttag(tag, attrs)
                    in_title = True
                elif tag == "style":
                    end = page.find("</", pos)
                    if end < 0 or not page.startswith("</style>", end):
                        return False
                    handler.handle_starttag(tag, attrs)
                    if end > pos:
                        handler.handle_data(page[pos:end])
                    handler.handle_endtag(tag)
                    pos = end + len("</style>")
                else:
                    return False
        elif char == "&":
            match = _ENTITY.match(page, pos)
            if match is not None:
                handler.handle_entityref(match.group(1))
            else:
                match = _CHARREF.match(page, pos)
                if match is None:
                    return False
                handler.handle_charref(match.group(1))
            pos = match.end()
        else:
            match = text(page, pos)
            handler.handle_data(match.group())
            pos = match.end()
    return not in_title
