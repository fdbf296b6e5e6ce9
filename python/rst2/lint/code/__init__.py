"""Code blocks that do not parse in their language (rules ``code-*``).

rstcheck runs ``bash -n``, a C++ compiler and Python on a document's code
blocks, and needs them installed; rst2 parses them in-process, with the
Python it runs in (Python, sessions, JSON, TOML, XML, reStructuredText) and
tree-sitter grammars in WebAssembly (shell, C, C++, JavaScript,
TypeScript). A block in a language no entry knows is never reported.
"""

import re

from .. import CHECKERS, item
from . import blocks, languages
from . import data, nested_rst, python_code, treesitter  # noqa: F401  (each registers its languages)

# A block longer than this is not parsed: a generated listing of a megabyte
# is not an example anyone copies, and parsing it would cost the check.
MAX_BLOCK_CHARS = 200_000


# The sentence before a block that says it shows a mistake: documentation
# shows broken code on purpose ("consider the following code (notice the
# unclosed '{')", "this raises a SyntaxError").
_SHOWN_BROKEN = re.compile(
    r"syntax ?error|invalid (?:syntax|json|toml|xml|code)|does(?:n't| not) (?:compile|parse|work)|won't (?:compile|parse|work)|"
    r"unclosed|malformed|is not valid|isn't valid|not allowed|illegal|incorrect|wrong|broken|fails? to (?:compile|parse)|error:",
    re.I,
)


def find(doc):
    found = []
    nested_rst.for_page(doc.dialect)
    for block in blocks.find(doc):
        language = languages.get(block.language)
        if language is None or not doc.on(language.rule) or _SHOWN_BROKEN.search(block.before):
            continue
        text = "\n".join(block.lines) + "\n"
        if len(text) > MAX_BLOCK_CHARS:
            continue
        for line, column, message in language.check(text):
            line = min(max(line, 0), len(block.lines) - 1)
            found.append(item(language.rule, block.first + line, block.indents[line] + column + 1, message, kind="error"))
    return found


def codes():
    return languages.rules()


CODES = codes()
CHECKERS.append((CODES, find))
