"""autodoc and autosummary: a note naming what Sphinx would generate.

The documentation comes from importing the code, which rst2 does not have;
the note says which object it would be, and the directive's own content
follows it as Sphinx places it after the docstring.
"""

from docutils import nodes
from docutils.parsers.rst import Directive, directives

from .state import parse_into, register, state_of

flag = directives.flag
unchanged = directives.unchanged

_INDEX = {"noindex": flag, "no-index": flag}
_MEMBERS = {
    "members": unchanged,
    "undoc-members": flag,
    "private-members": unchanged,
    "special-members": unchanged,
    "inherited-members": unchanged,
    "show-inheritance": flag,
    "member-order": unchanged,
    "exclude-members": unchanged,
}
_VALUE = {"annotation": unchanged, "no-value": flag}

# Each documenter's options in Sphinx 5.3 (sphinx.ext.autodoc), and what it documents.
AUTODOC = {
    "automodule": ("module", dict(_INDEX, **_MEMBERS, synopsis=unchanged, platform=unchanged, deprecated=flag, **{"ignore-module-all": flag, "imported-members": flag, "no-value": flag})),
    "autoclass": ("class", dict(_INDEX, **_MEMBERS, **{"class-doc-from": unchanged})),
    "autoexception": ("exception", dict(_INDEX, **_MEMBERS, **{"class-doc-from": unchanged})),
    "autofunction": ("function", dict(_INDEX)),
    "autodecorator": ("decorator", dict(_INDEX)),
    "automethod": ("method", dict(_INDEX)),
    "autoproperty": ("property", dict(_INDEX)),
    "autoattribute": ("attribute", dict(_INDEX, **_VALUE)),
    "autodata": ("data", dict(_INDEX, **_VALUE)),
    "autonewtypedata": ("data", dict(_INDEX, **_VALUE)),
    "autonewvarattribute": ("attribute", dict(_INDEX, **_VALUE)),
    # For type aliases (``type`` statements); the options Sphinx 9.2 gives it.
    "autotype": ("type alias", {"no-index": flag, "no-index-entry": flag, **_VALUE}),
}


class AutoDirective(Directive):
    has_content = True
    required_arguments = 1
    final_argument_whitespace = True
    what = "object"

    def run(self):
        document = self.state.document
        state = state_of(document)
        name = self.arguments[0].strip().split("(")[0].strip()
        if self.what == "module":
            state.module = name
            key, wanted = name, "module-" + name
        else:
            key = "%s.%s" % (state.module, name) if state.module and "." not in name else name
            wanted = key
        source = "its docstring and its members'" if "members" in self.options else "its docstring"
        note = nodes.note(
            "",
            nodes.paragraph(
                "",
                "",
                nodes.Text("Sphinx's autodoc would insert the documentation of the %s " % self.what),
                nodes.literal(name, name),
                nodes.Text(" here, generated from %s." % source),
            ),
            classes=["autodoc", self.name],
        )
        if not any(n in self.options for n in _INDEX):
            register(document, note, "py", key, wanted)
        return [note] + parse_into(self, nodes.container()).children


class AutoSummary(Directive):
    """The names a summary table would list, in a note."""

    has_content = True
    option_spec = {"toctree": unchanged, "nosignatures": flag, "template": unchanged, "recursive": flag, "caption": unchanged}

    def run(self):
        names = [line.strip() for line in self.content if line.strip() and not line.strip().startswith(":")]
        listing = nodes.bullet_list()
        for name in names:
            shown = name.lstrip("~")
            listing += nodes.list_item("", nodes.paragraph("", "", nodes.literal(shown, shown)))
        note = nodes.note(
            "",
            nodes.paragraph("", "Sphinx's autosummary would insert a summary table of %s here, from their docstrings%s" % ("these objects" if names else "no objects", ":" if names else ".")),
            classes=["autosummary"],
        )
        if names:
            note += listing
        return [note]


DIRECTIVES = {name: type(name, (AutoDirective,), {"what": what, "option_spec": spec}) for name, (what, spec) in AUTODOC.items()}
DIRECTIVES["autosummary"] = AutoSummary
