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

from docutils.nodes import fully_normalize_name

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
OPTIONS = frozenset(("file", "url"))
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


_BLOCKED_SCHEME = re.compile(r"(javascript|vbscript):", re.I)
_OPTION = re.compile(r"^(\s+):([^:\s][^:]*):(.*)$")


def options_of(block):
    """(name, value) of each option of a directive's block (its lines, the directive's first).

    A value is joined over its continuation lines and its backslashes
    dropped, as docutils reads it (``java`` then ``script:`` on the next
    line, ``java\\script:``).
    """
    out = []
    lines = block.split("\n")[1:]
    i = 0
    while i < len(lines):
        found = _OPTION.match(lines[i])
        i += 1
        if not found:
            continue
        indent, parts = len(found.group(1)), [found.group(3).strip()]
        while i < len(lines) and lines[i].strip() and len(lines[i]) - len(lines[i].lstrip()) > indent:
            parts.append(lines[i].strip())
            i += 1
        out.append((found.group(2).lower(), " ".join(parts).replace("\\", "")))
    return out


def option_arms(name, value, armed_targets):
    """Whether the option ``name`` with ``value`` reads a file or a URL, embeds an image, or links to a script.

    ``armed_targets``: a function giving the document's targets a link may
    not reach (a ``:target: evil_`` refers to one by name); asked only
    then, since it parses the document.
    """
    if name in OPTIONS:
        return True
    if name == "loading":
        return value.strip().lower() == "embed"
    if name == "target":
        if value.endswith("_") and not value.endswith("__"):
            return fully_normalize_name(value[:-1].strip("`")) in armed_targets()
        return not safe_address(value)
    return False


def block_arms(block, armed_targets):
    """Whether a directive's block names a file, a URL, an embedded image or a script address, by an option or in its text.

    No rename of such a block: the renamed directive would read or link it
    in stock docutils (``.. imgae::`` with ``:target: javascript:...``,
    ``.. csv-tabel::`` with ``:file:``).
    """
    if any(option_arms(name, value, armed_targets) for name, value in options_of(block)):
        return True
    return bool(_BLOCKED_SCHEME.search(re.sub(r"[\x00-\x20\\]", "", block)))


def directive_allowed(name, block, roles_armed):
    """Whether a fix may rename the directive of ``block`` to ``name`` (block_arms is asked first)."""
    name = name.lower()
    if name in DIRECTIVES or name.startswith("auto"):
        return False
    if name in _ROLE_MAKERS:
        named = re.findall(r"[\w.+:-]+", block.split("::", 1)[-1].lower())
        return not any(word in roles_armed for word in named)
    return True
