"""What a Sphinx document declares as it is parsed, kept on the document.

Sphinx keeps this in its build environment across a whole project; here the
project is the one document, so cross-references resolve within it and
everything else is shown as text.
"""

from docutils import nodes


class SphinxState:
    def __init__(self):
        self.module = None  # set by module / currentmodule / automodule
        self.classes = []  # class-like descriptions being parsed, innermost last
        self.program = None  # set by program, qualifies option
        self.highlight = None  # set by highlight, the default code language
        # (domain, name) -> id, for objects described in this document.
        self.objects = {}
        self.equations = {}  # label -> (id, number)

    def context(self):
        """The module and class a reference is made in (for Python roles)."""
        return self.module, self.classes[-1] if self.classes else None


def state_of(document):
    state = getattr(document, "rst2_sphinx", None)
    if state is None:
        state = document.rst2_sphinx = SphinxState()
    return state


def register(document, node, domain, name, wanted):
    """Gives ``node`` an id and records it as where ``name`` of ``domain`` is described."""
    ident = claim_id(document, node, wanted)
    if ident:
        state_of(document).objects.setdefault((domain, name), ident)
    return ident


def parse_into(directive, container, content=None, offset=None):
    """Parses the directive's content (or ``content``) into ``container``."""
    directive.state.nested_parse(
        directive.content if content is None else content,
        directive.content_offset if offset is None else offset,
        container,
    )
    return container


def parse_to_nodes(directive, titles=False):
    """The directive's content as Sphinx's ``parse_content_to_nodes`` parses it.

    Into an anonymous element, not a body element, so what docutils allows
    only in a section (``contents``, ``topic``, ``sidebar``) is allowed
    there too; with ``titles``, section titles are, in title styles of their
    own (the first one in the content is a top-level title there). Returns
    (the nodes, the title styles the content used).
    """
    holder = nodes.Element()
    holder.document = directive.state.document
    memo = directive.state.memo
    surrounding = memo.title_styles, memo.section_level
    memo.title_styles, memo.section_level = [], 0
    try:
        directive.state.nested_parse(directive.content, directive.content_offset, holder, match_titles=titles)
        styles = memo.title_styles
    finally:
        memo.title_styles, memo.section_level = surrounding
    return holder.children, styles


def index_entry():
    """What stands for Sphinx's index node (rst2 makes no index): an empty
    comment, which the writers leave invisible (``<!--  -->`` in HTML, an
    empty ``%`` line in LaTeX). Like Sphinx's, it is an element docutils
    does not skip when it checks where a transition is, so a transition right
    after ``.. module::`` or ``.. index::`` does not start the section."""
    return nodes.comment("", "", classes=["index"])


def inline(directive, source, lineno=None):
    """Inline markup of an argument, with any messages it raises."""
    children, messages = directive.state.inline_text(source, lineno or directive.lineno)
    return children, messages


def claim_id(document, node, wanted):
    """Gives ``node`` the id ``wanted`` (made valid); returns it, or None if taken."""
    ident = wanted if _usable(wanted) else nodes.make_id(wanted)
    if not ident or ident in document.ids:
        return None
    node["ids"].append(ident)
    document.ids[ident] = node
    return ident


def _usable(ident):
    # Sphinx keeps dotted Python names as ids; they are valid in HTML and LaTeX.
    return bool(ident) and all(c.isalnum() or c in "._-" for c in ident) and ident[0].isalpha()
