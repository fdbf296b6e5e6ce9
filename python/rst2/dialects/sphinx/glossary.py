"""Sphinx's glossary and productionlist: directives with a syntax of their
own (terms and definitions, grammar rules) whose names become link targets
(``:term:``, ``:token:``)."""

from docutils import nodes
from docutils.parsers.rst import Directive, directives
from docutils.statemachine import StringList

from .state import register, state_of
from .xref import xref_role

flag = directives.flag


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
