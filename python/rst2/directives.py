"""Directives rst2 adds to or changes in docutils.

``code-block`` and ``sourcecode``: the names Sphinx users write for ``code``.
docutils only knows ``code``; documents written for Sphinx would otherwise
fail with "Unknown directive type".  The aliases also accept Sphinx's common
options, mapped to docutils' where one exists, so such documents render
instead of erroring on an option.

``include``: file insertion is off (settings.PROTECTIONS), but docutils' own
substitution sets (``.. include:: <isonum.txt>``) are data shipped with
docutils, not files of the host, so exactly those are allowed.
"""

from docutils.parsers.rst import directives
from docutils.parsers.rst.directives.body import CodeBlock
from docutils.parsers.rst.directives.misc import Include


class SphinxCodeBlock(CodeBlock):
    option_spec = dict(CodeBlock.option_spec)
    option_spec.update(
        {
            "linenos": directives.flag,
            "lineno-start": directives.nonnegative_int,
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
    option_spec = dict(Include.option_spec, parser=_rst_parser_only)

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
    directives.register_directive("code-block", SphinxCodeBlock)
    directives.register_directive("sourcecode", SphinxCodeBlock)
