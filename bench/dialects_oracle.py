"""Oracles for bench/dialects.ts, run with Debian's Python (/usr/bin/python3).

  sphinx-names   Sphinx's standard role and directive names (core, its domains
                 and the extensions the sphinx dialect covers), as JSON.
  pypi           Debian's Python package descriptions with readme_renderer's
                 verdict on each, as JSON.
"""

import glob
import gzip
import io
import json
import re
import os
import sys
import tempfile


def sphinx_names():
    from docutils.parsers.rst import directives, roles
    from sphinx.application import Sphinx

    with tempfile.TemporaryDirectory() as src:
        with open(os.path.join(src, "conf.py"), "w") as conf:
            conf.write("extensions = %r\n" % ["sphinx.ext.%s" % e for e in ("autodoc", "autosummary", "doctest", "todo", "ifconfig")])
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


def _description(path):
    """The long description in a PKG-INFO or METADATA file, and its content type."""
    from email.parser import Parser

    with open(path, encoding="utf-8", errors="replace") as meta:
        message = Parser().parse(meta)
    content_type = (message.get("Description-Content-Type") or "text/x-rst").split(";")[0].strip()
    body = message.get_payload()
    if isinstance(body, str) and body.strip():
        return body, content_type
    text = message.get("Description") or ""
    # setuptools folds the description into a header, each line after the
    # first indented by eight spaces (older) or "       |" (newer).
    lines = text.splitlines()
    unfolded = [lines[0]] if lines else []
    for line in lines[1:]:
        if line.startswith("       |"):
            unfolded.append(line[8:])
        elif line.startswith(" " * 8):
            unfolded.append(line[8:])
        else:
            unfolded.append(line.lstrip())
    return "\n".join(unfolded), content_type


def _package_descriptions():
    """Debian's Python packages: their PyPI descriptions and README.rst files."""
    found = []
    for meta in sorted(glob.glob("/usr/lib/python3/dist-packages/*.*-info/PKG-INFO") + glob.glob("/usr/lib/python3/dist-packages/*.*-info/METADATA")):
        text, content_type = _description(meta)
        if content_type == "text/x-rst" and text.strip() and text.strip() != "UNKNOWN":
            found.append(("package", os.path.basename(os.path.dirname(meta)), text))
    for readme in sorted(glob.glob("/usr/share/doc/python3-*/README.rst*")):
        opener = gzip.open if readme.endswith(".gz") else open
        with opener(readme, "rt", encoding="utf-8", errors="replace") as file:
            found.append(("package", readme.split("/")[4] + "/" + os.path.basename(readme), file.read()))
    return found


def _sphinx_pages():
    """A harder corpus: Sphinx pages, which PyPI mostly refuses."""
    found = []
    for page in sorted(glob.glob("/usr/share/doc/python3.11/html/_sources/**/*.rst.txt", recursive=True)):
        with open(page, encoding="utf-8", errors="replace") as file:
            found.append(("cpython", page.split("_sources/")[1], file.read()))
    return found


def pypi():
    from readme_renderer import __about__, rst

    out = []
    for corpus, name, text in _package_descriptions() + _sphinx_pages():
        stream = io.StringIO()
        try:
            accepted = rst.render(text, stream) is not None
            note = "" if accepted else (stream.getvalue().strip().splitlines() or [""])[0]
        except Exception as error:  # a docutils crash: PyPI could not render it either
            accepted, note = False, "%s: %s" % (type(error).__name__, error)
        out.append({"corpus": corpus, "name": name, "text": text, "accepted": accepted, "note": note})
    return {"version": __about__.__version__, "documents": out}


def real_documents():
    """What users render: package descriptions, and the READMEs, changelogs and
    news files Debian ships as reStructuredText (for bench/real-documents.ts)."""
    found = [{"corpus": "description", "name": name, "text": text} for _, name, text in _package_descriptions() if _ == "package" and "/" not in name]
    names = re.compile(r"^(readme|changes|changelog|history|news|release[-_ ]?notes)[^/]*\.(rst|txt)(\.gz)?$", re.I)
    for path in sorted(glob.glob("/usr/share/doc/*/*")):
        base = os.path.basename(path)
        if not names.match(base) or not os.path.isfile(path):
            continue
        if base.lower().endswith((".txt", ".txt.gz")) and "python" not in path:
            continue
        opener = gzip.open if path.endswith(".gz") else open
        with opener(path, "rt", encoding="utf-8", errors="replace") as file:
            text = file.read()
        # A .txt changelog counts only when it is reStructuredText (has a section title underline).
        if base.lower().endswith((".txt", ".txt.gz")) and not re.search(r"^(=+|-+|~+)\s*$", text, re.M):
            continue
        kind = "readme" if base.lower().startswith("readme") else "changelog"
        found.append({"corpus": kind, "name": path.split("/")[4] + "/" + base, "text": text})
    return {"documents": found}


if __name__ == "__main__":
    json.dump({"sphinx-names": sphinx_names, "pypi": pypi, "real-documents": real_documents}[sys.argv[1]](), sys.stdout)
