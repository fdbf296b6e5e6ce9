"""The column of each problem: docutils reports a line, editors and CI want a column too.

Where the message quotes the name at fault (an unknown role, directive,
target or substitution), the column is where that name is written on the
line; otherwise it is the line's first character that is not a space.
Columns count code points from 1, as fixes' edits do (rst2.fixes.edits).
"""

import re

_QUOTED = re.compile(r'"([^"\n]{1,200})"')

# What the quoted name looks like where it is written, by rule.
_SHAPES = {
    "unknown-role": (":%s:",),
    "unknown-directive": ("%s::",),
    "unknown-option": (":%s:",),
    "undefined-substitution": ("|%s|",),
    "duplicate-substitution": ("|%s|",),
    "duplicate-target": ("_%s:", "_`%s`:"),
    "unknown-target": ("`%s`_", "%s_", "`%s <"),
}


# The order of an item's fields in the JSON answer: the column beside its line.
ORDER = ("message", "type", "line", "column")


def add(text, items):
    """``items``, each with its ``column`` after its ``line``."""
    if not items:
        return items
    lines = text.splitlines()
    placed = []
    folded = {}  # line number -> that line lowercased: a long line with many problems is lowered once
    for item in items:
        column = item["column"] if "column" in item else column_of(item, lines, folded)
        ordered = {key: item[key] for key in ORDER[:3] if key in item}
        ordered["column"] = column
        ordered.update((key, value) for key, value in item.items() if key != "column")
        placed.append(ordered)
    return placed


# The start-string an "Inline ... start-string without end-string" message is about.
_START_STRINGS = (
    ("strong", r"\*\*(?=\S)"),
    ("emphasis", r"\*(?=[^\s*])"),
    ("literal", r"``(?=\S)"),
    ("interpreted text or phrase reference", r"`(?=[^\s`])"),
    ("substitution reference", r"\|(?=[^\s|])"),
    ("internal target", r"_`(?=\S)"),
)
_INLINE = re.compile(r"^Inline (.+) start-string without end-string\.$")


def _start_string(message, text):
    kind = _INLINE.match(message)
    if not kind:
        return None
    for name, start in _START_STRINGS:
        if kind.group(1) == name:
            # Where inline markup may start: after a space or an opening punctuation mark, before a non-space.
            found = re.search(r"(?:^|(?<=[\s'\"(\[{<\-/:]))%s" % start, text)
            return None if found is None else found.start() + 1
    return None


def column_of(item, lines, folded_lines=None):
    line = item.get("line")
    if line is None:
        return None
    if not 1 <= line <= len(lines):
        return 1
    text = lines[line - 1]
    start = _start_string(item["message"], text)
    if start is not None:
        return start
    quoted = _QUOTED.search(item["message"])
    if quoted:
        name = quoted.group(1)
        # Lowercasing may change a string's length (U+0130): then match as written.
        folded = None if folded_lines is None else folded_lines.get(line)
        if folded is None:
            lowered = text.lower()
            folded = lowered if len(lowered) == len(text) else text
            if folded_lines is not None:
                folded_lines[line] = folded
        for shape in _SHAPES.get(item.get("rule"), ()) + ("%s",):
            found = folded.find((shape % name).lower() if folded is not text else shape % name)
            if found != -1:
                # The column of the name itself, not of the markup around it.
                return found + shape.index("%s") + 1
    return len(text) - len(text.lstrip()) + 1
