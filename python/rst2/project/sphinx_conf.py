"""A Sphinx project's ``conf.py``, read with ``ast`` and never run.

Running a project's ``conf.py`` would run its code; ``check`` only needs the
names it gives documents: the roles of ``extlinks`` and of known extensions,
their directives, and the substitutions (and roles) its ``rst_prolog`` and
``rst_epilog`` define. Values are taken where they are literals, or built
from literals and earlier such assignments (``+``, ``+=``, ``.append``,
``.extend``, ``.update``); anything else is named in a note, once, and
left out.
"""

import ast
import re

from .extensions import KNOWN

WANTED = ("extensions", "extlinks", "rst_prolog", "rst_epilog", "primary_domain", "default_role")

_SUBSTITUTION = re.compile(r"^\.\.[ \t]+\|([^|\n]+)\|[ \t]", re.M)
_ROLE = re.compile(r"^\.\.[ \t]+role::[ \t]+([\w.:+-]+)", re.M)
_DIRECTIVE_NAME = re.compile(r"^[\w.:+-]+$")


class _Unknown(Exception):
    pass


# A value is read only while it stays this small: `x += x` twenty times over
# would otherwise double a string to gigabytes without running anything.
MAX_VALUE = 100_000
# And all the values one read builds, together: under MAX_VALUE each, a
# thousand ``bN = l + l`` would still make gigabytes, and ``d["k"] = v``
# a thousand times copies d each time.
MAX_TOTAL = 2_000_000

_spent = [0]


def _bounded(value):
    if isinstance(value, (str, list, dict)):
        _spent[0] += len(value)
        if len(value) > MAX_VALUE or _spent[0] > MAX_TOTAL:
            raise _Unknown()
    return value


def _static(node, names):
    """The value of ``node`` from literals and earlier static names; _Unknown otherwise."""
    if isinstance(node, ast.Constant):
        return node.value
    if isinstance(node, ast.Name) and node.id in names:
        return names[node.id]
    if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
        return [_static(element, names) for element in node.elts]
    if isinstance(node, ast.Dict):
        if any(key is None for key in node.keys):
            raise _Unknown()
        return {_static(k, names): _static(v, names) for k, v in zip(node.keys, node.values)}
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _static(node.left, names), _static(node.right, names)
        if isinstance(left, (str, list)) and type(left) is type(right):
            return _bounded(left + right)
    raise _Unknown()


def _statements(body):
    """Top-level statements, and those of top-level ``if``/``try``/``with`` (both branches: we cannot tell which runs)."""
    for node in body:
        yield node
        if isinstance(node, ast.If):
            yield from _statements(node.body)
            yield from _statements(node.orelse)
        elif isinstance(node, ast.Try):
            yield from _statements(node.body)
            for handler in node.handlers:
                yield from _statements(handler.body)
            yield from _statements(node.orelse)
            yield from _statements(node.finalbody)
        elif isinstance(node, ast.With):
            yield from _statements(node.body)


def _merge(old, new):
    if isinstance(old, list) and isinstance(new, list):
        return _bounded(old + new)
    if isinstance(old, dict) and isinstance(new, dict):
        return _bounded({**old, **new})
    if isinstance(old, str) and isinstance(new, str):
        return _bounded(old + new)
    raise _Unknown()


def read(source):
    """What ``conf.py`` tells check: extensions, roles, directives, substitutions, primary_domain, default_role, notes."""
    _spent[0] = 0
    try:
        return _read(source)
    except (MemoryError, RecursionError):
        return _result({}, [{"line": None, "message": "conf.py is too large or too deep to read; its names are unknown to check."}])


def _read(source):
    notes = []
    try:
        tree = ast.parse(source)
    except SyntaxError as error:
        return _result({}, [{"line": error.lineno, "message": "conf.py is not valid Python (%s); its names are unknown to check." % error.msg}])
    names, unread = {}, set()

    def note(node, name):
        if name in WANTED and name not in unread:
            unread.add(name)
            notes.append({"line": node.lineno, "message": "%s is not a literal rst2 can read without running conf.py; the names it gives are unknown to check." % name})

    for node in _statements(tree.body):
        try:
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name) and isinstance(names.get(target.value.id), dict):
                        # extlinks["gh"] = (...): one more key
                        try:
                            names[target.value.id] = _bounded({**names[target.value.id], _static(target.slice, names): _static(node.value, names)})
                        except (_Unknown, TypeError, ValueError, RecursionError):
                            names.pop(target.value.id, None)
                            note(node, target.value.id)
                    elif isinstance(target, ast.Name):
                        try:
                            names[target.id] = _static(node.value, names)
                        except (_Unknown, TypeError, ValueError, RecursionError):
                            names.pop(target.id, None)
                            note(node, target.id)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and node.value is not None:
                names[node.target.id] = _static(node.value, names)
            elif isinstance(node, ast.AugAssign) and isinstance(node.target, ast.Name) and isinstance(node.op, ast.Add):
                if node.target.id in names:
                    names[node.target.id] = _merge(names[node.target.id], _static(node.value, names))
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                call = node.value
                func = call.func
                if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id in names and len(call.args) == 1 and not call.keywords:
                    owner, argument = func.value.id, _static(call.args[0], names)
                    value = names[owner]
                    if func.attr == "append" and isinstance(value, list):
                        names[owner] = _bounded(value + [argument])
                    elif func.attr in ("extend", "update"):
                        names[owner] = _merge(value, argument)
        except (_Unknown, TypeError, ValueError, RecursionError):
            # Unreadable (a call, a name we do not know), unhashable (a list as a key), or too deep.
            target = getattr(node, "target", None) or getattr(getattr(getattr(node, "value", None), "func", None), "value", None)
            if isinstance(target, ast.Name):
                names.pop(target.id, None)
                note(node, target.id)
    return _result(names, notes)


def _strings(value):
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []


def _result(names, notes):
    extensions = _strings(names.get("extensions"))
    roles, directives = set(), set()
    for extension in extensions:
        known = KNOWN.get(extension)
        if known:
            roles.update(known[0])
            directives.update(known[1])
    extlinks = names.get("extlinks")
    if isinstance(extlinks, dict):
        roles.update(key for key in extlinks if isinstance(key, str) and _DIRECTIVE_NAME.match(key))
    substitutions = set()
    for name in ("rst_prolog", "rst_epilog"):
        text = names.get(name)
        if isinstance(text, str):
            substitutions.update(found.strip() for found in _SUBSTITUTION.findall(text))
            roles.update(_ROLE.findall(text))
    def text_of(name):
        value = names.get(name)
        return value if isinstance(value, str) else None

    return {
        "extensions": extensions,
        "roles": sorted(roles),
        "directives": sorted(directives),
        "substitutions": sorted(substitutions),
        "primary_domain": text_of("primary_domain"),
        "default_role": text_of("default_role"),
        "notes": notes,
    }
