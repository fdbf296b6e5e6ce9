#!/usr/bin/env python3
"""Writes scripts.json: which characters the built texmf tree can typeset, and how.

Run by scripts/build-tex.sh on the finished tree; read by python/rst2/scripts.py.
Everything comes from the files that are really shipped, so a character is
only listed when a shipped font has its glyph:

* ``latin``: what the default set-up (T1 + the kernel's TS1, OT1, OML, OMS)
  typesets from UTF-8 input, from the encodings' ``*enc.dfu`` files;
* ``cyrillic`` (T2A), ``greek`` (LGR), ``vietnamese`` (T5): the same for
  the encodings the script sets load;
* ``cjk``: per CJK font family, the code points its Unicode subfonts
  (``<prefix><hh>.tfm`` holds U+hh00..U+hhFF) have a glyph for;
* ``emoji``: the code points hwemoji declares (its sequences start with one;
  below U+1F000 python/rst2/scripts.py prefers a font's symbol to the picture);
* ``symbols``: code point -> LaTeX, for symbols in the Type 1 fonts of
  pifont (Zapf Dingbats) and of the math fonts (Computer Modern, AMS):
  each font's built-in encoding gives the glyph name of a slot, pdfTeX's
  glyphtounicode.tex the code point of that name, and pifont's ``\\ding`` or
  the math symbol declared for that slot the LaTeX.

Usage: script-table.py <texmf> <out.json>
"""

import json
import os
import re
import sys

DECLARE = re.compile(r"\\DeclareUnicodeCharacter\{([0-9A-Fa-f]{4,6})\}")
MATH_SYMBOL = re.compile(r"\\DeclareMathSymbol\{?\\([A-Za-z]+)\}?\s*\{\\math(?:ord|op|bin|rel|open|close|punct)\}\s*\{(\w+)\}\s*\{\"([0-9A-Fa-f]{2})\}")
GLYPH_TO_UNICODE = re.compile(r"\\pdfglyphtounicode\{([^}]+)\}\{([0-9A-Fa-f]{4,6})\}")
ENCODING_SLOT = re.compile(rb"dup\s+(\d+)\s*/([^\s/]+)\s+put")

# Math symbol fonts by their LaTeX name: fontmath.ltx and amsfonts.sty.
MATH_FONTS = {"symbols": "cmsy10", "letters": "cmmi10", "AMSa": "msam10", "AMSb": "msbm10"}
# CJK families of python/rst2/scripts.py: family -> subfont prefix.
CJK_FAMILIES = {"gbsn": "gbsnu", "bsmi": "bsmiu", "min": "udmj", "mj": "nanummjm"}
# Ranges a symbol table must not claim: letters of the scripts, spaces,
# control and private-use characters.
NOT_SYMBOLS = [(0x0000, 0x00FF), (0x0370, 0x03FF), (0x0400, 0x052F), (0x1F00, 0x1FFF),
               (0x2000, 0x200F), (0xE000, 0xF8FF), (0xFB00, 0xFB06)]


def index(texmf):
    files = {}
    for root, _, names in os.walk(texmf):
        for name in names:
            files.setdefault(name, os.path.join(root, name))
    return files


def read(path, mode="r"):
    with open(path, mode, **({} if "b" in mode else {"encoding": "latin-1"})) as f:
        return f.read()


def declared(files, *names):
    found = set()
    for name in names:
        if name in files:
            found.update(int(code, 16) for code in DECLARE.findall(read(files[name])))
    return found


def tfm_chars(path):
    data = read(path, "rb")
    lh, bc, ec = (int.from_bytes(data[i:i + 2], "big") for i in (2, 4, 6))
    start = 24 + 4 * lh
    return {bc + i for i in range(max(0, ec - bc + 1)) if data[start + 4 * i] != 0}


def cjk_coverage(files):
    subfont = re.compile(r"^([a-z]+)([0-9a-f]{2})\.tfm$")
    by_prefix = {}
    for name in files:
        m = subfont.match(name)
        if m:
            by_prefix.setdefault(m.group(1), []).append((int(m.group(2), 16), files[name]))
    coverage = {}
    for family, prefix in CJK_FAMILIES.items():
        points = set()
        for plane, path in by_prefix.get(prefix, []):
            points.update(plane * 256 + c for c in tfm_chars(path))
        coverage[family] = ranges(points)
    return coverage


def builtin_encoding(path):
    data = read(path, "rb")
    clear = data[: data.find(b"eexec")] if b"eexec" in data else data[:65536]
    return {int(slot): name.decode("latin-1") for slot, name in ENCODING_SLOT.findall(clear)}


def font_file(files, pdftex_map, tfm):
    for line in pdftex_map.splitlines():
        parts = line.split()
        if parts and parts[0] == tfm:
            for part in parts:
                if part.startswith("<") and part.endswith(".pfb"):
                    return files.get(part.lstrip("<"))
    return None


def symbols(files, taken):
    names = {}
    for glyph, code in GLYPH_TO_UNICODE.findall(read(files["glyphtounicode.tex"])):
        names.setdefault(glyph, int(code, 16))
    pdftex_map = read(files["pdftex.map"])

    def unicode_of(glyph, tfm):
        # glyphtounicode.tex gives some fonts' names per font (tfm:pzdr/a1).
        for name in ("tfm:%s/%s" % (tfm, glyph), glyph):
            if name in names:
                return names[name]
        m = re.fullmatch(r"uni([0-9A-F]{4})|u([0-9A-F]{4,6})", glyph)
        return int(m.group(1) or m.group(2), 16) if m else None

    table = {}

    def offer(code, latex):
        if code is None or code in taken or code in table:
            return
        if any(lo <= code <= hi for lo, hi in NOT_SYMBOLS):
            return
        table[code] = latex

    # pifont first: a dingbat is text, a math symbol needs math mode.
    zapf = font_file(files, pdftex_map, "pzdr")
    if zapf:
        for slot, glyph in sorted(builtin_encoding(zapf).items()):
            offer(unicode_of(glyph, "pzdr"), "\\ding{%d}" % slot)
    sources = [read(files[n]) for n in ("fontmath.ltx", "amssymb.sty", "amsfonts.sty") if n in files]
    encodings = {}
    for text in sources:
        for command, font, slot in MATH_SYMBOL.findall(text):
            tfm = MATH_FONTS.get(font)
            if tfm is None:
                continue
            if tfm not in encodings:
                path = font_file(files, pdftex_map, tfm)
                encodings[tfm] = builtin_encoding(path) if path else {}
            glyph = encodings[tfm].get(int(slot, 16))
            if glyph:
                offer(unicode_of(glyph, tfm), "\\ensuremath{\\%s}" % command)
    return {"%04X" % code: latex for code, latex in sorted(table.items())}


def ranges(points):
    out = []
    for p in sorted(points):
        if out and out[-1][1] == p - 1:
            out[-1][1] = p
        else:
            out.append([p, p])
    return out


def main(texmf, out):
    files = index(texmf)
    ascii_ = set(range(0x20, 0x7F))
    latin = ascii_ | declared(files, "t1enc.dfu", "ts1enc.dfu", "ot1enc.dfu", "omlenc.dfu", "omsenc.dfu")
    cyrillic = declared(files, "t2aenc.dfu") - latin
    greek = declared(files, "lgrenc.dfu") - latin
    vietnamese = declared(files, "t5enc.dfu") - latin
    emoji = declared(files, "hwemoji.sty")
    # Emoji stay candidates: below U+1F000 scripts.py prefers a font's glyph.
    taken = latin | cyrillic | greek | vietnamese
    table = {
        "latin": ranges(latin),
        "cyrillic": ranges(cyrillic),
        "greek": ranges(greek),
        "vietnamese": ranges(vietnamese),
        "emoji": ranges(emoji),
        "cjk": cjk_coverage(files),
        "symbols": symbols(files, taken),
    }
    with open(out, "w", encoding="utf-8") as f:
        json.dump(table, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print("scripts.json: %s" % ", ".join(
        "%s %d" % (k, sum(hi - lo + 1 for lo, hi in v)) for k, v in table.items() if isinstance(v, list)
    ) + ", cjk %s, symbols %d" % (
        {k: sum(hi - lo + 1 for lo, hi in v) for k, v in table["cjk"].items()}, len(table["symbols"])))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
