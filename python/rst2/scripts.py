"""Which scripts a document's text uses, and each character in its script's LaTeX.

pdfLaTeX with docutils' set-up (T1 fonts) typesets Latin text only; any
other character used to fail the whole PDF. Here every character of the text
is put in one class, from a table the TeX build writes from what the
shipped fonts really contain (scripts/tex/script-table.py, scripts.json):

* ``latin``: typeset as today, untouched (so a Latin-only document's LaTeX
  stays exactly as it was);
* ``cyrillic`` (T2A), ``greek`` (LGR), ``vietnamese`` (T5): runs of text are
  wrapped in a command that switches the font encoding (and the hyphenation
  patterns); the fonts are Computer Modern's (cm-super, CB fonts) and Latin
  Modern's, whatever the style's Latin font;
* ``cjk``: runs in a CJKutf8 environment with the font family that has the
  glyphs (Chinese simplified or traditional, Japanese, Korean);
* ``emoji``: hwemoji's pictures (Twemoji);
* ``symbols``: a command from the table (pifont, the math fonts);
* ``arabic``, ``hebrew``, ``devanagari``, ``bengali``, ``tamil``, ``thai``
  (the *shaped* scripts): only when the tree has LuaHBTeX (scripts.json's
  ``shaped``, see scripts/tex/script-table.py). A document with one of them
  is typeset by LuaLaTeX instead of pdfTeX (``Plan.engine``): its characters
  are written as they are, and babel picks the font and direction from them
  (script_preamble.lua_babel). There CJK text and emoji, whose pdfTeX
  packages LuaTeX cannot use, are placeholders;
* anything else (Syriac, Ethiopic, ...; the shaped scripts with an older
  tree): a visible boxed placeholder with the code point, counted.

The set of classes a document uses (its *script set*) decides what the
preamble loads (script_preamble.py): nothing more for a Latin-only
document; fontenc encodings, pattern selection, CJKutf8, hwemoji,
amssymb/pifont otherwise. The set is part of the settings, so each set gets
its own format (render.py).
"""

import bisect
import json
import os
import re
import unicodedata

from .contract import PATHS

TABLE_PATH = os.environ.get("RST2_SCRIPTS_TABLE", PATHS["scripts_table"])

# Script set members, in the order they are listed in the settings.
CYRILLIC, GREEK, VIETNAMESE, EMOJI, SYMBOLS, PLACEHOLDERS = (
    "cyrillic", "greek", "vietnamese", "emoji", "symbols", "placeholders")
CJK_FAMILIES = ("gbsn", "bsmi", "min", "mj")
# The scripts LuaLaTeX shapes with HarfBuzz (script-table.py's SHAPED), and
# those of them written right to left.
SHAPED = ("arabic", "hebrew", "devanagari", "bengali", "tamil", "thai")
RTL = frozenset(("arabic", "hebrew"))
PDFTEX, LUAHBTEX = "pdftex", "luahbtex"
# A member no character brings: the request asked for a tagged PDF (PDF/UA-1).
# It does not choose the engine: pdfTeX 1.40.26 with LaTeX 2024 tags as much
# as LuaHBTeX does (headings, lists, tables, figures' /Alt, links, notes,
# /Lang, the XMP), faster, and keeps the untagged document's fonts; only a
# shaped script takes a document to LuaHBTeX, tagged or not.
TAGGED = "tagged"
# The members a rendering reports (the others are choices within them).
REPORTED = frozenset(
    (CYRILLIC, GREEK, VIETNAMESE, EMOJI, SYMBOLS, PLACEHOLDERS) + tuple("cjk-" + f for f in CJK_FAMILIES) + SHAPED
)

# Between two characters of one run these stay inside it (so that a
# sentence is one run, hyphenated in its own language).
_JOINERS = frozenset(" ,.;:!?'()~-")
# Invisible format characters: no glyph to show, nothing lost.
_DROPPED = frozenset("\u200c\u200d\u2060\ufeff\ufe0e\ufe0f\u200e\u200f")
# ... except these two inside a shaped run, where they choose a letter's
# joining form (Persian ZWNJ) or a conjunct's (Indic ZWJ, ZWNJ).
_JOINING_CONTROLS = frozenset("\u200c\u200d")
_BREAK = "\u200b"  # a break opportunity
# Devanagari's dandas end sentences in Bengali too (and the Bengali and
# Tamil faces have them): in such a text they are that script's, so that
# a Bengali document needs no Devanagari locale and fonts.
_DANDAS = frozenset("\u0964\u0965")
_DANDA_SCRIPTS = ("bengali", "tamil")


class _Ranges:
    def __init__(self, pairs):
        self.lo = [lo for lo, _ in pairs]
        self.hi = [hi for _, hi in pairs]

    def __contains__(self, code):
        i = bisect.bisect_right(self.lo, code) - 1
        return i >= 0 and code <= self.hi[i]


class Table:
    """scripts.json, read once."""

    def __init__(self, data):
        self.latin = _Ranges(data.get("latin", [[0x20, 0x7E]]))
        self.cyrillic = _Ranges(data.get("cyrillic", []))
        self.greek = _Ranges(data.get("greek", []))
        self.vietnamese = _Ranges(data.get("vietnamese", []))
        self.emoji = _Ranges(data.get("emoji", []))
        self.cjk = {family: _Ranges(data.get("cjk", {}).get(family, [])) for family in CJK_FAMILIES}
        self.symbols = {int(code, 16): latex for code, latex in data.get("symbols", {}).items()}
        shaped = data.get("shaped") or {}
        # What LuaLaTeX gets for each shaped script (script_preamble.py reads it).
        self.shaped_fonts = {name: spec for name, spec in (shaped.get("scripts") or {}).items() if name in SHAPED}
        self.shaped = {name: _Ranges(spec.get("ranges", [])) for name, spec in self.shaped_fonts.items()}
        self.fallback = shaped.get("fallback") or None
        # What Latin Modern's OpenType faces have (a LuaLaTeX document's Latin
        # text), and what the Noto faces behind every shaped script's face have.
        self.shaped_latin = _Ranges(shaped.get("latin", []))
        self.fallback_covered = _Ranges((self.fallback or {}).get("ranges", []))


_table = None


def table():
    global _table
    if _table is None:
        try:
            with open(TABLE_PATH, encoding="utf-8") as f:
                data = json.load(f)
        except FileNotFoundError:
            # A TeX tree built before scripts.json existed: Latin and placeholders only.
            data = {}
        _table = Table(data)
    return _table


def forget_table():
    """Drops the table read so far. A memory snapshot is made before the TeX
    tree (and its scripts.json) may exist, and outlives a rebuilt tree: each
    interpreter restored from it must read the table it has now."""
    global _table
    _table = None


def normalize(text):
    """NFC: combining marks composed with their letters, as the fonts have them."""
    return unicodedata.normalize("NFC", text)


class Plan:
    """The script set of one document, and how each character is written."""

    def __init__(self, members=()):
        self.members = frozenset(members)

    @classmethod
    def parse(cls, setting):
        return cls(m for m in (setting or "").split(",") if m)

    def setting(self):
        return ",".join(sorted(self.members))

    def shaped(self):
        """The shaped scripts of this document, in SHAPED's order."""
        return [s for s in SHAPED if s in self.members]

    @property
    def engine(self):
        """The TeX engine: LuaHBTeX as soon as a shaped script is used (the
        table lists them only when the tree has that engine), whether the
        document is tagged or not."""
        return LUAHBTEX if self.shaped() else PDFTEX

    def cjk_order(self):
        """The CJK families in the order this document prefers them: its
        Japanese or Korean font first when it has kana or Hangul, then the
        Chinese font its Han characters lean to."""
        m = self.members
        chinese = ["bsmi", "gbsn"] if TRADITIONAL in m else ["gbsn", "bsmi"]
        preferred = [f for f in ("min", "mj") if "cjk-" + f in m] + chinese
        return preferred + [f for f in CJK_FAMILIES if f not in preferred]


def classify(char, t, cjk_order=CJK_FAMILIES, shaped=False):
    """(class, detail) of one character; class None: Latin, left as it is.

    ``shaped``: for a document LuaLaTeX typesets, where CJKutf8 and
    hwemoji (pdfTeX's) are not there.
    """
    code = ord(char)
    if code < 0x80 or code in t.latin:
        return None, None
    if char in _DROPPED:
        return "drop", None
    if char == _BREAK:
        return "break", None
    for script, covered in t.shaped.items():
        if code in covered:
            return script, None
    if shaped:
        kind, detail = classify(char, t, cjk_order)
        if kind == EMOJI or kind.startswith("cjk-"):
            # The ellipsis: pdfTeX's CJK fonts have it, and so have both the
            # Latin text's font here and the Noto faces behind a shaped
            # script's (the run it is in may be either). The minus sign and √
            # only Latin Modern has: placeholders, as a missing glyph in a
            # Hebrew run would be an empty box.
            both = code in t.shaped_latin and code in t.fallback_covered
            return (None, None) if both else (PLACEHOLDERS, None)
        return kind, detail
    if code in t.cyrillic:
        return CYRILLIC, None
    if code in t.greek:
        return GREEK, None
    if code in t.vietnamese:
        return VIETNAMESE, None
    # Below U+1F000 most emoji are symbols shown as text by default (↔, ♥):
    # a font's glyph first, the picture only when no font has one.
    picture_first = code >= 0x1F000
    if picture_first and code in t.emoji:
        return EMOJI, None
    if code in t.symbols:
        return SYMBOLS, t.symbols[code]
    for family in cjk_order:
        if code in t.cjk[family]:
            return "cjk-" + family, family
    if code in t.emoji:
        return EMOJI, None
    if unicodedata.category(char) == "Zs":
        return "space", None
    return PLACEHOLDERS, None


_KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]")
_HANGUL = re.compile("[\u1100-\u11ff\u3130-\u318f\uac00-\ud7af]")
_HAN = re.compile("[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
_UKRAINIAN = re.compile("[ЄєІіЇїҐґ]")
TRADITIONAL = "zh-traditional"


def plan_for(text, tagged=False):
    """The script set of a text (the whole source: a superset of what is written).

    ``tagged``: the PDF is to be tagged (member TAGGED), with the engine
    its scripts choose.
    """
    t = table()
    chars = set(normalize(text))
    flags = set()
    if any(_KANA.match(c) for c in chars):
        flags.add("cjk-min")
    if any(_HANGUL.match(c) for c in chars):
        flags.add("cjk-mj")
    # Han characters go first to the Chinese font whose repertoire this
    # text leans to (GB 2312: simplified, Big5: traditional).
    han = [ord(c) for c in chars if _HAN.match(c)]
    only_b5 = sum(1 for c in han if c in t.cjk["bsmi"] and c not in t.cjk["gbsn"])
    only_gb = sum(1 for c in han if c in t.cjk["gbsn"] and c not in t.cjk["bsmi"])
    if only_b5 > only_gb:
        flags.add(TRADITIONAL)
    order = Plan(flags).cjk_order()
    members = set(flags)
    for char in chars:
        kind, _ = classify(char, t, order)
        if kind is not None and kind not in ("drop", "break", "space"):
            members.add(kind)
    if "devanagari" in members and members.intersection(_DANDA_SCRIPTS) and not any(
            classify(c, t)[0] == "devanagari" for c in chars if c not in _DANDAS):
        members.discard("devanagari")
    if tagged:
        members.add(TAGGED)
    if Plan(members).engine == LUAHBTEX:
        # LuaLaTeX: the CJK and emoji of pdfTeX's packages become placeholders.
        members = {m for m in members if m != EMOJI and not m.startswith("cjk-") and m != TRADITIONAL}
        members.update(k for k, _ in (classify(c, t, order, shaped=True) for c in chars) if k == PLACEHOLDERS)
    if CYRILLIC in members and any(_UKRAINIAN.match(c) for c in chars):
        members.add("lang-ukrainian")
    return Plan(members)


class Marker:
    """Writes a translator's encoded text with each character in its class's LaTeX."""

    def __init__(self, plan):
        self.plan = plan
        self.table = table()
        self.order = plan.cjk_order()
        self.cyrillic_language = "ukrainian" if "lang-ukrainian" in plan.members else "russian"
        self.shaped = plan.engine == LUAHBTEX
        # Classes met that the plan lacks (text made by a transform from
        # nothing in the source): render.py typesets again with them.
        self.missing = set()

    def kind(self, char):
        return classify(char, self.table, self.order, self.shaped)

    def mark(self, text, counter=None):
        """``text`` (already escaped by docutils) with the non-Latin characters marked."""
        if all(ord(c) < 0x80 for c in text):
            return text
        text = normalize(text)
        out = []
        i, n = 0, len(text)
        while i < n:
            char = text[i]
            kind, detail = self.kind(char)
            if kind is None:
                out.append(char)
                i += 1
                continue
            if kind in (CYRILLIC, GREEK) or kind.startswith("cjk-"):
                end = self._run_end(text, i, kind)
                out.append(self._wrap(kind, detail, text[i:end]))
                i = end
                continue
            if kind == VIETNAMESE:
                start, end = self._word(text, i)
                # The word's Latin start is already out: take it back.
                del out[len(out) - (i - start):]
                out.append("\\rstwoViet{%s}" % text[start:end])
                i = end
                continue
            if kind in SHAPED:
                # As it is: babel chooses the font and direction (onchar).
                out.append(char)
                if not (char in _DANDAS and self.plan.members.intersection(_DANDA_SCRIPTS)):
                    self._need(kind)
                i += 1
                continue
            i += 1
            if kind == "drop":
                if self.shaped and char in _JOINING_CONTROLS and i > 1 and i < n and \
                        self.kind(text[i - 2])[0] in SHAPED and self.kind(text[i])[0] in SHAPED:
                    out.append(char)
                continue
            if kind == "break":
                out.append("\\hspace{0pt}")
            elif kind == "space":
                out.append(" ")
            elif kind == SYMBOLS:
                out.append(detail if detail.endswith("}") else detail + "{}")
                self._need(SYMBOLS)
            elif kind == EMOJI:
                out.append(char)
                self._need(EMOJI)
            else:
                out.append("\\rstwoU{%04X}" % ord(char))
                self._need(PLACEHOLDERS)
                if counter is not None:
                    counter.append(ord(char))
        return "".join(out)

    def mark_math(self, code, counter=None):
        """Math code with each run of non-Latin characters (which math fonts
        lack) set as text: ``\\text{...}``, marked like any text."""
        if all(ord(c) < 0x80 for c in code):
            return code
        code = normalize(code)
        out = []
        i, n = 0, len(code)
        while i < n:
            if self.kind(code[i])[0] is None:
                out.append(code[i])
                i += 1
                continue
            j = i + 1
            while j < n and self.kind(code[j])[0] is not None:
                j += 1
            out.append("\\text{%s}" % self.mark(code[i:j], counter))
            i = j
        return "".join(out)

    def _need(self, member):
        if member not in self.plan.members:
            self.missing.add(member)

    def _run_end(self, text, i, kind):
        end = j = i + 1
        while j < len(text):
            char = text[j]
            if self.kind(char)[0] == kind:
                j += 1
                end = j
            elif char in _JOINERS:
                j += 1
            else:
                break
        return end

    def _word(self, text, i):
        start = i
        while start > 0 and text[start - 1].isalpha():
            start -= 1
        end = i + 1
        while end < len(text) and text[end].isalpha() and self.kind(text[end])[0] in (None, VIETNAMESE):
            end += 1
        self._need(VIETNAMESE)
        return start, end

    def _wrap(self, kind, detail, run):
        self._need(kind)
        if kind == CYRILLIC:
            return "\\rstwoCyr{%s}{%s}" % (self.cyrillic_language, run)
        if kind == GREEK:
            polytonic = any(0x1F00 <= ord(c) <= 0x1FFF for c in run)
            return "\\rstwoGrk{%s}{%s}" % ("greek" if polytonic else "monogreek", run)
        return "\\rstwoCJK{%s}{%s}" % (detail, run)
