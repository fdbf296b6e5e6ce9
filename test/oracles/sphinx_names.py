"""Sphinx's standard role and directive names, for test/sphinx-cpython.test.ts
and bench/dialects.ts (test/support/sphinx-cpython.ts runs it in Pyodide,
with Debian's Sphinx).

The names a bare Sphinx project registers: Sphinx's core roles and
directives, its domains' (with the domain, and without it for py, the
default domain, and std), and those of the extensions the sphinx dialect
covers. Whatever else a document uses is a project's own extension.
"""

import io
import os
import tempfile

# The extensions python/rst2/dialects/sphinx covers besides Sphinx's core.
EXTENSIONS = ("autodoc", "autosummary", "doctest", "todo", "ifconfig")


def sphinx_names():
    from docutils.parsers.rst import directives, roles
    from sphinx.application import Sphinx

    with tempfile.TemporaryDirectory() as src:
        with open(os.path.join(src, "conf.py"), "w") as conf:
            conf.write("extensions = %r\n" % ["sphinx.ext.%s" % e for e in EXTENSIONS])
        with open(os.path.join(src, "index.rst"), "w") as index:
            index.write("x\n")
        app = Sphinx(src, src, os.path.join(src, "_build"), os.path.join(src, "_doctrees"), "html", status=io.StringIO(), warning=io.StringIO())
        found_roles = set(roles._roles)
        found_directives = set(directives._directives)
        for name, domain in app.env.domains.items():
            found_roles |= {"%s:%s" % (name, r) for r in domain.roles}
            found_directives |= {"%s:%s" % (name, d) for d in domain.directives}
            if name in ("py", "std"):  # the default domain and std need no prefix
                found_roles |= set(domain.roles)
                found_directives |= set(domain.directives)
    import sphinx

    return {"version": sphinx.__version__, "roles": sorted(found_roles), "directives": sorted(found_directives)}
