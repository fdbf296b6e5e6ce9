"""What a PDF says about its tags, as JSON on stdout, for the tagged-PDF tests.

Usage: python3 pdf-tags.py FILE.pdf

Reads the PDF with pikepdf (Debian's python3-pikepdf, which
scripts/setup-pdftools.mjs installs) and prints the structure tree's roles,
each mapped through the RoleMap to a standard one, the /Alt of Figure
elements, the blocks nested in a paragraph (P or Div in a P), the catalog entries PDF/UA-1 asks for (/Lang, MarkInfo,
ViewerPreferences/DisplayDocTitle), the XMP properties dc:title and
pdfuaid:part, and the document information's Title. Exit status 3 when pikepdf cannot be imported (the test then
says so), 0 otherwise.
"""

import json
import re
import sys

try:
    import pikepdf
except ImportError as error:  # the caller reports it and skips
    print(json.dumps({"error": "pikepdf: %s" % error}))
    sys.exit(3)


def name(value):
    return str(value)[1:] if value is not None else None


def inspect(path):
    pdf = pikepdf.open(path)
    root = pdf.Root
    tree = root.get("/StructTreeRoot")
    role_map = {}
    if tree is not None and "/RoleMap" in tree:
        role_map = {name(k): name(v) for k, v in tree.RoleMap.items()}

    def standard(role):
        seen = set()
        while role in role_map and role not in seen:
            seen.add(role)
            role = role_map[role]
        return role

    roles, mapped, alts, langs, nested = {}, {}, [], [], {}
    # Iterative: a long document's tree is deep enough for Python's recursion limit.
    stack = [tree.get("/K")] if tree is not None else []
    while stack:
        node = stack.pop()
        if isinstance(node, pikepdf.Array):
            stack.extend(reversed(list(node)))
            continue
        if not isinstance(node, pikepdf.Dictionary):
            continue
        role = node.get("/S")
        if role is not None:
            own = name(role)
            roles[own] = roles.get(own, 0) + 1
            std = standard(own)
            mapped[std] = mapped.get(std, 0) + 1
            if "/Alt" in node:
                alts.append({"role": std, "alt": str(node.Alt)})
            if "/Lang" in node:
                langs.append(str(node.Lang))
        kids = node.get("/K")
        if kids is not None:
            stack.append(kids)
            # A block inside a paragraph, which ISO 32000's structure rules
            # (and so PDF/UA-1) do not allow: "P>P", "P>Div".
            if role is not None and standard(name(role)) == "P":
                for kid in (kids if isinstance(kids, pikepdf.Array) else [kids]):
                    if isinstance(kid, pikepdf.Dictionary) and kid.get("/S") is not None:
                        inner = standard(name(kid.get("/S")))
                        if inner in ("P", "Div"):
                            nested["P>" + inner] = nested.get("P>" + inner, 0) + 1

    # The pages' fonts, "Subtype BaseFont" without the subset prefix: which
    # engine set the text (pdfTeX: Type1 fonts and its PdfTeX-Space).
    fonts = set()
    for page in pdf.pages:
        resources = page.obj.get("/Resources")
        page_fonts = resources.get("/Font") if resources is not None else None
        for _, font in (page_fonts.items() if page_fonts is not None else ()):
            base = name(font.get("/BaseFont")) or ""
            fonts.add("%s %s" % (name(font.get("/Subtype")), re.sub(r"^[A-Z]{6}\+", "", base)))
    xmp = root.Metadata.read_bytes().decode("utf-8", "replace") if "/Metadata" in root else ""
    title = re.search(r"<dc:title>.*?<rdf:li[^>]*>(.*?)</rdf:li>", xmp, re.S)
    part = re.search(r"<pdfuaid:part>\s*(\d+)\s*</pdfuaid:part>|pdfuaid:part=\"(\d+)\"", xmp)
    viewer = root.get("/ViewerPreferences")
    mark_info = root.get("/MarkInfo")
    return {
        "structTreeRoot": tree is not None,
        "parentTree": tree is not None and "/ParentTree" in tree,
        "roleMap": role_map,
        "roles": roles,
        "standardRoles": mapped,
        "alts": alts,
        "elementLangs": langs,
        "blocksInParagraphs": nested,
        "lang": str(root.Lang) if "/Lang" in root else None,
        "marked": bool(mark_info.get("/Marked", False)) if mark_info is not None else False,
        "displayDocTitle": bool(viewer.get("/DisplayDocTitle", False)) if viewer is not None else False,
        "xmpTitle": title.group(1) if title else None,
        "infoTitle": str(pdf.docinfo["/Title"]) if "/Title" in pdf.docinfo else None,
        "pdfuaPart": int(part.group(1) or part.group(2)) if part else None,
        "fonts": sorted(fonts),
    }


if __name__ == "__main__":
    print(json.dumps(inspect(sys.argv[1])))
