"""Suppression comments: ``.. rst2: disable``, ``disable-next`` and ``enable``.

``.. rst2: disable RULE[, RULE…]`` silences those rules (every rule when
none is named) from the comment to the end of the file or to an
``.. rst2: enable`` naming them (or naming none); ``.. rst2: disable-next
RULE…`` silences them in the next block alone: the next paragraph, list,
table, section title or directive, with everything indented under it. A
rule is named by its code, by a prefix ending at a hyphen (``title``), or
by a family or ``ALL``. To docutils these are comments, so rendering never shows them.

A suppression, or a rule it names, that silenced nothing is reported as
``unused-suppression``, as ruff reports an unused ``noqa``: a stale comment
would otherwise hide the next real problem on that block.
"""

import re

from .. import rules

_COMMENT = re.compile(r"^(\s*)\.\.[ \t]+rst2:[ \t]*(disable-next|disable|enable)(?=[\s,]|$)(.*)$")
_NAMES = re.compile(r"[^\s,]+")
# A comment inside a literal block is text, not a comment: its block's
# opener is a paragraph ending in "::" or a directive whose content is
# literal (rst2 reads the source, not the doctree, so it looks up).
_DIRECTIVE = re.compile(r"^\s*\.\.[ \t]+([\w.:+-]+)[ \t]*::")
_LITERAL_DIRECTIVES = frozenset(
    "code code-block sourcecode highlight literalinclude parsed-literal math raw csv-table doctest testcode "
    "testoutput testsetup testcleanup productionlist graphviz graph digraph mermaid uml ipython prompt "
    "jupyter-execute jupyter-input jupyter-output program-output command-output".split()
)
_BULLET = re.compile(r"^([-*+\u2022\u2023\u2043])(\s|$)")
_ENUMERATED = re.compile(r"^\(?(\d+|#|[a-zA-Z]|[ivxlcdmIVXLCDM]+)[.)](\s|$)")
_FIELD = re.compile(r"^:[^:\s][^:]*:(\s|$)")
_OPTION = re.compile(r"^(--?|/)\w")
# Two columns at least: a single run of "=" is a section title's overline or underline.
_BORDER = re.compile(r"^=+( +=+)+\s*$")


# Every problem is compared with every suppression: a document of thousands
# of comments and thousands of problems would cost their product. No real
# document needs more; the one past the bound says so.
MAX_SUPPRESSIONS = 500
# Names one comment may give (duplicates dropped): each unused one is an item.
MAX_NAMES = 50
# What an unused-suppression item quotes of its comment.
MAX_CONTEXT = 200


class Suppression:
    def __init__(self, line, column, names, text):
        self.line = line  # of the comment, 1-based
        self.column = column
        self.names = names  # the rules as written; () for every rule
        self.text = text
        self.used = set()  # the names that silenced something ("" for every rule)
        self.ranges = []  # [(first line, last line or None for the end)]
        self._matched = {}
        self.over = False  # the one past MAX_SUPPRESSIONS: it and those after it are not honoured

    def matches(self, rule):
        # Asked once per problem: remembered per rule code (there are few).
        if rule not in self._matched:
            self._matched[rule] = self._match(rule)
        return self._matched[rule]

    def _match(self, rule):
        if not self.names:
            return ""
        for name in self.names:
            if rules.names(name, rule):
                return name
        return None


def _indent(line):
    return len(line) - len(line.lstrip())


def _kind(line):
    """What starts a block that may go on past a blank line at its own indentation."""
    stripped = line.strip()
    for kind, pattern in (("bullet", _BULLET), ("enumerated", _ENUMERATED), ("field", _FIELD), ("option", _OPTION)):
        if pattern.match(stripped):
            return kind
    if _BORDER.match(stripped):
        return "table"
    return None


class _Steps:
    """Lines the blocks of ``disable-next`` may look at in all: their blocks can nest, and
    a document of comments inside one long paragraph would otherwise make each
    comment read to its end. Past the allowance, a block ends where the reading
    stopped."""

    def __init__(self, lines):
        self.left = 20 * len(lines) + 1000


def _block_end(lines, first, steps):
    """The last line (0-based) of the block that starts at ``first``."""
    indent = _indent(lines[first])
    kind = _kind(lines[first])
    borders = 1 if kind == "table" else 0
    last = first
    blank = False
    for index in range(first + 1, len(lines)):
        steps.left -= 1
        if steps.left < 0:
            break
        line = lines[index]
        if not line.strip():
            blank = True
            continue
        own = _indent(line)
        if own > indent or (own == indent and not blank):
            if kind == "table" and own == indent and _BORDER.match(line.strip()):
                borders += 1
            last, blank = index, False
            continue
        # A simple table holds blank lines between its borders; a list goes
        # on with its next item of the same kind.
        if own == indent and ((kind == "table" and borders < 3) or (kind not in (None, "table") and _kind(line) == kind)):
            if kind == "table" and _BORDER.match(line.strip()):
                borders += 1
            last, blank = index, False
            continue
        break
    return last


def _literal_lines(lines):
    """For each line, whether it lies in a literal block or a directive whose content is literal.

    One pass with a stack of the literal openers still open: a line at or
    left of an opener's indentation closes it. (Looking upward from each
    comment would cost a line per line above it, for every comment.)
    """
    inside, open_ = [], []
    for line in lines:
        if not line.strip():
            inside.append(bool(open_))
            continue
        indent = _indent(line)
        while open_ and indent <= open_[-1]:
            open_.pop()
        inside.append(bool(open_))
        directive = _DIRECTIVE.match(line)
        if (directive and directive.group(1).lower() in _LITERAL_DIRECTIVES) or (not directive and line.rstrip().endswith("::")):
            open_.append(indent)
    return inside


def find(text):
    """The suppression comments of ``text``, each with the line ranges it covers."""
    lines = text.splitlines()
    literal = None
    steps = _Steps(lines)
    found, open_ = [], []
    index = 0
    while index < len(lines):
        match = _COMMENT.match(lines[index])
        if match and match.group(1):
            literal = literal or _literal_lines(lines)
        if not match or (match.group(1) and literal[index]):
            index += 1
            continue
        indent, verb, rest = match.groups()
        line = index + 1
        # The comment's continuation lines, indented under it, carry more names.
        end = index
        while end + 1 < len(lines) and lines[end + 1].strip() and _indent(lines[end + 1]) > len(indent):
            end += 1
            rest += " " + lines[end]
        names = tuple(dict.fromkeys(_NAMES.findall(rest)))[:MAX_NAMES]
        if verb == "enable":
            for other in open_[:]:
                if not names or (other.names and set(other.names) <= set(names)):
                    other.ranges[-1] = (other.ranges[-1][0], line)
                    open_.remove(other)
            index = end + 1
            continue
        suppression = Suppression(line, len(indent) + 1, names, lines[index])
        if len(found) == MAX_SUPPRESSIONS:
            suppression.names, suppression.over = (), True
            found.append(suppression)
            break
        found.append(suppression)
        if verb == "disable":
            suppression.ranges.append((end + 2, None))
            open_.append(suppression)
        else:
            first = end + 1
            while first < len(lines) and not lines[first].strip():
                first += 1
            if first < len(lines):
                suppression.ranges.append((first + 1, _block_end(lines, first, steps) + 1))
        index = end + 1
    return found


def _covers(suppression, line):
    for first, last in suppression.ranges:
        if line is None:
            if last is None:
                return True
        elif first <= line and (last is None or line <= last):
            return True
    return False


def apply(text, items, not_run=frozenset()):
    """``items`` without the problems a suppression silences, with one item per unused suppression.

    ``not_run``: the rules whose findings were not looked for (rst2.lint's,
    when no request enabled them); a suppression of those alone silenced
    nothing only because nothing was looked for, and is not reported.
    """
    if "rst2:" not in text:
        return items
    suppressions = find(text)
    if not suppressions:
        return items
    kept = []
    for item in items:
        silenced = False
        for suppression in suppressions:
            if _covers(suppression, item.get("line")):
                name = suppression.matches(item["rule"])
                if name is not None:
                    suppression.used.add(name)
                    silenced = True
        if not silenced:
            kept.append(item)
    for suppression in suppressions:
        kept.extend(_unused(suppression, not_run))
    return kept


def _unused(suppression, not_run=frozenset()):
    if suppression.over:
        yield _item(suppression, "More than %d suppression comments: this one and those after it are not honoured." % MAX_SUPPRESSIONS)
        return
    if not suppression.names:
        unused = [] if suppression.used else [None]
    else:
        unused = [name for name in suppression.names if name not in suppression.used and not _only(name, not_run)]
    for name in unused:
        if name is None:
            message = "This suppression silenced nothing."
        elif not any(rules.names(name, code) for code in rules.CODES):
            message = 'This suppression names "%s", which is no rule.' % name
        else:
            message = 'This suppression of "%s" silenced nothing.' % name
        yield _item(suppression, message)


def _only(name, codes):
    """Whether ``name`` stands for rules, all of them among ``codes``."""
    if not codes:
        return False
    named = [code for code in rules.CODES if rules.names(name, code)]
    return bool(named) and all(code in codes for code in named)


def _item(suppression, message):
    return {
        "message": message,
        "type": "warning",
        "line": suppression.line,
        "column": suppression.column,
        "context": suppression.text[:MAX_CONTEXT],
        "rule": "unused-suppression",
    }
