"""Dialects: which roles, directives and settings a document is written for.

``docutils`` is plain docutils (rst2's behaviour before dialects existed);
``sphinx`` knows Sphinx's standard roles and directives without a Sphinx
project; ``pypi`` renders and checks as PyPI does with readme_renderer;
``github`` as GitHub shows a README (rest2html and its sanitizer).

docutils keeps its roles and directives in module-level tables, so a dialect
installs its own only for the duration of one publish call and puts the
tables back afterwards: a docutils render right after a Sphinx one sees
exactly what it saw before. (Each Pyodide worker runs one job at a time, so
nothing else can observe the swap.)
"""

import contextlib
import html

from docutils.parsers.rst import directives as _directives
from docutils.parsers.rst import roles as _roles

from ..contract import DIALECTS as NAMES
from ..messages import collect


class Dialect:
    """Plain docutils; subclasses add roles, directives, transforms, settings."""

    name = "docutils"
    #: The longest line line-too-long allows; None: its default (rst2.lint.whitespace).
    line_length = None
    #: Role name -> role function, directive name -> Directive class.
    roles = {}
    directives = {}
    #: Extra transforms for the reader (classes).
    transforms = ()

    def settings(self, writer_name):
        """docutils settings this dialect needs for one writer (merged over the caller's)."""
        return {}

    def lifted(self, writer_name):
        """Protections (rst2.settings) this dialect lifts for one writer: none but github's raw, sanitized after."""
        return {}

    def prepare_writer(self, writer):
        """A chance to adjust the writer instance (e.g. its translator class)."""

    @contextlib.contextmanager
    def active(self):
        # Saved and put back for every dialect, plain docutils too: a
        # document's own ``.. role::`` registers its role in the same
        # module-level table, and the next document in this worker, another
        # user's, must not find it there.
        saved_roles = dict(_roles._roles)
        saved_directives = dict(_directives._directives)
        _roles._roles.update(self.roles)
        _directives._directives.update(self.directives)
        try:
            yield
        finally:
            _roles._roles.clear()
            _roles._roles.update(saved_roles)
            _directives._directives.clear()
            _directives._directives.update(saved_directives)

    # The operations; a dialect may replace any of them (pypi does).
    def check(self, source):
        return self.checked(source)[0]

    def checked(self, source):
        """check's problems and the doctree they come from (rst2.lint reads it)."""
        items, _, document = collect(source, "null", self)
        return items, document


DOCUTILS = Dialect()


def site_page(title, stylesheet, shown):
    """rst2's page around what a site shows (PyPI's description, GitHub's README): its head, that body."""
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8" />\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1" />\n'
        "<title>%s</title>\n%s</head>\n<body>\n%s\n</body>\n</html>\n" % (html.escape(title), stylesheet, shown)
    )


def get(name):
    """The dialect called ``name`` (or ``name`` itself when it is one); ValueError for any other (the HTTP layer validates first)."""
    if isinstance(name, Dialect):
        return name
    if name not in _BY_NAME:
        raise ValueError("unknown dialect %r; choose one of %s" % (name, ", ".join(NAMES)))
    return _BY_NAME[name]


# Imported last: both build on Dialect above.
from .github import GITHUB  # noqa: E402
from .pypi import PYPI  # noqa: E402
from .sphinx import SPHINX  # noqa: E402

_BY_NAME = {"docutils": DOCUTILS, "sphinx": SPHINX, "pypi": PYPI, "github": GITHUB}
