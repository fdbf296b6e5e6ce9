"""TeX math to MathML that never carries markup from the document.

docutils 0.19's ``latex2mathml`` builds a tree of element objects whose
names are fixed, but its serialiser writes attribute values as they are:
``\\hspace{1em" onload="...}`` ends up as an event attribute on ``<mspace>``.
Here the same parser builds the tree and our serialiser writes it: element
names from a fixed list, attributes from a fixed list with escaped values,
text escaped.  Browsers render MathML natively, so no script or stylesheet
is needed to show the formulas.
"""

import html

from docutils.utils.math import latex2mathml as l2m

NAMESPACE = "http://www.w3.org/1998/Math/MathML"

# Every element class latex2mathml instantiates (docutils 0.19).
ELEMENTS = frozenset(
    (
        "math mtable mrow mtr mtd menclose mphantom msqrt mstyle mtext mi mo mn "
        "msub msup msubsup munder mover munderover mroot mfrac mspace"
    ).split()
)

# The attributes latex2mathml sets; anything else is left out.
ATTRIBUTES = frozenset(
    (
        "xmlns display class mathvariant movablelimits form stretchy rspace lspace "
        "notation scriptlevel displaystyle columnalign columnspacing rowspacing "
        "width maxsize minsize symmetric accent accentunder linethickness fence "
        "separator largeop mathsize"
    ).split()
)


class MathError(Exception):
    """The formula cannot be converted; the message is plain text."""


def tex_to_mathml(tex, inline=True):
    """A ``<math>`` element for ``tex`` as a string, or MathError."""
    root = l2m.math(xmlns=NAMESPACE)
    node = root
    if not inline:
        root["display"] = "block"
        # Displayed math may hold several lines (``\\``); latex2mathml lays
        # them out as an align* table, which it expects to find set up.
        rows = l2m.toplevel_code(tex).split(r"\\")
        if len(rows) > 1:
            node = l2m.mtd()
            root.append(l2m.mtable(l2m.mtr(node), **l2m.align_attributes(rows)))
    try:
        l2m.parse_latex_math(node, tex)
    except (RecursionError, MemoryError):
        raise
    except SyntaxError as error:
        # latex2mathml's own diagnosis ("Unknown LaTeX command: href").
        raise MathError(",".join(str(arg) for arg in error.args)) from error
    except Exception as error:  # noqa: BLE001 - its parser fails in many ways on odd input
        raise MathError(
            "The formula could not be converted to MathML (%s in docutils' converter)." % type(error).__name__
        ) from error
    out = []
    _write(root, 0, out)
    return "".join(out)


def _write(element, level, out):
    name = type(element).__name__
    if name not in ELEMENTS:
        raise MathError("The formula uses an element rst2 does not write (%s)." % name)
    attributes = "".join(
        ' %s="%s"' % (key, html.escape(_text(value), quote=True))
        for key, value in element.attributes.items()
        if value is not None and key in ATTRIBUTES
    )
    out.append("<%s%s>" % (name, attributes))
    if isinstance(element, l2m.MathToken):
        # U+2061 is invisible; docutils writes it as an entity so it can be seen.
        out.append(html.escape(str(element.data), quote=False).replace("\u2061", "&ApplyFunction;"))
    else:
        # The same layout as docutils' toprettyxml(): a child per line.
        for child in element.children:
            out.append("\n" + "  " * (level + 1))
            _write(child, level + 1, out)
        out.append("\n" + "  " * level)
    out.append("</%s>" % name)


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)
