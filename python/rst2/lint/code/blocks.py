"""The code blocks of a document, each with its language and where its text starts.

Read from the source, so that a syntax error is reported at its line and
column in the document, not in the block: the directives that hold code
(``code``, ``code-block``, ``sourcecode``, and Sphinx's ``testcode`` and
``doctest``), the doctest blocks docutils finds (paragraphs that start with
``>>>``), and, in a Sphinx page, the literal blocks after ``::`` once a
``.. highlight:: LANGUAGE`` has named their language (Sphinx's own default
is lenient: it highlights what parses and says nothing of the rest, so
rst2 says nothing either). A directive in a comment or in literal text is
text, and a directive the dialect does not know is not code (docutils
reports it as unknown).
"""

import re
from collections import namedtuple

from docutils import nodes

from ..regions import block_after, literal_lines

#: ``language``: as the block names it (lowercase), ``session`` for a doctest
#: session; ``lines``: the block's lines, dedented; ``first``: the document
#: line (1-based) of lines[0]; ``indents``: each line's indentation removed;
#: ``before``: the text just before it (the sentence that introduces it).
Block = namedtuple("Block", "language lines first indents before")

_CODE_DIRECTIVES = {"code": None, "code-block": None, "sourcecode": None, "testcode": "python", "doctest": "session", "ipython": "ipython"}
_DIRECTIVE = re.compile(r"^(\s*)\.\.\s+([\w-]+)::[ \t]*(\S*)")
_HIGHLIGHT = re.compile(r"^(\s*)\.\.\s+highlight::[ \t]*(\S+)")
_OPTION = re.compile(r"^\s*:[^:\s][^:]*:")


def _indent(line):
    return len(line) - len(line.lstrip(" "))


def _content(lines, start, base):
    """The block indented more than ``base`` after line ``start`` (0-based), options skipped: (first index, lines) or None."""
    index = start + 1
    # Options right after the directive line (docutils reads them until the first blank line).
    while index < len(lines) and lines[index].strip() and _indent(lines[index]) > base and _OPTION.match(lines[index]):
        index += 1
    body = block_after(lines, index - 1, base)
    while body and not lines[body[0]].strip():
        body.pop(0)
    return body or None


def _block(language, lines, indices, at=None):
    indent = min(_indent(lines[i]) for i in indices if lines[i].strip())
    return Block(language, [lines[i][indent:] for i in indices], indices[0] + 1, [indent] * len(indices), _before(lines, indices[0] if at is None else at))


def _before(lines, index):
    """The paragraph ending just before line ``index`` (0-based), blank lines skipped: at most 5 lines."""
    end = index - 1
    while end >= 0 and not lines[end].strip():
        end -= 1
    start = end
    while start > 0 and lines[start - 1].strip() and end - start < 4:
        start -= 1
    return " ".join(line.strip() for line in lines[max(start, 0):end + 1])


def find(doc):
    """Every code block of ``doc`` (rst2.lint.LintDocument) in document order."""
    lines = doc.source.lines
    if not any(".. " in line or "::" in line or ">>>" in line for line in lines):
        return []
    literal = literal_lines(lines, comments=True)
    from ...fixes.names import known_directives

    known = known_directives(doc.dialect)
    sphinx = doc.dialect.name == "sphinx" or "highlight" in known
    blocks, highlight = [], None
    for index, line in enumerate(lines):
        if index in literal:
            continue
        found = _HIGHLIGHT.match(line)
        if found and sphinx:
            highlight = found.group(2).lower()
            continue
        found = _DIRECTIVE.match(line)
        if found:
            name = found.group(2).lower()
            if name in _CODE_DIRECTIVES and name in known:
                language = _CODE_DIRECTIVES[name] or (found.group(3).lower() or (highlight if sphinx else None))
                body = _content(lines, index, len(found.group(1)))
                if body and language:
                    blocks.append(_block(language, lines, body, index))
            continue
        if highlight and line.rstrip().endswith("::") and not line.strip().startswith(".."):
            body = _content(lines, index, _indent(line))
            if body and all(i in literal for i in body):
                blocks.append(_block(highlight, lines, body, index + 1))
    blocks.extend(_doctest_blocks(doc, literal))
    blocks.sort(key=lambda block: block.first)
    return blocks


def _doctest_blocks(doc, literal):
    """docutils' doctest blocks (a paragraph that starts with ``>>>``), from the doctree, which knows where they are."""
    if doc.document is None:
        return []
    lines = doc.source.lines
    found = []
    for node in doc.document.findall(nodes.doctest_block):
        first = node.line
        if not isinstance(first, int) or not 1 <= first <= len(lines) or (first - 1) in literal:
            continue
        count = node.astext().count("\n") + 1
        indices = list(range(first - 1, min(first - 1 + count, len(lines))))
        if not lines[indices[0]].lstrip().startswith(">>>"):
            continue  # not where we thought: better nothing than a wrong place
        found.append(_block("session", lines, indices))
    return found
