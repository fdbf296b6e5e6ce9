"""The LaTeX set-up a document's script set needs (scripts.py decides the set
and writes each character): the preamble's fonts, encodings and commands,
docutils' font_encoding setting, and the glyph mappings of the PDF's text
layer. Nothing for a Latin-only document, whose LaTeX stays as it was.
"""

from .scripts import CJK_FAMILIES, CYRILLIC, EMOJI, GREEK, LUAHBTEX, RTL, SYMBOLS, TAGGED, TRADITIONAL, VIETNAMESE, table

ENCODINGS = {CYRILLIC: "T2A", GREEK: "LGR", VIETNAMESE: "T5"}

# T2A shares its i, I, j, J slots with Latin; in our runs (which hold no
# Latin letters) they are always the Cyrillic letters, so the PDF's text
# says so (pdfTeX's per-font glyph mapping: tfm:<font>/<glyph>).
_T2A_FONTS = ("larm1000", "lati1000", "lasl1000", "lacc1000", "labx1000", "labi1000",
              "lass1000", "lasi1000", "lasx1000", "latt1000")
_T2A_SHARED = (("i", "0456"), ("I", "0406"), ("j", "0458"), ("J", "0408"))


def tounicode(plan):
    """Glyph mappings for the PDF's text layer; set after the format marker."""
    if CYRILLIC not in plan.members or plan.engine == LUAHBTEX:
        return ""
    # A document docutils' layout keeps (no format) has no glyph mapping yet.
    return "% rst2: Cyrillic letters T2A shares with Latin\n" + (
        "\\ifnum\\pdfgentounicode=0 \\input glyphtounicode \\pdfgentounicode=1 \\fi\n"
    ) + "".join(
        "\\pdfglyphtounicode{tfm:%s/%s}{%s}\n" % (font, glyph, code) for font in _T2A_FONTS for glyph, code in _T2A_SHARED
    )


def font_encoding(plan, default="T1"):
    """docutils' font_encoding setting: the script encodings first, T1 (the default) last."""
    extra = [ENCODINGS[m] for m in (CYRILLIC, GREEK, VIETNAMESE) if m in plan.members]
    return ",".join(extra + [default]) if extra else default


_COMMON = r"""%%% rst2: scripts (python/rst2/scripts.py)
\makeatletter
% The run's family in the script's fonts: typewriter, sans or roman, as the
% Latin text around it.
\def\rstwo@pick#1#2#3{\edef\rstwo@f{\f@family}\edef\rstwo@t{\ttdefault}\edef\rstwo@s{\sfdefault}%
  \ifx\rstwo@f\rstwo@t\def\rstwo@f{#3}\else\ifx\rstwo@f\rstwo@s\def\rstwo@f{#2}\else\def\rstwo@f{#1}\fi\fi}
% Hyphenation patterns by babel's name, when the format has them.
\def\rstwo@lang#1{\ifcsname l@#1\endcsname\language\csname l@#1\endcsname\fi}
% Bookmarks and PDF metadata (set in the preamble) get the text itself.
\def\rstwo@codepoint#1{U+#1}
\AddToHook{package/hyperref/after}{\pdfstringdefDisableCommands{%
  \let\rstwoU\rstwo@codepoint\let\rstwoCyr\@secondoftwo\let\rstwoGrk\@secondoftwo
  \let\rstwoCJK\@secondoftwo\let\rstwoViet\@firstofone}}
"""

_PLACEHOLDER = r"""% A character no shipped font has: its code point, boxed.
% (A line may break after each: a word of them is otherwise one long box.)
\DeclareRobustCommand\rstwoU[1]{{\setlength\fboxsep{1pt}\fbox{\normalfont\ttfamily\scriptsize U+#1}}\allowbreak}
"""

_CYRILLIC = r"""% Cyrillic: cm-super's T2A fonts (10 pt design, scaled)
\DeclareFontFamily{T2A}{cmr}{\hyphenchar\font45 }
\DeclareFontShape{T2A}{cmr}{m}{n}{<-> larm1000}{}
\DeclareFontShape{T2A}{cmr}{m}{it}{<-> lati1000}{}
\DeclareFontShape{T2A}{cmr}{m}{sl}{<-> lasl1000}{}
\DeclareFontShape{T2A}{cmr}{m}{sc}{<-> lacc1000}{}
\DeclareFontShape{T2A}{cmr}{bx}{n}{<-> labx1000}{}
\DeclareFontShape{T2A}{cmr}{bx}{it}{<-> labi1000}{}
\DeclareFontShape{T2A}{cmr}{bx}{sl}{<-> ssub * cmr/bx/it}{}
\DeclareFontShape{T2A}{cmr}{b}{n}{<-> ssub * cmr/bx/n}{}
\DeclareFontShape{T2A}{cmr}{b}{it}{<-> ssub * cmr/bx/it}{}
\DeclareFontFamily{T2A}{cmss}{\hyphenchar\font45 }
\DeclareFontShape{T2A}{cmss}{m}{n}{<-> lass1000}{}
\DeclareFontShape{T2A}{cmss}{m}{it}{<-> lasi1000}{}
\DeclareFontShape{T2A}{cmss}{m}{sl}{<-> ssub * cmss/m/it}{}
\DeclareFontShape{T2A}{cmss}{bx}{n}{<-> lasx1000}{}
\DeclareFontShape{T2A}{cmss}{b}{n}{<-> ssub * cmss/bx/n}{}
\DeclareFontFamily{T2A}{cmtt}{\hyphenchar\font\m@ne}
\DeclareFontShape{T2A}{cmtt}{m}{n}{<-> latt1000}{}
\DeclareFontShape{T2A}{cmtt}{m}{it}{<-> ssub * cmtt/m/n}{}
\DeclareFontShape{T2A}{cmtt}{bx}{n}{<-> ssub * cmtt/m/n}{}
% (cmap, in docutils' own layout, would map them to Latin: tounicode() does it right.)
\global\@namedef{cmap@set@T2A}{}
\DeclareRobustCommand\rstwoCyr[2]{{\rstwo@pick{cmr}{cmss}{cmtt}\fontencoding{T2A}\fontfamily{\rstwo@f}\selectfont\rstwo@lang{#1}#2}}
"""

_GREEK = r"""% Greek: the CB fonts (LGR, 10 pt design, scaled)
\DeclareFontFamily{LGR}{cmr}{}
\DeclareFontShape{LGR}{cmr}{m}{n}{<-> grmn1000}{}
\DeclareFontShape{LGR}{cmr}{m}{it}{<-> grmi1000}{}
\DeclareFontShape{LGR}{cmr}{m}{sl}{<-> grmo1000}{}
\DeclareFontShape{LGR}{cmr}{m}{sc}{<-> grmc1000}{}
\DeclareFontShape{LGR}{cmr}{bx}{n}{<-> grxn1000}{}
\DeclareFontShape{LGR}{cmr}{bx}{it}{<-> grxi1000}{}
\DeclareFontShape{LGR}{cmr}{bx}{sl}{<-> grxo1000}{}
\DeclareFontShape{LGR}{cmr}{b}{n}{<-> ssub * cmr/bx/n}{}
\DeclareFontShape{LGR}{cmr}{b}{it}{<-> ssub * cmr/bx/it}{}
\DeclareFontFamily{LGR}{cmss}{}
\DeclareFontShape{LGR}{cmss}{m}{n}{<-> gsmn1000}{}
\DeclareFontShape{LGR}{cmss}{m}{it}{<-> gsmo1000}{}
\DeclareFontShape{LGR}{cmss}{m}{sl}{<-> gsmo1000}{}
\DeclareFontShape{LGR}{cmss}{bx}{n}{<-> gsxn1000}{}
\DeclareFontShape{LGR}{cmss}{b}{n}{<-> ssub * cmss/bx/n}{}
\DeclareFontFamily{LGR}{cmtt}{\hyphenchar\font\m@ne}
\DeclareFontShape{LGR}{cmtt}{m}{n}{<-> gttn1000}{}
\DeclareFontShape{LGR}{cmtt}{m}{it}{<-> ssub * cmtt/m/n}{}
\DeclareFontShape{LGR}{cmtt}{bx}{n}{<-> ssub * cmtt/m/n}{}
\DeclareRobustCommand\rstwoGrk[2]{{\rstwo@pick{cmr}{cmss}{cmtt}\fontencoding{LGR}\fontfamily{\rstwo@f}\selectfont\rstwo@lang{#1}#2}}
"""

_VIETNAMESE = r"""% Vietnamese: Latin Modern in T5 (vntex's encoding; its own T5 fonts are not shipped)
\DeclareFontSubstitution{T5}{lmr}{m}{n}
\DeclareRobustCommand\rstwoViet[1]{{\rstwo@pick{lmr}{lmss}{lmtt}\fontencoding{T5}\fontfamily{\rstwo@f}\selectfont#1}}
"""

_CJK = r"""% CJK: CJKutf8 with the Unicode subfonts; no fake bold (it would print each
% character three times, and text extraction would see three).
\usepackage{CJKutf8}
% CJKutf8 gives each subfont a ToUnicode CMap (that makes the text
% extractable) with \pdfobj, which rst2's primitive lock takes from the
% body; CJK's own fixed CMap writer keeps a copy of the primitive.
\usepackage{etoolbox}
\let\rstwo@pdfobj\pdfobj
\patchcmd{\CJK@addcmap}{\pdfobj}{\rstwo@pdfobj}{}{\PackageError{rst2}{CJKutf8's CMap writer changed}{}}
% CJK reads its UTF8 binding file when its first environment opens, with
% the catcodes in force there: a literal block's break the file (alltt makes
% # % $ & ^ _ plain characters and spaces and line ends active, \@noligs
% makes ` < > , ' - active), so they have their usual meaning while the
% environment opens (the run itself is read already).
\DeclareRobustCommand\rstwoCJK[2]{\begingroup\catcode`\#=6 \catcode`\%=14 \catcode`\$=3 \catcode`\&=4
  \catcode`\^=7 \catcode`\_=8 \catcode32=10 \catcode13=5 \catcode`\`=12 \catcode`\<=12 \catcode`\>=12
  \catcode`\,=12 \catcode`\'=12 \catcode`\-=12 \begin{CJK}{UTF8}{#1}#2\end{CJK}\endgroup}
"""

_CJK_FAMILY = r"""\DeclareFontFamily{C70}{%(family)s}{\hyphenchar\font\m@ne}
\DeclareFontShape{C70}{%(family)s}{m}{n}{<-> CJK * %(font)s}{\CJKnormal}
\DeclareFontShape{C70}{%(family)s}{m}{it}{<-> CJKssub * %(family)s/m/n}{}
\DeclareFontShape{C70}{%(family)s}{m}{sl}{<-> CJKssub * %(family)s/m/n}{}
\DeclareFontShape{C70}{%(family)s}{m}{sc}{<-> CJKssub * %(family)s/m/n}{}
\DeclareFontShape{C70}{%(family)s}{bx}{n}{<-> CJKssub * %(family)s/m/n}{}
\DeclareFontShape{C70}{%(family)s}{bx}{it}{<-> CJKssub * %(family)s/m/n}{}
\DeclareFontShape{C70}{%(family)s}{b}{n}{<-> CJKssub * %(family)s/m/n}{}
"""
_CJK_FONTS = {"gbsn": "gbsnu", "bsmi": "bsmiu", "min": "udmj", "mj": "nanummjm"}

_EMOJI = r"""% Emoji: hwemoji (Twemoji pictures, CC-BY 4.0)
\usepackage{hwemoji}
% hwemoji sets each emoji as \scalerel*{\includegraphics[page=N]{...}}{X}:
% at every occurrence the picture is included twice and resized through
% calc and graphicx, and a line is logged, 1 ms an emoji in our pdfTeX, so
% 30,000 emoji ran out of the PDF time budget. The same box here with
% pdfTeX's primitives: each page read once per document and its number and
% size kept in a macro, each occurrence a reference scaled to the height
% plus depth of a math X at the current size (as scalerel measures it) and
% lowered by its depth. Math mode keeps hwemoji's own (scalerel follows the
% math style there).
\let\rstwo@emojiMath\hwemoji@insert
\newbox\rstwo@emojiBox
\newdimen\rstwo@emojiH
\def\hwemoji@insert#1{\ifmmode\rstwo@emojiMath{#1}\else\rstwo@emoji{#1}\fi}
\def\rstwo@emoji#1{%
  \expandafter\ifx\csname rstwo@emoji@#1\endcsname\relax
    \pdfximage page #1 cropbox {hwemoji-assets.pdf}%
    \setbox\rstwo@emojiBox\hbox{\pdfrefximage\pdflastximage}%
    \expandafter\xdef\csname rstwo@emoji@#1\endcsname
      {{\the\pdflastximage}{\the\wd\rstwo@emojiBox}{\the\ht\rstwo@emojiBox}}%
  \fi
  \expandafter\expandafter\expandafter\rstwo@emojiSet\csname rstwo@emoji@#1\endcsname}
\def\rstwo@emojiSet#1#2#3{%
  \setbox\rstwo@emojiBox\hbox{$X$}%
  \rstwo@emojiH\dimexpr\ht\rstwo@emojiBox+\dp\rstwo@emojiBox\relax
  \edef\rstwo@emojiS{\strip@pt\dimexpr\p@*\rstwo@emojiH/\dimexpr#3\relax\relax}%
  \dimen@\dp\rstwo@emojiBox
  \setbox\rstwo@emojiBox\hbox{\pdfsave\pdfsetmatrix{\rstwo@emojiS\space 0 0 \rstwo@emojiS}%
    \rlap{\pdfrefximage#1}\pdfrestore}%
  \wd\rstwo@emojiBox\dimexpr#2*\rstwo@emojiH/\dimexpr#3\relax\relax
  \ht\rstwo@emojiBox\rstwo@emojiH
  \dp\rstwo@emojiBox\z@
  \leavevmode\lower\dimen@\box\rstwo@emojiBox}
"""

_SYMBOLS = r"""% Symbols: the commands of scripts.json
\usepackage{amssymb}
\usepackage{pifont}
"""


def preamble(plan):
    """LaTeX for the custom-preamble part; empty for a Latin-only document."""
    m = plan.members
    if not m - {"lang-ukrainian", TRADITIONAL, TAGGED}:
        return ""
    parts = [_COMMON, _PLACEHOLDER]
    if CYRILLIC in m:
        parts.append(_CYRILLIC)
    if GREEK in m:
        parts.append(_GREEK)
    if VIETNAMESE in m:
        parts.append(_VIETNAMESE)
    families = [f for f in CJK_FAMILIES if "cjk-" + f in m]
    if families:
        parts.append(_CJK)
        parts.extend(_CJK_FAMILY % {"family": f, "font": _CJK_FONTS[f]} for f in families)
    if EMOJI in m:
        parts.append(_EMOJI)
    if SYMBOLS in m:
        parts.append(_SYMBOLS)
    parts.append("\\makeatother\n")
    return "".join(parts)


# ---------------------------------------------------------------------------
# LuaLaTeX (LuaHBTeX): documents with a shaped script (scripts.SHAPED).
#
# docutils' LaTeX stays as it is but for the preamble: fontspec and babel
# instead of fontenc/inputenc and babel's classic options (latex_writer.py
# puts lua_babel() where docutils' babel line goes, before the style), and
# lua_preamble() instead of the custom preamble's Type 1 fonts.

# babel's locale for each shaped script, when the document's main language
# is not already one of that script.
LOCALES = {"arabic": "arabic", "hebrew": "hebrew", "devanagari": "hindi", "bengali": "bengali",
           "tamil": "tamil", "thai": "thai"}
# Main languages (docutils' babel names and the languages of ini files)
# that are a shaped script's: babel imports them from its ini files.
MAIN_LOCALES = {"arabic": "arabic", "persian": "arabic", "farsi": "arabic", "urdu": "arabic",
                "hebrew": "hebrew", "hindi": "devanagari", "marathi": "devanagari",
                "nepali": "devanagari", "sanskrit": "devanagari", "bengali": "bengali",
                "tamil": "tamil", "thai": "thai"}
# language_code -> babel locale, for the codes docutils has no babel name for.
LANGUAGE_CODES = {"fa": "persian", "ur": "urdu", "hi": "hindi", "mr": "marathi", "ne": "nepali",
                  "sa": "sanskrit", "bn": "bengali", "ta": "tamil", "th": "thai", "he": "hebrew",
                  "ar": "arabic"}

# The styles' Type 1 families have no TU (OpenType) shapes: Latin Modern's
# OpenType fonts instead (the same as the default style's).
_FAMILY_SUBSTITUTES = (("ptm", "lmr"), ("ppl", "lmr"), ("pplx", "lmr"), ("pplj", "lmr"),
                       ("phv", "lmss"), ("pcr", "lmtt"), ("cmr", "lmr"), ("cmss", "lmss"), ("cmtt", "lmtt"))

# Glyphs HarfBuzz-mode fonts map to several code points (an Arabic letter's
# isolated form and its presentation form) get the lowest in the PDF's
# ToUnicode, the base letter, not the presentation form (issue 31, §5):
# run before luaotfload writes the maps. A ligature glyph (Arabic lam-alef)
# would map to its letters in logical order, which pdftotext reverses
# inside a right-to-left line (alef before lam): it maps to its own
# presentation form instead, one character whose NFKC is those letters.
# In \directlua: no # ~ % here.
_TOUNICODE_LUA = r"""local rstwo_hexdigits = "0123456789ABCDEF"
local function rstwo_hex(n)
  local s = ""
  for _ = 1, 4 do
    local d = n - (n // 16) * 16
    s = string.sub(rstwo_hexdigits, d + 1, d + 1) .. s
    n = n // 16
  end
  return s
end
local function rstwo_base_unicodes()
  for _, fontdata in font.each() do
    local shared = fontdata.hb and fontdata.hb.shared
    if shared and shared.nominals and shared.face and shared.font and not shared.rstwo_fixed then
      local best, forms = {}, {}
      for _, uni in next, shared.face:collect_unicodes() do
        local g = shared.font:get_nominal_glyph(uni)
        if g then
          if best[g] == nil or uni < best[g] then best[g] = uni end
          if uni >= 0xFB50 and uni <= 0xFEFF then forms[g] = uni end
        end
      end
      for g, uni in next, best do shared.nominals[g] = uni end
      local glyphs = shared.glyphs or {}
      for g, uni in next, forms do
        local glyph = glyphs[g]
        if glyph and glyph.tounicode and string.len(glyph.tounicode) > 4 then glyph.tounicode = rstwo_hex(uni) end
      end
      shared.rstwo_fixed = true
    end
  end
end
luatexbase.add_to_callback("finish_pdffile", rstwo_base_unicodes, "rstwo.base_unicodes")
luatexbase.declare_callback_rule("finish_pdffile", "rstwo.base_unicodes", "before", "luaotfload.harf.finalize_unicode")
"""


def language_name(code, docutils_name):
    """babel's name for the main language: docutils' own, else ours for the shaped scripts' languages."""
    code = (code or "").lower()
    for key in (code, code.split("-")[0].split("_")[0]):
        if key in LANGUAGE_CODES and (not docutils_name or docutils_name in MAIN_LOCALES):
            return LANGUAGE_CODES[key]
    return docutils_name or "english"


def main_is_rtl(main):
    return MAIN_LOCALES.get(main) in RTL


def _fallbacks(t):
    fb = t.fallback
    if not fb:
        return {}
    names = {}
    for family in ("rm", "sf"):
        stem = fb.get(family) or fb.get("rm")
        for weight in ("Regular", "Bold"):
            face = weight if fb.get("bold") else "Regular"
            names[(family, weight)] = ("rstwofb%s%s" % (family, weight.lower()), "%s-%s.ttf" % (stem, face))
    return names


def _font_options(family_fallbacks, family, bold, extra=""):
    options = ["Renderer=HarfBuzz", "Extension=.ttf", "UprightFont=*-Regular",
               "BoldFont=*-%s" % ("Bold" if bold else "Regular"), "ItalicFont=*-Regular",
               "BoldItalicFont=*-%s" % ("Bold" if bold else "Regular")]
    if extra:
        options.append(extra)
    if family_fallbacks:
        regular, boldfb = family_fallbacks[(family, "Regular")][0], family_fallbacks[(family, "Bold")][0]
        options += ["UprightFeatures={RawFeature={fallback=%s}}" % regular,
                    "ItalicFeatures={RawFeature={fallback=%s}}" % regular,
                    "BoldFeatures={RawFeature={fallback=%s}}" % boldfb,
                    "BoldItalicFeatures={RawFeature={fallback=%s}}" % boldfb]
    return ", ".join(options)


def lua_babel(plan, main="english", others=(), sans=True):
    """fontspec, the fallback chain and babel with a locale and Noto faces per
    shaped script: what replaces docutils' babel (and fontenc) line.

    ``main``: babel's name of the main language; ``others``: docutils'
    other languages (``language-*`` classes); ``sans``: the style uses the
    sans family (its faces are declared too).
    """
    t = table()
    fallbacks = _fallbacks(t)
    lua = [_TOUNICODE_LUA]
    for (name, face) in sorted(set(fallbacks.values())):
        lua.append('luaotfload.add_fallback("%s", {"file:%s:mode=harf;"})\n' % (name, face))
    main_script = MAIN_LOCALES.get(main)
    rtl = main_is_rtl(main)
    classic = sorted({o for o in others if o not in MAIN_LOCALES and o != main})
    lines = ["%%% rst2: LuaLaTeX with HarfBuzz for the shaped scripts (python/rst2/script_preamble.py)",
             "\\usepackage{fontspec}",
             "\\directlua{%s}" % "".join(lua).rstrip("\n")]
    if main_script:
        lines.append("\\usepackage[%s]{babel}" % ", ".join(["bidi=basic-r" if rtl else "bidi=basic"] + classic))
        # onchar: its letters inside another language's run (an English
        # paragraph in a Hebrew document) switch back to it.
        lines.append("\\babelprovide[import, main, onchar=ids fonts%s]{%s}" % (
            ", intraspace=0 0 0" if main == "thai" else "", main))
        # Latin text inside the main language's paragraphs: English's fonts.
        lines.append("\\babelprovide[import, onchar=ids fonts]{english}")
    else:
        # A tagged document may have no shaped script at all: no bidi then.
        bidi = ["bidi=basic"] if plan.shaped() else []
        lines.append("\\usepackage[%s]{babel}" % ", ".join(bidi + classic + ["main=" + main]))
    locales = {}
    for script in plan.shaped():
        locale = main if script == main_script else LOCALES[script]
        locales[script] = locale
        if locale == main:
            continue
        options = "import, onchar=ids fonts"
        if script == "thai":
            # babel's Thai glue between syllables shows as spaces in the
            # text layer and gaps inside words.
            options += ", intraspace=0 0 0"
        lines.append("\\babelprovide[%s]{%s}" % (options, locale))
    danda_scripts = [s for s in ("bengali", "tamil") if s in locales]
    if danda_scripts and "devanagari" not in locales:
        # The dandas are Devanagari's characters (scripts._DANDAS): without
        # Devanagari's locale onchar would set them in the Latin font.
        lines.append('\\babelcharproperty{"0964}["0965]{locale}{%s}' % locales[danda_scripts[0]])
    for other in sorted(set(others)):
        script = MAIN_LOCALES.get(other)
        if script and other != main and locales.get(script) != other:
            lines.append("\\babelprovide[import]{%s}" % other)
            locales.setdefault(other, other)
    for script, locale in locales.items():
        spec = t.shaped_fonts.get(script) or t.shaped_fonts.get(MAIN_LOCALES.get(script, script))
        if not spec:
            continue
        bold = bool(spec.get("bold"))
        lines.append("\\babelfont[%s]{rm}[%s]{%s}" % (locale, _font_options(fallbacks, "rm", bold), spec["rm"]))
        # Typewriter text (literal blocks) in these scripts: there are no
        # monospaced faces; the serif one (the same font as rm, so no
        # second font to load).
        lines.append("\\babelfont[%s]{tt}[%s]{%s}" % (locale, _font_options(fallbacks, "rm", bold), spec["rm"]))
        if sans:
            sf = spec.get("sf") or spec["rm"]
            lines.append("\\babelfont[%s]{sf}[%s]{%s}" % (locale, _font_options(fallbacks, "sf", bold), sf))
    if locales:
        # A HarfBuzz face whose first use in the PDF is at another size than
        # the base one (the title's \\LARGE) gets a ToUnicode map of
        # presentation forms (issue 31, §5). Using each face at the base size
        # first, in a form XObject no page shows (an invisible ZWNJ, which
        # every shaped Noto face has), avoids it.
        warm = "".join('\\foreignlanguage{%s}{\\char"200C}' % locale for locale in dict.fromkeys(locales.values()))
        families = ("\\rmfamily", "\\sffamily") if sans else ("\\rmfamily",)
        lines.append("\\AtBeginDocument{\\begingroup\\setbox0\\hbox{\\normalfont\\normalsize%s}"
                     "\\immediate\\saveboxresource0\\relax\\endgroup}" % "".join("{%s%s}" % (f, warm) for f in families))
    return "\n".join(lines) + "\n"


_LUA_COMMON = r"""%%% rst2: scripts under LuaLaTeX (python/rst2/scripts.py, script_preamble.py)
\makeatletter
"""

_LUA_FAMILIES = "".join("\\DeclareFontFamilySubstitution{TU}{%s}{%s}\n" % pair for pair in _FAMILY_SUBSTITUTES)

_LUA_NOTO = r"""%% Cyrillic and Greek: Noto's faces (Latin Modern's OpenType fonts have none).
\newfontfamily\rstwo@notorm{%(rm)s}[Renderer=HarfBuzz, Extension=.ttf, UprightFont=*-Regular, BoldFont=*-%(bold)s, ItalicFont=*-Regular, BoldItalicFont=*-%(bold)s]
\newfontfamily\rstwo@notosf{%(sf)s}[Renderer=HarfBuzz, Extension=.ttf, UprightFont=*-Regular, BoldFont=*-%(bold)s, ItalicFont=*-Regular, BoldItalicFont=*-%(bold)s]
\def\rstwo@noto{\edef\rstwo@f{\f@family}\edef\rstwo@s{\sfdefault}\ifx\rstwo@f\rstwo@s\rstwo@notosf\else\rstwo@notorm\fi}
\DeclareRobustCommand\rstwoCyr[2]{{\rstwo@noto#2}}
\DeclareRobustCommand\rstwoGrk[2]{{\rstwo@noto#2}}
"""


def lua_preamble(plan):
    """The custom-preamble part of a LuaLaTeX document (docutils' Type 1
    font packages left out): family substitutions, the script commands."""
    m = plan.members
    t = table()
    parts = [_LUA_COMMON, _LUA_FAMILIES]
    parts.append(r"""% Bookmarks and PDF metadata (set in the preamble) get the text itself.
\def\rstwo@codepoint#1{U+#1}
\AddToHook{package/hyperref/after}{\pdfstringdefDisableCommands{%
  \let\rstwoU\rstwo@codepoint\let\rstwoCyr\@secondoftwo\let\rstwoGrk\@secondoftwo
  \let\rstwoViet\@firstofone}}
""")
    parts.append(_PLACEHOLDER)
    if CYRILLIC in m or GREEK in m:
        fb = t.fallback or {}
        if fb:
            parts.append(_LUA_NOTO % {"rm": fb["rm"], "sf": fb.get("sf") or fb["rm"],
                                      "bold": "Bold" if fb.get("bold") else "Regular"})
        else:
            parts.append("\\let\\rstwoCyr\\@secondoftwo\n\\let\\rstwoGrk\\@secondoftwo\n")
    if VIETNAMESE in m:
        parts.append("% Vietnamese: Latin Modern's OpenType fonts have its letters.\n\\let\\rstwoViet\\@firstofone\n")
    if SYMBOLS in m:
        parts.append(_SYMBOLS)
    parts.append("\\makeatother\n")
    return "".join(parts)


# ---------------------------------------------------------------------------
# Tagged PDF (PDF/UA-1): the 2024 LaTeX kernel's tagging, switched on by
# \DocumentMetadata before \documentclass (issue 31, §3.1: with these
# modules LuaLaTeX tags headings, lists, tables, figures with their /Alt,
# links, footnotes and the title, and writes /Lang, DisplayDocTitle and the
# XMP that PDF/UA-1 asks for).
TAG_MODULES = "phase-III,table,title,firstaid"

# The language of a shaped script's text, for a document whose settings
# name none but the default (docutils' language_code "en"): the PDF's /Lang.
SCRIPT_LANGUAGES = {"arabic": "ar", "hebrew": "he", "devanagari": "hi", "bengali": "bn", "tamil": "ta", "thai": "th"}


def bcp47(code):
    """docutils' language_code (``en``, ``de_AT``, ``pt-BR``) as BCP 47 (``de-AT``)."""
    parts = [p for p in (code or "en").replace("_", "-").split("-") if p.isalnum()]
    return "-".join(parts) or "en"


def document_metadata(lang):
    """The lines before \\documentclass that make the PDF tagged.

    tagpdf attaches two CSS files (for HTML derived from the PDF) to the
    structure tree as embedded files, which the service's PDF check refuses
    (src/pdf/safety.ts) and PDF/UA-1 does not need: not attached.
    """
    return ("\\DocumentMetadata{lang=%s, pdfstandard=ua-1, pdfversion=1.7, testphase={%s}}\n"
            "\\tagpdfsetup{attach-css=false}\n" % (lang, TAG_MODULES))


# docutils' fallback definitions that LaTeX's tagging cannot follow, as a
# tagged document has them instead. DUfieldlist calls \quote and
# \description as commands; the tagging code names a block's structure after
# the environment it is in (\@currenvir, here DUfieldlist), so the list's
# structure is never closed, nor the section around it (a field list inside
# a section before another section: "there is no open structure on the
# stack", no PDF at all). The same layout through \begin and \end.
TAGGED_FALLBACKS = {
    "fieldlist": "\n".join([
        "",
        "% field list environment (rst2: tagged, through \\begin and \\end)",
        "\\ifdefined\\DUfieldlist",
        "\\else",
        "  \\newenvironment{DUfieldlist}%",
        "    {\\begin{quote}\\begin{description}}",
        "    {\\end{description}\\end{quote}}",
        "\\fi",
    ]),
}


# A tagged pdfTeX document: LaTeX's PDF management (l3backend) writes the
# structure tree's objects, the catalog's entries, the pages' attributes and
# the annotations in the body too, through the primitives that
# primitive_lock.tex takes from the document once its preamble is over.
# Each backend function that uses one gets it back while it runs, and only
# then (LuaTeX's backend reaches them through \pdfextension, not locked).
TAGGED_PDFTEX_BACKEND = r"""% rst2: tagged PDF: LaTeX's PDF management keeps the primitives the lock takes.
\ExplSyntaxOn
\cs_new_protected:Npn \__rsttwo_keep:NN #1#2
  {
    \cs_gset_eq:cN { __rsttwo_prim_ \cs_to_str:N #2 } #2
    \cs_gset_eq:cN { __rsttwo_orig_ \cs_to_str:N #1 } #1
  }
\cs_new_protected:Npn \__rsttwo_open:N #1
  {
    \cs_set_eq:cN { __rsttwo_was_ \cs_to_str:N #1 } #1
    \cs_set_eq:Nc #1 { __rsttwo_prim_ \cs_to_str:N #1 }
  }
\cs_new_protected:Npn \__rsttwo_close:N #1
  { \cs_set_eq:Nc #1 { __rsttwo_was_ \cs_to_str:N #1 } }
\cs_new:Npn \__rsttwo_orig:N #1 { \use:c { __rsttwo_orig_ \cs_to_str:N #1 } }
\__rsttwo_keep:NN \__pdf_backend_object_new: \tex_pdfobj:D
\cs_gset_protected:Npn \__pdf_backend_object_new:
  { \__rsttwo_open:N \tex_pdfobj:D \__rsttwo_orig:N \__pdf_backend_object_new: \__rsttwo_close:N \tex_pdfobj:D }
\__rsttwo_keep:NN \__pdf_backend_object_write:nnn \tex_pdfobj:D
\cs_gset_protected:Npn \__pdf_backend_object_write:nnn #1#2#3
  { \__rsttwo_open:N \tex_pdfobj:D \__rsttwo_orig:N \__pdf_backend_object_write:nnn {#1} {#2} {#3} \__rsttwo_close:N \tex_pdfobj:D }
\__rsttwo_keep:NN \__pdf_backend_object_now:nn \tex_pdfobj:D
\cs_gset_protected:Npn \__pdf_backend_object_now:nn #1#2
  { \__rsttwo_open:N \tex_pdfobj:D \__rsttwo_orig:N \__pdf_backend_object_now:nn {#1} {#2} \__rsttwo_close:N \tex_pdfobj:D }
\__rsttwo_keep:NN \__pdf_backend_metadata_stream:n \tex_pdfobj:D
\cs_gset_protected:Npn \__pdf_backend_metadata_stream:n #1
  { \__rsttwo_open:N \tex_pdfobj:D \__rsttwo_orig:N \__pdf_backend_metadata_stream:n {#1} \__rsttwo_close:N \tex_pdfobj:D }
\__rsttwo_keep:NN \__pdf_backend_catalog_gput:nn \tex_pdfcatalog:D
\cs_gset_protected:Npn \__pdf_backend_catalog_gput:nn #1#2
  { \__rsttwo_open:N \tex_pdfcatalog:D \__rsttwo_orig:N \__pdf_backend_catalog_gput:nn {#1} {#2} \__rsttwo_close:N \tex_pdfcatalog:D }
\__rsttwo_keep:NN \__pdf_backend_info_gput:nn \tex_pdfinfo:D
\cs_gset_protected:Npn \__pdf_backend_info_gput:nn #1#2
  { \__rsttwo_open:N \tex_pdfinfo:D \__rsttwo_orig:N \__pdf_backend_info_gput:nn {#1} {#2} \__rsttwo_close:N \tex_pdfinfo:D }
\__rsttwo_keep:NN \__pdf_backend_Names_gpush:nn \tex_pdfnames:D
\cs_gset_protected:Npn \__pdf_backend_Names_gpush:nn #1#2
  { \__rsttwo_open:N \tex_pdfnames:D \__rsttwo_orig:N \__pdf_backend_Names_gpush:nn {#1} {#2} \__rsttwo_close:N \tex_pdfnames:D }
\__rsttwo_keep:NN \__pdf_backend_Pages_primitive:n \tex_pdfpagesattr:D
\cs_gset_protected:Npn \__pdf_backend_Pages_primitive:n #1
  { \__rsttwo_open:N \tex_pdfpagesattr:D \__rsttwo_orig:N \__pdf_backend_Pages_primitive:n {#1} \__rsttwo_close:N \tex_pdfpagesattr:D }
\__rsttwo_keep:NN \__pdf_backend_Page_primitive:n \tex_pdfpageattr:D
\cs_gset_protected:Npn \__pdf_backend_Page_primitive:n #1
  { \__rsttwo_open:N \tex_pdfpageattr:D \__rsttwo_orig:N \__pdf_backend_Page_primitive:n {#1} \__rsttwo_close:N \tex_pdfpageattr:D }
\__rsttwo_keep:NN \__pdf_backend_annotation:nnnn \tex_pdfannot:D
\cs_gset_protected:Npn \__pdf_backend_annotation:nnnn #1#2#3#4
  { \__rsttwo_open:N \tex_pdfannot:D \__rsttwo_orig:N \__pdf_backend_annotation:nnnn {#1} {#2} {#3} {#4} \__rsttwo_close:N \tex_pdfannot:D }
\__rsttwo_keep:NN \__pdf_backend_link_begin:nnnw \tex_pdfstartlink:D
\cs_gset_protected:Npn \__pdf_backend_link_begin:nnnw #1#2#3
  { \__rsttwo_open:N \tex_pdfstartlink:D \__rsttwo_orig:N \__pdf_backend_link_begin:nnnw {#1} {#2} {#3} \__rsttwo_close:N \tex_pdfstartlink:D }
\cs_if_exist:NT \__kernel_backend_shipout_literal:e
  {
    \__rsttwo_keep:NN \__kernel_backend_shipout_literal:e \tex_special:D
    \cs_gset_protected:Npn \__kernel_backend_shipout_literal:e #1
      { \__rsttwo_open:N \tex_special:D \__rsttwo_orig:N \__kernel_backend_shipout_literal:e {#1} \__rsttwo_close:N \tex_special:D }
  }
\ExplSyntaxOff
"""

# The script commands in the PDF's title (Info and XMP) and in alt text: their
# text. LaTeX's PDF management purifies the title when \hypersetup sets it,
# so these come before docutils' \hypersetup (Tagged.depart_document); after
# it, the Info title kept the commands' first argument ("Waitgbsn… what").
# Repairs a tagged document needs in the packages the untagged one uses, each
# a no-op where the package is not loaded or no longer has what is replaced:
# * the styles' admonitions are a minipage saved in an lrbox and drawn in a
#   framed box, which starts a paragraph: the tagging wrapped the minipage's
#   own paragraphs in that one (a P in a P, which PDF/UA-1 does not allow).
#   Paragraph tagging is off from the box's use to the end of its centre group;
# * longtable (2024-10-27) ends a page's part of the table with \vss, glue of
#   infinite shrink, which the tagging's \vsplit of the page at a break
#   refuses ("Infinite glue shrinkage found in box being split", no PDF): the
#   finite glue LaTeX's own fix (latex2e issue 1907) puts there.
TAGGED_REPAIRS = r"""% rst2: tagged PDF: repairs in the styles' admonitions and in longtable.
\makeatletter
\ExplSyntaxOn
\cs_if_exist:NT \rst@admonend
  { \regex_replace_once:nnN { \c{end} \cB\{ lrbox \cE\} } { \0 \c{tagpdfparaOff} } \rst@admonend }
\cs_if_exist:NT \LT@output
  { \regex_replace_all:nnN { \c{vss} } { \c{vskip} \c{z@} \c{@plus} 1fil \c{@minus} \c{normalbaselineskip} } \LT@output }
\ExplSyntaxOff
\makeatother"""

TAGGED_PURIFY = r"""% rst2: tagged PDF: the script commands in the title and in alt text: their text.
\ExplSyntaxOn
\text_declare_purify_equivalent:Nn \rstwoCJK { \use_ii:nn }
\text_declare_purify_equivalent:Nn \rstwoCyr { \use_ii:nn }
\text_declare_purify_equivalent:Nn \rstwoGrk { \use_ii:nn }
\text_declare_purify_equivalent:Nn \rstwoViet { \use:n }
\text_declare_purify_equivalent:Nn \rstwoU { U+ }
\ExplSyntaxOff"""


def table_header_rows(count):
    """Before a table: its first ``count`` rows are header rows (TH cells); 0 after it."""
    return "\\tagpdfsetup{table/header-rows={%s}}\n" % (",".join(str(i) for i in range(1, count + 1)))
