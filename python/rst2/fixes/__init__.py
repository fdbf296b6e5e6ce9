"""Fixes for the problems ``check`` reports, and a document with them applied.

Each rule (titles, blocks, inline, names) knows one docutils message: what
it means, why it matters, an example, and whether its fix is ``safe`` (it
cannot change what a correct part of the document means) or ``suggested``.
A problem with a fix carries it as ``fix``: a description, the
applicability and the edits (rst2.fixes.edits). ``fix_document`` applies
them in passes until nothing more changes, as ruff does, and never keeps a
pass that leaves more problems than it found.
"""

import re

from docutils.nodes import section
from docutils.parsers.rst.directives.misc import Include

from .. import columns, dialects as _dialects, rules, tagging
from ..project import suppressions
from ..directives import STANDARD_INCLUDES
from ..messages import collect
from . import blocks, budget as budgets, forbidden, inline, names, titles
from .edits import Source, apply

RULES = titles.RULES + blocks.RULES + inline.RULES + names.RULES

# Passes go on while each leaves fewer problems, at most this many: each
# applies every fix that does not overlap another (a fix that did is made
# again from the new text next time), and a document whose fixes outrun one
# pass's trial budget (below) is finished by the next, so that fixing a
# fixed document changes nothing.
MAX_PASSES = 16

# The trial checks one check's fixes may run (a rule tries a change on its
# block alone): without a bound, a document of a thousand unmatched ``*``
# would make check a thousand times slower than it was before fixes
# existed. Past the bound, problems simply come without a fix. What the
# trials may cost in all is bounded too (rst2.fixes.budget), and that
# bound is shared by every check of one fix_document.
MAX_TRIALS = 64

# Fixes tried one at a time in one pass, each with a whole check: suggested
# fixes always (each must earn its place alone), safe ones when the pass
# as a whole did not help.
MAX_SINGLE_TRIES = 8

_EXPLICIT_TARGET = re.compile(r"^\s*\.\.\s+_(`?)(.+?)\1:(\s|$)")
_STANDARD_INCLUDE = re.compile(r"^\s*\.\.\s+include::\s+<([^>]+)>\s*$", re.M)


class Context:
    """What a rule may ask about the document it fixes."""

    def __init__(self, text, dialect, budget):
        self.source = Source(text)
        self.dialect = dialect
        self.budget = budget
        self._document = None
        self.memo = {}
        self.trials_left = MAX_TRIALS
        self._targets = None
        self._linkable = None
        self._roles = None
        self._raw_roles = None
        self._elsewhere = {}
        self._closest = {}

    @property
    def document(self):
        """The doctree, made when a rule first asks (most problems need none)."""
        if self._document is None:
            self._document = collect(self.source.text, "null", self.dialect)[2]
        return self._document

    def check_text(self, text):
        """The problems of ``text`` alone, in the same dialect (a rule's trial); None past the budget."""
        if self.trials_left <= 0 or not self.budget.spend(budgets.parse_cost(text)):
            return None
        self.trials_left -= 1
        return collect(text, "null", self.dialect)[0]

    def closest(self, kind, name, known):
        """names.closest, remembered per ``kind`` and name: a name misspelt a hundred times is compared once."""
        key = (kind, name)
        if key not in self._closest:
            self._closest[key] = names.closest(name, known, self.budget)
        return self._closest[key]

    def target_names(self):
        """Every target's normalized name -> the name as the document writes it."""
        if self._targets is None:
            from docutils.nodes import fully_normalize_name

            written = {}
            for line in self.source.lines:
                found = _EXPLICIT_TARGET.match(line)
                if found:
                    written.setdefault(fully_normalize_name(found.group(2)), found.group(2))
            self._targets = {}
            for name, node_id in self.document.nameids.items():
                node = self.document.ids.get(node_id) if node_id else None
                if name in written:
                    self._targets[name] = written[name]
                elif isinstance(node, section) and node.children:
                    self._targets[name] = node[0].astext()
                elif node is not None and node.astext().strip() and fully_normalize_name(node.astext()) == name:
                    self._targets[name] = node.astext()
                else:
                    self._targets[name] = name
        return self._targets

    def linkable_targets(self):
        """target_names() but those whose address is not inert (a fix never links to ``javascript:``).

        The address is read from the document's text: rst2's own safety
        has already taken a blocked one out of the doctree, where stock
        docutils would keep it.
        """
        if self._linkable is None:
            from docutils.nodes import fully_normalize_name

            armed, refers = set(), {}
            lines = self.source.lines
            for number, line in enumerate(lines):
                found = _EXPLICIT_TARGET.match(line)
                if not found:
                    continue
                address = [line[found.end():]]
                for following in lines[number + 1:]:
                    if not following[:1].isspace():
                        break
                    address.append(following)
                name, address = fully_normalize_name(found.group(2)), "".join(part.strip() for part in address)
                if not forbidden.safe_address(address):
                    armed.add(name)
                elif address.endswith("_") and not address.endswith("__"):
                    refers[name] = fully_normalize_name(address[:-1].strip("`"))
            # A target that refers to an armed one by name is armed too.
            grew = True
            while grew:
                grew = False
                for name, other in refers.items():
                    if name not in armed and other in armed:
                        armed.add(name)
                        grew = True
            # And those whose address rst2's safety took out (rst2.safety): the
            # doctree knows a name as docutils parsed it, escapes and all.
            armed |= getattr(self.document, "rst2_blocked_targets", set())
            self._linkable = {name: written for name, written in self.target_names().items() if name not in armed}
        return self._linkable

    def armed_targets(self):
        """The targets a fix may not link to: target_names() less linkable_targets()."""
        linkable = self.linkable_targets()
        return {name for name in self.target_names() if name not in linkable}

    def role_names(self):
        """The dialect's roles and those the document defines, itself or in a standard include (``<s5defs.txt>``)."""
        if self._roles is None:
            self._roles = self._role_names()
        return self._roles

    def raw_roles(self):
        """The roles a fix never writes: ``raw`` and those the document derives from it (lowered)."""
        if self._raw_roles is None:
            self._raw_roles = forbidden.raw_roles(self.source.text)
        return self._raw_roles

    def _role_names(self):
        texts = [self.source.text]
        for found in _STANDARD_INCLUDE.finditer(self.source.text):
            if found.group(1) in STANDARD_INCLUDES:
                try:
                    texts.append((Include.standard_include_path / found.group(1)).read_text(encoding="utf-8"))
                except OSError:
                    pass
        local = {m.group(1).lower() for text in texts for m in forbidden.ROLE_DEFINITION.finditer(text)}
        return names.known_roles(self.dialect) | local

    def directive_names(self):
        return names.known_directives(self.dialect)

    def known_elsewhere(self, kind, name):
        """Whether another dialect knows the role or directive (``kind``): no look-alike is then suggested."""
        if kind not in self._elsewhere:
            self._elsewhere[kind] = {known.lower() for other in map(_dialects.get, _dialects.NAMES) if other is not self.dialect for known in getattr(other, kind)}
        return name.lower() in self._elsewhere[kind]

    def option_names(self, directive):
        cls = names.directive_class(directive, self.dialect)
        return set(getattr(cls, "option_spec", None) or ())


def _fixes(text, items, dialect, budget, lines=None):
    """``items``, each with its fix where one is known; with ``lines`` (first, last), only the problems on those lines get one."""
    if not items:
        return items  # a correct document: no Context (it splits the text) to make
    context = None
    for item in items:
        if item.get("line") is None or (lines is not None and not lines[0] <= item["line"] <= lines[1]):
            item.pop("fix", None)  # a lint rule's, made with its finding
            continue
        if "fix" in item:
            continue
        for rule in RULES:
            match = rule.message.match(item["message"])
            if match:
                context = context or Context(text, dialect, budget)
                found = rule.fix(context, item, match)
                if found is not None:
                    item["fix"] = dict(found, rule=rule.code)
                break
    return items


def problems(text, dialect="docutils", enabled=None, tagged=False):
    """``check``'s problems without their fixes.

    Every problem is named by its rule and placed at its column; then the
    document's suppression comments and the enabled rules (``enabled``, a
    set of codes; None: the rules a request that chooses none gets,
    rules.API_DEFAULTS) choose which are reported. The rules that read the
    source (rst2.lint) run only when one of them is enabled. ``tagged``:
    the PDF is to be tagged, and what that needs of the document is
    checked too (rst2.tagging).
    """
    chosen = _dialects.get(dialect)
    allowed = rules.API_DEFAULTS if enabled is None else enabled
    linted = allowed & rules.LINT
    if tagged and tagging.RULE in allowed:
        items, document = chosen.checked(text)
        items = columns.add(text, rules.name(items))
        if linted:
            from .. import lint

            items += lint.find(text, document, chosen, linted)
        items = sorted(items + tagging.images_without_alt(text, document), key=lambda item: item.get("line") or 0)
    elif linted:
        from .. import lint

        items, document = chosen.checked(text)
        items = columns.add(text, rules.name(items))
        found = lint.find(text, document, chosen, linted)
        if found:
            # In line order, docutils' own messages first on a line: their
            # order among themselves is kept (a stable sort).
            items = sorted(items + found, key=lambda item: item.get("line") or 0)
    else:
        items = columns.add(text, rules.name(chosen.check(text)))
    items = suppressions.apply(text, items, rules.LINT - linted)
    return [item for item in items if item["rule"] in allowed]


def check(text, dialect="docutils", budget=None, enabled=None, fix_lines=None, found=None):
    """``check``'s problems (the dialect's own), each with its fix where one is known and ``budget`` allows.

    Only reported problems get fixes: a silenced one costs no trials. With
    ``fix_lines`` (first, last), only the problems on those lines do, and
    ``found``, the problems of this very text and options when already
    known (rst2.api keeps the last), spares the parse.
    """
    chosen = _dialects.get(dialect)
    items = problems(text, chosen, enabled) if found is None else found
    return _fixes(text, items, chosen, budgets.for_check(text) if budget is None else budget, fix_lines)


def fix_document(text, dialect="docutils", unsafe=False, enabled=None):
    """``text`` with its fixes applied: (text, fixes applied, problems left).

    Safe fixes go in passes, all of a pass at once, then one at a time
    when the pass as a whole did not leave fewer problems. A suggested
    fix is a guess, and is applied only when it alone leaves fewer
    problems: a pass never carries a guess that did not earn its place on
    its own (in a pass with one genuine fix, six renames of inert typos
    into ``raw`` and ``include`` would ride along). With ``unsafe``,
    suggested fixes wait until no safe fix is left, so that a guess is
    made on the document the safe fixes made (a title lost to a
    mismatched overline makes a later title skip a level; the safe fix of
    the overline ends both problems, while the suggested change of the
    later title's level, applied in the same pass, would be wrong).

    Everything, every check and its trials, is paid from one budget
    (rst2.fixes.budget): past it, the passes made so far are the answer.
    Only the problems check reports with ``enabled`` (and the document's
    suppressions) are fixed.
    """
    budget = budgets.for_fix(text)
    applied = []
    items = _checked(text, dialect, budget, enabled)
    # The guesses get passes of their own: a document whose safe fixes took
    # every pass would otherwise get its guesses only from a second run,
    # and fixing a fixed document must change nothing.
    passes = {"safe": 0, "suggested": 0}
    while True:
        if items is None:
            break
        done, new_items = [], None
        safe = _chosen(items, "safe")
        kind = "safe" if safe else "suggested"
        if passes[kind] >= MAX_PASSES:
            break
        passes[kind] += 1
        if safe:
            new_text, done = apply(text, safe)
            new_items = _checked(new_text, dialect, budget, enabled)
            if new_items is None:
                done = []  # not known to help: not kept
            elif len(new_items) >= len(items):
                new_text, done, new_items = _each_on_its_own(text, safe, items, dialect, budget, enabled)
        elif unsafe:
            new_text, done, new_items = _each_on_its_own(text, _chosen(items, "suggested"), items, dialect, budget, enabled)
        if not done:
            break
        text, items = new_text, new_items
        applied.extend(done)
    if items is None:
        items = check(text, dialect, budgets.Budget(0), enabled)  # the problems left, without their fixes
    return text, applied, items


def _chosen(items, kind):
    return [item["fix"] for item in items if "fix" in item and item["fix"]["applicability"] == kind]


def _checked(text, dialect, budget, enabled=None):
    """check() of ``text`` paid from ``budget``; None when the budget cannot pay for its parse."""
    if not budget.spend(budgets.parse_cost(text)):
        return None
    # Its trials get no more than a check of its own would: the first check
    # must not spend what the passes after it need.
    return check(text, dialect, budget.part(budgets.for_check(text).left), enabled)


def _each_on_its_own(text, chosen, items, dialect, budget, enabled=None):
    """Of ``chosen``, those that each leave fewer problems than the document had with the ones kept before it.

    (text, fixes kept, their problems with fixes, or None past the budget);
    ``items`` when none is kept.
    """
    if len(chosen) > 1:
        # All at once first, with one check: when together they end exactly
        # as many problems as there are fixes and make none, each earned its
        # place (twenty Markdown links in one README would otherwise take
        # twenty checks, more than the budget, and a second run would go on
        # where the first stopped).
        new_text, done = apply(text, chosen)
        if len(done) == len(chosen) and budget.spend(budgets.parse_cost(new_text)):
            together = _counted(new_text, dialect, enabled)
            if len(together) <= len(items) - len(chosen):
                return new_text, done, _checked(new_text, dialect, budget, enabled)
    kept, problems, kept_text = [], len(items), text
    for candidate in chosen[:MAX_SINGLE_TRIES]:
        new_text, done = apply(text, kept + [candidate])
        if len(done) != len(kept) + 1:
            continue  # it overlaps one kept: made again from the new text next pass
        if not budget.spend(budgets.parse_cost(new_text)):
            break
        count = len(_counted(new_text, dialect, enabled))
        if count < problems:
            kept, problems, kept_text = done, count, new_text
    if not kept:
        return text, [], items
    return kept_text, kept, _checked(kept_text, dialect, budget, enabled)


def _counted(text, dialect, enabled):
    """The problems check would report, without their fixes (a fix's trial counts them)."""
    return check(text, dialect, budgets.Budget(0), enabled)
