"""The rules that read the source itself, not docutils' messages.

docutils reports what it cannot parse; these find what it parses without
a word but the author did not mean: code blocks that do not compile
(rst2.lint.code), markup that reads as text (rst2.lint.markup) and the
bytes of the lines (rst2.lint.whitespace). Each module names the rule codes
it finds (``CODES``, rows of rules.json) and is run only when one of them
is enabled, so a check that asks for none of them costs what it always did.

A finding is an item as check reports it (message, type, line, column,
rule), and may carry its fix (rst2.fixes.edits.fix, with the fix's
``rule``) made from the source alone.
"""

from ..fixes.edits import Source

# Filled below, (codes, find) per module: find(LintDocument) -> items.
CHECKERS = []


class LintDocument:
    """What a lint rule may read: the text, its lines as docutils splits them, the doctree and the dialect."""

    def __init__(self, text, document, dialect, enabled):
        self.text = text
        #: The longest line line-too-long lets through: the request's, carried by its dialect (rst2.api).
        self.line_length = getattr(dialect, "line_length", None)
        self.source = Source(text)
        self.document = document
        self.dialect = dialect
        self.enabled = enabled

    def on(self, code):
        return code in self.enabled


def codes():
    return frozenset(code for found, _ in CHECKERS for code in found)


def find(text, document, dialect, enabled):
    """The findings of every checker with a rule in ``enabled``, in line order."""
    doc = LintDocument(text, document, dialect, enabled)
    items = []
    for found, run in CHECKERS:
        if found & enabled:
            items.extend(item for item in run(doc) if item["rule"] in enabled)
    for found in items:
        # As docutils' messages: the reported line is the context, unless the rule gave its block.
        if "context" not in found:
            found["context"] = doc.source.line(found["line"]) or "" if found.get("line") else ""
    items.sort(key=lambda item: (item.get("line") or 0, item.get("column") or 0))
    return items


def item(rule, line, column, message, kind="warning", fix=None, fix_code=None):
    """One finding; ``fix`` (rst2.fixes.edits.fix) gets its fix code as ``rule``."""
    found = {"message": message, "type": kind, "line": line, "column": column, "rule": rule}
    if fix is not None:
        found["fix"] = dict(fix, rule=fix_code or rule)
    return found


# The checkers, one module each (each appends itself to CHECKERS).
from . import code, markup, whitespace  # noqa: E402,F401
