"""Sphinx's inline markup roles (not references): how each is shown.

Each becomes plain docutils nodes, so every writer (HTML, LaTeX) handles it.
"""

import re

from docutils import nodes, utils

from .xref import split_title

_ABBR = re.compile(r"\((.*)\)$", re.DOTALL)
_VARIABLE = re.compile(r"{([^}]+)}")


def _simple(node_class, *classes):
    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        return [node_class(rawtext, utils.unescape(text), classes=[name, *classes])], []

    return role


def abbr(name, rawtext, text, lineno, inliner, options=None, content=None):
    # As Sphinx's LaTeX output does: the abbreviation, then its explanation.
    text = utils.unescape(text)
    match = _ABBR.search(text)
    if not match:
        return [nodes.abbreviation(rawtext, text)], []
    short = text[: match.start()].strip()
    return [nodes.abbreviation(rawtext, short), nodes.Text(" (%s)" % match.group(1))], []


def with_variables(name, rawtext, text, lineno, inliner, options=None, content=None):
    """``samp`` and ``file``: literal text where ``{name}`` is a variable part."""
    text = utils.unescape(text)
    node = nodes.literal(rawtext, "", classes=[name])
    position = 0
    for match in _VARIABLE.finditer(text):
        if match.start() > position:
            node += nodes.Text(text[position : match.start()])
        node += nodes.emphasis(match.group(1), match.group(1))
        position = match.end()
    if position < len(text):
        node += nodes.Text(text[position:])
    return [node], []


def _accelerators(text):
    # ``&Cancel`` marks the accelerator key; ``&&`` is a literal ampersand.
    return re.sub(r"&(&?)", lambda m: m.group(1), text)


def guilabel(name, rawtext, text, lineno, inliner, options=None, content=None):
    return [nodes.inline(rawtext, _accelerators(utils.unescape(text)), classes=["guilabel"])], []


def menuselection(name, rawtext, text, lineno, inliner, options=None, content=None):
    # Sphinx's separator; LaTeX's default fonts have no such character.
    separator = ">" if getattr(inliner.document.settings, "rst2_output", None) == "latex" else "\N{TRIANGULAR BULLET}"
    shown = _accelerators(utils.unescape(text)).replace("-->", separator)
    return [nodes.inline(rawtext, shown, classes=["menuselection"])], []


def index(name, rawtext, text, lineno, inliner, options=None, content=None):
    # The text stays in place; the index entry it makes has no index here.
    explicit, title, target = split_title(text)
    if not explicit and title.startswith("!"):
        title = title[1:]
    return [nodes.inline(rawtext, title, classes=["index"])], []


PEP_URL = "https://peps.python.org/pep-%04d/"
RFC_URL = "https://datatracker.ietf.org/doc/html/rfc%d.html"
# Sphinx 8.1's :cve: and :cwe: (CPython's documentation cites both).
CVE_URL = "https://www.cve.org/CVERecord?id=CVE-%s"
CWE_URL = "https://cwe.mitre.org/data/definitions/%d.html"


def _numbered_reference(label, url, kind, numeric=True):
    """``numeric``: the number must be a whole number; a CVE identifier
    (``2024-3094``) is not one and, as Sphinx does, is taken as written.

    Any number Python's ``int`` reads is accepted, as Sphinx 9.2 accepts it:
    PEP 0 (the index of PEPs) exists, and Sphinx links even ``-1``.
    """

    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        explicit, title, target = split_title(text)
        number, _, anchor = target.partition("#")
        try:
            value = int(number) if numeric else number
        except ValueError:
            message = inliner.reporter.error("invalid %s number %s" % (kind, target), line=lineno)
            problem = inliner.problematic(rawtext, rawtext, message)
            return [problem], [message]
        uri = url % value + ("#" + anchor if anchor else "")
        shown = title if explicit else "%s %s" % (label, title)
        return [nodes.reference(rawtext, shown, refuri=uri, classes=[name])], []

    return role


ROLES = {
    "abbr": abbr,
    "command": _simple(nodes.strong),
    "dfn": _simple(nodes.emphasis),
    "file": with_variables,
    "guilabel": guilabel,
    "kbd": _simple(nodes.literal),
    "mailheader": _simple(nodes.emphasis),
    "makevar": _simple(nodes.strong),
    "manpage": _simple(nodes.emphasis),
    "menuselection": menuselection,
    "mimetype": _simple(nodes.emphasis),
    "newsgroup": _simple(nodes.emphasis),
    "program": _simple(nodes.strong),
    "regexp": _simple(nodes.literal),
    "samp": with_variables,
    "index": index,
    "pep": _numbered_reference("PEP", PEP_URL, "PEP"),
    "rfc": _numbered_reference("RFC", RFC_URL, "RFC"),
    "cve": _numbered_reference("CVE", CVE_URL, "CVE", numeric=False),
    "cwe": _numbered_reference("CWE", CWE_URL, "CWE"),
}
