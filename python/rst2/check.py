"""Syntax check: every system message docutils raises, as plain data."""

from docutils import nodes

from .publish import publish

# docutils' levels, lowercased, as the API reports them.
TYPES = {0: "debug", 1: "info", 2: "warning", 3: "error", 4: "severe"}

# Info messages (level 1) are notes about valid markup, such as a repeated
# section title; reporting them would make a correct document look wrong.
REPORTED_LEVEL = 2


def check(source):
    messages = []
    publish(source, "null", observers=[messages.append], report_level=5)
    lines = source.splitlines()
    return [_item(msg, lines) for msg in messages if msg.get("level", 0) >= REPORTED_LEVEL]


def _item(msg, lines):
    line = msg.get("line")
    if not isinstance(line, int) or line < 1:
        line = None
    return {
        "message": _text_of(msg),
        "type": TYPES.get(msg.get("level"), "error"),
        "line": line,
        "context": _context(msg, line, lines),
    }


def _text_of(msg):
    paragraphs = [child.astext() for child in msg.children if isinstance(child, nodes.paragraph)]
    return "\n".join(paragraphs) or msg.astext()


def _context(msg, line, lines):
    # docutils attaches the offending block (e.g. a whole unknown directive)
    # as a literal block; where it does not, the reported line is the context.
    for child in msg.children:
        if isinstance(child, nodes.literal_block):
            return child.astext().rstrip("\n")
    if line is not None and line <= len(lines):
        return lines[line - 1]
    return ""
