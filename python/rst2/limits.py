"""Bounds on what one render may build, checked before it is built.

A WebAssembly heap never shrinks, so a document that makes docutils build
hundreds of megabytes leaves them behind in the worker even when the render
fails afterwards. Two constructions do that from a small input:

* substitutions: a 9,000-character ``replace::`` used 7,000 times is 37 KB
  of source and 63 MB of text in the doctree, then as much again per copy
  the writer makes. ``BoundSubstitutions`` adds up what they would expand to
  before docutils' ``Substitutions`` transform copies anything;
* nesting: each nested body element (block quote, list item, directive
  content) re-copies all the lines indented below it, so memory grows with
  depth times size (2,000 block quotes, 2 MB of source: 654 MiB of heap before
  Python's recursion limit stops the parser). ``check_nesting`` reads the
  indentation before docutils parses.

Whatever else grows the output (e.g. Pygments' markup around every token
of a large code block) is bounded while the writer writes:
``bound_writer`` gives the writer's translator a meter that refuses as
soon as what it has written passes the limit, so a runaway rendering stops
near the limit instead of being built whole (and joined, and encoded)
before ``check_output``, the last word on the exact size, can refuse it.

The worker sets the limits once at start (``configure``); until then
nothing is bounded, which is what a plain ``import rst2`` in a test gets.
"""

import re

from docutils import nodes
from docutils.transforms import Transform

from .errors import DocumentError

_limits = {"max_output_bytes": None, "max_nesting_depth": None}

# What one node of the doctree costs in the estimate, beyond its text: a
# Python object of a few hundred bytes while it lives, and markup around it
# in most outputs. Without it, 3^14 one-letter substitutions would count as
# 9 MB while taking gigabytes of heap.
NODE_BYTES = 100

# Leading blanks of every line that has text; docutils expands tabs to 8.
_INDENT = re.compile(r"^([ \t\v\f]*)\S", re.MULTILINE)


def configure(max_output_bytes=None, max_nesting_depth=None):
    """Sets the bounds of every later render in this interpreter (None: unbounded)."""
    _limits["max_output_bytes"] = max_output_bytes
    _limits["max_nesting_depth"] = max_nesting_depth


def current():
    return dict(_limits)


def _mib(count):
    return "%.1f MiB" % (count / 1048576)


def _too_large(what):
    limit = _limits["max_output_bytes"]
    return DocumentError(
        "output_too_large",
        "%s more than %s (%d bytes), the most a render may produce "
        "(RST2_MAX_OUTPUT_BYTES)." % (what, _mib(limit), limit),
    )


def nesting_depth(source):
    """How many levels of indentation the deepest line sits in.

    Each level is an indentation deeper than the enclosing one, as docutils
    sees a block quote, list item body or directive content; blank lines do
    not count and a shallower line closes the levels it leaves.
    """
    stack = [0]
    deepest = 0
    for match in _INDENT.finditer(source):
        blanks = match.group(1)
        indent = len(blanks.expandtabs(8)) if "\t" in blanks else len(blanks)
        while indent < stack[-1]:
            stack.pop()
        if indent > stack[-1]:
            stack.append(indent)
            deepest = max(deepest, len(stack) - 1)
    return deepest


def check_nesting(source):
    limit = _limits["max_nesting_depth"]
    if limit is None:
        return
    depth = nesting_depth(source)
    if depth > limit:
        raise DocumentError(
            "document_too_deep",
            "The document is nested too deeply to render: %d levels of indentation, "
            "more than the %d allowed (RST2_MAX_NESTING_DEPTH)." % (depth, limit),
        )


def check_output(output):
    """``output``: what the writer produced, bytes when encoded (as ours are) or text."""
    limit = _limits["max_output_bytes"]
    if limit is None or output is None:
        return
    size = len(output)
    # A text's characters are a lower bound of its UTF-8 bytes, and exact
    # for ASCII: only a non-ASCII text near the limit is encoded to be measured.
    if isinstance(output, str) and size <= limit < size * 4 and not output.isascii():
        size = len(output.encode("utf-8"))
    if size > limit:
        raise _too_large("The rendered document would be %s," % _mib(size))


class _Meter:
    """What a translator has written to its body so far, in characters.

    Characters are a lower bound of UTF-8 bytes, so the meter never refuses
    what ``check_output`` would accept. It reads only what was appended
    since its last reading; text a writer moves out of its body (docutils'
    HTML writer moves the title, docinfo, header and footer elsewhere) stays
    counted. Output a writer collects in a list of its own (the LaTeX
    writer's table and title collectors) counts once it joins the body, so
    memory passes the limit by at most one such piece.
    """

    __slots__ = ("limit", "size", "body", "seen")

    def __init__(self, limit):
        self.limit = limit
        self.size = 0
        self.body = None
        self.seen = 0

    def read(self, body):
        if body is not self.body:
            self.body, self.seen = body, 0
        count = len(body)
        if count > self.seen:
            self.size += sum(map(len, body[self.seen :]))
            if self.size > self.limit:
                raise _too_large("The rendered document would be")
        self.seen = count


class _BoundedTranslator:
    """Mixed in before a docutils translator: reads the meter at every node."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self._rst2_meter = _Meter(_limits["max_output_bytes"])

    # A reading finds nothing new when the body is the one last read and as
    # long (a quarter of them, mostly a visit right after a sibling's
    # departure); those are skipped without a call.

    def dispatch_visit(self, node):
        meter, body = self._rst2_meter, self.body
        if body is not meter.body or len(body) != meter.seen:
            meter.read(body)
        return super().dispatch_visit(node)

    def dispatch_departure(self, node):
        result = super().dispatch_departure(node)
        meter, body = self._rst2_meter, self.body
        if body is not meter.body or len(body) != meter.seen:
            meter.read(body)
        return result


_bounded_classes = {}


def bound_writer(writer):
    """Makes ``writer`` (a docutils writer about to run) stop once its output passes the limit."""
    translator = getattr(writer, "translator_class", None)
    if _limits["max_output_bytes"] is None or translator is None:
        return
    if translator not in _bounded_classes:
        _bounded_classes[translator] = type(translator.__name__, (_BoundedTranslator, translator), {"__module__": __name__})
    writer.translator_class = _bounded_classes[translator]


class BoundSubstitutions(Transform):
    """Refuses a document whose substitutions would expand past the output limit.

    Counts, without copying anything, the text and nodes that docutils'
    ``Substitutions`` would produce: each reference becomes a copy of its
    definition, whose own references expand in turn (definitions are
    expanded in place too). Circular definitions count as nothing, since
    docutils reports them instead of expanding them.
    """

    # Just before docutils' Substitutions (220), which makes the copies.
    default_priority = 219

    def apply(self):
        limit = _limits["max_output_bytes"]
        if limit is None:
            return
        document = self.document
        defs = document.substitution_defs
        if not defs:
            # Every reference would count as nothing: no walk needed.
            return
        names = document.substitution_names

        def key_of(ref):
            refname = ref.get("refname", "")
            return refname if refname in defs else names.get(refname.lower())

        sizes = _expanded_sizes(defs, key_of)
        total = 0
        # References inside definitions count too: docutils expands those
        # in place, so the definitions grow as well.
        for ref in document.findall(nodes.substitution_reference):
            total += sizes.get(key_of(ref), 0)
            if total > limit:
                raise _too_large("The document's substitutions would expand it to")


def _expanded_sizes(defs, key_of):
    """Each definition's cost once every reference in it is expanded.

    Iterative (a chain of thousands of definitions must not hit Python's
    recursion limit); a reference back into the chain being sized counts
    as nothing, as docutils refuses circular definitions.
    """
    own = {}
    inner = {}
    for key, definition in defs.items():
        own[key], inner[key] = _own_cost(definition, key_of)
    sizes = {}
    for root in defs:
        stack = [(root, False)]
        on_path = set()
        while stack:
            key, children_done = stack.pop()
            if children_done:
                sizes[key] = own[key] + sum(sizes.get(k, 0) for k in inner[key])
                on_path.discard(key)
            elif key not in sizes and key not in on_path:
                on_path.add(key)
                stack.append((key, True))
                stack.extend((k, False) for k in inner[key] if k is not None and k not in sizes)
    return sizes


def _own_cost(definition, key_of):
    """A definition's text and node cost, and the keys of the references in it."""
    cost = 0
    references = []
    pending = list(definition.children)
    while pending:
        node = pending.pop()
        if isinstance(node, nodes.substitution_reference):
            references.append(key_of(node))
        elif isinstance(node, nodes.Text):
            cost += len(node) + NODE_BYTES
        else:
            cost += NODE_BYTES
            pending.extend(node.children)
    return cost, references
