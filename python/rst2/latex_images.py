"""Images in the LaTeX for pdfTeX, named by number and never by URI.

docutils' writer would put an image's URI into ``\\includegraphics{...}``
as a file name for TeX to open. Here every image (``image``, ``figure``,
substitution images) gets a number N in document order instead, and the
LaTeX only ever names ``rst2img-N.<ext>``: the service fetches and checks
the image itself and puts the file next to the document before pdfTeX
runs (src/images/). No text of the document becomes a file name.

``\\rsttwoimage{N}{options}{width}{text}`` includes that file when it is
there, and otherwise typesets a framed placeholder of the given width with
the alt text (or the URI), escaped like any other document text. The size
and alignment logic is docutils' own: its ``visit_image`` writes the
LaTeX, and only its ``\\includegraphics`` is exchanged for the macro.

Sizes are clamped to the page before TeX sees them (``fit_options``): TeX's
dimensions end at 16,383.99 pt (5.78 m), and one past that (``:width:
5000cm``, ``:scale:`` 100000 %) is "Dimension too large", which failed the
whole PDF. A width or height past any page is the line's width or 90 % of
the text height, as the HTML shows it at most the width of the page; a
scale is checked against the page from the image's natural size, in TeX,
where that size is known.
"""

import re

from .safety import DATA_URI_ATTRIBUTE

# Per document (docutils' fallback definitions, after the format's part):
# the format of a document without images stays what it was.
MACRO = r"""
% rst2: image #1 is the file rst2img-#1.<png|jpg|pdf> next to the document,
% or a framed placeholder (#3: its width, #4: alt text or URI) without one.
% An image larger than the line or the page is shrunk to fit (docutils
% leaves a 1280-pixel screenshot 45 cm wide).
\providecommand*{\rsttwoplaceholder}[2]{%
  \fbox{\parbox[c]{\dimexpr#1-2\fboxsep-2\fboxrule\relax}{\raggedright\footnotesize #2}}}
\ifdefined\rsttwobox\else\newsavebox\rsttwobox\fi
% \rsttwoscale: the image's scale in thousandths, 0 for none (set in a group
% around one image); a scaled image that would pass the page is shrunk
% before graphicx multiplies anything.
\providecommand*{\rsttwoscale}{0}
\providecommand*{\rsttwoinclude}[2]{%
  \ifnum\rsttwoscale>0
    \sbox\rsttwobox{\includegraphics{#2}}%
    \ifdim\wd\rsttwobox>\dimexpr\linewidth*1000/\rsttwoscale\relax \rsttwoshrink{#2}%
    \else\ifdim\ht\rsttwobox>\dimexpr0.9\textheight*1000/\rsttwoscale\relax \rsttwoshrink{#2}%
    \else\rsttwofit{#1}{#2}\fi\fi
  \else\rsttwofit{#1}{#2}\fi}
\providecommand*{\rsttwofit}[2]{%
  \sbox\rsttwobox{\includegraphics[#1]{#2}}%
  \ifdim\wd\rsttwobox>\linewidth \rsttwoshrink{#2}%
  \else\ifdim\ht\rsttwobox>0.9\textheight \rsttwoshrink{#2}%
  \else\usebox\rsttwobox\fi\fi}
\providecommand*{\rsttwoshrink}[1]{%
  \includegraphics[width=\linewidth,height=0.9\textheight,keepaspectratio]{#1}}
% Robust: a section title's image is also written to the table of contents
% and the bookmarks, where \IfFileExists would break ("Extra \else"); a
% bookmark gets the alt text.
\DeclareRobustCommand*{\rsttwoimage}[4]{%
  \IfFileExists{rst2img-#1.png}{\rsttwoinclude{#2}{rst2img-#1.png}}{%
  \IfFileExists{rst2img-#1.jpg}{\rsttwoinclude{#2}{rst2img-#1.jpg}}{%
  \IfFileExists{rst2img-#1.pdf}{\rsttwoinclude{#2}{rst2img-#1.pdf}}{%
  \rsttwoplaceholder{#3}{#4}}}}}
\ifdefined\pdfstringdefDisableCommands
  \pdfstringdefDisableCommands{\def\rsttwoimage#1#2#3#4{#4}}
\fi
"""

# A tagged document (latex_writer.Tagged): the picture carries its alt text
# (\rsttwoalt, set around each image: the alt text, else the URI, as
# docutils' HTML writer does), and the boxes that only measure it are not
# tagged, so each image is one Figure.
TAGGED_MACRO = r"""
% rst2: tagged PDF: each image's /Alt is \rsttwoalt; measuring is not tagged.
\providecommand*{\rsttwoalt}{}
\renewcommand*{\rsttwoinclude}[2]{%
  \ifnum\rsttwoscale>0
    \sbox\rsttwobox{\SuspendTagging{rst2}\includegraphics{#2}}%
    \ifdim\wd\rsttwobox>\dimexpr\linewidth*1000/\rsttwoscale\relax \rsttwoshrink{#2}%
    \else\ifdim\ht\rsttwobox>\dimexpr0.9\textheight*1000/\rsttwoscale\relax \rsttwoshrink{#2}%
    \else\rsttwofit{#1}{#2}\fi\fi
  \else\rsttwofit{#1}{#2}\fi}
\renewcommand*{\rsttwofit}[2]{%
  \sbox\rsttwobox{\SuspendTagging{rst2}\includegraphics[#1]{#2}}%
  \ifdim\wd\rsttwobox>\linewidth \rsttwoshrink{#2}%
  \else\ifdim\ht\rsttwobox>0.9\textheight \rsttwoshrink{#2}%
  \else\includegraphics[#1,alt={\rsttwoalt}]{#2}\fi\fi}
\renewcommand*{\rsttwoshrink}[1]{%
  \includegraphics[width=\linewidth,height=0.9\textheight,keepaspectratio,alt={\rsttwoalt}]{#1}}
% A placeholder is a Figure with the image's /Alt, as the picture would be: its
% framed \parbox, untagged, would otherwise be a Div inside the paragraph.
\let\rsttwoframedplaceholder\rsttwoplaceholder
\renewcommand*{\rsttwoplaceholder}[2]{\leavevmode\tagmcend
  \tagstructbegin{tag=Figure,alt={\rsttwoalt}}\tagmcbegin{tag=Figure}%
  {\SuspendTagging{rst2}\rsttwoframedplaceholder{#1}{#2}}%
  \tagmcend\tagstructend\tagmcbegin{}}
"""

# What docutils' visit_image appends for the picture itself.
_INCLUDEGRAPHICS = re.compile(r"\\includegraphics(?:\[([^\]]*)\])?\{")
_WIDTH = re.compile(r"(?:^|,)width=([^,]+)")

# What one unit is at most, in TeX points: a relative length (a fraction
# of \linewidth, say) counts as 1,000 pt per unit, more than any page.
_POINTS = {
    "pt": 1.0, "bp": 1.00375, "px": 1.00375, "dd": 1.07, "mm": 2.84528, "pc": 12.0,
    "cc": 12.84, "cm": 28.4528, "in": 72.27, "em": 20.0, "ex": 10.0, "sp": 1 / 65536,
}  # fmt: skip
_LENGTH = re.compile(r"^\s*(\d*\.?\d*)\s*(\\[A-Za-z]+|[a-z]*)\s*$")
# Past any page we lay out (70 cm), far below TeX's largest dimension.
PAGE_POINTS = 2000.0
_CLAMPED = {"width": "\\linewidth", "height": "0.9\\textheight"}
# A scale (thousandths) graphicx can take for any image that fits the page.
MAX_SCALE = 1_000_000


def _points(length):
    """An upper bound of ``length`` in TeX points, or None when it is no plain length."""
    match = _LENGTH.match(length)
    if match is None or match.group(1) in ("", "."):
        return None
    unit = match.group(2)
    per_unit = 1000.0 if unit.startswith("\\") else _POINTS.get(unit or "pt")
    return None if per_unit is None else float(match.group(1)) * per_unit


def fit_options(options):
    """docutils' \\includegraphics options with sizes past the page clamped to it.

    Returns the options and the scale in thousandths for the macro to check
    (0: none). A scale with a width or height multiplies them, as docutils'
    HTML does; a scale alone is left to the macro, which knows the image's
    natural size.
    """
    values = {}
    for item in options.split(","):
        key, _, value = item.partition("=")
        if key.strip():
            values[key.strip()] = value.strip()
    try:
        factor = float(values.pop("scale")) if "scale" in values else None
    except ValueError:
        factor = None
    sized = [key for key in ("height", "width") if key in values]
    for key in sized:
        value = values[key]
        match, points = _LENGTH.match(value), _points(value)
        if points is not None and factor is not None:
            points *= factor
            value = "%.5f%s" % (factor * float(match.group(1)), match.group(2) or "bp")
        values[key] = _CLAMPED[key] if points is None or points > PAGE_POINTS else value
    scale = 0
    if factor is not None and not sized:
        scale = min(max(int(round(factor * 1000)), 1), MAX_SCALE)
        # Shortest decimal, as docutils 0.23 writes sizes (0.5, not 0.500000).
        values["scale"] = ("%.3f" % (scale / 1000)).rstrip("0").rstrip(".")
    return ",".join("%s=%s" % item for item in values.items()), scale


# A placeholder without a width of its own: wide enough for a short
# description, narrow enough that a row of badges stays a few per line.
DEFAULT_PLACEHOLDER_WIDTH = "0.3\\linewidth"


def source_uri(node):
    """The image's URI as written (safety.py empties ``uri`` of data: images for HTML)."""
    return node.get(DATA_URI_ATTRIBUTE) or node.get("uri", "")


def placeholder_text(node):
    """What a placeholder shows: the alt text, else the URI (not a data: URI's payload)."""
    uri = source_uri(node)
    return node.get("alt") or (uri.partition(",")[0] + ",..." if uri.startswith("data:") else uri)


def rewrite(translator, node, written):
    """The items ``visit_image`` appended, with \\includegraphics made \\rsttwoimage.

    Returns the items, and the entry for ``render_latex``'s ``images``.
    """
    images = translator.document.__dict__.setdefault("rst2_images", [])
    number = len(images) + 1
    text = translator.encode(placeholder_text(node))
    tagged = getattr(translator, "rst2_tagged", False)
    alt = text
    # Long URIs have no spaces; let the placeholder break them after a slash.
    text = text.replace("/", "/\\allowbreak{}")
    out = []
    for item in written:
        match = _INCLUDEGRAPHICS.match(item)
        if match is None:
            out.append(item)
            continue
        options, scale = fit_options(match.group(1) or "")
        width = _WIDTH.search(options)
        call = "\\rsttwoimage{%d}{%s}{%s}{%s}" % (number, options, width.group(1) if width else DEFAULT_PLACEHOLDER_WIDTH, text)
        if tagged:
            call = "\\def\\rsttwoalt{%s}%s" % (alt, call)
        # The macro checks a scale against the page before graphicx applies it.
        if scale:
            call = "\\def\\rsttwoscale{%d}%s" % (scale, call)
        out.append("{%s}" % call if scale or tagged else call)
    images.append({"uri": source_uri(node), "alt": node.get("alt")})
    translator.fallbacks["rsttwoimage"] = MACRO + TAGGED_MACRO if tagged else MACRO
    return out


def images_of(document):
    """The images the writer numbered, in order (image N is entry N-1)."""
    return list(document.__dict__.get("rst2_images", []))
