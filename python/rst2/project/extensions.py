"""The roles and directives of well-known Sphinx extensions, by module name.

The sphinx dialect already knows Sphinx's standard names; an extension a
project lists in ``conf.py`` brings these too. Names the dialect implements
itself keep its implementation (declared.py never replaces a known name).
The table is ours, written from each extension's documentation: an
extension missing here is declared in the config instead.
"""

_NONE = ((), ())

KNOWN = {
    # Sphinx's own extensions.
    "sphinx.ext.autodoc": ((), ("automodule", "autoclass", "autoexception", "autofunction", "automethod", "autoattribute", "autodata", "autoproperty", "autodecorator", "autonewtypevar", "autotypevar")),
    "sphinx.ext.autosummary": (("autolink",), ("autosummary",)),
    "sphinx.ext.doctest": ((), ("doctest", "testcode", "testoutput", "testsetup", "testcleanup", "groupwise")),
    "sphinx.ext.extlinks": _NONE,  # its roles are extlinks' keys
    "sphinx.ext.graphviz": (("graphviz",), ("graphviz", "graph", "digraph")),
    "sphinx.ext.ifconfig": ((), ("ifconfig",)),
    "sphinx.ext.inheritance_diagram": ((), ("inheritance-diagram",)),
    "sphinx.ext.intersphinx": (("external",), ()),
    "sphinx.ext.todo": ((), ("todo", "todolist")),
    "sphinx.ext.mathjax": _NONE,
    "sphinx.ext.imgmath": _NONE,
    "sphinx.ext.napoleon": _NONE,
    "sphinx.ext.viewcode": _NONE,
    "sphinx.ext.coverage": _NONE,
    "sphinx.ext.githubpages": _NONE,
    "sphinx.ext.duration": _NONE,
    "sphinx.ext.autosectionlabel": _NONE,
    # Widely used third-party extensions.
    "sphinx_issues": (("issue", "pr", "user", "commit", "cve", "cwe"), ()),
    "sphinx_design": (
        ("bdg", "bdg-primary", "bdg-secondary", "bdg-success", "bdg-info", "bdg-warning", "bdg-danger", "bdg-light", "bdg-dark", "bdg-link-primary", "bdg-ref-primary", "octicon", "fab", "fas", "far", "button-link", "button-ref"),
        ("grid", "grid-item", "grid-item-card", "card", "card-carousel", "tab-set", "tab-item", "tab-set-code", "dropdown", "button-link", "button-ref", "article-info", "div"),
    ),
    "sphinx_tabs.tabs": ((), ("tabs", "tab", "group-tab", "code-tab")),
    "sphinx_inline_tabs": ((), ("tab",)),
    "sphinx_copybutton": _NONE,
    "sphinx_click": ((), ("click",)),
    "sphinx_click.ext": ((), ("click",)),
    "sphinxcontrib.mermaid": ((), ("mermaid", "autoclasstree")),
    "sphinxcontrib.programoutput": ((), ("program-output", "command-output")),
    "sphinxcontrib.bibtex": (("cite", "cite:p", "cite:t", "cite:ps", "cite:ts", "footcite", "footcite:p", "footcite:t"), ("bibliography", "footbibliography")),
    "sphinxcontrib.httpdomain": (("http:get", "http:post", "http:put", "http:patch", "http:delete", "http:head", "http:options"), ("http:get", "http:post", "http:put", "http:patch", "http:delete", "http:head", "http:options", "autoflask", "autohttp")),
    "sphinxcontrib.spelling": ((), ("spelling:word-list", "spelling:ignore")),
    "sphinxcontrib.plantuml": ((), ("uml",)),
    "sphinxcontrib.youtube": ((), ("youtube", "vimeo")),
    "sphinx_toolbox.collapse": ((), ("collapse",)),
    "sphinxext.opengraph": _NONE,
    "sphinx_autodoc_typehints": _NONE,
    "myst_parser": _NONE,
    "notfound.extension": _NONE,
    "sphinx_rtd_theme": _NONE,
    "sphinx_argparse": ((), ("argparse",)),
    "sphinxarg.ext": ((), ("argparse",)),
    "sphinx_gallery.gen_gallery": ((), ("minigallery",)),
    "matplotlib.sphinxext.plot_directive": ((), ("plot",)),
    "IPython.sphinxext.ipython_directive": ((), ("ipython",)),
    "IPython.sphinxext.ipython_console_highlighting": _NONE,
    "nbsphinx": _NONE,
    "jupyter_sphinx": ((), ("jupyter-execute", "jupyter-kernel", "jupyter-input", "jupyter-output", "thebe-button")),
}
