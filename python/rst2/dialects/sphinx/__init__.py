"""The ``sphinx`` dialect: Sphinx's standard roles and directives, without a project.

Everything becomes ordinary docutils nodes, so the HTML and LaTeX writers
need nothing new; references resolve within the document (ResolveReferences).
"""

from docutils.parsers.rst.directives.misc import Class

from .. import Dialect
from . import autodoc, blocks, inline, objects
from .xref import DefaultSubstitutions, PageTitle, ResolveReferences, xref_role

# Sphinx's cross-reference roles: (domain, kinds, shown as literal text).
XREF_ROLES = (
    ("std", ("ref", "doc", "term", "numref", "any"), False),
    ("std", ("envvar",), False),
    ("std", ("option", "keyword", "token", "download", "confval"), True),
    ("py", ("class", "func", "meth", "attr", "exc", "mod", "data", "const", "obj", "type", "deco"), True),
    ("c", ("func", "member", "macro", "data", "var", "type", "struct", "union", "enum", "enumerator", "expr", "texpr"), True),
    ("cpp", ("any", "class", "struct", "union", "func", "member", "var", "type", "concept", "enum", "enumerator", "expr", "texpr"), True),
    ("js", ("func", "meth", "class", "data", "attr", "mod"), True),
    ("rst", ("dir", "role"), True),
)


def _roles():
    found = {}
    for domain, kinds, literal in XREF_ROLES:
        for kind in kinds:
            role = xref_role(domain, kind, literal=literal, lowercase=kind in ("ref", "term", "numref"))
            found["%s:%s" % (domain, kind)] = role
            # Without a domain: std's roles, and the default domain's (py).
            if domain in ("std", "py"):
                found[kind] = role
    found["math:numref"] = found["eq"] = xref_role("math", "eq", literal=False)
    # autosummary's :autolink: is :obj: for a name Sphinx can import, and
    # emphasis for one it cannot; rst2 imports nothing, and a project's
    # names are importable where Sphinx builds it.
    found["autolink"] = found["py:obj"]
    found.update(inline.ROLES)
    return found


class SphinxDialect(Dialect):
    name = "sphinx"
    roles = _roles()
    directives = dict(
        blocks.DIRECTIVES,
        **objects.DIRECTIVES,
        **autodoc.DIRECTIVES,
        # Sphinx gives ``class`` to Python; docutils' class directive is rst-class.
        **{"rst-class": Class, "cssclass": Class},
    )
    transforms = (DefaultSubstitutions, PageTitle, ResolveReferences)

    def settings(self, writer_name):
        return {
            # ``only`` shows its content by the tags of the output being made.
            "rst2_output": OUTPUTS.get(writer_name),
            # Sphinx's own defaults: the first title stays a section (so no
            # docinfo either), quotes are typographic, e-mail is cloaked.
            "doctitle_xform": False,
            "sectsubtitle_xform": False,
            "smart_quotes": True,
            "cloak_email_addresses": True,
            # That first section is the page's <h1>.
            "initial_header_level": 1,
        }


SPHINX = SphinxDialect()

# The output a writer makes, as ``only`` and ``menuselection`` know it; PDF
# goes through rst2's own LaTeX writer (rst2.latex_writer). None: check.
OUTPUTS = {"html5": "html5", "latex": "latex", "rst2.latex_writer": "latex"}
