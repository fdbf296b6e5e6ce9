"""Sphinx's body directives (not object descriptions or autodoc), as docutils nodes,
and the table of them all (code directives in code_blocks.py, glossary and
productionlist in glossary.py)."""

import ast

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.parsers.rst.directives.body import MathBlock

from .code_blocks import INCLUDE_OPTIONS, LITERALINCLUDE_OPTIONS, DocTest, Highlight, Placeholder, SphinxCode, TestCode, TestOutput
from .glossary import Glossary, ProductionList
from .state import claim_id, index_entry, inline, parse_into, parse_to_nodes, state_of
from .xref import split_title

flag = directives.flag
unchanged = directives.unchanged
text = directives.unchanged_required


class Discard(Directive):
    """Directives that only feed Sphinx's build (index entries, LaTeX column
    specs, test set-up code...): they show nothing. Their content is not
    reStructuredText (index entries, Python code), so it is not parsed."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = {"name": unchanged}

    def run(self):
        return []


class Index(Directive):
    """Index entries: rst2 makes no index, so only what stands for Sphinx's index node is left.

    As Sphinx's: the entries are its one argument, which may go on over the
    following lines; content after a blank line is an error there.
    """

    has_content = False
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {"name": unchanged}

    def run(self):
        return [index_entry()]


def discard(options=None, arguments=1, content=True):
    return type("Discard", (Discard,), {"option_spec": options or {}, "optional_arguments": arguments, "has_content": content})


# The other names Sphinx 9.2 registers for the four.
VERSION_ALIASES = {
    "version-added": "versionadded",
    "version-changed": "versionchanged",
    "version-deprecated": "deprecated",
    "version-removed": "versionremoved",
}

# Sphinx 7.3's wording ("New in version" before that).
VERSION_TEXT = {
    "versionadded": "Added in version %s",
    "versionchanged": "Changed in version %s",
    "deprecated": "Deprecated since version %s",
    "versionremoved": "Removed in version %s",
}


class VersionChange(Directive):
    has_content = True
    required_arguments = 1
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = {}

    def run(self):
        name = VERSION_ALIASES.get(self.name, self.name)
        box = nodes.container(classes=[name])
        label = VERSION_TEXT[name] % self.arguments[0]
        messages = []
        if len(self.arguments) == 2:
            children, messages = inline(self, self.arguments[1], self.lineno + 1)
            box += nodes.paragraph(self.arguments[1], "", *children)
        parse_into(self, box)
        marker = ["versionmodified", name.replace("version", "")]
        if len(box) and isinstance(box[0], nodes.paragraph):
            box[0].insert(0, nodes.inline("", label + ": ", classes=marker))
        else:
            box.insert(0, nodes.paragraph("", "", nodes.inline("", label + ".", classes=marker)))
        return [box] + messages


class AdmonitionLike(Directive):
    """Sphinx's admonition-shaped directives: an optional argument, content, class and name."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    option_spec = {"class": directives.class_option, "name": unchanged}


class SeeAlso(AdmonitionLike):
    def run(self):
        box = nodes.admonition(classes=["seealso"] + self.options.get("class", []))
        box += nodes.title("", "See also")
        messages = []
        if self.arguments:
            children, messages = inline(self, self.arguments[0])
            box += nodes.paragraph(self.arguments[0], "", *children)
        parse_into(self, box)
        self.add_name(box)
        return [box] + messages


class Centered(Directive):
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {}

    def run(self):
        children, messages = inline(self, self.arguments[0])
        return [nodes.paragraph(self.arguments[0], "", nodes.strong("", "", *children), classes=["centered"])] + messages


class HList(Directive):
    has_content = True
    option_spec = {"columns": directives.positive_int}

    def run(self):
        box = parse_into(self, nodes.container())
        if len(box) != 1 or not isinstance(box[0], nodes.bullet_list):
            return [self.state.document.reporter.warning(".. hlist content is not a list", line=self.lineno)]
        box[0]["classes"].append("hlist")
        return [box[0]]


class IfConfig(Directive):
    """Content that depends on the project's configuration, which rst2 does not have: shown.

    As in Sphinx, it may hold section-level content (titles in styles of its own, contents).
    """

    has_content = True
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {}

    def run(self):
        return parse_to_nodes(self, titles=True)[0]


class Acks(Directive):
    """A list of names (shown; Sphinx's own check that it is a list is not made)."""

    has_content = True
    option_spec = {}

    def run(self):
        return parse_to_nodes(self)[0]


class Only(IfConfig):
    """Content shown only for some outputs, by Sphinx's tags (html, latex...).

    Parsed as Sphinx parses it whatever the output: into an element that is
    not a body element, so ``contents`` and titles are allowed inside, the
    titles in styles of their own. When the first of them is a style of the
    page around it, Sphinx moves the content up to the section of that
    level, and so does this.
    """

    def run(self):
        document = self.state.document
        children, styles = parse_to_nodes(self, titles=True)
        output = getattr(document.settings, "rst2_output", None)
        messages = []
        try:
            shown = output is None or evaluate_tags(self.arguments[0], TAGS.get(output, set()))
        except ValueError as error:
            # Sphinx warns and keeps the content.
            messages.append(document.reporter.warning("exception while evaluating only directive expression: %s" % error, line=self.lineno))
            shown = True
        if not shown:
            _forget_pending(document, children)
            # What Sphinx leaves for content it does not show.
            return [nodes.comment()]
        section = self._raised_to(styles)
        if section is None:
            return children + messages
        section.extend(children)
        return messages

    def _raised_to(self, styles):
        """The section Sphinx moves the content into, or None to leave it here."""
        surrounding = self.state.memo.title_styles
        parent = self.state.parent
        if not surrounding or not styles or styles[0] not in surrounding or parent is None:
            return None
        # Sphinx's depth: the parent's ancestors, counted as if all were
        # sections (the document's child is at 0).
        depth = -2
        ancestor = parent
        while ancestor is not None:
            depth += 1
            ancestor = ancestor.parent
        raise_by = depth - surrounding.index(styles[0]) + 1
        for _ in range(raise_by):
            if parent.parent is not None:
                parent = parent.parent
        return parent if parent is not self.state.parent else None


def _forget_pending(document, children):
    """Drops the transforms of content left out of the document (a contents
    directive's would look for the section around it, which there is not)."""
    inside = {id(pending) for child in children if isinstance(child, nodes.Element) for pending in child.findall(nodes.pending)}
    if inside:
        document.transformer.transforms[:] = [t for t in document.transformer.transforms if id(t[2]) not in inside]


# Sphinx's tags for the builders rst2 stands in for.
TAGS = {
    "html5": {"html", "format_html", "builder_html"},
    "latex": {"latex", "format_latex", "builder_latex"},
}


def evaluate_tags(expression, tags):
    """Sphinx's tag expressions: names, and, or, not, parentheses."""
    try:
        tree = ast.parse(expression.strip(), mode="eval")
    except SyntaxError as error:
        raise ValueError("invalid expression %r" % expression) from error

    def value(node):
        if isinstance(node, ast.Name):
            return node.id in tags
        if isinstance(node, ast.BoolOp):
            results = [value(v) for v in node.values]
            return all(results) if isinstance(node.op, ast.And) else any(results)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return not value(node.operand)
        raise ValueError("invalid expression %r" % expression)

    return value(tree.body)


class Todo(AdmonitionLike):
    """Sphinx shows todos only with todo_include_todos, False by default."""

    def run(self):
        parse_into(self, nodes.container())
        return []


class SphinxMath(MathBlock):
    """math with Sphinx's options: a labelled equation is numbered and ``:eq:`` links to it."""

    option_spec = dict(MathBlock.option_spec, label=unchanged, nowrap=flag)

    def run(self):
        label = self.options.pop("label", None)
        self.options.pop("nowrap", None)
        made = super().run()
        if not label:
            return made
        document = self.state.document
        state = state_of(document)
        number = len(state.equations) + 1
        box = nodes.container("", *made, nodes.paragraph("", "(%d)" % number, classes=["eqno"]), classes=["equation"])
        ident = claim_id(document, box, "equation-" + label)
        if ident:
            state.equations[label] = (ident, number)
        return [box]


class Toctree(Directive):
    """A list of the entries; the documents they name are not part of this one."""

    has_content = True
    option_spec = {
        "maxdepth": int,
        "name": unchanged,
        "caption": text,
        "glob": flag,
        "hidden": flag,
        "includehidden": flag,
        "numbered": directives.unchanged,
        "titlesonly": flag,
        "reversed": flag,
    }

    def run(self):
        if "hidden" in self.options:
            return []
        listing = nodes.bullet_list(classes=["toctree"])
        for entry in self.content:
            entry = entry.strip()
            if not entry or entry.startswith(".. "):
                continue
            listing += nodes.list_item("", nodes.paragraph("", "", *self._entry(entry)))
        box = nodes.container(classes=["toctree-wrapper"])
        if self.options.get("caption"):
            box += nodes.paragraph("", self.options["caption"], classes=["caption"])
        box += listing
        self.add_name(box)
        return [box]

    def _entry(self, entry):
        explicit, title, target = split_title(entry)
        if target.startswith(("http://", "https://")):
            return [nodes.reference(entry, title, refuri=target)]
        return [nodes.inline(entry, title, classes=["toctree-entry"])]


DIRECTIVES = {
    "versionadded": VersionChange,
    "versionchanged": VersionChange,
    "deprecated": VersionChange,
    "versionremoved": VersionChange,
    **dict.fromkeys(VERSION_ALIASES, VersionChange),
    "seealso": SeeAlso,
    "centered": Centered,
    "hlist": HList,
    "highlight": Highlight,
    "code-block": SphinxCode,
    "sourcecode": SphinxCode,
    "literalinclude": type("LiteralInclude", (Placeholder,), {"option_spec": LITERALINCLUDE_OPTIONS}),
    "include": type("Include", (Placeholder,), {"option_spec": INCLUDE_OPTIONS}),
    # std's (also under its own name, as std:program and std:option are).
    "glossary": Glossary,
    "std:glossary": Glossary,
    "productionlist": ProductionList,
    "std:productionlist": ProductionList,
    "index": Index,
    "only": Only,
    "tabularcolumns": discard(content=False),
    "todo": Todo,
    "todolist": discard(arguments=0, content=False),
    "ifconfig": IfConfig,
    "doctest": DocTest,
    "testcode": TestCode,
    "testoutput": TestOutput,
    "testsetup": type("TestSetup", (Discard,), {"option_spec": {"skipif": text}}),
    "testcleanup": type("TestCleanup", (Discard,), {"option_spec": {"skipif": text}}),
    "math": SphinxMath,
    "toctree": Toctree,
    "sectionauthor": discard(content=False),
    "moduleauthor": discard(content=False),
    "codeauthor": discard(content=False),
    "default-domain": discard(content=False),
    "acks": Acks,
}
