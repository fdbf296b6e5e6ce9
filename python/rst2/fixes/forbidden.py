"""Names a fix never writes: those that read files, embed resources or pass raw markup.

rst2 renders with file insertion and raw markup off, so an inert typo such
as ``.. rwa:: html`` is an error here and escaped text everywhere. A
"closest name" fix would turn it into exactly what rst2 disables, and the
fixed file, given to stock docutils or Sphinx (both of which read files
and pass raw markup by default), would output the ``<script>`` or the
``/etc/passwd`` that the author's text only named. No fix may arm a
document, so these names are never candidates, whatever their distance:

- directives: ``raw`` (markup passed through, or read from ``:file:`` or
  ``:url:``), ``include`` and Sphinx's ``literalinclude`` (a file's text),
  ``meta`` (the page's head: ``http-equiv`` refresh);
- roles: ``raw``, any role the document derives from ``raw`` (``.. role::
  rawhtml(raw)``, also through another derived role), and Sphinx's
  ``download`` (copies a file into the build);
- the ``role`` and ``default-role`` directives when their line names a
  raw-based role (they would make one);
- options: ``file`` and ``url`` (``raw``, ``include``, ``csv-table``),
  ``loading`` with the value ``embed`` (the image's file embedded), and a
  ``target`` whose address is not http(s) or mailto;
- targets whose address is not http(s), mailto or relative (a reference
  fixed to a ``javascript:`` target would be a live link).
"""

import re

DIRECTIVES = frozenset(
    (
        "raw", "include", "literalinclude", "meta",
        # Sphinx's and its bundled extensions' that run code, import
        # modules, read files or pass raw LaTeX (every ``auto*`` too).
        "ifconfig", "testcode", "testsetup", "testcleanup", "testoutput", "doctest",
        "tabularcolumns", "graphviz", "graph", "digraph", "inheritance-diagram",
    )
)
ROLES = frozenset(("raw", "download", "std:download"))
# ``target``: docutils unescapes and joins its value (``java\\script:``,
# a scheme split over two lines), which no look at the text can follow.
OPTIONS = frozenset(("file", "url", "target"))
# Directives that make a role from another: forbidden when that one is raw-based.
_ROLE_MAKERS = frozenset(("role", "default-role"))

# docutils matches directive names without case and allows one space before "::".
ROLE_DEFINITION = re.compile(r"^\s*\.\.\s+role\s?::\s+([\w.+:-]+)\s*(?:\(\s*([\w.+:-]+)\s*\))?", re.M | re.I)
_SCHEME = re.compile(r"^\s*([A-Za-z][A-Za-z0-9+.-]*):")
_SAFE_SCHEMES = frozenset(("http", "https", "mailto"))


def raw_roles(text):
    """The roles ``text`` derives from ``raw``, directly or through another derived role (lowered)."""
    # Every definition counts: a name defined twice is armed if either is.
    definitions = [(m.group(1).lower(), (m.group(2) or "").lower()) for m in ROLE_DEFINITION.finditer(text)]
    armed = set(ROLES)
    grew = True
    while grew:
        grew = False
        for name, base in definitions:
            if name not in armed and base in armed:
                armed.add(name)
                grew = True
    return armed


def safe_address(uri):
    """Whether a link to ``uri`` is inert: http(s), mailto, or no scheme (a relative address)."""
    # Browsers ignore control characters and spaces inside a scheme
    # ("java\tscript:"), and docutils drops backslashes from an address
    # ("java\\script:"): look at the rest alone.
    found = _SCHEME.match(re.sub(r"[\x00-\x20\\]", "", uri or ""))
    return found is None or found.group(1).lower() in _SAFE_SCHEMES


_ARMED_OPTION = re.compile(r"^\s+:(file|url|target|loading|encoding):", re.I | re.M)
_BLOCKED_SCHEME = re.compile(r"(javascript|vbscript):", re.I)


def block_arms(block):
    """Whether a directive's block (its lines, the directive's first) names a file, a URL, a target, an image's loading or a script address.

    No rename of such a block: the renamed directive would read or link it
    in stock docutils (``.. imgae::`` with ``:target: javascript:...``,
    ``.. csv-tabel::`` with ``:file:``).
    """
    return bool(_ARMED_OPTION.search(block) or _BLOCKED_SCHEME.search(re.sub(r"[\x00-\x20\\]", "", block)))


def directive_allowed(name, block, roles_armed):
    """Whether a fix may rename the directive of ``block`` to ``name`` (block_arms is asked first)."""
    name = name.lower()
    if name in DIRECTIVES or name.startswith("auto"):
        return False
    if name in _ROLE_MAKERS:
        named = re.findall(r"[\w.+:-]+", block.split("::", 1)[-1].lower())
        return not any(word in roles_armed for word in named)
    return True


def option_allowed(name, value):
    """Whether a fix may write the option ``name`` with ``value``."""
    name = name.lower()
    if name in OPTIONS:
        return False
    return not (name == "loading" and value.strip().lower() == "embed")
