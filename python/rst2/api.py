"""The single entry point the worker calls: JSON in, JSON out.

JSON keeps the JS/Python boundary free of proxies that would have to be
destroyed by hand, and makes every failure a value instead of a PythonError
whose message may be megabytes of traceback.
"""

import copy
import json
import traceback

from .errors import DocumentError
from . import dialects
from .fixes import check, fix_document, problems
from .project import declared, sphinx_conf
from .render import render_html, render_latex

OPERATIONS = {
    "html": lambda source, options: render_html(
        source, options.get("style", "default"), options.get("dialect", "docutils"), options.get("base"), options.get("format", "page")
    ),
    "latex": lambda source, options: render_latex(source, options),
    "check": lambda source, options: {"messages": _check(source, options)},
    "fix": lambda source, options: _fixed(*fix_document(source, _dialect(options), options.get("unsafe", False), _enabled(options))),
    "conf": lambda source, options: sphinx_conf.read(source),
}


def _dialect(options):
    """The options' dialect, knowing the names the project declared (and its line length, which line-too-long reads)."""
    chosen = declared.dialect_for(
        dialects.get(options.get("dialect", "docutils")),
        options.get("roles", ()),
        options.get("directives", ()),
        options.get("literal_directives", ()),
        options.get("substitutions", ()),
    )
    length = options.get("line_length")
    if isinstance(length, int) and 1 <= length <= 1000:
        chosen = copy.copy(chosen)
        chosen.line_length = length
    return chosen


# The problems of the last check, by its text and options: a language
# server asks for the fixes of a few lines of the text it just checked
# (fix_lines), and those need no second parse. One entry: the next text
# replaces it.
_last = {"key": None, "items": None}


def _check(source, options):
    lines = options.get("fix_lines")
    fix_lines = None if lines is None else (tuple(lines[:2]) if len(lines) >= 2 else (1, 0))
    key = (source, json.dumps({k: v for k, v in options.items() if k != "fix_lines"}, sort_keys=True))
    found = [dict(item) for item in _last["items"]] if _last["key"] == key else None
    dialect, enabled = _dialect(options), _enabled(options)
    if found is None:
        found = problems(source, dialect, enabled, tagged=bool(options.get("tagged", False)))
        _last["key"], _last["items"] = key, [dict(item) for item in found]
    return check(source, dialect, enabled=enabled, fix_lines=fix_lines, found=found)


def _enabled(options):
    rules = options.get("rules")
    return None if rules is None else frozenset(rules)


def _fixed(text, fixes, messages):
    return {"text": text, "fixes": fixes, "messages": messages}


def handle(operation, source, options_json="{}"):
    try:
        result = OPERATIONS[operation](source, json.loads(options_json))
        return json.dumps({"ok": True, "result": result})
    except DocumentError as error:
        return _failure(error.code, error.message)
    except RecursionError:
        return _failure(
            "document_too_deep",
            "The document is nested too deeply to render (Python's recursion limit was reached).",
        )
    except MemoryError:
        return _failure("document_too_large", "The document needs more memory than a render may use.")
    except KeyboardInterrupt:
        # The pool's deadline interrupted us (setInterruptBuffer).
        return _failure("render_timeout", "The document took too long to render.")
    except Exception as error:  # noqa: BLE001 - every failure must come back as data
        return _failure("internal", "%s: %s" % (type(error).__name__, str(error)[:500]), traceback.format_exc()[-4000:])


def _failure(code, message, trace=None):
    return json.dumps({"ok": False, "code": code, "message": message, "trace": trace})
