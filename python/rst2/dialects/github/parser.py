"""What rest2html changes in docutils' parser, installed for one publish call only.

rest2html replaces ``Body.unknown_directive``, ``Body.comment`` and
``utils.extract_extension_options`` for its whole process, and keeps the
``github display`` flag and the ``highlight`` language in module globals;
GitHub runs one process per file. A worker here renders many documents,
and other dialects' documents, so ``patched()`` swaps the three in and back
and starts each document with display on and no highlight language.
"""

import contextlib

from docutils import nodes, utils
from docutils.parsers.rst import Directive
from docutils.parsers.rst.directives.parts import Contents
from docutils.parsers.rst.states import Body

from ...directives import BoundedCodeBlock


class _State:
    def __init__(self):
        self.display = True
        self.highlight = None
        #: (line, directive name) of each directive shown as a code block.
        self.unknown = []


STATE = _State()


def _unknown_directive(self, type_name):
    # GitHub shows the directive's text as it is written, options and body
    # included, rather than docutils' error.
    lineno = self.state_machine.abs_line_number()
    indented, _indent, _offset, blank_finish = self.state_machine.get_first_known_indented(0, strip_indent=False)
    text = "\n".join(indented)
    if not STATE.display:
        return [nodes.comment(text, text)], blank_finish
    STATE.unknown.append((lineno, type_name))
    block = nodes.literal_block(text, text, classes=["unknown_directive"])
    block.source, block.line = self.state_machine.get_source_and_line(lineno)
    return [block], blank_finish


def _comment(self, match):
    if not match.string[match.end() :].strip() and self.state_machine.is_next_line_blank():
        return [nodes.comment()], 1
    indented, _indent, _offset, blank_finish = self.state_machine.get_first_known_indented(match.end())
    while indented and not indented[-1].strip():
        indented.trim_end()
    words = "".join(indented[:1]).split()
    if words[:2] == ["github", "display"]:
        # Only "on" or "off" as the third and last word switches; any
        # further lines are shown either way.
        if len(words) == 3 and words[2] in ("on", "off"):
            STATE.display = words[2] == "on"
        if len(indented) == 1:
            return [nodes.comment()], 1
        text = "\n".join(indented[1:])
        return [nodes.literal_block(text, text, classes=["github_comment"])], blank_finish
    text = "\n".join(indented)
    return [nodes.comment(text, text)], blank_finish


def _extension_options(field_list, option_spec):
    """docutils' option parsing, except that an option the directive does not know is ignored."""
    options, ignored = {}, set()
    for name, value in utils.extract_options(field_list):
        if name in options or name in ignored:
            raise utils.DuplicateOptionError('duplicate option "%s"' % name)
        convert = option_spec.get(name)
        if convert is None:
            ignored.add(name)
            continue
        try:
            options[name] = convert(value)
        except (ValueError, TypeError) as detail:
            raise detail.__class__('(option: "%s"; value: %r)\n%s' % (name, value, " ".join(detail.args)))
    return options


@contextlib.contextmanager
def patched():
    STATE.__init__()
    saved = (Body.unknown_directive, Body.comment, utils.extract_extension_options)
    Body.unknown_directive, Body.comment, utils.extract_extension_options = _unknown_directive, _comment, _extension_options
    try:
        yield
    finally:
        Body.unknown_directive, Body.comment, utils.extract_extension_options = saved


def kbd(name, rawtext, text, lineno, inliner, options=None, content=None):
    """A key: ``<kbd>`` in HTML (see translator), a literal elsewhere.

    rest2html writes ``<kbd>TEXT</kbd>`` as raw HTML without escaping TEXT;
    here the text is text, escaped like any other, and LaTeX keeps it.
    """
    node = nodes.literal(rawtext, utils.unescape(text))
    node["rst2_kbd"] = True
    return [node], []


class Highlight(Directive):
    """Sets the language every later literal block is marked with (``<pre lang>``)."""

    required_arguments = 1
    optional_arguments = 1
    option_spec = {}

    def run(self):
        STATE.highlight = self.arguments[0]
        return []


class Doctest(BoundedCodeBlock):
    """Sphinx's doctest block as a Python code block; its group argument is ignored."""

    def run(self):
        self.arguments = ["python"]
        return super().run()


class GithubContents(Contents):
    """docutils' contents, with the directive's line kept for github-contents-links."""

    def run(self):
        result = super().run()
        for node in result:
            if isinstance(node, nodes.topic):
                node.source, node.line = self.state_machine.get_source_and_line(self.lineno)
        return result
