"""Native oracles for the conformance tests (test/conformance.test.ts).

usage: python3 native.py html|parts|lint|pypi  < {"documents": [{"name", "text", ...}]}  ->  JSON

  html  for each document: the body text of plain docutils' HTML5 page (the
        html5 writer, nothing of rst2's but the settings that keep an
        untrusted document from the host, python/rst2/settings.py), and the
        body text of the page rst2 served (the document's "html"), taken
        out the same way, so that one extractor judges both.
  parts for each document: plain docutils' publish_parts() (html5 writer,
        rst2's protections and presentation settings, the stylesheets of
        RST2_STYLESHEETS embedded) against the parts rst2 served (the
        document's "parts"): each part's text, and for ``fragment`` also
        whether the two are the same tree once rst2's safety pass has read
        docutils' one (python/rst2/sanitize.py). Formulas are compared
        apart: rst2 converts math with its own converter.
  lint  restructuredtext-lint's problems for each document.
  pypi  readme_renderer's verdict for each document: does PyPI render it?

Run by Debian's CPython with the bundle's docutils and Pygments on
PYTHONPATH (test/support/debian.ts nativeBundleEnv), and Debian sid's
restructuredtext-lint and readme_renderer unpacked next to them.
RST2_ORACLE_ROOTS names the folders every module we compare with must
come from, so that a docutils of the machine can never stand in.
"""

import html.parser
import io
import json
import os
import re
import sys
import types
from html.parser import HTMLParser


def _from_our_folders(*modules):
    roots = [r for r in os.environ.get("RST2_ORACLE_ROOTS", "").split(os.pathsep) if r]
    for module in modules:
        where = os.path.realpath(module.__file__)
        if not any(where.startswith(os.path.realpath(root) + os.sep) for root in roots):
            raise SystemExit("%s was imported from %s, not from %s" % (module.__name__, where, roots))


class _BodyText(html.parser.HTMLParser):
    """The text a reader sees in <body>: no tags, no <script>/<style>, spaces collapsed."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.depth_body = 0
        self.hidden = 0
        self.parts = []

    def handle_starttag(self, tag, attrs):
        if tag == "body":
            self.depth_body += 1
        elif tag in ("script", "style"):
            self.hidden += 1

    def handle_endtag(self, tag):
        if tag == "body":
            self.depth_body -= 1
        elif tag in ("script", "style"):
            self.hidden -= 1

    def handle_data(self, data):
        if self.depth_body > 0 and not self.hidden:
            self.parts.append(data)


def body_text(page):
    parser = _BodyText()
    parser.feed(page)
    parser.close()
    return re.sub(r"\s+", " ", " ".join(parser.parts)).strip()


def _standard_includes():
    """docutils' own Include, let read docutils' standard definition files.

    With file insertion off, rst2 still reads the files docutils ships for
    ``.. include:: <isonum.txt>`` and the like (python/rst2/directives.py);
    native docutils is given the same allowance, and nothing else.
    """
    from docutils.parsers.rst import directives
    from docutils.parsers.rst.directives.misc import Include

    class StandardInclude(Include):
        def run(self):
            settings = self.state.document.settings
            if not self.arguments[0].strip().startswith("<"):
                return super().run()
            self.options.setdefault("encoding", "utf-8")  # the text comes in decoded; the file is read from disk
            settings.file_insertion_enabled = True
            try:
                return super().run()
            finally:
                settings.file_insertion_enabled = False

    directives.register_directive("include", StandardInclude)


def html_native(text):
    import docutils.core
    from rst2.settings import untrusted

    # rst2's presentation settings that change text: the same code
    # highlighting and problem reports in the page (python/rst2/render.py).
    settings = untrusted(syntax_highlight="short", report_level=2, embed_stylesheet=False, stylesheet_path="")
    # rst2 names the source "untitled" in its problem reports (python/rst2/publish.py).
    return docutils.core.publish_string(text, source_path="untitled", writer_name="html5", settings_overrides=settings).decode("utf-8")


def html(documents):
    import docutils

    _from_our_folders(docutils)
    _standard_includes()
    out = []
    for doc in documents:
        native, ours = body_text(html_native(doc["text"])), body_text(doc["html"])
        out.append({"name": doc["name"], "equal": native == ours, "native": native, "ours": ours})
    return {"docutils": docutils.__version__, "documents": out}


# The parts format=parts serves, as python/rst2/render.py PARTS names them.
PART_NAMES = ("title", "subtitle", "docinfo", "body", "fragment", "html_body", "stylesheet", "meta")


class _Tree(HTMLParser):
    """A fragment as a browser's tree would hold it: tags, sorted attributes, text with spaces collapsed."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items = []

    def handle_starttag(self, tag, attrs):
        self.items.append(("<", tag, tuple(sorted((k, v or "") for k, v in attrs))))

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        self.items.append((">", tag))

    def handle_data(self, data):
        text = re.sub(r"\s+", " ", data)
        if text.strip():
            self.items.append(("t", text.strip()))


def tree(fragment):
    parser = _Tree()
    parser.feed(fragment)
    parser.close()
    return parser.items


_MATH = re.compile(r"<math[ >].*?</math>", re.S)


def parts(documents):
    import docutils
    import docutils.core
    from rst2.sanitize import sanitize
    from rst2.settings import untrusted

    _from_our_folders(docutils)
    _standard_includes()
    stylesheets = [path for path in os.environ["RST2_STYLESHEETS"].split(os.pathsep) if path]
    # python/rst2/render.py's presentation settings for the page.
    settings = untrusted(syntax_highlight="short", report_level=2, embed_stylesheet=True, stylesheet_path=stylesheets, stylesheet_dirs=[])
    out = []
    for doc in documents:
        native = docutils.core.publish_parts(doc["text"], source_path="untitled", writer_name="html5", settings_overrides=settings)
        ours = doc["parts"]
        differ = [name for name in PART_NAMES if native[name] != ours[name]]
        out.append({
            "name": doc["name"],
            "differ": differ,
            # rst2 writes MathML with its own converter (python/rst2/mathml.py), not docutils'.
            "differ_outside_math": [name for name in differ if _MATH.sub("", native[name]) != _MATH.sub("", ours[name])],
            "native": {name: native[name] for name in differ},
            "ours": {name: ours[name] for name in differ},
            "fragment_tree_equal": tree(_MATH.sub("", sanitize(native["fragment"])[0])) == tree(_MATH.sub("", ours["fragment"])),
            "native_fragment_length": len(native["fragment"]),
        })
    return {"docutils": docutils.__version__, "documents": out}


def lint(documents):
    import docutils
    import restructuredtext_lint

    _from_our_folders(docutils, restructuredtext_lint)
    # restructuredtext-lint takes no settings, but reads docutils'
    # configuration files: the runner points DOCUTILSCONFIG at one with
    # rst2's protections (no file insertion, no raw), so both judge the same
    # document. Its command line reports warnings and above by default, as
    # rst2's check does, and names the file, as rst2 names it "untitled".
    _standard_includes()
    out = []
    for doc in documents:
        problems = [p for p in restructuredtext_lint.lint(doc["text"], "untitled") if p.level >= 2]
        out.append({
            "name": doc["name"],
            "problems": [{"line": p.line, "type": p.type.lower(), "message": p.message} for p in problems],
        })
    return {"docutils": docutils.__version__, "documents": out}


def pypi(documents):
    # readme_renderer's verdict does not depend on its HTML cleaner (it
    # cleans what docutils made, after deciding): nh3 is a compiled module
    # Debian builds for its own Python only, so a pass-through stands in.
    sys.modules.setdefault("nh3", types.SimpleNamespace(clean=lambda html, **kwargs: html, ALLOWED_TAGS=set(), ALLOWED_ATTRIBUTES={}))
    import docutils
    import readme_renderer
    from readme_renderer import rst
    from readme_renderer46 import as_46

    _from_our_folders(docutils, readme_renderer)
    as_46(rst)
    out = []
    for doc in documents:
        stream = io.StringIO()
        try:
            accepted = rst.render(doc["text"], stream) is not None
            note = "" if accepted else (stream.getvalue().strip().splitlines() or [""])[0]
        except Exception as error:  # docutils itself failed: PyPI could not render it either
            accepted, note = False, "%s: %s" % (type(error).__name__, error)
        out.append({"name": doc["name"], "accepted": accepted, "note": note})
    version = getattr(readme_renderer, "__version__", None)
    if version is None:
        from importlib import metadata

        version = metadata.version("readme_renderer")
    return {"docutils": docutils.__version__, "readme_renderer": version, "documents": out}


if __name__ == "__main__":
    command = {"html": html, "parts": parts, "lint": lint, "pypi": pypi}[sys.argv[1]]
    json.dump(command(json.load(sys.stdin)["documents"]), sys.stdout)
