"""Python blocks and sessions: compiled (never run) by the interpreter rst2 runs in.

Documentation shows broken Python on purpose: a traceback printed in a
``python`` block, a what's-new example of the syntax error a change brings,
``<your-token>`` for what the reader fills in. A block that shows an error
message or a traceback is taken as showing it, and a block that compiles
once its placeholders are read as names is taken as compiling: what is
reported is code that would not compile as the reader copies it.
"""

import ast
import re
import warnings

from .languages import register

_SHOWS_AN_ERROR = re.compile(r"^\s*(?:Traceback \(most recent call last\)|File \"[^\"]*\", line \d+|\w*(?:Error|Exception|Warning)\b:?|\^+\s*$)", re.M)
# What authors write for the reader to fill in.
_PLACEHOLDER = re.compile(r"\.\.\.[^\n]*?\.\.\.|<[A-Za-z][\w .:/-]*>|\{\{[^{}\n]*\}\}|…|\$\{?[A-Z_]+\}?")
_PROMPT = re.compile(r"^(>>>|\.\.\.)( |$)")


def _compiles(text, mode="exec"):
    """None, or (line0, col0, message) of the first syntax error."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escape sequences and the like: warnings, not errors
            compile(text, "<block>", mode, flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as error:
        line = max((error.lineno or 1) - 1, 0)
        column = max((error.offset or 1) - 1, 0)
        return line, column, error.msg
    except (ValueError, MemoryError, RecursionError):
        return None  # a null byte, or too deep for the parser: not a mistake we can name
    return None


def _masked(text):
    return _PLACEHOLDER.sub(lambda m: "_" * len(m.group(0)), text)


def check_python(text):
    if ">>>" in text and any(_PROMPT.match(line) for line in text.splitlines()):
        return check_session(text)
    if _SHOWS_AN_ERROR.search(text):
        return []
    found = _compiles(text)
    if found is None or _compiles(_masked(text)) is None:
        return []
    line, column, message = found
    return [(line, column, "Python code does not compile: %s." % message)]


def check_session(text):
    """A doctest or ``pycon`` session: each ``>>>`` statement with its ``...`` lines, the output skipped.

    A statement whose output shows an error (a traceback, a SyntaxError) is
    one the session shows failing, on purpose.
    """
    lines = text.splitlines()
    problems = []
    index = 0
    while index < len(lines):
        if not lines[index].startswith(">>>"):
            index += 1
            continue
        start, statement = index, [lines[index][4:]]
        index += 1
        while index < len(lines) and _PROMPT.match(lines[index]) and lines[index].startswith("..."):
            statement.append(lines[index][4:])
            index += 1
        output_end = index
        while output_end < len(lines) and not lines[output_end].startswith(">>>"):
            output_end += 1
        output = "\n".join(lines[index:output_end])
        source = "\n".join(statement) + "\n"
        if not source.strip() or _SHOWS_AN_ERROR.search(output) or source.lstrip().startswith(("%", "!")):
            continue
        # As exec, not doctest's "single": a statement that is only a comment
        # is one doctest skips, and "single" refuses it.
        found = _compiles(source)
        if found is not None and _compiles(_masked(source)) is not None:
            line, column, message = found
            problems.append((start + line, column + 4, "Python code does not compile: %s." % message))
    return problems


register("python", "code-python", check_python, aliases=("python3", "py", "py3", "sage"))
register("session", "code-python", check_session, aliases=("pycon", "pycon3", "python-console", "doctest"))
