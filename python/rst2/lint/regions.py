"""Which source lines are literal text: a lint rule about prose leaves them be.

Read from the source, as docutils reads it: the indented block after a
paragraph that ends in ``::`` (or an ``::`` on its own), the content of the
directives whose content is kept as it is written (code, math, raw, ...),
comments, and the lines of grid and simple tables. A line docutils would
parse differently is at worst not exempted, so a rule that trusts this
reports a little more, never hides a mistake in prose.
"""

import re

# Directives whose content is text kept as written, not reStructuredText.
LITERAL_DIRECTIVES = frozenset({
    "code", "code-block", "sourcecode", "literalinclude", "math", "raw", "parsed-literal",
    "doctest", "testcode", "testoutput", "testsetup", "testcleanup", "productionlist",
    "ipython", "highlight", "graphviz", "digraph", "graph", "mermaid", "plantuml", "csv-table",
    "jupyter-execute", "code-cell", "prompt", "autolink-preface",
})

_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+(?:\|[^|]+\|\s+)?([\w.:+-]+)::(?:\s|$)")
_EXPLICIT = re.compile(r"^(\s*)\.\.(?:\s|$)")
_GRID = re.compile(r"^\s*\+[-=+]+\+\s*$")
_SIMPLE_BORDER = re.compile(r"^\s*=+(?:\s+=+)+\s*$")


def _indent(line):
    return len(line) - len(line.lstrip(" \t"))


def block_after(lines, start, base):
    """The line numbers (0-based) of the block indented more than ``base`` after ``start``, blank lines within included."""
    index, block, last = start + 1, [], None
    while index < len(lines):
        line = lines[index]
        if line.strip():
            if _indent(line) <= base:
                break
            last = index
        block.append(index)
        index += 1
    return [i for i in block if last is not None and i <= last]


def literal_lines(lines, directives=LITERAL_DIRECTIVES, comments=True):
    """The 0-based numbers of ``lines`` (docutils' lines, without endings) that are literal text or tables."""
    literal = set()
    index = 0
    while index < len(lines):
        line = lines[index]
        stripped = line.strip()
        if not stripped:
            index += 1
            continue
        base = _indent(line)
        directive = _DIRECTIVE.match(line)
        if directive:
            if directive.group(2).lower() in directives:
                literal.update(block_after(lines, index, base))
            # Its content's own literal blocks are found as we go on.
        elif comments and _EXPLICIT.match(line) and not line[base + 2:].lstrip().startswith(("_", "[", "|")):
            # A comment: it and what is indented under it are not prose.
            literal.add(index)
            literal.update(block_after(lines, index, base))
        elif _GRID.match(line) or _SIMPLE_BORDER.match(line):
            table = _table(lines, index)
            literal.update(table)
            index = max(table) + 1
            continue
        ends_literal = stripped.endswith("::") and not directive
        if ends_literal:
            # The paragraph's last line: the literal block is indented more than the paragraph.
            block = block_after(lines, index, base)
            literal.update(block)
            if block:
                index = max(block) + 1
                continue
        index += 1
    return literal


def _table(lines, start):
    """A grid or simple table from its first border to its last row (0-based numbers)."""
    index = start
    while index < len(lines) and lines[index].strip():
        index += 1
    return set(range(start, index))
