"""A transform that keeps script-capable URLs out of the output.

docutils copies a reference's URI into ``href`` as written; a document could
carry ``javascript:`` links that run in the reader's browser.  The transform
runs after docutils has resolved every named and anonymous target, so it
sees the final URI of each link whichever way it was written.
"""

import re

from docutils import nodes
from docutils.transforms import Transform

BLOCKED_SCHEMES = ("javascript", "vbscript", "data")

# Browsers ignore ASCII control characters and whitespace inside a scheme
# ("java\tscript:"), so they are removed before the scheme is compared.
_IGNORED = re.compile(r"[\x00-\x20\x7f]+")


def is_blocked_uri(uri):
    cleaned = _IGNORED.sub("", uri or "").lower()
    scheme, sep, _ = cleaned.partition(":")
    return bool(sep) and scheme in BLOCKED_SCHEMES


class NeutralizeUnsafeLinks(Transform):
    """Turns unsafe links into plain text and drops unsafe image sources."""

    # After references are resolved (docutils' are below 900) and before the
    # writer's own transforms.
    default_priority = 890

    def apply(self):
        document = self.document
        for ref in list(document.findall(nodes.reference)):
            if is_blocked_uri(ref.get("refuri")):
                replacement = nodes.inline(ref.rawsource, "", *ref.children, classes=["blocked-link"])
                ref.replace_self(replacement)
        for target in document.findall(nodes.target):
            if is_blocked_uri(target.get("refuri")):
                del target["refuri"]
        for image in document.findall(nodes.image):
            if is_blocked_uri(image.get("uri")):
                image["uri"] = ""
        # ``.. meta:: :http-equiv=refresh:`` could redirect the page.
        for meta in list(document.findall(nodes.meta)):
            if "http-equiv" in meta.attributes or any(
                is_blocked_uri(v) for v in meta.attributes.values() if isinstance(v, str)
            ):
                meta.parent.remove(meta)
