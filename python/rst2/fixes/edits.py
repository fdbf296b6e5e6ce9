"""Text edits in the coordinates ``check`` reports, and applying them.

An edit replaces the text from (line, column) up to, not including,
(endLine, endColumn) with ``text``; lines and columns start at 1 and count
Unicode code points, as Python strings do. A line is what docutils calls a
line (``str.splitlines``' breaks but vertical tab and form feed), so the
line numbers of docutils' messages and of our edits always agree. The LSP
and the editor page convert to UTF-16 at their own edge.
"""

import re


# Where docutils ends a line: str.splitlines' breaks but vertical tab and
# form feed, which docutils turns into spaces first (statemachine.string2lines).
_LINE = re.compile(r"[^\n\r\x1c\x1d\x1e\x85\u2028\u2029]*(?:\r\n|[\n\r\x1c\x1d\x1e\x85\u2028\u2029])|[^\n\r\x1c\x1d\x1e\x85\u2028\u2029]+$")
_BREAK = "\r\n\x1c\x1d\x1e\x85\u2028\u2029"


class Source:
    """A document split as docutils splits it, with each line's own ending kept."""

    def __init__(self, text):
        self.text = text
        self.raw = _LINE.findall(text)
        self.lines = [line.rstrip(_BREAK) for line in self.raw]

    def line(self, number):
        """Line ``number`` (1-based) without its ending, or None past the end."""
        return self.lines[number - 1] if 1 <= number <= len(self.lines) else None

    def newline(self):
        """The document's own line ending, for lines a fix adds."""
        for raw, line in zip(self.raw, self.lines):
            if len(raw) > len(line):
                return raw[len(line):]
        return "\n"

    def offset(self, line, column):
        """The index in ``text`` of (line, column); line len+1 column 1 is the end."""
        return sum(len(raw) for raw in self.raw[: line - 1]) + column - 1


def edit(line, column, end_line, end_column, text):
    return {"line": line, "column": column, "endLine": end_line, "endColumn": end_column, "text": text}


def replace_line(source, number, text):
    """Replaces the content of line ``number``, keeping its ending."""
    return edit(number, 1, number, len(source.line(number)) + 1, text)


def insert_line_before(source, number, text=""):
    """A new line with ``text`` before line ``number``."""
    return edit(number, 1, number, 1, text + source.newline())


def delete_line(source, number):
    """Removes line ``number`` and its ending."""
    if number < len(source.lines):
        return edit(number, 1, number + 1, 1, "")
    return edit(number, 1, number, len(source.line(number)) + 1, "")


def fix(description, applicability, edits):
    return {"description": description, "applicability": applicability, "edits": list(edits)}


def _span(source, e):
    return source.offset(e["line"], e["column"]), source.offset(e["endLine"], e["endColumn"])


def apply(text, fixes):
    """``text`` with ``fixes`` applied; returns (new text, the fixes applied).

    A fix whose edits overlap an earlier fix's is left for the next pass (as
    ruff does): its coordinates are those of the text before either.
    """
    source = Source(text)
    taken = []
    applied = []
    for candidate in fixes:
        spans = [_span(source, e) for e in candidate["edits"]]
        # Edits that start at one point overlap too: their order would matter.
        if any(a < d and c < b or a == c for a, b in spans for c, d in taken):
            continue
        taken.extend(spans)
        applied.append((candidate, spans))
    pieces = sorted(((s, e, edit["text"]) for candidate, spans in applied for (s, e), edit in zip(spans, candidate["edits"])), reverse=True)
    for start, end, new in pieces:
        text = text[:start] + new + text[end:]
    return text, [candidate for candidate, _ in applied]
