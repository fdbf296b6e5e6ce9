"""Syntax check: every system message of level warning and above, as plain data."""

from .dialects import get


def check(source, dialect="docutils"):
    """The problems of ``source`` as its dialect's own tools would report them."""
    return get(dialect).check(source)
