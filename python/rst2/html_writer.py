"""docutils' html5 writer with the paths that copy input into markup closed.

docutils writes some document text into the page unescaped (checked
against 0.23's writer; 0.19 had the same paths unless said):

* math: math2html (0.19's default ``math_output``) copies ``\\text{...}``,
  ``\\href``, ``\\color`` arguments as markup; 0.19's MathML converter
  wrote attribute values and its error messages as they were (0.23's
  escapes them, and is the default).  Math is written here as MathML by
  ``rst2.mathml`` (escaped, fixed element and attribute names); a formula
  it cannot convert becomes a visible error with the source shown as text.
* images with ``:loading: embed`` (0.21+): the writer reads the file the
  URI names, whatever ``file_insertion_enabled`` says; they stay links.
* ``<link rel="schema.dcterms">``: harmless, but rst2 pages carry no
  ``<link>`` at all (the safety pass enforces it), so it is not written.
* images: for video files the fallback link repeats the URI and ``:alt:``
  unescaped, and Flash files become ``<object>`` with the ``:alt:`` text as
  markup and the URI loaded as a frame.

``rst2.sanitize`` checks the finished page as well; this module makes the
ordinary output clean so that net has nothing to catch.
"""

import mimetypes
from urllib.parse import quote, urlsplit

from docutils import nodes
from docutils.utils.math import pick_math_environment, unichar2tex
from docutils.writers import html5_polyglot

from .mathml import MathError, tex_to_mathml

FLASH = "application/x-shockwave-flash"


class SafeTranslator(html5_polyglot.HTMLTranslator):
    def depart_document(self, node):
        super().depart_document(node)
        self.head = [item for item in self.head if not item.startswith("<link ")]

    def visit_math(self, node, math_env=""):
        if self.math_output in ("latex", "mathjax"):
            # Escaped LaTeX source (PyPI's setting): docutils encodes it.
            return super().visit_math(node, math_env)
        tex = node.astext().translate(unichar2tex.uni2tex_table)
        try:
            markup = tex_to_mathml(tex, inline=not math_env)
        except MathError as error:
            self._math_problem(node, str(error), tex)
            raise nodes.SkipNode
        if math_env:
            # Displayed math sits in a <div> that carries the node's ids and classes.
            self.body.append(self.starttag(node, "div", suffix="\n"))
            self.body.append(markup + "\n</div>\n")
        else:
            self.body.append(markup)
        raise nodes.SkipNode

    def visit_math_block(self, node):
        self.visit_math(node, math_env=pick_math_environment(node.astext()))

    def _math_problem(self, node, message, tex):
        # The layout docutils uses for a formula it cannot convert, with the
        # message escaped (docutils' own messages quote the input).
        report = self.document.reporter.error(message, base_node=node)
        self.visit_system_message(report)
        self.body.append(self.starttag(node, "p") + self.encode(message) + "</p>\n")
        self.body.append(self.starttag(node, "pre", CLASS="literal-block") + self.encode(tex) + "\n</pre>\n")
        self.depart_system_message(report)

    def depart_inline(self, node):
        # Line numbers of a ``code`` literal block (``:number-lines:``) are
        # ``ln`` inlines whose text docutils repeats unescaped in
        # ``data-lineno``; a user-made ``.. role:: ln`` in a ``parsed-literal``
        # of class ``code`` reaches the same path with any text.
        numbered = node.html5tagname == "small" and node.get("classes") == ["ln"] and isinstance(node.parent, nodes.literal_block)
        if not numbered:
            return super().depart_inline(node)
        self.body.append("</small>")
        self.body.append('<code data-lineno="%s">' % self.attval(node.astext()))
        del node.html5tagname

    def visit_image(self, node):
        # NeutralizeUnsafeLinks has turned ``:loading: embed`` into a link;
        # this holds for image nodes made after it (the writer would read
        # the file the URI names).
        if node.get("loading") == "embed":
            node["loading"] = "link"
        self.image_loading = "link"
        node["uri"] = parseable_uri(node["uri"])
        kind = mimetypes.guess_type(node["uri"])[0]
        if kind == FLASH:
            # No browser plays Flash any more; an <img> shows the alt text
            # where <object> would load the URL as a nested document.
            atts = {"src": node["uri"], "alt": node.get("alt", node["uri"])}
            if "align" in node:
                atts["class"] = "align-%s" % node["align"]
            self.body.append(self.emptytag(node, "img", self._image_suffix(node), **atts))
            return
        super().visit_image(node)
        if kind in self.videotypes:
            uri, text = node["uri"], node.get("alt", node["uri"])
            written = '<a href="%s">%s</a>' % (uri, text)
            before, found, after = self.body[-1].rpartition(written)
            if found:
                self.body[-1] = before + '<a href="%s">%s</a>' % (self.attval(uri), self.encode(text)) + after

    @staticmethod
    def _image_suffix(node):
        # As docutils: no line break inside text or inside an inline link.
        inline = isinstance(node.parent, nodes.TextElement) or (
            isinstance(node.parent, nodes.reference) and not isinstance(node.parent.parent, nodes.TextElement)
        )
        return "" if inline else "\n"


class Writer(html5_polyglot.Writer):
    def __init__(self):
        super().__init__()
        self.translator_class = SafeTranslator


def parseable_uri(uri):
    """``uri``, percent-encoded where Python's URL parser would raise on it.

    docutils guesses an image's type with ``mimetypes``, which parses the URI
    and raises on an unbalanced ``[`` in a host (``//[x``), failing the whole
    page; such a URI is no valid link for a browser either way.
    """
    try:
        urlsplit(uri)
        return uri
    except ValueError:
        return quote(uri, safe="/?#&=;:@+$,%!~*'()")

