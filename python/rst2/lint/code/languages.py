"""The languages whose code blocks rst2 can check, by the name a block gives.

A language is checked by a function of the block's text alone that returns
its syntax errors as (line, column, message), both 0-based within the block.
Each names the rule its findings carry (``code-python``...). A language no
entry knows is never reported: rst2 says nothing about what it cannot parse.
"""

from collections import namedtuple

Language = namedtuple("Language", "name rule check")

# name or alias (lower case, as Pygments names them) -> Language
_BY_NAME = {}


def register(name, rule, check, aliases=()):
    language = Language(name, rule, check)
    for alias in (name,) + tuple(aliases):
        _BY_NAME[alias.lower()] = language
    return language


def get(name):
    """The Language a block's name stands for, or None."""
    return _BY_NAME.get((name or "").strip().lower())


def rules():
    return frozenset(language.rule for language in _BY_NAME.values())
