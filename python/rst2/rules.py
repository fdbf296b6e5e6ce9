"""The one table of rules: every problem ``check`` reports is named by one.

The table itself is data, ``rules.json`` beside this file, so that the
service reads the same rows for ``select``/``ignore``, SARIF and the
editor (src/rules.ts) as the checker reads here; docs/rules.rst is compared
with ``table()`` by a test. A rule's code is part of the API: once
published it is never renamed.

A problem's rule and its fix's ``rule`` are different fields: the fix's
codes (rst2.fixes) name what the fix does and predate this table, so a
rule here names the fix it offers (``fix``) rather than sharing its code
where the two read differently (the problem ``title-underline-too-short``
is fixed by ``title-underline``).
"""

import json
import os
import re
from collections import namedtuple

Rule = namedtuple("Rule", "code family patterns summary default fix")

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "rules.json")

with open(FILE, encoding="utf-8") as _file:
    _DATA = json.load(_file)

# Ordered: the first rule whose pattern matches the start of a message names
# it, so specific patterns ("Error in ... unknown option") come before the
# general ones ("Error in ... directive").
RULES = tuple(
    Rule(row["code"], row["family"], tuple(re.compile(p, re.S) for p in row["patterns"]), row["summary"], row["default"], row["fix"])
    for row in _DATA["rules"]
)

FALLBACK = dict(_DATA["fallback"])
CODES = tuple(rule.code for rule in RULES)
DEFAULTS = frozenset(rule.code for rule in RULES if rule.default)
#: The families of rules a request gets when it chooses none: what check
#: answered before the rules that read the source itself (code blocks,
#: markup, whitespace) existed. The command line, the language server and
#: the editor page choose DEFAULTS.
API_FAMILIES = frozenset({"docutils", "rst2"})
API_DEFAULTS = frozenset(rule.code for rule in RULES if rule.default and rule.family in API_FAMILIES)
#: Rules found by rst2.lint, which reads the source and the doctree, not docutils' messages.
LINT = frozenset(rule.code for rule in RULES if rule.family not in API_FAMILIES)
#: Rules of rst2's own findings (not docutils messages): no pattern, not a fallback.
OWN = frozenset(rule.code for rule in RULES if rule.family == "rst2")
_MATCHING = tuple(rule for rule in RULES if rule.patterns)


FAMILIES = frozenset(rule.family for rule in RULES)
_FAMILY_OF = {rule.code: rule.family for rule in RULES}


# A family's name stands for its rules unless it is a prefix of codes, which
# it has always meant (``docutils`` is docutils-warning, -error, -severe).
_PREFIXES = frozenset(code.rsplit("-", n)[0] for code in CODES for n in range(1, code.count("-") + 1))


def names(name, code):
    """Whether a rule name as a user writes it (a code, a prefix ending at a hyphen, a family, ALL) stands for ``code``."""
    if name == "ALL" or code == name or code.startswith(name + "-"):
        return True
    return name not in _PREFIXES and _FAMILY_OF.get(code) == name


def rule_of(message, level):
    """The code of the rule naming a problem: its message's, else its level's fallback."""
    for rule in _MATCHING:
        if any(pattern.match(message) for pattern in rule.patterns):
            return rule.code
    return FALLBACK.get(level, "docutils-error")


def name(items):
    """Adds ``rule`` to each of ``items`` (check's problems) that has none, in place."""
    for item in items:
        if "rule" not in item:
            item["rule"] = rule_of(item["message"], item["type"])
    return items


def table():
    """The table as plain data, for the docs page."""
    return [{"code": r.code, "family": r.family, "summary": r.summary, "default": r.default, "fix": r.fix} for r in RULES]
