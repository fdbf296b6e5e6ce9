"""Relative links and image paths of a document fetched by URL, made absolute.

A README fetched from a repository says ``.. image:: docs/screenshot.png``
and ``see `the guide <docs/guide.rst>`_``; read in a browser from our origin,
those would point at this service. Resolved against the URL the document came
from, they point where the author meant, as GitHub and PyPI show a README.
Only documents with such a base get this transform (``rst`` and ``token``
documents have nothing to resolve against), and in-page anchors stay as they
are.
"""

from urllib.parse import urljoin, urlsplit

from docutils import nodes
from docutils.transforms import Transform

from .walk import nodes_by_kind

# The document setting the base travels in (set by publish(), not a docutils option).
SETTING = "rst2_base"


def resolve(base, uri):
    """``uri`` made absolute against ``base``, or as it was when it already is one or names a place in the page."""
    if not uri or uri.startswith("#"):
        return uri
    try:
        if urlsplit(uri).scheme:
            return uri
        return urljoin(base, uri)
    except ValueError:
        # A malformed URI (an unbalanced "[" in a host, say) is left alone; the
        # link policy and the browser treat it as what it is.
        return uri


class ResolveRelative(Transform):
    """References, targets and images with a relative URI get the absolute one."""

    # After docutils has resolved targets into references (its transforms are
    # below 890) and before the link policy (890) sees the final URIs.
    default_priority = 889

    def apply(self):
        base = getattr(self.document.settings, SETTING, None)
        if not base:
            return
        found = nodes_by_kind(self.document, ((nodes.reference, nodes.target), nodes.image))
        for node in found[(nodes.reference, nodes.target)]:
            if node.get("refuri"):
                node["refuri"] = resolve(base, node["refuri"])
        for image in found[nodes.image]:
            if image.get("uri"):
                image["uri"] = resolve(base, image["uri"])
