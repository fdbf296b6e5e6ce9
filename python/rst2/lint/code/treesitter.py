"""Shell, C, C++, JavaScript and TypeScript blocks, parsed by tree-sitter grammars.

The grammars run in WebAssembly next to the interpreter: the Pyodide worker
hands them over as the module ``rst2_syntax``
(src/engines/python/code-parsers.ts). Where that module is absent (native
Python, a trimmed install) these languages are not reported, as for any
language rst2 cannot parse.

What the reader copies is judged, not the page's shorthand. A block with a
placeholder (``<package>``, ``{{ name }}``, ``...``) is an outline, and a
shell session is judged by its commands: the ``$`` prompts are taken off and
the output between them is not shell.
"""

import json
import re

from .languages import register

# <name> and {{ name }} are what the reader fills in; "..." and "…" what
# the page leaves out. Each is a syntax error as it stands.
_OUTLINE = re.compile(r"<[A-Za-z][\w .:/|-]*>|\{\{|\.\.\.|…")
# "$ ", "% ", and the prompts that say where they are: "~/app$ ", "(venv) $ ", "me@host:~$ ".
_PROMPT = re.compile(r"^\s*(?:\([^()\n]*\)\s*)?[\w.@:~/-]*[$%] ")
# A command that goes on in the next line.
_CONTINUED = re.compile(r"\\\s*$")


def _module():
    try:
        import rst2_syntax
    except ImportError:
        return None
    return rst2_syntax


def _first_error(grammar, text):
    module = _module()
    if module is None:
        return None
    found = json.loads(module.first_error(grammar, text))
    return None if found is None else tuple(found)


def _commands(text):
    """A session's commands at their own lines, its output blanked; the text itself when it has no prompts."""
    lines = text.split("\n")
    if not any(_PROMPT.match(line) for line in lines):
        return text
    kept, continued = [], False
    for line in lines:
        prompt = _PROMPT.match(line)
        if prompt:
            kept.append(" " * prompt.end() + line[prompt.end():])
            continued = bool(_CONTINUED.search(line))
        elif continued:
            kept.append(line)
            continued = bool(_CONTINUED.search(line))
        else:
            kept.append("")
    return "\n".join(kept)


# C documentation shows parts of a file: the body of a function, the fields
# of a static initialiser, a prototype as a header declares it. A part that
# parses where it would stand in a file is not a mistake.
_C_PLACES = ("void f(void) {\n%s\n}\n", "static T x = {\n%s\n};\n", "%s;\n", "struct s {\n%s\n};\n")


def _checker(grammar, label, session=False, places=()):
    def check(text):
        if _OUTLINE.search(text):
            return []
        if session:
            text = _commands(text)
        found = _first_error(grammar, text)
        if found is None or any(_first_error(grammar, place % text) is None for place in places):
            return []
        line, column, what = found
        return [(line, column, "%s does not parse: %s." % (label, what))]

    return check


register("bash", "code-bash", _checker("bash", "Shell", session=True), aliases=("sh", "shell", "ksh"))
register("c", "code-c", _checker("c", "C", places=_C_PLACES))
register("cpp", "code-cpp", _checker("cpp", "C++", places=_C_PLACES), aliases=("c++",))
register("javascript", "code-javascript", _checker("javascript", "JavaScript"), aliases=("js",))
register("typescript", "code-typescript", _checker("typescript", "TypeScript"), aliases=("ts",))
