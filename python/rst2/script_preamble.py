"""The LaTeX set-up a document's script set needs (scripts.py decides the set
and writes each character): the preamble's fonts, encodings and commands,
docutils' font_encoding setting, and the glyph mappings of the PDF's text
layer. Nothing for a Latin-only document, whose LaTeX stays as it was.
"""

from .scripts import CJK_FAMILIES, CYRILLIC, EMOJI, GREEK, SYMBOLS, TRADITIONAL, VIETNAMESE

ENCODINGS = {CYRILLIC: "T2A", GREEK: "LGR", VIETNAMESE: "T5"}

# T2A shares its i, I, j, J slots with Latin; in our runs (which hold no
# Latin letters) they are always the Cyrillic letters, so the PDF's text
# says so (pdfTeX's per-font glyph mapping: tfm:<font>/<glyph>).
_T2A_FONTS = ("larm1000", "lati1000", "lasl1000", "lacc1000", "labx1000", "labi1000",
              "lass1000", "lasi1000", "lasx1000", "latt1000")
_T2A_SHARED = (("i", "0456"), ("I", "0406"), ("j", "0458"), ("J", "0408"))


def tounicode(plan):
    """Glyph mappings for the PDF's text layer; set after the format marker."""
    if CYRILLIC not in plan.members:
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
    if not m - {"lang-ukrainian", TRADITIONAL}:
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
