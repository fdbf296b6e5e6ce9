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
* ``shaped`` (when the tree has LuaLaTeX's packages, luaotfload.sty, and the
  Noto fallback face; ``--shaped``/``--no-shaped`` force it on or off):
  the scripts LuaLaTeX typesets with
  HarfBuzz, each with the Noto faces that have it (file name stems, found by
  kpathsea as ``<stem>-Regular.ttf`` and ``<stem>-Bold.ttf``) and the code
  points of the script's blocks that every one of those faces has (read
  from each file's cmap); ``fallback`` names the faces that give the script
  faces the digits, punctuation and bullets they lack; ``latin`` the code
  points every Latin Modern OpenType face of the text has. Absent: every
  character of these scripts stays a placeholder (pdfTeX).

      "shaped": {"engine": "luahbtex", "format": "lualatex.fmt",
                 "scripts": {"arabic": {"rm": "NotoSansArabic", "sf": "NotoSansArabic",
                                        "bold": true, "ranges": [[1536, 1791], ...]}, ...},
                 "fallback": {"rm": "NotoSerif", "sf": "NotoSans", "bold": true,
                              "ranges": [[32, 126], ...]}}

  ``sf`` is null when the tree has no sans face (the serif one serves);
  ``bold`` is false when a face lacks its bold file (fontspec then
  emboldens nothing and uses the regular one).

Usage: script-table.py [--shaped | --no-shaped] <texmf> <out.json>
"""

import json
import os
import re
import struct
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


# The shaped scripts: name -> (serif stem, sans stem, the script's Unicode blocks).
# Arabic, Tamil and Thai are set in the Noto Sans faces for serif text too,
# for the PDF's text: Noto Naskh Arabic builds lam-alef from two glyphs that
# pdftotext reads back apart (on lines of their own), and Noto Serif Tamil's
# pulli and Noto Serif Thai's vowel marks come back after the next letter;
# the Sans faces' come back in place (but for Thai's stacked marks: ทั้ง).
SHAPED = {
    "arabic": ("NotoSansArabic", "NotoSansArabic",
               [(0x0600, 0x06FF), (0x0750, 0x077F), (0x0870, 0x089F), (0x08A0, 0x08FF),
                (0xFB50, 0xFDFF), (0xFE70, 0xFEFF)]),
    "hebrew": ("NotoSerifHebrew", "NotoSansHebrew", [(0x0590, 0x05FF), (0xFB1D, 0xFB4F)]),
    "devanagari": ("NotoSerifDevanagari", "NotoSansDevanagari",
                   [(0x0900, 0x097F), (0xA8E0, 0xA8FF), (0x1CD0, 0x1CFF)]),
    "bengali": ("NotoSerifBengali", "NotoSansBengali", [(0x0980, 0x09FF)]),
    "tamil": ("NotoSansTamil", "NotoSansTamil", [(0x0B80, 0x0BFF), (0x11FC0, 0x11FFF)]),
    "thai": ("NotoSansThai", "NotoSansThai", [(0x0E00, 0x0E7F)]),
}
FALLBACK = ("NotoSerif", "NotoSans")
# The Latin Modern OpenType faces of a LuaLaTeX document's text: serif, bold, sans and typewriter.
LATIN_MODERN = ("lmroman10-regular.otf", "lmroman10-bold.otf", "lmroman10-italic.otf", "lmsans10-regular.otf", "lmmono10-regular.otf")


def cmap(path):
    """The code points a TrueType/OpenType file maps to a glyph (cmap formats 4 and 12)."""
    data = read(path, "rb")
    tables = struct.unpack(">H", data[4:6])[0]
    where = None
    for i in range(tables):
        tag, _, offset, _ = struct.unpack(">4sIII", data[12 + 16 * i: 28 + 16 * i])
        if tag == b"cmap":
            where = offset
    if where is None:
        return set()
    best = {}
    count = struct.unpack(">H", data[where + 2: where + 4])[0]
    for i in range(count):
        platform, encoding, offset = struct.unpack(">HHI", data[where + 4 + 8 * i: where + 12 + 8 * i])
        if (platform, encoding) in ((3, 10), (0, 4), (0, 6), (3, 1), (0, 3)):
            fmt = struct.unpack(">H", data[where + offset: where + offset + 2])[0]
            if fmt in (4, 12):
                best.setdefault(fmt, where + offset)
    if 12 in best:
        return _cmap12(data, best[12])
    return _cmap4(data, best[4]) if 4 in best else set()


def _cmap12(data, at):
    groups = struct.unpack(">I", data[at + 12: at + 16])[0]
    points = set()
    for i in range(groups):
        start, end, glyph = struct.unpack(">III", data[at + 16 + 12 * i: at + 28 + 12 * i])
        if glyph:
            points.update(range(start, end + 1))
        else:
            points.update(range(start + 1, end + 1))
    return points


def _cmap4(data, at):
    segs = struct.unpack(">H", data[at + 6: at + 8])[0] // 2
    ends_at = at + 14
    starts_at = ends_at + 2 * segs + 2
    deltas_at = starts_at + 2 * segs
    offsets_at = deltas_at + 2 * segs
    points = set()
    for i in range(segs):
        end, start = (struct.unpack(">H", data[a + 2 * i: a + 2 * i + 2])[0] for a in (ends_at, starts_at))
        delta = struct.unpack(">h", data[deltas_at + 2 * i: deltas_at + 2 * i + 2])[0]
        range_offset = struct.unpack(">H", data[offsets_at + 2 * i: offsets_at + 2 * i + 2])[0]
        for code in range(start, min(end, 0xFFFE) + 1):
            if range_offset == 0:
                glyph = (code + delta) & 0xFFFF
            else:
                spot = offsets_at + 2 * i + range_offset + 2 * (code - start)
                glyph = struct.unpack(">H", data[spot: spot + 2])[0]
                if glyph:
                    glyph = (glyph + delta) & 0xFFFF
            if glyph:
                points.add(code)
    return points


def shaped(files):
    """The ``shaped`` entry: see the module's docstring."""

    def faces(stem):
        regular, bold = files.get(stem + "-Regular.ttf"), files.get(stem + "-Bold.ttf")
        return [p for p in (regular, bold) if p] if regular else []

    def family(serif, sans):
        serif_faces, sans_faces = faces(serif), faces(sans)
        if not serif_faces:
            return None, set()
        every = serif_faces + sans_faces
        points = set.intersection(*(cmap(p) for p in every))
        bold = len(serif_faces) == 2 and len(sans_faces) in (0, 2)
        return {"rm": serif, "sf": sans if sans_faces else None, "bold": bold}, points

    scripts = {}
    for name, (serif, sans, blocks) in SHAPED.items():
        entry, points = family(serif, sans)
        if entry is None:
            continue
        covered = {p for p in points if any(lo <= p <= hi for lo, hi in blocks)}
        if covered:
            entry["ranges"] = ranges(covered)
            scripts[name] = entry
    fallback, points = family(*FALLBACK)
    if fallback is not None:
        fallback["ranges"] = ranges(points)
    entry = {"engine": "luahbtex", "format": "lualatex.fmt", "scripts": scripts, "fallback": fallback}
    # The Latin text of a LuaLaTeX document is in Latin Modern's OpenType
    # faces (fontspec's default; the styles' families are substituted by
    # them): what all of those have, pdfTeX's "latin" aside (the ellipsis,
    # which pdfTeX sets in a CJK font).
    lm = [files.get(name) for name in LATIN_MODERN]
    if all(lm):
        entry["latin"] = ranges(set.intersection(*(cmap(p) for p in lm)))
    return entry


def ranges(points):
    out = []
    for p in sorted(points):
        if out and out[-1][1] == p - 1:
            out[-1][1] = p
        else:
            out.append([p, p])
    return out


def has_shaping(files):
    """Whether the tree has what LuaLaTeX documents need (shaping-tree.sh's files)."""
    return "luaotfload.sty" in files and "fontspec.sty" in files and FALLBACK[0] + "-Regular.ttf" in files


def main(texmf, out, with_shaped=None):
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
    if with_shaped is None:
        with_shaped = has_shaping(files)
    if with_shaped:
        table["shaped"] = shaped(files)
    with open(out, "w", encoding="utf-8") as f:
        json.dump(table, f, sort_keys=True, separators=(",", ":"))
        f.write("\n")
    print("scripts.json: %s" % ", ".join(
        "%s %d" % (k, sum(hi - lo + 1 for lo, hi in v)) for k, v in table.items() if isinstance(v, list)
    ) + ", cjk %s, symbols %d" % (
        {k: sum(hi - lo + 1 for lo, hi in v) for k, v in table["cjk"].items()}, len(table["symbols"])))
    if with_shaped:
        print("scripts.json: shaped %s" % {
            k: sum(hi - lo + 1 for lo, hi in v["ranges"]) for k, v in table["shaped"]["scripts"].items()})


if __name__ == "__main__":
    arguments = sys.argv[1:]
    flag = True if "--shaped" in arguments else False if "--no-shaped" in arguments else None
    arguments = [a for a in arguments if a not in ("--shaped", "--no-shaped")]
    main(arguments[0], arguments[1], with_shaped=flag)
