"""Blocks that need a blank line: after a list, a quote, explicit markup; before an indent."""

import re

from .edits import fix, insert_line_before


class EndsWithoutBlankLine:
    """<Bullet list|Enumerated list|Definition list|Block quote|Explicit markup|...> ends without a blank line; unexpected unindent.

    What it does: inserts a blank line before the line docutils names, the
    first line after the block.
    Why: reStructuredText separates blocks by blank lines; docutils warns,
    Sphinx and PyPI refuse.
    Example: ``* one`` / ``* two`` / ``Text``; fixed: a blank line before
    ``Text``.
    Fix safety: safe; docutils already ends the block at that line, so the
    document keeps its structure and only the warning goes.
    """

    code = "blank-line-after-block"
    message = re.compile(r"^(.+) ends without a blank line; unexpected unindent\.$")

    def fix(self, context, item, match):
        source, line = context.source, item["line"]
        if source.line(line) is None or source.line(line - 1) is None or not source.line(line - 1).strip():
            return None
        return fix("Insert a blank line after the %s" % match.group(1).lower(), "safe", [insert_line_before(source, line)])


class UnexpectedIndentation:
    """Unexpected indentation.

    What it does: inserts a blank line before the indented line.
    Why: an indented line straight after a paragraph is an error; docutils
    reads it as a block quote anyway.
    Example: ``Some text`` / ``more text`` / ``    indented``; fixed: a blank
    line before the indented one.
    Fix safety: safe; the indented lines stay the block quote docutils
    already made of them. (If they were meant as part of the paragraph,
    remove the indentation instead.)
    """

    code = "unexpected-indentation"
    message = re.compile(r"^Unexpected indentation\.$")

    def fix(self, context, item, match):
        source, line = context.source, item["line"]
        here, before = source.line(line), source.line(line - 1)
        if here is None or before is None or not before.strip() or not here[:1].isspace():
            return None
        return fix("Insert a blank line before the indented block", "safe", [insert_line_before(source, line)])


RULES = (EndsWithoutBlankLine(), UnexpectedIndentation())
