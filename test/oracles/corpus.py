"""The reStructuredText documents a Debian package carries, as users write them.

usage: python3 corpus.py PACKAGE=DIR...  ->  JSON {"documents": [...]}

Each DIR is a package unpacked with dpkg -x. A document is one of:
  description  the PyPI long description in a *.dist-info/METADATA or
               *.egg-info/PKG-INFO file, when its content type is reST;
  readme       /usr/share/doc/PACKAGE/README*.rst;
  changelog    a CHANGES/CHANGELOG/HISTORY/NEWS/RELEASE-NOTES file there,
               .rst, or .txt when it has a section title underline.

Run by Debian's python3 (test/support/corpus.ts); only the standard library.
"""

import glob
import gzip
import json
import os
import re
import sys
from email.parser import Parser

_NAMES = re.compile(r"^(readme|changes|changelog|history|news|release[-_ ]?notes)[^/]*\.(rst|txt)(\.gz)?$", re.I)
_UNDERLINE = re.compile(r"^(=+|-+|~+)\s*$", re.M)


def description(path):
    """The long description in a PKG-INFO or METADATA file, and its content type."""
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


def _read(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt", encoding="utf-8", errors="replace") as file:
        return file.read()


def documents(package, root):
    found = []
    metas = sorted(glob.glob(os.path.join(root, "usr/lib/python3*/dist-packages/*.*-info/PKG-INFO"))
                   + glob.glob(os.path.join(root, "usr/lib/python3*/dist-packages/*.*-info/METADATA")))
    seen = set()
    for meta in metas:
        text, content_type = description(meta)
        # One package may ship the same description twice (an egg-info and a dist-info).
        if content_type != "text/x-rst" or not text.strip() or text.strip() == "UNKNOWN" or text in seen:
            continue
        seen.add(text)
        found.append({"package": package, "kind": "description", "name": os.path.basename(os.path.dirname(meta)), "text": text})
    for path in sorted(glob.glob(os.path.join(root, "usr/share/doc", "*", "*"))):
        base = os.path.basename(path)
        if not _NAMES.match(base) or not os.path.isfile(path) or os.path.islink(path):
            continue
        text = _read(path)
        # A .txt file counts only when it is reStructuredText (has a section title underline).
        if base.lower().endswith((".txt", ".txt.gz")) and not _UNDERLINE.search(text):
            continue
        if text in seen:
            continue
        seen.add(text)
        kind = "readme" if base.lower().startswith("readme") else "changelog"
        found.append({"package": package, "kind": kind, "name": path.split(os.sep)[-2] + "/" + base, "text": text})
    return found


if __name__ == "__main__":
    out = []
    for arg in sys.argv[1:]:
        package, _, root = arg.partition("=")
        out.extend(documents(package, root))
    json.dump({"documents": out}, sys.stdout)
