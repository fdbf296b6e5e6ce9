"""The one table of rules: every problem ``check`` reports is named by one.

The table feeds the checker (each item's ``rule``), the select/ignore
parameters (through the worker's ``rules`` answer), and docs/rules.rst,
which a test compares with ``table()``. A rule's code is part of the API:
once published it is never renamed.

A problem's rule and its fix's ``rule`` are different fields: the fix's
codes (rst2.fixes) name what the fix does and predate this table, so a
rule here names the fix it offers (``fix``) rather than sharing its code
where the two read differently (the problem ``title-underline-too-short``
is fixed by ``title-underline``).
"""

import re
from collections import namedtuple

Rule = namedtuple("Rule", "code patterns summary default fix")


def _rule(code, patterns, summary, fix=None, default=True):
    return Rule(code, tuple(re.compile(p, re.S) for p in patterns), summary, default, fix)


# Ordered: the first rule whose pattern matches the start of a message names
# it, so specific patterns ("Error in ... unknown option") come before the
# general ones ("Error in ... directive").
RULES = (
    _rule("title-underline-too-short", [r"Title underline too short\."], "A section title's underline is shorter than its text.", "title-underline"),
    _rule("title-overline-too-short", [r"Title overline too short\."], "A section title's overline is shorter than its text.", "title-overline"),
    _rule("title-overline-mismatch", [r"Title overline & underline mismatch\."], "A section title's overline and underline differ.", "title-overline"),
    _rule("inconsistent-title-style", [r"Inconsistent title style", r"Title level inconsistent"], "A section title skips a level or uses a style out of order.", "title-level"),
    _rule("incomplete-section-title", [r"Incomplete section title", r"Missing matching underline for section title overline"], "A section title's overline has no title or no underline.", None),
    _rule("invalid-section-title", [r"Invalid section title or transition marker", r"Unexpected section title"], "A section title or transition where none may be.", None),
    _rule("misplaced-transition", [r"Document or section may not begin with a transition", r"At least one body element (must|should) separate transitions", r"Document may not end with a transition"], "A transition at the start or end of a section, or next to another.", None),
    _rule("blank-line-after-block", [r".+ ends without a blank line; unexpected unindent\."], "A block ends without the blank line that must follow it.", "blank-line-after-block"),
    _rule("blank-line-after-table", [r"Blank line required after table\."], "A table is followed by text without a blank line.", None),
    _rule("unexpected-indentation", [r"Unexpected indentation\."], "A line is indented where no block may start.", "unexpected-indentation"),
    _rule("literal-block-expected", [r"Literal block expected; none found\."], "A paragraph ends with '::' but no indented literal block follows.", None),
    _rule("inline-start-without-end", [r"Inline .+ start-string without end-string\."], "Inline markup (emphasis, literal, reference...) is opened but not closed.", "inline-start-without-end"),
    _rule("unknown-role", [r'Unknown interpreted text role "', r'Interpreted text role ".*" not implemented', r"No role entry for "], "Interpreted text names a role the dialect does not know.", "unknown-role"),
    _rule("ambiguous-role", [r"Mismatch: both interpreted text role prefix and reference suffix", r"Multiple roles in interpreted text"], "Interpreted text has both a role and a reference suffix, or two roles.", None),
    _rule("unknown-directive", [r'Unknown directive type "'], "A directive the dialect does not know.", "unknown-directive"),
    _rule("unknown-option", [r'Error in ".+" directive:\nunknown option: "'], "A directive option the directive does not accept.", "unknown-option"),
    _rule("invalid-option", [r'Error in ".+" directive:\n(invalid option (value|data|block)|.*option)'], "A directive option's value or the option block is invalid.", None),
    _rule("directive-arguments", [r'Error in ".+" directive:\n(\d+ argument\(s\) required|maximum \d+ argument\(s\) allowed)'], "A directive has too few or too many arguments.", None),
    _rule("directive-content", [r'Error in ".+" directive:\n(no content permitted|Content block expected)', r'The ".+" directive is empty; content required', r'Content block expected for the ".+" directive'], "A directive has content where none is allowed, or none where some is required.", None),
    _rule("directive-disabled", [r'".+" directive disabled', r'^.*"(raw|include)" directive.*disabled'], "A directive the settings disable (raw, include, file insertion).", None),
    _rule("directive-file", [r'Problems with ".+" directive path', r'The "file" and "url" options', r'".+" directive may not both specify', r"File and URL access deactivated", r'Problems with ".+" directive URL'], "A directive's file or URL cannot be read.", None),
    _rule("directive-context", [r'The ".+" directive may not be used within', r"Invalid context", r'".+" directive may not'], "A directive used where it is not allowed.", None),
    _rule("malformed-table", [r"Malformed table", r"Error parsing CSV data", r"Error with CSV data", r"No table data detected", r".+ header row\(s\) specified but", r'".+" widths do not match', r"Error parsing content block for the \"(list-table|csv-table)\"", r"List item \d+ ", r"Error in \".+-table\" directive"], "A table whose rows, columns or data cannot be read.", None),
    _rule("directive-error", [r'Error in ".+" directive', r'Error parsing content block for the ".+" directive', r"Invalid character code", r"Cannot analyze code", r"line number spec is out of range", r"\.\. hlist content is not a list", r"exception while evaluating only directive expression", r"Cannot (find|open|read)", r"Invalid .* lines? "], "A directive's arguments, options or content are otherwise invalid.", None),
    _rule("unknown-target", [r'Unknown target name: "', r'Indirect hyperlink target .* refers to target ".+", which does not exist'], "A reference names a target that does not exist.", "unknown-target"),
    _rule("duplicate-target", [r'Duplicate explicit target name: "'], "Two explicit targets share one name.", "duplicate-target"),
    _rule("ambiguous-reference", [r"Duplicate target name, cannot be used as a unique reference", r"Multiple targets"], "A reference names a target that exists more than once.", None),
    _rule("circular-reference", [r".*(circular|which is a loop)"], "A hyperlink or substitution refers, through others, to itself.", None),
    _rule("malformed-target", [r"[Mm]alformed hyperlink target", r"Anonymous hyperlink target", r"Hyperlink target .* contains whitespace", r"Indirect hyperlink target .* (is not|has no)"], "A hyperlink target that cannot be read.", None),
    _rule("anonymous-reference-mismatch", [r"Anonymous hyperlink mismatch"], "The number of anonymous references and anonymous targets differ.", None),
    _rule("undefined-substitution", [r'Undefined substitution referenced: "'], "A substitution reference without its definition.", None),
    _rule("invalid-substitution", [r'Substitution definition ".*" empty or invalid', r"Substitution definition contains illegal element", r'Substitution definition ".*" missing contents', r"Substitution definition empty or invalid"], "A substitution definition that is empty or holds something it may not.", None),
    _rule("duplicate-substitution", [r'Duplicate substitution definition name: "'], "Two substitution definitions share one name.", None),
    _rule("footnote-reference-mismatch", [r"Too many autonumbered footnote references", r"Too many symbol footnote references", r"Unknown footnote", r"Footnote "], "Footnote references with no footnote to number them.", None),
    _rule("citation", [r"Citation "], "A citation that is malformed or never defined.", None),
    _rule("sphinx-number-role", [r"invalid (PEP|RFC) number"], "A :pep: or :rfc: role whose target is not a number (Sphinx).", None),
    _rule("glossary-format", [r"glossary "], "A glossary whose terms and definitions are misformatted (Sphinx).", None),
    _rule("no-content", [r"No content rendered from RST source\."], "The document renders nothing PyPI would show (PyPI).", None),
    _rule("docutils-warning", [], "A docutils warning no other rule names.", None),
    _rule("docutils-error", [], "A docutils error no other rule names.", None),
    _rule("docutils-severe", [], "A docutils severe error no other rule names.", None),
)

FALLBACK = {"warning": "docutils-warning", "error": "docutils-error", "severe": "docutils-severe"}
CODES = tuple(rule.code for rule in RULES)
_MATCHING = tuple(rule for rule in RULES if rule.patterns)


def rule_of(message, level):
    """The code of the rule naming a problem: its message's, else its level's fallback."""
    for rule in _MATCHING:
        if any(pattern.match(message) for pattern in rule.patterns):
            return rule.code
    return FALLBACK.get(level, "docutils-error")


def name(items):
    """Adds ``rule`` to each of ``items`` (check's problems), in place."""
    for item in items:
        item["rule"] = rule_of(item["message"], item["type"])
    return items


def table():
    """The table as plain data, for the docs page and the service's select/ignore."""
    return [{"code": r.code, "summary": r.summary, "default": r.default, "fix": r.fix} for r in RULES]
