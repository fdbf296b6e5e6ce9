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

from .. import dialects as _dialects
from ..directives import STANDARD_INCLUDES
from ..messages import collect
from . import blocks, inline, names, titles
from .edits import Source, apply

RULES = titles.RULES + blocks.RULES + inline.RULES + names.RULES

# Passes go on while each leaves fewer problems, at most this many: each
# applies every fix that does not overlap another (a fix that did is made
# again from the new text next time), and a document whose fixes outrun one
# pass's trial budget (below) is finished by the next, so that fixing a
# fixed document changes nothing.
MAX_PASSES = 16

# The trial checks one document's fixes may run (a rule tries a change on
# its block alone): without a bound, a document of a thousand unmatched
# ``*`` would make check a thousand times slower than it was before fixes
# existed. Past the bound, problems simply come without a fix.
MAX_TRIALS = 64

# A pass that leaves more problems is retried a fix at a time, each with a
# whole check: at most this many.
MAX_SINGLE_TRIES = 8

_EXPLICIT_TARGET = re.compile(r"^\s*\.\.\s+_(`?)(.+?)\1:(\s|$)")
_ROLE_DEFINITION = re.compile(r"^\s*\.\.\s+role::\s+([\w.+:-]+)", re.M)
_STANDARD_INCLUDE = re.compile(r"^\s*\.\.\s+include::\s+<([^>]+)>\s*$", re.M)


class Context:
    """What a rule may ask about the document it fixes."""

    def __init__(self, text, dialect):
        self.source = Source(text)
        self.dialect = dialect
        self._document = None
        self.memo = {}
        self.trials_left = MAX_TRIALS
        self._targets = None

    @property
    def document(self):
        """The doctree, made when a rule first asks (most problems need none)."""
        if self._document is None:
            self._document = collect(self.source.text, "null", self.dialect)[2]
        return self._document

    def check_text(self, text):
        """The problems of ``text`` alone, in the same dialect (a rule's trial); None past the budget."""
        if self.trials_left <= 0:
            return None
        self.trials_left -= 1
        return collect(text, "null", self.dialect)[0]

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

    def role_names(self):
        """The dialect's roles and those the document defines, itself or in a standard include (``<s5defs.txt>``)."""
        texts = [self.source.text]
        for found in _STANDARD_INCLUDE.finditer(self.source.text):
            if found.group(1) in STANDARD_INCLUDES:
                try:
                    texts.append((Include.standard_include_path / found.group(1)).read_text(encoding="utf-8"))
                except OSError:
                    pass
        local = {m.group(1).lower() for text in texts for m in _ROLE_DEFINITION.finditer(text)}
        return names.known_roles(self.dialect) | local

    def directive_names(self):
        return names.known_directives(self.dialect)

    def known_elsewhere(self, kind, name):
        """Whether another dialect knows the role or directive (``kind``): no look-alike is then suggested."""
        return any(name.lower() in getattr(other, kind) for other in map(_dialects.get, _dialects.NAMES) if other is not self.dialect)

    def option_names(self, directive):
        cls = names.directive_class(directive, self.dialect)
        return set(getattr(cls, "option_spec", None) or ())


def _fixes(text, items, dialect):
    if not items:
        return items  # a correct document: no Context (it splits the text) to make
    context = Context(text, dialect)
    for item in items:
        if item.get("line") is None:
            continue
        for rule in RULES:
            match = rule.message.match(item["message"])
            if match:
                found = rule.fix(context, item, match)
                if found is not None:
                    item["fix"] = dict(found, rule=rule.code)
                break
    return items


def check(text, dialect="docutils"):
    """``check``'s problems (the dialect's own), each with its fix where one is known."""
    chosen = _dialects.get(dialect)
    return _fixes(text, chosen.check(text), chosen)


def fix_document(text, dialect="docutils", unsafe=False):
    """``text`` with its fixes applied: (text, fixes applied, problems left).

    With ``unsafe``, a pass applies suggested fixes only when no safe fix is
    left: a guess is made on the document the safe fixes made. (A title
    lost to a mismatched overline makes a later title skip a level; the safe
    fix of the overline ends both problems, while the suggested change of
    the later title's level, applied in the same pass, would be wrong.)
    """
    kinds = ("safe", "suggested") if unsafe else ("safe",)
    applied = []
    items = check(text, dialect)
    for _ in range(MAX_PASSES):
        done = []
        for kind in kinds:
            chosen = [item["fix"] for item in items if "fix" in item and item["fix"]["applicability"] == kind]
            if not chosen:
                continue
            new_text, done = apply(text, chosen)
            new_items = check(new_text, dialect)
            if len(new_items) >= len(items):
                # The pass did not help as a whole: keep, one at a time, only
                # the fixes that leave fewer problems on their own.
                new_text, done, new_items = _one_at_a_time(text, chosen, items, dialect)
            if done:
                break
        if not done:
            break
        text, items = new_text, new_items
        applied.extend(done)
    return text, applied, items


def _one_at_a_time(text, chosen, items, dialect):
    for candidate in chosen[:MAX_SINGLE_TRIES]:
        new_text, done = apply(text, [candidate])
        new_items = check(new_text, dialect)
        if done and len(new_items) < len(items):
            return new_text, done, new_items
    return text, [], items
