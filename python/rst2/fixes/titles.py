"""Section titles: adornments too short, mismatched, or of the wrong level."""

import re

from docutils.utils import column_width

from .edits import delete_line, fix, insert_line_before, replace_line

_ADORNMENT = re.compile(r"^([!-/:-@\[-`{-~])\1*\s*$")


def _is_adornment(line):
    return line is not None and bool(_ADORNMENT.match(line))


def _width(title):
    return column_width(title.rstrip())


class TitleUnderlineTooShort:
    """Title underline too short.

    What it does: lengthens the underline to the title's width (docutils
    counts East Asian wide characters as two columns, combining marks as none).
    Why: docutils warns; Sphinx and PyPI's readme_renderer refuse the document.
    Example: ``Installation`` over ``=======``; fixed: ``============``.
    Fix safety: safe; docutils already makes the section, only the warning goes.
    """

    code = "title-underline"
    message = re.compile(r"^Title underline too short\.$")

    def fix(self, context, item, match):
        source, line = context.source, item["line"]
        underline, title = source.line(line), source.line(line - 1)
        if not _is_adornment(underline) or title is None or not title.strip():
            return None
        char = underline.strip()[0]
        return fix(
            "Lengthen the underline to the title's width",
            "safe",
            [replace_line(source, line, char * max(_width(title), len(underline.rstrip())))],
        )


class TitleOverline:
    """Title overline too short; title overline & underline mismatch.

    What it does: makes overline and underline the same character and length,
    as wide as the title (the overline's character wins).
    Why: a mismatch is an error and the title is lost; too short, a warning.
    Example: ``=====`` / ``Title long`` / ``-----``; fixed: ``==========`` twice.
    Fix safety: safe; only the adornment lines change, and the title becomes
    the section title that both lines announce.
    """

    code = "title-overline"
    message = re.compile(r"^Title overline (too short|& underline mismatch)\.$")

    def fix(self, context, item, match):
        source, line = context.source, item["line"]
        overline, title, underline = source.line(line), source.line(line + 1), source.line(line + 2)
        if not (_is_adornment(overline) and _is_adornment(underline)) or title is None or not title.strip():
            return None
        char = overline.strip()[0]
        length = max(_width(title), len(overline.rstrip()), len(underline.rstrip()))
        return fix(
            "Make the overline and underline match the title",
            "safe",
            [replace_line(source, line, char * length), replace_line(source, line + 2, char * length)],
        )


class InconsistentTitleStyle:
    """Inconsistent title style: skip from level N to M.

    What it does: gives the title the adornment of level N + 1, the level it
    may have, as established earlier in the document.
    Why: docutils refuses a level that skips one (an error, and the section
    is lost).
    Example: levels ``=`` and ``-`` established, a ``~`` title right under a
    ``=`` one; fixed: its underline becomes ``-``.
    Fix safety: suggested; the section's level changes, which the author may
    have meant differently (the parent title may be the one to change).
    """

    code = "title-level"
    message = re.compile(r"^Inconsistent title style: skip from level (\d+) to (\d+)\.\nEstablished title styles: (.*)$")

    def fix(self, context, item, match):
        source, line = context.source, item["line"]
        level = int(match.group(1)) + 1
        styles = match.group(3).split()
        if not 1 <= level <= len(styles):
            return None
        over, _, under = styles[level - 1].rpartition("/")
        # docutils names the overline's line for a title that has one.
        if _is_adornment(source.line(line)) and _is_adornment(source.line(line + 2)):
            line += 1
        title, underline = source.line(line), source.line(line + 1)
        if title is None or not title.strip() or not _is_adornment(underline):
            return None
        has_overline = line > 1 and _is_adornment(source.line(line - 1))
        length = max(_width(title), len(underline.rstrip()), len(source.line(line - 1).rstrip()) if has_overline else 0)
        edits = [replace_line(source, line + 1, under * length)]
        if over and has_overline:
            edits.append(replace_line(source, line - 1, over * length))
        elif over:
            edits.append(insert_line_before(source, line, over * length))
        elif has_overline:
            edits.append(delete_line(source, line - 1))
        return fix("Use the title style of level %d (%s)" % (level, styles[level - 1]), "suggested", edits)


RULES = (TitleUnderlineTooShort(), TitleOverline(), InconsistentTitleStyle())
