"""Sphinx's body directives (not object descriptions or autodoc), as docutils nodes."""

import ast
import textwrap

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.parsers.rst.directives.body import CodeBlock, MathBlock
from docutils.statemachine import StringList

from ...directives import SphinxCodeBlock
from .state import claim_id, parse_into, register, state_of
from .xref import split_title, xref_role

flag = directives.flag
unchanged = directives.unchanged
text = directives.unchanged_required


def inline(directive, source, lineno=None):
    """Inline markup of an argument, with any messages it raises."""
    children, messages = directive.state.inline_text(source, lineno or directive.lineno)
    return children, messages


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


def discard(options=None, arguments=1, content=True):
    return type("Discard", (Discard,), {"option_spec": options or {}, "optional_arguments": arguments, "has_content": content})


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
        box = nodes.container(classes=[self.name])
        label = VERSION_TEXT[self.name] % self.arguments[0]
        messages = []
        if len(self.arguments) == 2:
            children, messages = inline(self, self.arguments[1], self.lineno + 1)
            box += nodes.paragraph(self.arguments[1], "", *children)
        parse_into(self, box)
        marker = ["versionmodified", self.name.replace("version", "")]
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


class Highlight(Directive):
    required_arguments = 1
    option_spec = {"linenothreshold": directives.positive_int, "force": flag}

    def run(self):
        state_of(self.state.document).highlight = self.arguments[0].strip()
        return []


# Sphinx's language names that Pygments does not know by that name.
LANGUAGE_ALIASES = {"default": "python", "python3": "python", "pycon3": "pycon", "ipython3": "ipython"}
NO_HIGHLIGHT = frozenset({"none", "text", "guess"})


def code_language(document, given):
    """The Pygments name for a code block, or None for none."""
    language = (given or state_of(document).highlight or "default").strip()
    if language in NO_HIGHLIGHT:
        return None
    return LANGUAGE_ALIASES.get(language, language)


def parse_line_numbers(spec, total):
    """Sphinx's ``emphasize-lines`` syntax ("1,3-5,8-") as (first, last) ranges; ValueError when malformed.

    Ranges, not the numbers in them: Sphinx lists every number of a range,
    and "1-50000000" on a one-line block is then 1.3 GB of integers. Only
    the ranges' ends decide whether the spec stays inside the block.
    """
    found = []
    for part in spec.split(","):
        ends = part.strip().split("-")
        try:
            if ends == ["", ""] or len(ends) > 2:
                raise ValueError
            if len(ends) == 1:
                first = last = int(ends[0])
            else:
                first = int(ends[0]) if ends[0] else 1
                last = int(ends[1]) if ends[1] else max(first, total)
                if first > last:
                    raise ValueError
        except ValueError:
            raise ValueError("invalid line number spec: %r" % spec) from None
        found.append((first, last))
    return found


class SphinxCode(SphinxCodeBlock):
    """code-block and sourcecode as Sphinx reads them: the language may come from highlight."""

    optional_arguments = 1
    option_spec = dict(SphinxCodeBlock.option_spec)

    def run(self):
        language = code_language(self.state.document, self.arguments[0] if self.arguments else None)
        self.arguments = [language] if language else []
        if "dedent" in self.options:
            self.content = StringList(textwrap.dedent("\n".join(self.content)).split("\n"), items=self.content.items)
        messages = []
        if "emphasize-lines" in self.options:
            try:
                lines = parse_line_numbers(self.options["emphasize-lines"], len(self.content))
            except ValueError as error:
                return [self.state.document.reporter.warning(str(error), line=self.lineno)]
            if any(first < 1 or last > len(self.content) for first, last in lines):
                # As Sphinx: a warning, and the block still shown.
                messages.append(
                    self.state.document.reporter.warning(
                        "line number spec is out of range(1-%d): %r" % (len(self.content), self.options["emphasize-lines"]),
                        line=self.lineno,
                    )
                )
        caption = self.options.get("caption")
        name = self.options.pop("name", None)
        made = super().run()
        if not caption:
            if name:
                self.options["name"] = name
                self.add_name(made[0])
            return made + messages
        children, found = inline(self, caption)
        box = nodes.container("", nodes.paragraph(caption, "", *children, classes=["caption"]), *made, classes=["literal-block-wrapper"])
        if name:
            self.options["name"] = name
            self.add_name(box)
        return [box] + messages + found


class Placeholder(Directive):
    """literalinclude and include: the file is named, never read."""

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False

    def run(self):
        path = self.arguments[0]
        paragraph = nodes.paragraph(
            "",
            "",
            nodes.emphasis("", "The contents of "),
            nodes.literal(path, path),
            nodes.emphasis("", " go here when Sphinx builds the project (rst2 reads no files)."),
        )
        box = nodes.container("", paragraph, classes=["include-placeholder", self.name])
        if self.options.get("caption"):
            box.insert(0, nodes.paragraph("", self.options["caption"], classes=["caption"]))
        if "name" in self.options:
            self.add_name(box)
        return [box]


LITERALINCLUDE_OPTIONS = {
    name: unchanged
    for name in (
        "dedent", "tab-width", "language", "encoding", "pyobject", "lines", "start-after", "end-before",
        "start-at", "end-at", "prepend", "append", "emphasize-lines", "caption", "class", "name", "diff",
        "lineno-start",
    )
}  # fmt: skip
LITERALINCLUDE_OPTIONS.update({"linenos": flag, "lineno-match": flag, "force": flag})

INCLUDE_OPTIONS = {
    name: unchanged
    for name in ("literal", "code", "number-lines", "encoding", "parser", "tab-width", "start-line", "end-line", "start-after", "end-before", "class", "name")
}


class Glossary(Directive):
    """Sphinx's glossary: terms (several may share a definition) and indented definitions."""

    has_content = True
    option_spec = {"sorted": flag}

    def run(self):
        document = self.state.document
        state = state_of(document)
        entries = []  # (terms [(text, source, line)], definition StringList)
        messages = []
        in_definition = was_empty = True
        in_comment = False
        for line, (source, offset) in zip(self.content, self.content.items):
            if not line:
                if in_definition and entries:
                    entries[-1][1].append(line, source, offset)
                was_empty = True
                continue
            if not line[0].isspace():
                if line.startswith(".. "):
                    in_comment = True
                    continue
                in_comment = False
                if in_definition:
                    if not was_empty:
                        messages.append(document.reporter.warning("glossary term must be preceded by empty line", source=source, line=offset + 1))
                    entries.append(([(line, source, offset)], StringList()))
                    in_definition = False
                else:
                    if was_empty:
                        messages.append(document.reporter.warning("glossary terms must not be separated by empty lines", source=source, line=offset + 1))
                    if entries:
                        entries[-1][0].append((line, source, offset))
                    else:
                        messages.append(document.reporter.warning("glossary seems to be misformatted, check indentation", source=source, line=offset + 1))
            elif in_comment:
                pass
            else:
                if not in_definition:
                    in_definition = True
                if entries:
                    entries[-1][1].append(line, source, offset)
                elif line.strip():
                    messages.append(document.reporter.warning("glossary seems to be misformatted, check indentation", source=source, line=offset + 1))
            was_empty = not line
        listing = nodes.definition_list(classes=["glossary"])
        if "sorted" in self.options:
            entries.sort(key=lambda entry: entry[0][0][0].lower())
        for terms, body in entries:
            item = nodes.definition_list_item()
            # docutils 0.19 writes one <dt> per item, so terms sharing a
            # definition share the term, each with its own anchor.
            term = nodes.term()
            for index, (text, source, offset) in enumerate(terms):
                term_text = text.split(" : ")[0].strip()
                children, found = self.state.inline_text(term_text, offset + 1)
                messages.extend(found)
                if index:
                    term += nodes.Text(", ")
                anchor = nodes.inline(term_text, "", *children)
                register(document, anchor, "std", "term:" + term_text.lower(), "term-" + term_text)
                term += anchor
            item += term
            definition = nodes.definition()
            if body:
                body.disconnect()
                dedented = StringList([line[_indent(body):] for line in body], items=body.items)
                self.state.nested_parse(dedented, body.items[0][1], definition)
            item += definition
            listing += item
        return [listing] + messages


def _indent(lines):
    widths = [len(line) - len(line.lstrip()) for line in lines if line.strip()]
    return min(widths) if widths else 0


# Wider than any grammar's names; a longer name is written unpadded.
MAX_PRODUCTION_PAD = 40


class ProductionList(Directive):
    """Grammar productions, each name an anchor that ``:token:`` links to."""

    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {}

    def run(self):
        document = self.state.document
        state = state_of(document)
        lines = self.arguments[0].replace("\\\n", "").split("\n")
        group = ""
        if lines and ":" not in lines[0]:
            group = lines.pop(0).strip()
        rules = []
        for rule in lines:
            name, colon, tokens = rule.partition(":")
            if not colon:
                break
            rules.append((name.strip(), tokens.strip()))
        # Names are padded to the longest, as Sphinx does, but only up to
        # MAX_PRODUCTION_PAD: every continuation line repeats the padding, so
        # a 9,000-letter name over 30,000 ": y" lines (219 KB) was 270 MB of
        # spaces and 2.1 GB of heap.
        width = min(max([len(name) for name, _ in rules] or [0]), MAX_PRODUCTION_PAD)
        block = nodes.literal_block("", "", classes=["productionlist"])
        token = xref_role("std", "token")
        for index, (name, tokens) in enumerate(rules):
            if index:
                block += nodes.Text("\n")
            if name:
                strong = nodes.strong("", name)
                register(document, strong, "std", "token:" + name, "grammar-token-%s%s" % (group + "-" if group else "", name))
                block += strong
                block += nodes.Text(" " * max(width - len(name), 0) + " ::= ")
            else:
                block += nodes.Text(" " * width + "     ")
            # Backquoted names are references to other productions.
            for position, piece in enumerate(tokens.split("`")):
                if position % 2 and piece:
                    block += token("token", "`%s`" % piece, piece, self.lineno, self.state.inliner)[0]
                elif piece:
                    block += nodes.Text(piece)
        return [block]


class IfConfig(Directive):
    """Content that depends on the project's configuration, which rst2 does not have: shown."""

    has_content = True
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {}

    def run(self):
        return parse_into(self, nodes.container()).children


class Only(IfConfig):
    """Content shown only for some outputs, by Sphinx's tags (html, latex...)."""

    def run(self):
        # As Sphinx does: titles, and so the contents directive, are allowed inside.
        box = nodes.container()
        self.state.nested_parse(self.content, self.content_offset, box, match_titles=True)
        output = getattr(self.state.document.settings, "rst2_output", None)
        try:
            shown = output is None or evaluate_tags(self.arguments[0], TAGS.get(output, set()))
        except ValueError as error:
            return [self.state.document.reporter.warning("exception while evaluating only directive expression: %s" % error, line=self.lineno)]
        return box.children if shown else []


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


TEST_OPTIONS = {
    "hide": flag,
    "no-trim-doctest-flags": flag,
    "options": unchanged,
    "pyversion": text,
    "skipif": text,
    "trim-doctest-flags": flag,
}


class TestBlock(Directive):
    """sphinx.ext.doctest's blocks, shown as Sphinx shows them (hidden with :hide:)."""

    has_content = True
    optional_arguments = 1
    final_argument_whitespace = True
    language = "python"
    option_spec = TEST_OPTIONS

    def run(self):
        if "hide" in self.options or not self.content:
            return []
        code = CodeBlock("code", [self.language] if self.language else [], {}, self.content, self.lineno, self.content_offset, self.block_text, self.state, self.state_machine)
        return code.run()


class DocTest(TestBlock):
    language = "pycon"


class TestCode(TestBlock):
    option_spec = {k: v for k, v in TEST_OPTIONS.items() if k != "options"}


class TestOutput(TestBlock):
    language = None


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
    "seealso": SeeAlso,
    "centered": Centered,
    "hlist": HList,
    "highlight": Highlight,
    "code-block": SphinxCode,
    "sourcecode": SphinxCode,
    "literalinclude": type("LiteralInclude", (Placeholder,), {"option_spec": LITERALINCLUDE_OPTIONS}),
    "include": type("Include", (Placeholder,), {"option_spec": INCLUDE_OPTIONS}),
    "glossary": Glossary,
    "productionlist": ProductionList,
    "index": discard({"name": unchanged}),
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
    "acks": type("Acks", (IfConfig,), {"required_arguments": 0}),
}
