"""Directives rst2 adds to or changes in docutils.

``code-block`` and ``sourcecode``: the names Sphinx users write for ``code``.
docutils only knows ``code``; documents written for Sphinx would otherwise
fail with "Unknown directive type".  The aliases also accept Sphinx's common
options, mapped to docutils' where one exists, so such documents render
instead of erroring on an option.

Line numbers (``code``'s ``:number-lines:``, ``code-block``'s
``:lineno-start:``, ``include``'s ``:number-lines:``) are bounded by
``MAX_LINE_NUMBER``: docutils pads every line's number to the width of the
last one, so a 4,000-digit start on a 20,000-line block was 80 MB of
numbers in the doctree before any output limit could see them.

``include``: file insertion is off (settings.PROTECTIONS), but docutils' own
substitution sets (``.. include:: <isonum.txt>``) are data shipped with
docutils, not files of the host, so exactly those are allowed.
"""

from docutils.parsers.rst import directives
from docutils.parsers.rst.directives.body import CodeBlock
from docutils.parsers.rst.directives.misc import Include


# TeX's largest number (2^31 - 1), the one Sphinx's PDF builder can write
# as a first line number (it sets a counter; a larger start stops its LaTeX
# with "Number too big"). Ten digits keep a numbered line's padding small.
MAX_LINE_NUMBER = 2147483647


def _bounded(value):
    if abs(value) > MAX_LINE_NUMBER:
        raise ValueError("a line number may be at most %d (TeX's largest number)" % MAX_LINE_NUMBER)
    return value


def first_line_number(argument):
    """Sphinx's ``:lineno-start:``: 0 to MAX_LINE_NUMBER; ValueError otherwise.

    docutils shows the directive with the reason as an error in the document,
    as for any invalid option value; the rest of the document renders.
    """
    return _bounded(directives.nonnegative_int(argument))


def number_lines(argument):
    """docutils' ``:number-lines:``: empty (start at 1) or an integer within MAX_LINE_NUMBER either way."""
    if argument is None or not argument.strip():
        return None
    try:
        value = int(argument)
    except ValueError:
        raise ValueError("non-integer start value") from None  # docutils' wording
    return _bounded(value)


class BoundedCodeBlock(CodeBlock):
    """docutils' ``code`` with its first line number bounded."""

    option_spec = dict(CodeBlock.option_spec, **{"number-lines": number_lines})


class SphinxCodeBlock(BoundedCodeBlock):
    option_spec = dict(BoundedCodeBlock.option_spec)
    option_spec.update(
        {
            "linenos": directives.flag,
            "lineno-start": first_line_number,
            "emphasize-lines": directives.unchanged,
            "caption": directives.unchanged,
            "dedent": directives.unchanged,
            "force": directives.flag,
        }
    )

    def run(self):
        if "linenos" in self.options or "lineno-start" in self.options:
            start = self.options.get("lineno-start", 1)
            self.options.setdefault("number-lines", start)
        for sphinx_only in ("linenos", "lineno-start", "emphasize-lines", "caption", "dedent", "force"):
            self.options.pop(sphinx_only, None)
        return super().run()


# The files docutils 0.23 ships in parsers/rst/include/ (Debian: under
# /usr/share/docutils; its README is documentation, not a set).  A fixed
# list, so nothing else that might lie in that folder can be read.
# html-roles.txt (new in 0.22) only defines roles named after HTML elements.
STANDARD_INCLUDES = frozenset(
    (
        "isoamsa.txt isoamsb.txt isoamsc.txt isoamsn.txt isoamso.txt isoamsr.txt "
        "isobox.txt isocyr1.txt isocyr2.txt isodia.txt isogrk1.txt isogrk2.txt "
        "isogrk3.txt isogrk4-wide.txt isogrk4.txt isolat1.txt isolat2.txt "
        "isomfrk-wide.txt isomfrk.txt isomopf-wide.txt isomopf.txt "
        "isomscr-wide.txt isomscr.txt isonum.txt isopub.txt isotech.txt "
        "html-roles.txt mmlalias.txt mmlextra-wide.txt mmlextra.txt s5defs.txt "
        "xhtml1-lat1.txt xhtml1-special.txt xhtml1-symbol.txt"
    ).split()
)

# docutils' names for its reStructuredText parser.
_RST_PARSERS = frozenset(("rst", "restructuredtext", "rest", "restx", "rtxt"))


def _rst_parser_only(argument):
    # docutils imports whatever module ``:parser:`` names, even where the
    # include itself is then refused.
    if argument and argument.strip().lower() not in _RST_PARSERS:
        raise ValueError('only the reStructuredText parser ("rst") is available')
    return directives.parser_name(argument)


class StandardInclude(Include):
    option_spec = dict(Include.option_spec, parser=_rst_parser_only, **{"number-lines": number_lines})

    def run(self):
        settings = self.state.document.settings
        name = directives.path(self.arguments[0])
        if settings.file_insertion_enabled or not (name.startswith("<") and name[1:-1] in STANDARD_INCLUDES and name.endswith(">")):
            return super().run()  # refused as without this class
        # Only for this directive: docutils resolves <name> against its own
        # folder, and the included text is parsed after run() returns, so an
        # include inside it would find insertion off again.
        # Our input_encoding is "unicode" (text comes in decoded); the file is
        # read from disk.
        self.options.setdefault("encoding", "utf-8")
        settings.file_insertion_enabled = True
        try:
            return super().run()
        finally:
            settings.file_insertion_enabled = False


def register():
    directives.register_directive("include", StandardInclude)
    directives.register_directive("code", BoundedCodeBlock)
    directives.register_directive("code-block", SphinxCodeBlock)
    directives.register_directive("sourcecode", SphinxCodeBlock)
