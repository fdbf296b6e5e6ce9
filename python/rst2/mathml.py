"""TeX math to MathML that never carries markup from the document.

docutils' ``latex2mathml`` builds a tree of element objects whose names are
fixed.  docutils 0.19's serialiser wrote attribute values as they were
(``\\hspace{1em" onload="...}`` ended up as an event attribute on
``<mspace>``); 0.23's tree is ``xml.etree`` and escapes them, but which
elements and attributes it makes is provisional API that changes between
releases.  So the same parser builds the tree and our serialiser writes it:
element names from a fixed list, attributes from a fixed list with escaped
values, text escaped.  Browsers render MathML natively, so no script or
stylesheet is needed to show the formulas.
"""

import html

from docutils.utils.math import MathError as DocutilsMathError
from docutils.utils.math import latex2mathml as l2m
from docutils.utils.math import mathml_elements

NAMESPACE = "http://www.w3.org/1998/Math/MathML"

# Every element class docutils' mathml_elements defines (0.23); latex2mathml
# uses a subset.
ELEMENTS = frozenset(
    (
        "math mtable mrow mtr mtd menclose mphantom mpadded merror msqrt mstyle mtext mi mo mn "
        "msub msup msubsup munder mover munderover mroot mfrac mspace"
    ).split()
)

# The attributes latex2mathml sets (0.23, with 0.19's); anything else is
# left out.  Not ``style``: docutils sets it on one operator (\\thicksim),
# and no style attribute is written inside <math>.
ATTRIBUTES = frozenset(
    (
        "xmlns display class mathvariant movablelimits form stretchy rspace lspace "
        "notation scriptlevel displaystyle columnalign columnspacing rowspacing "
        "width maxsize minsize symmetric accent accentunder linethickness fence "
        "separator largeop mathsize numalign"
    ).split()
)


class MathError(Exception):
    """The formula cannot be converted; the message is plain text."""


def tex_to_mathml(tex, inline=True):
    """A ``<math>`` element for ``tex`` as a string, or MathError."""
    # The set-up of docutils' latex2mathml.tex2mathml(), which serialises
    # the tree itself.
    root = mathml_elements.math(xmlns=NAMESPACE)
    node = root
    if not inline:
        root.set("display", "block")
        # Displayed math may hold several lines (``\\``), laid out as an
        # align* table.
        if len(l2m.toplevel_code(tex).split(r"\\")) > 1:
            node = mathml_elements.mtd()
            root.append(mathml_elements.mtable(mathml_elements.mtr(node), CLASS="ams-align", displaystyle=True))
    try:
        l2m.parse_latex_math(node, tex)
    except (RecursionError, MemoryError):
        raise
    except DocutilsMathError as error:
        # latex2mathml's own diagnosis ('Unknown LaTeX command "\\href".').
        raise MathError(str(error)) from error
    except Exception as error:  # noqa: BLE001 - its parser fails in many ways on odd input
        raise MathError(
            "The formula could not be converted to MathML (%s in docutils' converter)." % type(error).__name__
        ) from error
    out = []
    _write(root, 0, out)
    return "".join(out)


def _write(element, level, out):
    name = element.tag
    if name not in ELEMENTS or type(element).__name__ != name:
        raise MathError("The formula uses an element rst2 does not write (%s)." % name)
    attributes = "".join(
        ' %s="%s"' % (key, html.escape(str(value), quote=True))
        for key, value in element.items()
        if value is not None and key in ATTRIBUTES
    )
    out.append("<%s%s>" % (name, attributes))
    if isinstance(element, mathml_elements.MathToken):
        # U+2061 is invisible; docutils writes it as an entity so it can be seen.
        out.append(html.escape(element.text or "", quote=False).replace("\u2061", "&ApplyFunction;"))
    elif len(element):
        # The same layout as docutils' indent_xml(): a child per line.
        for child in element:
            out.append("\n" + "  " * (level + 1))
            _write(child, level + 1, out)
        out.append("\n" + "  " * level)
    out.append("</%s>" % name)
