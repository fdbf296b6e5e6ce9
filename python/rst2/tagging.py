"""What a tagged PDF (PDF/UA-1) needs of the document itself, for ``check``.

The LaTeX side of tagging is in latex_writer.Tagged; here only the problems
``check`` reports when the request says the PDF is to be tagged (option
``tagged``): an image without alt text, which a tagged PDF gives its URI as
/Alt (as docutils' HTML writer does), which says nothing to a reader who
cannot see it.
"""

from docutils import nodes

from . import columns
from .latex_images import source_uri

RULE = "image-without-alt"


def images_without_alt(text, document):
    """One problem per image written without ``:alt:``.

    A substitution's image has its name as alt text (docutils gives it that,
    as the HTML shows), so it is never one.
    """
    lines = text.splitlines()
    items, seen = [], set()
    for node in document.findall(nodes.image):
        if node.get("alt"):
            continue
        line = node.line or getattr(node.parent, "line", None)
        uri = source_uri(node)
        shown = uri.partition(",")[0] + ",..." if uri.startswith("data:") else uri
        if (line, shown) in seen:
            continue
        seen.add((line, shown))
        context = lines[line - 1] if line and line <= len(lines) else ""
        items.append({
            "message": 'Image without alt text ("%s"): a tagged PDF gives a reader only its address. Add :alt:.' % shown[:200],
            "type": "warning",
            "line": line,
            # The directive, not the address the message quotes.
            "column": (context.find("..") if ".." in context else len(context) - len(context.lstrip())) + 1,
            "context": context,
            "rule": RULE,
        })
    return columns.add(text, items)
