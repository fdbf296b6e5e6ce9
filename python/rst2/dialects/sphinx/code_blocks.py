"""Sphinx's code directives, as docutils nodes: highlight and its default
language, code-block with Sphinx's options (emphasize-lines, dedent,
caption), literalinclude and include (named, never read), and the blocks of
sphinx.ext.doctest."""

import textwrap

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.parsers.rst.directives.body import CodeBlock
from docutils.statemachine import StringList

from ...directives import SphinxCodeBlock
from .state import inline, state_of

flag = directives.flag
unchanged = directives.unchanged
text = directives.unchanged_required


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
