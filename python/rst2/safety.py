"""A transform that keeps script-capable URLs out of the output.

docutils copies a reference's URI into ``href`` as written; a document could
carry ``javascript:`` links that run in the reader's browser.  The transform
runs after docutils has resolved every named and anonymous target, so it
sees the final URI of each link whichever way it was written.
"""

import re

from docutils import nodes
from docutils.transforms import Transform

from .walk import nodes_by_kind

BLOCKED_SCHEMES = ("javascript", "vbscript", "data")

# Where a data: image's URI is kept once ``uri`` is emptied.
DATA_URI_ATTRIBUTE = "rst2_data_uri"

# Browsers ignore ASCII control characters and whitespace inside a scheme
# ("java\tscript:"), so they are removed before the scheme is compared.
_IGNORED = re.compile(r"[\x00-\x20\x7f]+")


def is_blocked_uri(uri):
    cleaned = _IGNORED.sub("", uri or "").lower()
    scheme, sep, _ = cleaned.partition(":")
    return bool(sep) and scheme in BLOCKED_SCHEMES


class LinkEmbeddedImages(Transform):
    """Images stay links: ``:loading: embed`` (docutils 0.21+) makes the HTML
    writer read the file the URI names and inline it, whatever
    ``file_insertion_enabled`` says: a path into the worker's filesystem, or
    an endless one such as /dev/urandom."""

    # Before universal.Messages (860), so the warning shows in the page.
    default_priority = 850

    def apply(self):
        for image in self.document.findall(nodes.image):
            if image.get("loading") == "embed":
                image["loading"] = "link"
                self.document.reporter.warning(
                    "Images are not embedded here (:loading: embed); the image is linked instead.", base_node=image
                )


class NeutralizeUnsafeLinks(Transform):
    """Turns unsafe links into plain text, drops unsafe image sources and
    strips ``meta`` elements to the attributes a page can safely carry."""

    # After references are resolved (docutils' are below 900) and before the
    # writer's own transforms.
    default_priority = 890

    def apply(self):
        # One walk finds all four kinds: what the steps below change moves
        # nodes (a blocked link's children go into its replacement) but
        # makes or drops none of these kinds before its own step.
        found = nodes_by_kind(self.document, (nodes.reference, nodes.target, nodes.image, nodes.meta))
        for ref in found[nodes.reference]:
            if is_blocked_uri(ref.get("refuri")):
                replacement = nodes.inline(ref.rawsource, "", *ref.children, classes=["blocked-link"])
                ref.replace_self(replacement)
        blocked = set()
        for target in found[nodes.target]:
            if is_blocked_uri(target.get("refuri")):
                del target["refuri"]
                blocked.update(target["names"])
        # The names whose address was taken out, for the fixes: a reference
        # fixed to one of them would be a live link in stock docutils. Kept
        # on the document object, never in a node, so no writer sees it.
        self.document.rst2_blocked_targets = blocked
        for image in found[nodes.image]:
            if is_blocked_uri(image.get("uri")):
                # The PDF path decodes data: images itself and never writes
                # the URI (latex_images.py); no page ever gets it.
                if _IGNORED.sub("", image["uri"]).lower().startswith("data:"):
                    image[DATA_URI_ATTRIBUTE] = image["uri"]
                image["uri"] = ""
        for meta in found[nodes.meta]:
            if not _keep_meta(meta):
                meta.parent.remove(meta)


# What ``.. meta::`` may set (docutils documents name, content, lang, scheme
# and dir; property is OpenGraph's name attribute).  The writer copies
# attribute names into the page unescaped, and ``http-equiv`` could refresh or
# redirect it, so everything else is dropped.
META_ATTRIBUTES = frozenset(("name", "property", "content", "lang", "scheme", "dir"))
META_DIRECTIONS = frozenset(("ltr", "rtl", "auto"))


def _keep_meta(meta):
    """Strips ``meta`` to the allowed attributes; False when nothing useful is left."""
    for key in list(meta.attributes):
        if key in nodes.Element.list_attributes:
            # ``:ids=x:`` would set a string where docutils expects a list.
            if not isinstance(meta[key], list):
                meta[key] = []
        elif key not in META_ATTRIBUTES or (key == "dir" and meta[key].lower() not in META_DIRECTIONS):
            del meta[key]
    if "name" not in meta.attributes and "property" not in meta.attributes:
        return False
    return not any(is_blocked_uri(v) for v in meta.attributes.values() if isinstance(v, str))
