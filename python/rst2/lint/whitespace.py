"""The bytes of the lines: what docutils silently turns into something else.

docutils expands tabs to stops of 8 columns before it parses, ends a line at
a lone carriage return, and ignores trailing spaces (except in literal
text, where they are kept and invisible). An author who sees a tab as four
columns, or an editor that shows ``\\r`` as nothing, reads a different
document than docutils does; these rules say where.

The length of lines is the only rule here off by default: a project opts
into a limit (79 unless ``line_length`` says otherwise), and, as doc8's,
it spares the lines that cannot be broken (a URL, a single word), literal
text and tables, and explicit markup whose argument is one address.
"""

import re

from . import CHECKERS, item
from .regions import literal_lines
from ..fixes.edits import edit, fix

CODES = frozenset({"trailing-whitespace", "tab", "carriage-return", "missing-final-newline", "line-too-long"})

DEFAULT_LINE_LENGTH = 79

_URL = re.compile(r"\b(?:https?|ftp|file|mailto):[^\s<>`]+|<[^<>\s]+>|\S+@\S+\.\S+")
_EXPLICIT_ARGUMENT = re.compile(r"^\s*\.\.\s+(?:_[^:]+:|\S+::|\|[^|]+\|\s+\S+::)\s*\S+\s*$")


def find(doc):
    lines, raw = doc.source.lines, doc.source.raw
    found = []
    literal = None

    def in_literal(index):
        nonlocal literal
        if literal is None:
            literal = literal_lines(lines)
        return index in literal

    for index, line in enumerate(lines):
        number = index + 1
        if doc.on("trailing-whitespace"):
            content = line.rstrip(" \t")
            # A line of spaces alone in literal text is a diff's context line
            # or a blank line of code: shown as nothing, and often on purpose.
            if len(content) < len(line) and (content or not in_literal(index)):
                # In literal text the spaces are kept (and invisible): taking
                # them out changes what is shown, a little; elsewhere nothing.
                kind = "suggested" if in_literal(index) else "safe"
                found.append(item(
                    "trailing-whitespace", number, len(content) + 1, "Trailing whitespace.",
                    fix=fix("Remove the trailing whitespace", kind, [edit(number, len(content) + 1, number, len(line) + 1, "")]),
                ))
        if doc.on("tab") and "\t" in line:
            # docutils expands each tab to the next stop of 8 before parsing:
            # the same spaces written out parse the same, in literal text too.
            found.append(item(
                "tab", number, line.index("\t") + 1, "Tab character: docutils reads it as spaces up to the next multiple of 8 columns.",
                fix=fix("Replace the tabs by the spaces docutils reads", "safe", [edit(number, 1, number, len(line) + 1, line.expandtabs(8))]),
            ))
        if doc.on("carriage-return") and raw[index].endswith("\r") and not raw[index].endswith("\r\n"):
            newline = "\r\n" if any(r.endswith("\r\n") for r in raw) else "\n"
            found.append(item(
                "carriage-return", number, len(line) + 1, "A carriage return alone ends this line: most editors show it as nothing or as ^M.",
                fix=fix("End the line as the rest of the document does", "safe", [edit(number, len(line) + 1, number + 1, 1, newline)]),
            ))
        if doc.on("line-too-long"):
            limit = doc.line_length or DEFAULT_LINE_LENGTH
            if len(line) > limit and not in_literal(index) and not _unbreakable(line, limit):
                found.append(item("line-too-long", number, limit + 1, "Line too long (%d > %d characters)." % (len(line), limit)))
    if doc.on("missing-final-newline") and raw and raw[-1] == lines[-1] and lines[-1] != "":
        newline = doc.source.newline()
        number = len(lines)
        found.append(item(
            "missing-final-newline", number, len(lines[-1]) + 1, "No line break at the end of the file.",
            fix=fix("Add a line break at the end", "safe", [edit(number, len(lines[-1]) + 1, number, len(lines[-1]) + 1, newline)]),
        ))
    return found


def _unbreakable(line, limit):
    """Whether a long line cannot be shortened by breaking it: one word, an address, or one explicit markup argument."""
    stripped = line.strip()
    if " " not in stripped:
        return True
    if _EXPLICIT_ARGUMENT.match(line):
        return True
    # Without its addresses the line fits: the address is what makes it long.
    return len(_URL.sub("", line)) <= limit


CHECKERS.append((CODES, find))
