"""The ``pypi`` dialect: a package description as PyPI renders and judges it.

PyPI renders a text/x-rst description with readme_renderer, which runs
docutils with its own settings and ``halt_level`` 2: the first warning makes
the whole description fail, and ``twine check`` shows only that first one.
Here docutils runs with the same settings but does not halt, so ``check``
lists every problem that would make PyPI refuse the description; ``html``
gives what PyPI would show (its allow-list applied), or refuses as PyPI does.

Matched against readme_renderer 46.0 (readme_renderer/rst.py and clean.py,
read at its main branch 8c51629: 46.0's release only bumped the version
after it), which PyPI and ``twine check`` run today. Since 44.0 a top-level
title stays in the description as an ``<h1>``, ids take the prefix
``user-content-``, every section title carries a link to itself, and a
``:scale:`` image is no longer refused.
"""

from docutils import nodes
from docutils.parsers.rst.directives.misc import Include
from docutils.writers import html5_polyglot

from ...errors import DocumentError
from ...messages import collect
from .. import Dialect, site_page
from .clean import clean

# readme_renderer's SETTINGS, less what rst2 already enforces for every
# document (file insertion and raw disabled) and less halt_level 2, which is
# replaced by collecting every message (see module docstring).
SETTINGS = {
    "cloak_email_addresses": True,
    # 46.0 (#377): a lone top title is a section of the description, not the
    # document's title, which a description never showed.
    "doctitle_xform": False,
    "sectsubtitle_xform": False,
    "initial_header_level": 1,
    # 45.0 (#351): PyPI's page prefixes the ids of what it embeds, and each
    # section title links to itself.
    "id_prefix": "user-content-",
    "section_self_link": True,
    "math_output": "MathJax /dummy.js",
    "report_level": 5,
    "smart_quotes": True,
    "strip_comments": True,
    "syntax_highlight": "short",
    "field_name_limit": 0,
}

# readme_renderer's own message when docutils produced no body at all: an
# empty README, or one of comments, targets or substitution definitions only.
NO_CONTENT = "No content rendered from RST source."


class ReadmeTranslator(html5_polyglot.HTMLTranslator):
    """readme_renderer's translator: SVG images as <img>, width and height kept, no image files read."""

    object_image_types = {}

    def read_size_with_PIL(self, node):
        # 45.0 (#359): a :scale: without both sizes made docutils try to
        # read the image, and its warning refused the whole description.
        # Now the image is shown unscaled.
        return None

    def emptytag(self, node, tagname, suffix="\n", **attributes):
        if tagname == "img":
            for name in ("width", "height"):
                if name in node:
                    attributes[name] = node[name]
        return super().emptytag(node, tagname, suffix, **attributes)


class PypiDialect(Dialect):
    name = "pypi"
    # docutils' own include: readme_renderer disables file insertion and so
    # refuses docutils' standard sets too (``.. include:: <isonum.txt>``),
    # which rst2 otherwise allows (rst2/directives.py).
    directives = {"include": Include}

    def settings(self, writer_name):
        return dict(SETTINGS)

    def prepare_writer(self, writer):
        if isinstance(writer, html5_polyglot.Writer):
            writer.translator_class = ReadmeTranslator

    def checked(self, source):
        # The HTML writer runs too: PyPI's render fails on its messages as well.
        items, parts, document = collect(source, "html5", self, stylesheet_path=[], stylesheet_dirs=[], embed_stylesheet=False)
        return items + _no_content(parts), document

    def clean(self, fragment):
        return clean(fragment)

    def refuse_if_rejected(self, items):
        if items:
            first = items[0]
            where = "line %s" % first["line"] if first["line"] else "no line"
            raise DocumentError(
                "pypi_refused",
                "PyPI would refuse this description: %d problem%s, the first (%s): %s "
                "The check operation with dialect=pypi lists them all."
                % (len(items), "" if len(items) == 1 else "s", where, first["message"]),
            )

    def render_html(self, source, stylesheets):
        """The description as PyPI shows it, in a page with rst2's stylesheet."""
        items, parts, document = collect(source, "html5", self, stylesheet_path=stylesheets, stylesheet_dirs=[], embed_stylesheet=True)
        self.refuse_if_rejected(items + _no_content(parts))
        title = document.get("title") or _first_section_title(document)
        description = clean(_description(parts))
        page = site_page(title or "PyPI description", parts["stylesheet"], description)
        # parts and description: for format=parts|fragment (rst2.render).
        return {"html": page, "title": title, "parts": parts, "description": description}


def _description(parts):
    # What readme_renderer keeps: the docinfo and the body (with 46.0's
    # settings the top title is part of the body).
    return parts.get("docinfo", "") + parts.get("fragment", "")


def _first_section_title(document):
    """Our page's <title>: PyPI's description has none, and its first heading names it."""
    for section in document.findall(nodes.section):
        for child in section.children:
            if isinstance(child, nodes.title):
                return child.astext()
        break
    return ""


def _no_content(parts):
    if _description(parts):
        return []
    return [{"message": NO_CONTENT, "type": "error", "line": None, "context": ""}]


PYPI = PypiDialect()
