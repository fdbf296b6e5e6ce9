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
\providecommand*{\rsttwoinclude}[2]{%
  \sbox\rsttwobox{\includegraphics[#1]{#2}}%
  \ifdim\wd\rsttwobox>\linewidth \rsttwoshrink{#2}%
  \else\ifdim\ht\rsttwobox>0.9\textheight \rsttwoshrink{#2}%
  \else\usebox\rsttwobox\fi\fi}
\providecommand*{\rsttwoshrink}[1]{%
  \includegraphics[width=\linewidth,height=0.9\textheight,keepaspectratio]{#1}}
\providecommand*{\rsttwoimage}[4]{%
  \IfFileExists{rst2img-#1.png}{\rsttwoinclude{#2}{rst2img-#1.png}}{%
  \IfFileExists{rst2img-#1.jpg}{\rsttwoinclude{#2}{rst2img-#1.jpg}}{%
  \IfFileExists{rst2img-#1.pdf}{\rsttwoinclude{#2}{rst2img-#1.pdf}}{%
  \rsttwoplaceholder{#3}{#4}}}}}
"""

# What docutils' visit_image appends for the picture itself.
_INCLUDEGRAPHICS = re.compile(r"\\includegraphics(?:\[([^\]]*)\])?\{")
_WIDTH = re.compile(r"(?:^|,)width=([^,]+)")

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
    # Long URIs have no spaces; let the placeholder break them after a slash.
    text = text.replace("/", "/\\allowbreak{}")
    out = []
    for item in written:
        match = _INCLUDEGRAPHICS.match(item)
        if match is None:
            out.append(item)
            continue
        options = match.group(1) or ""
        width = _WIDTH.search(options)
        out.append("\\rsttwoimage{%d}{%s}{%s}{%s}" % (
            number, options, width.group(1) if width else DEFAULT_PLACEHOLDER_WIDTH, text))
    images.append({"uri": source_uri(node), "alt": node.get("alt")})
    translator.fallbacks["rsttwoimage"] = MACRO
    return out


def images_of(document):
    """The images the writer numbered, in order (image N is entry N-1)."""
    return list(document.__dict__.get("rst2_images", []))
