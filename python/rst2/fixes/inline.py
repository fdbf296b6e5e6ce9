"""Inline markup that starts and never ends: escape the start-string."""

import re

from .edits import edit, fix

# docutils' name for the markup -> its start-string.
_START = {
    "emphasis": "*",
    "strong": "**",
    "literal": "``",
    "interpreted text or phrase reference": "`",
    "substitution_reference": "|",
    "target": "_`",
}

# The end-string of each start-string, where it differs.
_END = {"_`": "`"}

# How many places in one block are tried before giving up.
_MAX_TRIES = 24

# A text block longer than this gets no trials (characters).
_MAX_BLOCK = 8000


def _block(source, line):
    """Lines ``line``.. up to the next blank line: where docutils' text block is."""
    end = line
    while source.line(end + 1) is not None and source.line(end + 1).strip():
        end += 1
    return end


def _candidates(text, start):
    """Places where ``start`` may open inline markup: not escaped, not inside a word, followed by text.

    Not inside a longer run of its character: ```` ```python ```` is a
    Markdown code fence, and a backslash before one of its backticks would
    hide that the document is Markdown (the fix is to write it as
    reStructuredText, or to declare it Markdown), not mend it.
    """
    at = text.find(start)
    while at != -1:
        before = text[at - 1] if at else " "
        after = text[at + len(start)] if at + len(start) < len(text) else " "
        if before not in ("\\", start[0]) and not before.isalnum() and not after.isspace() and after != start[-1]:
            yield at
        at = text.find(start, at + len(start))


def _escaped(start):
    return "".join("\\" + char for char in start)


class StartWithoutEnd:
    """Inline <emphasis|strong|literal|interpreted text|...> start-string without end-string.

    What it does: escapes the start-string with backslashes (``\\*``), so
    that it is the plain character docutils already shows.
    Why: an unmatched ``*``, ``**``, ````` or `````` is a warning; Sphinx and
    PyPI refuse the document.
    Example: ``Use *args to pass them``; fixed: ``Use \\*args to pass them``.
    Fix safety: safe; the text reads as before, only the warning goes. If
    emphasis was meant, add the end-string instead.

    docutils names the first line of the text block, not the line of the
    string: each candidate place in the block is tried on the block alone,
    and the first that removes the warning without another is the fix.
    """

    code = "inline-start-without-end"
    message = re.compile(r"^Inline (.+) start-string without end-string\.$")

    def fix(self, context, item, match):
        start = _START.get(match.group(1))
        source, first = context.source, item["line"]
        if start is None or source.line(first) is None:
            return None
        last = _block(source, first)
        lines = [source.line(n) for n in range(first, last + 1)]
        if sum(len(line) for line in lines) > _MAX_BLOCK:
            return None  # each trial would parse it all again
        taken = context.memo.setdefault(("inline", first), set())
        baseline = context.check_text("\n".join(_escape(lines, taken)))
        if baseline is None:
            return None
        wanted = sum(1 for i in baseline if i["message"] == item["message"])
        if wanted == 0:
            return None
        closed = self._close(context, item, lines, first, start, wanted, len(baseline), taken)
        if closed is not None:
            return closed
        tries = 0
        for offset, text in enumerate(lines):
            for column in _candidates(text, start):
                if (offset, column) in taken:
                    continue
                tries += 1
                if tries > _MAX_TRIES:
                    return None
                trial = context.check_text("\n".join(_escape(lines, taken | {("escape", offset, column, start)})))
                if trial is None:
                    return None
                if sum(1 for i in trial if i["message"] == item["message"]) < wanted and len(trial) < len(baseline):
                    taken.add(("escape", offset, column, start))
                    taken.add((offset, column))
                    line = first + offset
                    return fix(
                        "Escape the %s start-string %r" % (match.group(1), start),
                        "safe",
                        [edit(line, column + 1, line, column + 1 + len(start), _escaped(start))],
                    )
        return None


    def _close(self, context, item, lines, first, start, wanted, problems, taken):
        """The markup closed where a space broke its end-string (``*word *``), if that is what it was.

        Suggested, not safe: the text between the strings changes its look.
        """
        end = _END.get(start, start)
        tries = 0
        for offset, text in enumerate(lines):
            for found in re.finditer(r"(\S)(\s+)(%s)(?=$|[\s.,;:!?)\]}'\"-])" % re.escape(end), text):
                if (offset, found.start(2)) in taken or found.group(1) == "\\":
                    continue
                tries += 1
                if tries > _MAX_TRIES:
                    return None
                closing = ("close", offset, found.start(2), found.end(2))
                trial = context.check_text("\n".join(_escape(lines, taken | {closing})))
                if trial is None:
                    return None
                if sum(1 for i in trial if i["message"] == item["message"]) < wanted and len(trial) < problems:
                    # The same block's other warnings are judged with it closed:
                    # a space-broken end-string is also a start-string of its own.
                    taken.add(closing)
                    taken.add((offset, found.start(2)))
                    line = first + offset
                    return fix(
                        "Close the %s: remove the space before its end-string %r" % (item["message"].split(" start-string")[0][7:], end),
                        "suggested",
                        [edit(line, found.start(2) + 1, line, found.end(2) + 1, "")],
                    )
        return None


def _escape(lines, taken):
    """``lines`` with the changes in ``taken`` made: escapes and closings, right to left."""
    out = list(lines)
    changes = sorted((p for p in taken if len(p) == 4), key=lambda p: (p[1], p[2]), reverse=True)
    for kind, offset, column, other in changes:
        text = out[offset]
        if kind == "escape":
            out[offset] = text[:column] + _escaped(other) + text[column + len(other):]
        else:
            out[offset] = text[:column] + text[other:]
    return out


RULES = (StartWithoutEnd(),)
