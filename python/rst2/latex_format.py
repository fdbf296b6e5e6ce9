"""docutils' LaTeX rearranged so that pdfTeX can keep its preamble in a format.

Loading the ~15 packages of a docutils preamble costs pdfTeX more than
typesetting a short document. The part of the preamble that depends only on
the class and style (class, encodings, the common packages, the style sheet,
hyperref) is written first and ends with MARKER; the service dumps it once
into a format with mylatexformat, and a run with that format skips straight
to the line with MARKER. The per-document rest follows: packages only this
document needs, docutils' fallback definitions, the PDF title and author.
With the ordinary pdflatex format MARKER is ``\\relax`` and the same file
typesets the same way, so a document never depends on the format existing.

``format_preamble`` is built from the options alone, by rendering an empty
document: nothing a user writes ever gets into a format.

A document is left exactly as docutils writes it (and gets no format) when
its preamble needs something whose place matters (babel, minitoc,
typearea, ...): those must come before hyperref, which is in the format.
"""

import re
import string

MARKER = "\\csname endofdump\\endcsname"

# Loaded by every format, in docutils' own (sorted) order, because most
# documents need one of them (literal blocks, math, tables, docinfo) and
# loading them late would put them after hyperref. A document that needs one
# loads it again after MARKER, which LaTeX skips.
PRELOADED = (
    "\\usepackage{alltt}",
    "\\usepackage{amsmath}",
    "\\usepackage{color}",
    "\\usepackage{multirow}",
    "\\usepackage{longtable,ltcaption,array}",
    "\\usepackage{tabularx}",
)

# Packages that may be loaded after the format's hyperref: the preloaded ones
# (a no-op then), a few that only define symbols or rules, and what images
# and figures need (graphicx, float), so that a document with images still
# starts from the format while one without keeps its LaTeX as it was.
LATE_PACKAGES = {"alltt", "amsmath", "color", "multirow", "longtable", "ltcaption", "array",
                 "tabularx", "textcomp", "pifont", "booktabs", "graphicx", "float"}

# cmap cannot be dumped (its CMap objects are "dangling objects" to \dump)
# and only works loaded before fontenc; pdfTeX's own glyph-name mapping does
# the same job (searchable, copyable text) from anywhere in the preamble.
TO_UNICODE = "\\input glyphtounicode\n\\pdfgentounicode=1 % text search and copy (instead of cmap)"

# docutils' template (writers/latex2e/default.tex) with the parts regrouped.
_TEMPLATE = string.Template(
    "$format_preamble"
    + MARKER
    + "\n"
    + TO_UNICODE
    + "\n$late_requirements"
    + "%%% Fallback definitions for Docutils-specific commands\n"
    + "$fallbacks"
    + "$pdfsetup_rest"
    + "%%% Body\n"
    + "\\begin{document}\n"
    + "$titledata$body_pre_docinfo$docinfo$dedication$abstract$body\n"
    + "\\end{document}\n"
)

_USEPACKAGE = re.compile(r"\\(?:usepackage|RequirePackage)\s*(\[[^\]]*\])?\s*\{([^}]*)\}")
_PACKAGE_LOADING = re.compile(r"\\(?:usepackage|RequirePackage)\b")
# The block of docutils' pdfsetup that loads hyperref and bookmark; what
# follows it (\hypersetup with the title and author, rst2's primitive lock,
# which must act on the document's own part) stays with the document.
# docutils 0.19 guards it with \ifthenelse{\isundefined{\hypersetup}}{...}{},
# 0.23 with \ifdefined\hypersetup \else ... \fi.
_LINKING = re.compile(
    r"% hyperlinks:\n(?:\\ifthenelse\{\\isundefined\{\\hypersetup\}\}\{\n.*?\n\}\{\}"
    r"|\\ifdefined\\hypersetup\n\\else\n.*?\n\\fi)\n",
    re.S,
)
# A format dumped after \DocumentMetadata (a tagged PDF) needs two repairs,
# made only during the dump (mylatexformat loaded):
# - \DocumentMetadata makes \begin robust, replacing the \begin that
#   mylatexformat wrapped to stop at \begin{document}; its clean-up before
#   \dump takes that wrapper apart, and would run away. The format's
#   preamble always ends with MARKER, so the wrapper is not needed: \begin
#   gets the shape the clean-up expects, and every job of the format gets
#   the robust one back before it reads its document.
# - expl3 sets \c_sys_timestamp_str (which the PDF management writes as the
#   PDF's CreationDate and ModDate) in the first job of a format only, here
#   the dump: every job sets it again from its own clock (or
#   SOURCE_DATE_EPOCH), as a run without the format does.
# No line has \begin and "document" on it: mylatexformat's scan of a job
# would stop there. The scan also reads the line defining \begin as holding
# its own delimiter token (\MYLATEX...): harmless only inside the braces it
# has, so keep the line as it is.
METADATA_FORMAT = (
    "\\ifcsname MYLATEX@StopAtdocument\\endcsname % rst2: a format after \\DocumentMetadata\n"
    "\\makeatletter\n"
    "\\let\\rsttwo@begin\\begin\n"
    "\\def\\rsttwo@stop{\\MYLATEX@StopAtdocument}\n"
    "\\expandafter\\def\\expandafter\\begin\\expandafter#\\expandafter1\\expandafter{\\rsttwo@stop{#1}}\n"
    "\\everyjob\\expandafter{\\the\\everyjob\\let\\begin\\rsttwo@begin\n"
    "  \\expandafter\\xdef\\csname c_sys_timestamp_str\\endcsname{\\csname tex_creationdate:D\\endcsname}}\n"
    "\\makeatother\n"
    "\\fi\n"
)
# mylatexformat stops reading the preamble at the first line with \begin and
# "document" on it; the format part must not have one before MARKER.
_STOPS_SCAN = re.compile(r"\\begin.*document")


def build_format_preamble(empty_parts):
    """The format part, from the parts of an empty document with the same options."""
    static = _lines(empty_parts["requirements"])
    link = _LINKING.match(empty_parts["pdfsetup"])
    if link is None:
        return None
    text = "".join((
        empty_parts["head_prefix"],
        "% generated by Docutils <https://docutils.sourceforge.io/>, regrouped by rst2\n",
        "\n".join(static + [line for line in PRELOADED if line not in static]),
        "\n%%% Custom LaTeX preamble\n",
        empty_parts["latex_preamble"],
        "%%% User specified packages and stylesheets\n",
        empty_parts["stylesheet"],
        link.group(0),
        METADATA_FORMAT if "\\DocumentMetadata" in empty_parts["head_prefix"] else "",
    ))
    if _STOPS_SCAN.search(text) or MARKER in text:
        return None
    return {
        "text": text,
        "static": static,
        "linking": link.group(0),
        "parts": {name: empty_parts[name] for name in ("head_prefix", "latex_preamble", "stylesheet")},
    }


def split(parts, fmt):
    """The document rearranged around MARKER, or None when it must stay as docutils wrote it."""
    if fmt is None:
        return None
    if any(parts[name] != value for name, value in fmt["parts"].items()):
        return None
    requirements = _lines(parts["requirements"])
    static = fmt["static"]
    if requirements[: len(static)] != static:
        return None
    late = requirements[len(static):]
    if not all(_late_ok(line) for line in late):
        return None
    pdfsetup = parts["pdfsetup"]
    if not pdfsetup.startswith(fmt["linking"]):
        return None
    pdfsetup_rest = pdfsetup[len(fmt["linking"]):]
    values = dict(parts)
    values.update(
        format_preamble=fmt["text"],
        late_requirements="".join(line + "\n" for line in late),
        pdfsetup_rest=pdfsetup_rest,
    )
    return _TEMPLATE.substitute(values)


def _late_ok(line):
    if not _PACKAGE_LOADING.search(line):
        return True
    loads = _USEPACKAGE.findall(line)
    if len(loads) != len(_PACKAGE_LOADING.findall(line)):
        return False
    for options, names in loads:
        if options:
            return False
        if not all(name.strip() in LATE_PACKAGES for name in names.split(",")):
            return False
    return True


def _lines(part):
    return [line for line in part.split("\n") if line != ""]
