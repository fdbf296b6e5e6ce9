"""Markup that docutils parses as ordinary text, though the author meant markup.

``:func:pdb.main`` has no backticks, so it is text; ``... note::`` has a
third dot, so it is a paragraph; ``[text](https://…)`` is Markdown. docutils
says nothing of any of them, and the page shows the markup as written.
These rules are sphinx-lint's checks, read on the source outside literal
text (rst2.lint.regions: literal blocks, code, comments, tables) and
outside inline literals, and only for names the dialect knows: a role
missing its backticks is reported when the role exists.

Fixes that keep what the page shows are safe (a space before ``<``); those
that turn text into the markup the author meant change the page, and are
suggested.
"""

import re

from docutils import nodes

from . import CHECKERS, item
from .regions import literal_lines
from ..fixes.edits import edit, fix

CODES = frozenset({
    "role-without-backticks", "role-glued", "role-extra-backticks", "role-missing-colon", "backtick-before-role",
    "directive-three-dots", "directive-missing-colons", "hyperlink-missing-space", "hyperlink-missing-underscore",
    "markdown-link", "triple-backticks", "default-role", "dangling-hyphen",
    "hyperlink-missing-backtick", "role-exclamation-and-tilde", "literal-glued", "unbalanced-inline-literal",
})

_NAME = r"[A-Za-z][\w+.-]*(?::[A-Za-z][\w+.-]*)?"
_INLINE_LITERAL = re.compile(r"``.+?``(?=[\s.,;:!?)\]}'\"-]|$)")
_ROLE_WITHOUT_BACKTICKS = re.compile(r"(?<![\w`:/])(:(%s):)(?=[A-Za-z_(][\w.()]*)([\w.()]+[\w)])" % _NAME)
_ROLE_GLUED_BEFORE = re.compile(r"(?<=[^\W_])(:(%s):`)" % _NAME)
_ROLE_EXTRA_BACKTICKS = re.compile(r"(?<![\w`:]):(%s):``([^`\n]+)``(?!`)" % _NAME)
_ROLE_MISSING_CLOSING_COLON = re.compile(r"(?<![\w`:]):(%s)`[^`\s]" % _NAME)
_ROLE_MISSING_OPENING_COLON = re.compile(r"(?<![\w`:.\\/])(%s):`[^`\s]" % _NAME)
# Not "`:raw:`_", a reference to the target named ":raw:".
_BACKTICK_BEFORE_ROLE = re.compile(r"(?<![:\w`])`(:(%s):`)(?!_)" % _NAME)
_THREE_DOTS = re.compile(r"^(\s*)\.\.\.(\s+)([A-Za-z][\w-]*)::(\s|$)")
# ".. versionchanged 3.6", ".. note:" or ".. note" alone: a directive's shape.
# ".. TODO: ask Pablo" (capitals, words after) is how comments are written.
_MISSING_COLONS = re.compile(r"^(\s*)\.\.\s+([a-z][a-z0-9-]*)(:?)(?=\s+\d|\s*$)")
_MISSING_SPACE = re.compile(r"`([^`<\n]*[^\s`<])<((?:https?|ftp|mailto):[^>`\s]+)>`__?")
_MISSING_UNDERSCORE = re.compile(r"(?<![\w:`])`([^`<\n]+\s)<((?:https?|ftp|mailto):[^>`\s]+)>`(?![_`])")
_MARKDOWN_LINK = re.compile(r"(?<![\\`\w])\[([^\]\[\n`]+)\]\(((?:https?|ftp|mailto):[^)\s]+|#[\w-]+|[\w./-]+\.(?:html|rst|md|txt)(?:#[\w-]+)?)\)")
# A Markdown fence line. Not ```x```, which is the inline literal `x`, and
# not backticks under a title, which are its adornment.
_TRIPLE_BACKTICKS = re.compile(r"^\s*```[\w+-]*\s*$")
# Where the text began is the author's secret: the word before <address> is taken.
_MISSING_BACKTICK = re.compile(r"(?:^|(?<=\s))([^\s`]+) <((?:https?|ftp|mailto):[^>`\s]+)>`__?(?![\w`])")
_EXCLAMATION_AND_TILDE = re.compile(r"(?<![\w`:]):(%s):`(!~|~!)" % _NAME)
_LITERAL_GLUED = re.compile(r"(?:^|(?<=[\s(\[{<]))``[^`\s](?:[^`]|`(?!`))*?``(?=[^\W_])")
_DANGLING_HYPHEN = re.compile(r"[a-z]{2,}-$")
_STARTS_LOWER = re.compile(r"^\s*[a-z]")
_COMMENT = re.compile(r"^\s*\.\.\s")
_WORD_BEFORE = re.compile(r"[\w:+.-]+$")


# Longer lines are not read: a line of a megabyte is generated, not prose
# anyone typed, and a dozen patterns over it would cost the check seconds.
MAX_LINE_CHARS = 20_000


def _masked(line):
    """The line with its inline literals blanked (same length): what is inside ``...`` is never markup."""
    if "``" not in line:
        return line
    return _INLINE_LITERAL.sub(lambda m: "\x00" * len(m.group(0)), line)


def find(doc):
    lines = doc.source.lines
    literal = literal_lines(lines)
    from ..fixes.names import known_directives, known_roles

    roles = {name.lower() for name in known_roles(doc.dialect)}
    directives = {name.lower() for name in known_directives(doc.dialect)}
    # A comment is literal text but for its first line, where a directive
    # missing its colons or dots is written.
    literal_but_comments = literal_lines(lines, comments=False)
    found = []
    # Single backticks left open by the lines before, in the same paragraph:
    # a phrase may run over lines (`the Python\nReference <url>`_).
    open_phrase = False
    for index, raw in enumerate(lines):
        if not raw.strip():
            open_phrase = False
            continue
        if len(raw) > MAX_LINE_CHARS:
            continue
        number = index + 1
        line = _masked(raw)
        phrase_before, open_phrase = open_phrase, open_phrase ^ (line.count("`") % 2 == 1)
        if index not in literal_but_comments and (index not in literal or _COMMENT.match(raw)):
            _directives(doc, found, number, line, raw, directives)
        if index in literal or raw.lstrip().startswith(".. "):
            continue  # explicit markup: its argument is no prose
        _roles(doc, found, number, line, raw, roles)
        _links(doc, found, number, line)
        if doc.on("hyperlink-missing-backtick"):
            for m in _MISSING_BACKTICK.finditer(line):
                if (line[: m.start()].count("`") % 2 == 1) == phrase_before:  # not inside a phrase opened earlier
                    found.append(item(
                        "hyperlink-missing-backtick", number, m.start() + 1, "A link's text without its opening backtick: the text and <address> are shown as written.",
                        fix=fix("Add the backtick", "suggested", [edit(number, m.start() + 1, number, m.start() + 1, "`")]),
                    ))
        if doc.on("role-exclamation-and-tilde"):
            for m in _EXCLAMATION_AND_TILDE.finditer(line):
                found.append(item("role-exclamation-and-tilde", number, m.start() + 1, 'The role ":%s:" has both "!" and "~": Sphinx keeps the second as text.' % m.group(1)))
        if doc.on("literal-glued"):
            for m in _LITERAL_GLUED.finditer(raw):
                at = m.end() + 1
                found.append(item(
                    "literal-glued", number, m.start() + 1, "An inline literal glued to the word after it: docutils does not end it there.",
                    fix=fix("Separate them with a backslash and a space", "suggested", [edit(number, at, number, at, "\\ ")]),
                ))
        if doc.on("triple-backticks"):
            for m in _TRIPLE_BACKTICKS.finditer(raw):
                above = lines[index - 1].strip() if index > 0 else ""
                if raw.strip() == "`" * len(raw.strip()) and above and len(raw.strip()) >= len(above):
                    break  # a title's underline
                found.append(item("triple-backticks", number, m.start() + 1, "Triple backticks are Markdown: use ``double backticks`` for inline code, or a code block."))
                break
        if doc.on("dangling-hyphen") and _DANGLING_HYPHEN.search(line.rstrip()) and index + 1 < len(lines):
            following = lines[index + 1]
            if (index + 1) not in literal and _STARTS_LOWER.match(following) and _indent(following) == _indent(raw):
                found.append(item("dangling-hyphen", number, len(line.rstrip()), "A word split at the end of the line: docutils joins the lines with a space (\"%s %s\")." % (raw.split()[-1], following.split()[0])))
    if doc.on("unbalanced-inline-literal") and doc.document is not None:
        found.extend(_unbalanced_literals(doc.document, lines, literal))
    if doc.on("default-role") and doc.document is not None and doc.dialect.name == "sphinx":
        found.extend(_default_roles(doc, literal))
    return found


_NOT_PROSE = (nodes.literal, nodes.literal_block, nodes.doctest_block, nodes.raw, nodes.comment, nodes.math, nodes.math_block, nodes.target, nodes.substitution_definition)


def _unbalanced_literals(document, lines, literal):
    """Double backticks docutils left as text: an inline literal that never opened or closed where the author thought."""
    seen = set()
    for text in document.findall(nodes.Text):
        # Inside emphasis or a role, markup does not nest: backticks there are the author's text.
        if "``" not in text or isinstance(text.parent, nodes.Inline) or any(isinstance(parent, _NOT_PROSE) for parent in _ancestors(text)):
            continue
        first = next((p.line for p in _ancestors(text) if isinstance(p.line, int)), None)
        if first is None:
            continue
        at = _stray(text)
        if at == -1:
            continue
        # The backticks with the text before them on their line, as the source has them.
        snippet = text[text.rfind("\n", 0, at) + 1:at + 2][-24:]
        for number in range(max(first - 1, 1), min(first + 30, len(lines)) + 1):
            where = lines[number - 1].find(snippet)
            if where != -1 and (number - 1) not in literal and number not in seen:
                seen.add(number)
                column = where + len(snippet) - 1
                yield item("unbalanced-inline-literal", number, column, "Double backticks that open or close no inline literal: docutils shows them as written.")
                break


def _stray(text):
    """Where the first pair of backticks is that is not a mention of the token itself.

    A pair standing alone between spaces or quotes, with more text after it
    on its line (``"``"``, ``* ` `` _``), is the author naming the token; one
    glued to a word, or ending a line, is markup gone wrong.
    """
    for m in re.finditer("``", text):
        before = text[m.start() - 1] if m.start() > 0 else "\n"
        after = text[m.end()] if m.end() < len(text) else "\n"
        alone = before in " \t\"'(" and after in " \t\"',)"
        if not alone:
            return m.start()
    return -1


def _ancestors(node):
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _indent(line):
    return len(line) - len(line.lstrip())


def _directives(doc, found, number, line, raw, directives):
    if doc.on("directive-three-dots"):
        m = _THREE_DOTS.match(line)
        if m and m.group(3).lower() in directives:
            column = len(m.group(1)) + 1
            found.append(item(
                "directive-three-dots", number, column, 'Three dots before "%s::": it is a paragraph, not the directive.' % m.group(3),
                fix=fix("Write two dots", "suggested", [edit(number, column, number, column + 3, "..")]),
            ))
    if doc.on("directive-missing-colons"):
        m = _MISSING_COLONS.match(line)
        if m and m.group(2).lower() in directives and not line[m.end(2):].startswith("::"):
            column = len(m.group(1)) + 4
            end = m.end(2) + len(m.group(3)) + 1
            found.append(item(
                "directive-missing-colons", number, column, 'A comment that names the directive "%s": "::" is missing, so docutils drops it and its content.' % m.group(2),
                fix=fix('Write "%s::"' % m.group(2), "suggested", [edit(number, m.start(2) + 1, number, end, m.group(2) + "::")]),
            ))


def _roles(doc, found, number, line, raw, roles):
    if ":" not in raw:
        return  # every role mistake has a colon

    def known(name):
        return name.lower() in roles

    if doc.on("role-without-backticks"):
        for m in _ROLE_WITHOUT_BACKTICKS.finditer(line):
            if known(m.group(2)):
                start, end = m.start(3) + 1, m.end(3) + 1
                found.append(item(
                    "role-without-backticks", number, m.start(1) + 1, 'The role ":%s:" has no backticks: it is shown as written.' % m.group(2),
                    fix=fix("Put %s in backticks" % m.group(3), "suggested", [edit(number, start, number, start, "`"), edit(number, end, number, end, "`")]),
                ))
    if doc.on("role-glued"):
        for m in _ROLE_GLUED_BEFORE.finditer(line):
            # ":c:func:" is one role (a domain's): what precedes ":func:" there is ":c", no word.
            word = _WORD_BEFORE.search(line, 0, m.start(1))
            if known(m.group(2)) and not (word and word.group(0).startswith(":")):
                column = m.start(1) + 1
                found.append(item(
                    "role-glued", number, column, 'The role ":%s:" is glued to the word before it: it is shown as text.' % m.group(2),
                    # A backslash-space separates them for docutils and vanishes from the page.
                    fix=fix("Separate it with a backslash and a space", "safe", [edit(number, column, number, column, "\\ ")]),
                ))
    if doc.on("role-extra-backticks"):
        # On the line as written: its ``x`` is what masking would blank.
        for m in _ROLE_EXTRA_BACKTICKS.finditer(raw):
            if known(m.group(1)) and line[m.start()] != "\x00":  # not itself inside a literal
                open_at = m.start() + len(m.group(1)) + 3
                close_at = m.end() - 1
                found.append(item(
                    "role-extra-backticks", number, m.start() + 1, 'The role ":%s:" takes single backticks.' % m.group(1),
                    fix=fix("Use single backticks", "suggested", [edit(number, open_at, number, open_at + 1, ""), edit(number, close_at, number, close_at + 1, "")]),
                ))
    if doc.on("role-missing-colon"):
        for pattern, where in ((_ROLE_MISSING_CLOSING_COLON, "after"), (_ROLE_MISSING_OPENING_COLON, "before")):
            for m in pattern.finditer(line):
                if known(m.group(1)) and m.group(1).lower() not in ("http", "https", "ftp", "mailto", "file"):
                    column = m.start() + 1
                    at = m.end(1) + 1 if where == "after" else m.start(1) + 1
                    found.append(item(
                        "role-missing-colon", number, column, 'The role "%s" is missing its colon %s its name.' % (m.group(1), where),
                        fix=fix("Add the colon", "suggested", [edit(number, at, number, at, ":")]),
                    ))
    if doc.on("backtick-before-role"):
        for m in _BACKTICK_BEFORE_ROLE.finditer(line):
            if known(m.group(2)):
                found.append(item(
                    "backtick-before-role", number, m.start() + 1, 'A backtick before the role ":%s:".' % m.group(2),
                    fix=fix("Remove the backtick", "suggested", [edit(number, m.start() + 1, number, m.start() + 2, "")]),
                ))


def _links(doc, found, number, line):
    if "<" not in line and "](" not in line:
        return
    if doc.on("hyperlink-missing-space"):
        for m in _MISSING_SPACE.finditer(line):
            at = m.end(1) + 1
            found.append(item(
                "hyperlink-missing-space", number, m.start() + 1, "No space before the link's <address>: docutils reads the whole as a target's name.",
                fix=fix("Add the space", "safe", [edit(number, at, number, at, " ")]),
            ))
    if doc.on("hyperlink-missing-underscore"):
        for m in _MISSING_UNDERSCORE.finditer(line):
            found.append(item(
                "hyperlink-missing-underscore", number, m.start() + 1, "A link without its trailing underscore: it is shown as text, not a link.",
                fix=fix("Add the underscore", "suggested", [edit(number, m.end() + 1, number, m.end() + 1, "_")]),
            ))
    if doc.on("markdown-link"):
        for m in _MARKDOWN_LINK.finditer(line):
            if m.start() > 0 and line[m.start() - 1] == "!":
                # A Markdown image (a badge, often inside a link): an image
                # directive, not an inline link, is what it becomes.
                found.append(item("markdown-link", number, m.start(), "A Markdown image: in reStructuredText, use the image directive (.. image:: %s)." % m.group(2)))
                continue
            found.append(item(
                "markdown-link", number, m.start() + 1, "A Markdown link: in reStructuredText, write `%s <%s>`_." % (m.group(1), m.group(2)),
                fix=fix("Write it as a reStructuredText link", "suggested", [edit(number, m.start() + 1, number, m.end() + 1, "`%s <%s>`_" % (m.group(1), m.group(2)))]),
            ))


def _default_roles(doc, literal):
    """Interpreted text with no role in a Sphinx page, where a role or ``double backticks`` were meant."""
    lines = doc.source.lines
    seen = set()
    for node in doc.document.findall(nodes.title_reference):
        raw = node.rawsource
        if not raw.startswith("`") or raw.startswith("`:"):
            continue
        parent = node.parent
        while parent is not None and not isinstance(parent.line, int):
            parent = parent.parent
        first = parent.line if parent is not None else None
        if not isinstance(first, int):
            continue
        # The paragraph's line is where it starts (or, for some, just after): look a few lines on.
        for number in range(max(first - 1, 1), min(first + 20, len(lines)) + 1):
            at = lines[number - 1].find(raw)
            if at != -1 and (number, at) not in seen and (number - 1) not in literal:
                seen.add((number, at))
                yield item("default-role", number, at + 1, "Interpreted text with no role: a role (:func:`…`) or ``double backticks`` was probably meant.")
                break


CHECKERS.append((CODES, find))
