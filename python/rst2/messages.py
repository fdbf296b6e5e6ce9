"""docutils' system messages of one publish call, as the plain data ``check`` reports."""

from docutils import nodes

from .publish import publish

# docutils' levels, lowercased, as the API reports them.
TYPES = {0: "debug", 1: "info", 2: "warning", 3: "error", 4: "severe"}

# Info messages (level 1) are notes about valid markup, such as a repeated
# section title; reporting them would make a correct document look wrong.
REPORTED_LEVEL = 2


def collect(source, writer_name, dialect=None, **presentation):
    """Publishes once; returns (items, parts, document).

    Messages are observed rather than read from the doctree, so those that a
    transform removes or that never reach it still count.
    """
    messages = []
    presentation.setdefault("report_level", 5)
    parts, document = publish(source, writer_name, observers=[messages.append], dialect=dialect, **presentation)
    lines = source.splitlines()
    items = [item(msg, lines) for msg in messages if msg.get("level", 0) >= REPORTED_LEVEL]
    return items, parts, document


def item(msg, lines):
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
