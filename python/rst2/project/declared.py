"""A dialect that also knows the names a project defines elsewhere.

A Sphinx project's ``conf.py`` and extensions add roles (``:issue:``),
directives (``.. availability::``) and substitutions that no document
defines; without them every use is "unknown". A declared role renders its
text as a literal; a declared directive takes any arguments and options,
and its content is parsed as reStructuredText (so its mistakes are still
found) unless it is declared literal. A declared substitution is one whose
use is not reported. A name docutils or the dialect already knows keeps its
real meaning: declaring ``note`` does not replace the note directive.
"""

import copy
import re

from docutils import nodes
from docutils.parsers.rst import Directive, directives as _directives, roles as _roles


def _role(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.literal(rawtext, text)], []


class _AnyOption(dict):
    """An option spec that accepts every option, with its value as written."""

    def __missing__(self, key):
        return _directives.unchanged

    def __bool__(self):
        return True  # docutils reads an option block only when the spec is truthy


class _Parsed(Directive):
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = _AnyOption()
    has_content = True

    def run(self):
        node = nodes.container()
        if self.content:
            self.state.nested_parse(self.content, self.content_offset, node)
        return [node] if node.children else []


class _Literal(_Parsed):
    def run(self):
        return [nodes.literal_block("\n".join(self.content), "\n".join(self.content))] if self.content else []


_SPACE = re.compile(r"\s+")
_UNDEFINED = re.compile(r'^Undefined substitution referenced: "(.+)"\.$', re.S)


def _key(name):
    return _SPACE.sub(" ", name.strip()).lower()


def _knows_role(dialect, name):
    return name in dialect.roles or name in _roles._roles or name in _roles._role_registry


def _knows_directive(dialect, name):
    return name in dialect.directives or name in _directives._directives or name in _directives._directive_registry


def dialect_for(dialect, roles=(), directives=(), literal=(), substitutions=()):
    """``dialect``, or a copy of it that knows the declared names."""
    if not (roles or directives or literal or substitutions):
        return dialect
    declared = copy.copy(dialect)
    added_roles = {n.lower(): _role for n in roles if not _knows_role(dialect, n.lower())}
    added_directives = {n.lower(): _Parsed for n in directives if not _knows_directive(dialect, n.lower())}
    added_directives.update({n.lower(): _Literal for n in literal if not _knows_directive(dialect, n.lower())})
    declared.roles = dict(dialect.roles, **added_roles)
    declared.directives = dict(dialect.directives, **added_directives)
    names = frozenset(_key(s) for s in substitutions)
    if names:
        base_checked = declared.checked

        def checked(source):
            items, document = base_checked(source)
            return [item for item in items if not _declared_substitution(item, names)], document

        declared.checked = checked
    return declared


def _declared_substitution(item, names):
    found = _UNDEFINED.match(item["message"])
    return found is not None and _key(found.group(1)) in names
