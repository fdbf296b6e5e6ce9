"""Names that do not exist: targets, roles, directives, directive options."""

import difflib
import re

from docutils.nodes import fully_normalize_name
from docutils.parsers.rst import directives as rst_directives
from docutils.parsers.rst import roles as rst_roles
from docutils.parsers.rst.languages import en

from . import forbidden
from .budget import CELLS_PER_CHARACTER
from .edits import edit, fix

_SIMPLE_NAME = re.compile(r"^\w+(?:[-._+:]\w+)*$", re.UNICODE)


# A name longer than this is never compared: no typo rule is worth an edit
# distance over it, and every comparison costs its length times the band.
MAX_NAME = 64


def closest(name, known, budget=None):
    """The known name ``name`` is most likely a typo of, or None.

    Typos are a letter dropped, added, changed or swapped with the next:
    a name qualifies with at most one such edit per four letters (one for
    the shortest), and the fewest edits win (``ppe`` is ``pep``, one swap,
    before ``purple``), then difflib's ratio, then the name. A name further
    off is not a typo but a name of its own (CPython's ``opcode`` role is
    no misspelt ``code``), and gets no look-alike.

    Cheap filters come first (a length within the edits allowed, one of the
    first two letters shared, which a single edit cannot both change), then
    an edit distance that only computes the band of cells a typo can reach
    and stops once a row is past it. The work is paid from ``budget``
    (rst2.fixes.budget) up front, the band's worst case for every
    candidate: past the budget there is no look-alike, so the answer never
    depends on which candidate came first.
    """
    if not name or len(name) > MAX_NAME:
        return None
    most = max(1, len(name) // 4)
    head = set(name[:2])
    candidates = [other for other in known if other != name and abs(len(other) - len(name)) <= most and head.intersection(other[:2])]
    if budget is not None:
        cells = len(known) + len(candidates) * len(name) * (2 * most + 1)
        if not budget.spend(-(-cells // CELLS_PER_CHARACTER)):
            return None
    best = None
    matcher = difflib.SequenceMatcher(autojunk=False)
    matcher.set_seq2(name)
    for other in candidates:
        edits = typos(name, other, most)
        if edits <= most:
            matcher.set_seq1(other)
            key = (edits, -matcher.ratio(), other)
            best = key if best is None or key < best else best
    return best[2] if best else None


def typos(a, b, most):
    """The edits (insert, delete, change, swap two neighbours) that make ``a`` into ``b``, or ``most + 1`` when more.

    Only the cells within ``most`` of the diagonal are computed (a cell
    further off needs more than ``most`` edits), and it stops at the first
    row whose every cell is past ``most``.
    """
    over = most + 1
    if abs(len(a) - len(b)) > most:
        return over
    m = len(b)
    before, previous = None, [j if j <= most else over for j in range(m + 1)]
    for i in range(1, len(a) + 1):
        current = [over] * (m + 1)
        if i <= most:
            current[0] = i
        lowest = current[0]
        for j in range(max(1, i - most), min(m, i + most) + 1):
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, before[j - 2] + 1)
            current[j] = min(value, over)
            lowest = min(lowest, current[j])
        if lowest > most:
            return over
        before, previous = previous, current
    return previous[m]


def _lines_from(source, first, last=None):
    """(number, text) from ``first`` to the end of its block (or to ``last``)."""
    number = first
    while source.line(number) is not None and (last is None or number <= last):
        yield number, source.line(number)
        number += 1
        if last is None and not source.line(number - 1).strip():
            return


class UnknownTarget:
    """Unknown target name: "name"; an indirect target refers to one that does not exist.

    What it does: points the reference at the existing target whose name is
    closest to it. The reference keeps the author's spelling where it
    agrees with the target's name (``Flke8_`` becomes ``Flake8_`` for a
    target ``flake8``: names are compared without case), so its text reads
    as the author wrote it, with the letters the target's name adds.
    Why: a reference to nothing is an error; the text links nowhere.
    Example: ``see Instalation_`` with ``.. _Installation: ...``; fixed:
    ``see Installation_``. Also ``__ instalation_`` (an anonymous or named
    target that refers to another by name).
    Fix safety: suggested; the closest name is a guess, and the reference's
    text changes with it.
    """

    code = "unknown-target"
    message = re.compile(r'^(?:Unknown target name: "(.+)"|Indirect hyperlink target .*refers to target "(.+)", which does not exist)\.$', re.S)

    def fix(self, context, item, match):
        name = match.group(1) or match.group(2)
        targets = context.linkable_targets()
        if match.group(2):
            # Not the indirect target's own name: that would be a loop.
            own = _EXPLICIT_NAME.match(context.source.line(item["line"]) or "")
            if own:
                targets = {k: v for k, v in targets.items() if k != fully_normalize_name(own.group(2))}
        best = context.closest("target", name, targets) if not match.group(2) else closest(name, targets, context.budget)
        if best is None:
            return None
        written = targets[best]
        for number, text in _lines_from(context.source, item["line"]):
            # Each problem scans its block again: paid as if parsed, so that
            # a thousand references in one block cost a bounded check.
            if not context.budget.spend(len(text)):
                return None
            for pattern, replacement in _reference_forms(text, name, written):
                return fix('Refer to the target "%s"' % written, "suggested", [edit(number, pattern.start() + 1, number, pattern.end() + 1, replacement)])
        return None


_EXPLICIT_NAME = re.compile(r"^\s*\.\.\s+_(`?)(.+?)\1:(\s|$)")


def respell(author, target):
    """``author``'s reference text changed into ``target``'s name, keeping the author's letters where they agree.

    Names are matched as docutils matches them, without case; the letters
    the target adds or changes come from the target. The result always
    names the target (else the target's own spelling is the answer).
    """
    matcher = difflib.SequenceMatcher(None, author.lower(), target.lower(), autojunk=False)
    out = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        out.append(author[i1:i2] if tag == "equal" else target[j1:j2])
    result = "".join(out)
    return result if fully_normalize_name(result) == fully_normalize_name(target) else target


def _reference_forms(text, name, written):
    """Where ``text`` refers to ``name``, and the same reference to ``written`` (spelt as the author would)."""
    # `phrase`_ or `text <name_>`_
    for found in re.finditer(r"`([^`]+)`_(?!_)", text):
        inner = found.group(1)
        alias = re.match(r"^(.*?)\s*<([^<>]+)_>$", inner, re.S)
        if alias and fully_normalize_name(alias.group(2)) == name:
            yield found, "`%s <%s_>`_" % (alias.group(1), respell(alias.group(2), written))
        elif fully_normalize_name(inner) == name:
            yield found, "`%s`_" % respell(inner, written)
    for found in re.finditer(r"(?<![\w`])([\w][\w.+:-]*)_(?![\w_])", text):
        if fully_normalize_name(found.group(1)) == name:
            new = respell(found.group(1), written)
            yield found, ("%s_" % new) if _SIMPLE_NAME.match(new) else "`%s`_" % new


class UnknownRole:
    """Unknown interpreted text role "name".

    What it does: renames the role to the closest role the dialect knows
    (docutils' roles, the dialect's, those the document defines and those of
    a standard file it includes, ``<s5defs.txt>``), compared without case; a
    name in capitals stays in capitals (``:PPE:`` becomes ``:PEP:``).
    Why: an unknown role is an error, and its text is shown as a problem.
    Example: ``:emphasys:`word```; fixed: ``:emphasis:`word```.
    Fix safety: suggested; the closest name is a guess.
    """

    code = "unknown-role"
    message = re.compile(r'^Unknown interpreted text role "(.+)"\.$')

    def fix(self, context, item, match):
        name = match.group(1)
        if context.known_elsewhere("roles", name):
            return None  # a Sphinx role in a docutils document: the dialect is what to change
        # Role names are matched without case (``:PEP:`` is ``pep``).
        # Never a raw-based role (rst2.fixes.forbidden).
        best = context.closest("role", name.lower(), context.role_names() - context.raw_roles())
        if best is None:
            return None
        for number, text in _lines_from(context.source, item["line"]):
            found = re.search(r"(?<![\w:]):%s:(?=`)|(?<=`):%s:(?![\w:])" % (re.escape(name), re.escape(name)), text, re.I)
            if found:
                # In the author's case where the letters agree (``:PPE:`` becomes ``:PEP:``).
                written = text[found.start() + 1:found.end() - 1]
                spelt = respell(written, best).upper() if written.isupper() else respell(written, best)
                return fix('Use the role "%s"' % best, "suggested", [edit(number, found.start() + 2, number, found.end(), spelt)])
        return None


class UnknownDirective:
    """Unknown directive type "name".

    What it does: renames the directive to the closest one the dialect knows.
    Why: an unknown directive is an error, and its whole block is lost.
    Example: ``.. notte::``; fixed: ``.. note::``.
    Fix safety: suggested; the closest name is a guess.
    """

    code = "unknown-directive"
    message = re.compile(r'^Unknown directive type "(.+)"\.$')

    def fix(self, context, item, match):
        name = match.group(1)
        if context.known_elsewhere("directives", name):
            return None  # a Sphinx directive in a docutils document: the dialect is what to change
        text = context.source.line(item["line"])
        if text is None:
            return None
        # Never a directive that reads files or passes raw markup, nor a
        # rename of a block that names a file or a script (rst2.fixes.forbidden).
        armed = context.raw_roles()
        block = _directive_block(context.source, item["line"])
        if not context.budget.spend(len(block)) or forbidden.block_arms(block, context.armed_targets):
            return None
        allowed = {other for other in context.directive_names() if forbidden.directive_allowed(other, block, armed)}
        best = context.closest(("directive", frozenset(allowed)), name, allowed)
        if best is None:
            return None
        found = re.match(r"^(\s*\.\.\s+)(%s)(\s*::)" % re.escape(name), text, re.I)
        if not found:
            return None
        return fix('Use the directive "%s"' % best, "suggested", [edit(item["line"], found.start(2) + 1, item["line"], found.end(2) + 1, best)])


def _directive_block(source, first):
    """The directive's lines from ``first``: its own, then every indented or blank line after it."""
    lines = [source.line(first)]
    number = first + 1
    while source.line(number) is not None and (not source.line(number).strip() or source.line(number)[:1].isspace()):
        lines.append(source.line(number))
        number += 1
    return "\n".join(lines)


class UnknownOption:
    """Error in "directive" directive: unknown option: "name".

    What it does: renames the option to the closest option of that directive.
    Why: the whole directive is refused for one misspelt option.
    Example: ``:widht: 200``; fixed: ``:width: 200``.
    Fix safety: suggested; the closest name is a guess.
    """

    code = "unknown-option"
    message = re.compile(r'^Error in "(.+)" directive:\nunknown option: "(.+)"\.$')

    def fix(self, context, item, match):
        directive, name = match.group(1), match.group(2)
        for number, text in _lines_from(context.source, item["line"] + 1):
            found = re.match(r"^(\s+:)(%s)(:)" % re.escape(name), text)
            if found:
                # Never an option that reads a file or a URL, embeds an image
                # or links to a script (rst2.fixes.forbidden), its value read
                # as docutils reads it.
                block = _directive_block(context.source, item["line"])
                if not context.budget.spend(len(block)):
                    return None
                value = dict(forbidden.options_of(block)).get(name.lower(), "")
                allowed = {other for other in context.option_names(directive) if not forbidden.option_arms(other, value, context.armed_targets)}
                best = closest(name, allowed, context.budget)
                if best is None:
                    return None
                return fix('Use the option "%s"' % best, "suggested", [edit(number, found.start(2) + 1, number, found.end(2) + 1, best)])
            if text.strip() and not text.lstrip().startswith(":"):
                break  # past the options
        return None


class DuplicateTarget:
    """Duplicate explicit target name: "name".

    What it does: renames the later definition to a name not yet taken
    ("name-2"), so that references to "name" reach the first one.
    Why: docutils cannot tell which definition a reference means, and every
    reference to the name fails.
    Example: ``.. _docs: https://a`` then ``.. _docs: https://b``; fixed: the
    second becomes ``.. _docs-2: https://b``.
    Fix safety: suggested; which definition the references meant is a guess.
    """

    code = "duplicate-target"
    message = re.compile(r'^Duplicate explicit target name: "(.+)"\.$')

    def fix(self, context, item, match):
        name = match.group(1)
        text = context.source.line(item["line"])
        found = text and re.match(r"^(\s*\.\.\s+_)(`?)(.+?)\2:(\s|$)", text)
        if not found or fully_normalize_name(found.group(3)) != name:
            return None
        taken = context.target_names()
        n = 2
        while fully_normalize_name("%s-%d" % (found.group(3), n)) in taken:
            n += 1
        return fix(
            'Rename this target to "%s-%d"' % (found.group(3), n),
            "suggested",
            [edit(item["line"], found.start(3) + 1, item["line"], found.end(3) + 1, "%s-%d" % (found.group(3), n))],
        )


def known_roles(dialect):
    return set(rst_roles._roles) | set(rst_roles._role_registry) | set(en.roles) | set(dialect.roles)


def known_directives(dialect):
    return set(rst_directives._directive_registry) | set(en.directives) | set(dialect.directives)


def directive_class(name, dialect):
    if name in dialect.directives:
        return dialect.directives[name]
    canonical = en.directives.get(name, name)
    if canonical in rst_directives._directive_registry:
        module, cls = rst_directives._directive_registry[canonical]
        return getattr(__import__("docutils.parsers.rst.directives." + module, fromlist=[cls]), cls)
    return rst_directives._directives.get(name)


RULES = (UnknownTarget(), UnknownRole(), UnknownDirective(), UnknownOption(), DuplicateTarget())
