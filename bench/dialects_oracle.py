"""The oracle of bench/dialects.ts's pypi part, run with Debian's Python (/usr/bin/python3).

  pypi SOURCES   readme_renderer 46.0's verdict (Debian's, given 46.0's settings), as JSON, on Debian's Python
                 package descriptions and on the CPython pages under SOURCES
                 (the _sources folder of CPython's documentation).

Sphinx's standard names, the sphinx part's oracle, are test/oracles/sphinx_names.py's.
"""

import glob
import gzip
import io
import json
import os
import sys

# The description reader of the conformance corpus (the same PKG-INFO/METADATA rules).
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "test", "oracles"))
from corpus import description as _description  # noqa: E402


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


def _sphinx_pages(sources):
    """A harder corpus: Sphinx pages, which PyPI mostly refuses."""
    found = []
    for page in sorted(glob.glob(os.path.join(sources, "**/*.rst.txt"), recursive=True)):
        with open(page, encoding="utf-8", errors="replace") as file:
            found.append(("cpython", page.split("_sources/")[1], file.read()))
    return found


def pypi(sources):
    from readme_renderer import __about__, rst
    from readme_renderer46 import as_46

    as_46(rst)
    out = []
    for corpus, name, text in _package_descriptions() + _sphinx_pages(sources):
        stream = io.StringIO()
        try:
            accepted = rst.render(text, stream) is not None
            note = "" if accepted else (stream.getvalue().strip().splitlines() or [""])[0]
        except Exception as error:  # a docutils crash: PyPI could not render it either
            accepted, note = False, "%s: %s" % (type(error).__name__, error)
        out.append({"corpus": corpus, "name": name, "text": text, "accepted": accepted, "note": note})
    return {"version": __about__.__version__, "documents": out}


if __name__ == "__main__":
    json.dump({"pypi": pypi}[sys.argv[1]](*sys.argv[2:]), sys.stdout)
