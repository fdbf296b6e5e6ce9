"""Several kinds of node from one walk over a doctree.

docutils' ``findall`` walks the whole tree with a generator per node; a
transform that wants references, targets, images and meta elements walked
it four times, about a millisecond per walk of a large document in a worker.
"""


def nodes_by_kind(document, kinds):
    """{kind: [each node that is an instance of kind, in document order, as findall gives them]}.

    ``kinds``: node classes, or tuples of them, as ``isinstance`` takes them.
    """
    found = {kind: [] for kind in kinds}
    stack = [document]
    while stack:
        node = stack.pop()
        if isinstance(node, kinds):
            for kind in kinds:
                if isinstance(node, kind):
                    found[kind].append(node)
        # Pushed last child first, so the first child is visited next: document order.
        stack.extend(reversed(node.children))
    return found
