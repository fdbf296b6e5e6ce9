"""What a document may put into the LaTeX that pdfTeX runs.

docutils' LaTeX writer escapes text, but copies math verbatim: without a
policy a ``math`` role could run any TeX, e.g. ``\\pdfcatalog`` to give the
PDF an action that runs JavaScript when it is opened.  Math therefore goes
to pdfTeX only when it passes an allow-list of control sequences that just
typeset; anything else (an unknown command, a definition, TeX's ``^^``
character notation, a comment that would swallow the closing ``$``,
unbalanced braces) makes the writer show the source instead (see
latex_writer.py).  Links reach hyperref only as http(s)/mailto URIs or
in-document anchors, percent-encoded so that no TeX-special character is
left in them.
"""

import re

from docutils.utils.math import latex2mathml, tex2unichar, unichar2tex


def _docutils_math_names():
    # The symbols, operators and fonts docutils itself knows in math (its
    # MathML converter and its Unicode tables): all of them only typeset.
    names = set()
    for table in (
        tex2unichar.mathaccent, tex2unichar.mathalpha, tex2unichar.mathbin, tex2unichar.mathclose,
        tex2unichar.mathfence, tex2unichar.mathop, tex2unichar.mathopen, tex2unichar.mathord,
        tex2unichar.mathover, tex2unichar.mathpunct, tex2unichar.mathradical, tex2unichar.mathrel,
        tex2unichar.mathunder, tex2unichar.space,
        latex2mathml.accents, latex2mathml.bigdelimiters, latex2mathml.fractions, latex2mathml.functions,
        latex2mathml.greek_capitals, latex2mathml.layout_styles, latex2mathml.letters,
        latex2mathml.math_alphabets, latex2mathml.operators, latex2mathml.over, latex2mathml.under,
        latex2mathml.small_operators, latex2mathml.spaces, latex2mathml.stretchables,
        latex2mathml.thick_operators,
    ):
        names.update(name for name in table if re.fullmatch(r"[A-Za-z]+|[^A-Za-z]", name))
    # What the writer itself substitutes for Unicode characters in math.
    for value in unichar2tex.uni2tex_table.values():
        names.update(re.findall(r"\\([A-Za-z]+)", value))
    return names


# LaTeX and amsmath structure: text inside math, sizes, stacking, spacing,
# dots, tags.  Arguments are checked like the rest of the math.
_STRUCTURE = """
    text mbox textrm textit textbf textsf texttt textup textnormal emph mathnormal boldsymbol pmb
    sqrt frac dfrac tfrac cfrac binom dbinom tbinom genfrac
    left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr bigm Bigm biggm Biggm
    limits nolimits displaylimits overset underset stackrel substack sideset xleftarrow xrightarrow
    boxed phantom hphantom vphantom smash hspace quad qquad enspace
    tag notag nonumber intertext operatorname pmod bmod pod mod
    dots dotsb dotsc dotsi dotsm dotso ldots cdots vdots ddots
    hline cline multicolumn
"""

# Control symbols (a backslash and one non-letter) that typeset a character
# or a space, or end a row.
_SYMBOLS = "\\ ,;:!>{}|#$%&_/- "

MATH_ENVIRONMENTS = frozenset(
    "matrix pmatrix bmatrix Bmatrix vmatrix Vmatrix smallmatrix cases array "
    "aligned alignedat gathered split subarray".split()
)

MATH_COMMANDS = frozenset(_docutils_math_names() | set(_STRUCTURE.split()) | set(_SYMBOLS) | {"begin", "end"})

# Never typesetting commands: definitions, expansion and catcode tricks,
# file and PDF primitives, links.  None may be on the list (tests check it).
REFUSED_EXAMPLES = frozenset(
    """
    catcode csname endcsname def edef gdef xdef let futurelet expandafter noexpand
    input include openin openout read write immediate special primitive pdfprimitive
    pdfcatalog pdfnames pdfobj pdfannot pdfstartlink pdfoutline pdfinfo pdftrailer pdfpageattr
    href url nolinkurl hyperref hyperlink hypertarget hypersetup label ref
    scantokens string uppercase lowercase newcommand renewcommand providecommand
    makeatletter makeatother char chardef mathchardef mathcode lccode uccode
    afterassignment aftergroup everypar everymath everyhbox output shipout
    errmessage message typeout jobname verb color textcolor
    """.split()
)

_TOKEN = re.compile(r"\\([A-Za-z]+|.|\Z)|([{}])|([%#$])|([\x00-\x08\x0b\x0c\x0e-\x1f\x7f])", re.S)
_ENVIRONMENT_NAME = re.compile(r"[ \t\r\n]*\{([A-Za-z]+\*?)\}")


def math_refusal(code):
    """None when ``code`` may go to pdfTeX as math, else why not (a short phrase)."""
    # TeX turns ^^5c into a backslash before it reads commands, so any ^^
    # could hide a command from the checks below.
    if "^^" in code:
        return "TeX's ^^ character notation is not allowed"
    depth = 0
    for match in _TOKEN.finditer(code):
        name, brace, special, control = match.groups()
        if name is not None:
            if name == "":
                return "a backslash at the end is not allowed"
            if name not in MATH_COMMANDS:
                shown = name if name.isprintable() else "U+%04X" % ord(name)
                return "\\%s is not allowed in math" % shown
            if name in ("begin", "end"):
                environment = _ENVIRONMENT_NAME.match(code, match.end())
                if environment is None:
                    return "\\%s needs an environment name in braces" % name
                if environment.group(1) not in MATH_ENVIRONMENTS:
                    return "the environment %s is not allowed in math" % environment.group(1)
        elif brace == "{":
            depth += 1
        elif brace == "}":
            depth -= 1
            if depth < 0:
                return "unbalanced braces"
        elif special is not None:
            return "a bare %s is not allowed in math (write \\%s)" % (special, special)
        elif control is not None:
            return "control character U+%04X is not allowed" % ord(control)
    if depth != 0:
        return "unbalanced braces"
    return None


LINK_SCHEMES = ("http", "https", "mailto")

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.-]*):")
# What stays as it is in a link: RFC 3986's unreserved and reserved
# characters except those TeX or hyperref would act on ({, }, \, ^ are not
# URI characters anyway).  Everything else is percent-encoded as UTF-8.
_URI_KEEP = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@!$&'()*+,;=")
_PERCENT_ESCAPE = re.compile(r"%[0-9A-Fa-f]{2}")


def link_target(uri):
    """The URI as hyperref may receive it, or None when it must stay plain text.

    Only http, https and mailto become PDF URI actions, and ``#anchor``
    stays an in-document link.  Anything else (no scheme, ``file:``,
    ``run:``, ``javascript:``...) is refused: hyperref would turn
    ``doc.pdf`` or ``file:`` into a GoToR action and ``run:`` into
    Launch, and a relative URI means nothing in a PDF on its own.
    """
    uri = uri or ""
    if not uri.startswith("#"):
        scheme = _SCHEME.match(uri)
        if scheme is None or scheme.group(1).lower() not in LINK_SCHEMES:
            return None
    out = []
    i = 0
    while i < len(uri):
        if _PERCENT_ESCAPE.match(uri, i):
            out.append(uri[i:i + 3])
            i += 3
            continue
        char = uri[i]
        out.append(char if char in _URI_KEEP and char != "%" else "".join("%%%02X" % b for b in char.encode("utf-8")))
        i += 1
    return "".join(out)


# PDF Info keys hyperref's generic ``pdfinfo`` may write (they become PDF
# names, which must not carry delimiters).
PDFINFO_KEY = re.compile(r"[A-Za-z][A-Za-z0-9]{0,63}")
