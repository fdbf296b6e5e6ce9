"""The ``github`` dialect: a README as GitHub shows it.

GitHub renders reStructuredText with github/markup's ``rest2html`` (docutils
with its own settings, parser changes and an html4css1 translator) and then
sanitizes the HTML. Matched against github/markup master aca8395 and, for
the sanitizer, html-pipeline 3.2.4's DEFAULT_CONFIG as github/markup's tests
apply it (GitHub.com's own is not public). ``check`` names what GitHub shows
differently from what was written (rules github-*).
"""

import contextlib

from docutils.parsers.rst.directives.misc import Include

from ...directives import BoundedCodeBlock
from ...messages import collect
from .. import Dialect, site_page
from . import checks, parser, settings
from .sanitizer import sanitize
from .translator import GithubTranslator


class GithubDialect(Dialect):
    name = "github"
    roles = {"kbd": parser.kbd}
    directives = {
        # docutils' own include, which file insertion being off refuses
        # for every file, docutils' standard sets too (rst2 allows those).
        "include": Include,
        # GitHub's docutils knows code-block and sourcecode as aliases of
        # code, with code's options (rst2 otherwise accepts Sphinx's).
        "code-block": BoundedCodeBlock,
        "sourcecode": BoundedCodeBlock,
        "doctest": parser.Doctest,
        "highlight": parser.Highlight,
        "contents": parser.GithubContents,
    }

    def settings(self, writer_name):
        return dict(settings.HTML if writer_name == settings.HTML_WRITER else settings.PARSER)

    def lifted(self, writer_name):
        return dict(settings.LIFTED) if writer_name in settings.LIFTED_FOR else {}

    def prepare_writer(self, writer):
        if writer.supports("html4css1"):
            writer.translator_class = GithubTranslator

    @contextlib.contextmanager
    def active(self):
        with super().active(), parser.patched():
            yield

    def checked(self, source):
        items, _, document = collect(source, "null", self)
        items = checks.renamed(items) + checks.findings(document)
        return sorted(items, key=lambda item: item["line"] or 0), document

    def clean(self, fragment):
        """``fragment`` through the allow-list github/markup's tests apply."""
        return sanitize(fragment)

    def render_html(self, source, stylesheets):
        """The README as GitHub shows it, in a page with rst2's stylesheet.

        ``description`` is what rest2html serves (html_body without its
        document div) after the allow-list: format=fragment's answer.
        """
        _, parts, document = collect(source, settings.HTML_WRITER, self, stylesheet_path=stylesheets, stylesheet_dirs=[], embed_stylesheet=True)
        readme = sanitize(parts["html_body"])
        # html4css1's Content-Type <meta>: the page says its charset itself,
        # and rst2's safety pass would log the http-equiv it removes.
        parts = dict(parts, meta="".join(line for line in parts.get("meta", "").splitlines(True) if "http-equiv" not in line))
        title = document.get("title") or ""
        page = site_page(title or "README", parts["stylesheet"], readme)
        return {"html": page, "title": title, "parts": parts, "description": readme}


GITHUB = GithubDialect()
