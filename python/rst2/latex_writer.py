"""docutils' LaTeX writer with the policy of latex_safety.py applied.

Used by name (``rst2.latex_writer``) as the writer for PDF renderings.
docutils (0.19 as 0.23) copies four kinds of document text into the LaTeX
without escaping; each is handled here:

* math: checked, and shown as its source when it fails (ShowUnsafeMath);
* link URIs: only http(s)/mailto/#anchor, percent-encoded; other links
  keep their text and lose the link (visit_reference);
* ``meta`` fields: escaped like the title, unknown names dropped
  (visit_meta);
* class values (e.g. a ``code`` directive's language): normalised to
  identifiers (NormalizeClasses).

Image URIs never reach the LaTeX: images are numbered (latex_images.py).

The preamble ends with primitive_lock.tex, which takes the dangerous PDF
primitives away from the body.
"""

import os
import unicodedata

from docutils import nodes
from docutils.transforms import Transform
from docutils.utils.math import unichar2tex
from docutils.writers import latex2e

from . import latex_images, script_preamble, scripts
from .latex_safety import PDFINFO_KEY, link_target, math_refusal

with open(os.path.join(os.path.dirname(__file__), "primitive_lock.tex"), encoding="utf-8") as _lock_file:
    PRIMITIVE_LOCK = _lock_file.read()

# What a URI from link_target (no backslash, no braces) must escape in \href/\url.
_HREF_ESCAPES = {"#": "\\#", "%": "\\%", "&": "\\&", "~": "\\~"}


def tex_math(node):
    """The math code exactly as the writer hands it to pdfTeX."""
    return node.astext().translate(unichar2tex.uni2tex_table)


class ShowUnsafeMath(Transform):
    """Replaces math that fails the policy by its source, linked to a warning.

    The rest of the document still renders; the warning (collected while
    transforms run, and placed in docutils' "System Messages" section) says
    what was refused.
    """

    # Before universal.Messages (860), which places the warnings.
    default_priority = 850

    def apply(self):
        for node in list(self.document.findall(lambda n: isinstance(n, (nodes.math, nodes.math_block)))):
            if any(isinstance(a, nodes.substitution_definition) for a in _ancestors(node)):
                continue  # never written; its uses were copied and are checked
            reason = math_refusal(tex_math(node))
            if reason is not None:
                self._replace(node, reason)

    def _replace(self, node, reason):
        code = node.astext()
        message = self.document.reporter.warning(
            "Math not typeset: %s. It is shown as written." % reason, base_node=node
        )
        if isinstance(node, nodes.math_block):
            shown = nodes.literal_block(code, code, classes=["math-refused"])
            shown["ids"] = node["ids"]
            shown["names"] = node["names"]
            if not shown["ids"]:
                self.document.set_id(shown)
        else:
            shown = nodes.problematic(code, "", nodes.literal(code, code), refid=self.document.set_id(message))
            self.document.set_id(shown)
        message.add_backref(shown["ids"][0])
        shown.source, shown.line = node.source, node.line
        node.replace_self(shown)


def _ancestors(node):
    node = node.parent
    while node is not None:
        yield node
        node = node.parent


class NormalizeClasses(Transform):
    """Makes every class value an identifier (letters, digits, hyphens).

    docutils keeps some values as written, such as the language argument of
    ``code`` or a custom role's ``:language:``, and the writer puts classes
    into ``\\DUrole{...}`` and ``\\begin{DUclass}{...}`` unescaped.
    """

    default_priority = 850

    def apply(self):
        for node in self.document.findall(nodes.Element):
            if node.get("classes"):
                node["classes"] = [c for c in (nodes.make_id(c) for c in node["classes"]) if c]


INLINE_RUBRIC = r"""
% rst2: a rubric (or a section title) inside a list, table or admonition.
\providecommand*{\rsttworubric}[1]{\par\medskip\noindent{\normalfont\bfseries #1}\par\nobreak\smallskip}
"""


class SectionsOutsideTheFlow(Transform):
    """A section inside a body element becomes its title as a rubric, then its content.

    Sphinx's ``only`` takes titles (match_titles), so a section can land in
    a list item, a table cell or an admonition, where HTML is fine but
    LaTeX cannot take ``\\section`` (inside a list or a tabular it stops
    pdfTeX, and the whole PDF failed). Only the LaTeX is changed.
    """

    default_priority = 860

    def apply(self):
        # Innermost first, so an inner section is unwrapped inside its outer one.
        misplaced = [
            section
            for section in self.document.findall(nodes.section)
            if not all(isinstance(up, (nodes.section, nodes.document)) for up in _ancestors(section))
        ]
        for section in reversed(misplaced):
            box = nodes.container(ids=list(section["ids"]), names=list(section["names"]), classes=section["classes"])
            for child in section.children:
                if isinstance(child, nodes.title):
                    box += nodes.rubric(child.rawsource, "", *child.children)
                else:
                    box += child
            section.replace_self(box)


class ScriptMarking:
    """Text in any script (python/rst2/scripts.py): each character in its class's LaTeX.

    The script set comes in the setting ``rst2_scripts`` (render.py); what
    the document needs beyond it, and the characters replaced by
    placeholders (counted once per text node, not per copy the writer
    makes for bookmarks or metadata), are left on the document for
    render.py as ``rst2_scripts_missing`` and ``rst2_replaced``.
    """

    def _marker(self):
        marker = getattr(self, "_rst2_marker", None)
        if marker is None:
            plan = scripts.Plan.parse(getattr(self.settings, "rst2_scripts", ""))
            marker = self._rst2_marker = scripts.Marker(plan)
            self.document.rst2_scripts_missing = marker.missing
            self.document.rst2_replaced = []
            self._rst2_counter = None
            # After the format marker (a format does not keep glyph-name mappings).
            tounicode = script_preamble.tounicode(plan)
            if tounicode:
                self.fallbacks["rst2-tounicode"] = tounicode
        return marker

    def encode(self, text):
        encoded = super().encode(text)
        if self.verbatim:
            return encoded
        return self._marker().mark(encoded, self._rst2_counter)

    def visit_math(self, node, math_env="$"):
        # Math fonts have Latin and Greek letters only (docutils turns Greek
        # into \alpha...): other characters are set as marked text.
        self._marked_math(super().visit_math, node, math_env)

    def visit_math_block(self, node):
        # docutils 0.23 writes math blocks itself, no longer through visit_math.
        self._marked_math(super().visit_math_block, node)

    def _marked_math(self, visit, node, *args):
        marker = self._marker()
        start = len(self.out)
        try:
            visit(node, *args)
        finally:
            for i in range(start, len(self.out)):
                self.out[i] = marker.mark_math(self.out[i], self.document.rst2_replaced)

    def visit_Text(self, node):
        self._marker()
        self._rst2_counter = self.document.rst2_replaced
        try:
            super().visit_Text(node)
        finally:
            self._rst2_counter = None


class Babel(latex2e.Babel):
    """docutils' language names for babel, with the Vietnamese one babel ships
    (docutils says ``vietnam``; TeX Live's babel-vietnamese has ``vietnamese``)."""

    language_codes = dict(latex2e.Babel.language_codes, vi="vietnamese")
    # LuaLaTeX (set by Shaped): the babel set-up of script_preamble.lua_babel.
    rst2_lua = None

    def __call__(self):
        if self.rst2_lua is not None:
            return self.rst2_lua()
        return super().__call__()


# The first strong character of a text decides its direction (the Unicode
# bidi algorithm's rule P2, as HTML's dir=auto).
_STRONG = {"L": "ltr", "R": "rtl", "AL": "rtl"}


def _direction(text):
    for char in text:
        direction = _STRONG.get(unicodedata.bidirectional(char))
        if direction:
            return direction
    return None


class Shaped:
    """LuaLaTeX for documents with a shaped script (scripts.SHAPED): docutils'
    LaTeX with fontspec and babel instead of fontenc and babel's classic
    options (script_preamble.lua_babel), and paragraphs, lists, titles and
    table cells whose text starts in a right-to-left script (or, in a
    right-to-left document, in a left-to-right one) set in that direction
    with babel's languages. A pdfTeX document goes through untouched."""

    def _rst2_lua_setup(self, settings):
        plan = scripts.Plan.parse(getattr(settings, "rst2_scripts", ""))
        self.rst2_lua = plan.engine == scripts.LUAHBTEX
        if not self.rst2_lua:
            return
        self.rst2_plan = plan
        # babel's language goes to \babelprovide, not to the class options.
        self.head_prefix = ["\\documentclass[%s]{%s}" % (settings.documentoptions, settings.documentclass)]
        self._rst2_drop_pdftex_requirements()
        self.rst2_main = script_preamble.language_name(settings.language_code, self.babel.language)
        self.rst2_dirs = ["rtl" if script_preamble.main_is_rtl(self.rst2_main) else "ltr"]
        self.rst2_closers = []
        self.babel.rst2_lua = self._rst2_babel

    def depart_document(self, node):
        if getattr(self, "rst2_lua", False):
            # docutils writes babel's line only for a language other than
            # English; LuaLaTeX's fonts come with it, so always.
            self.requirements["babel"] = self._rst2_babel()
            # docutils adds inputenc's \DeclareUnicodeCharacter lines while
            # it encodes the text (≠, ≤, U+200B, ...): pdfLaTeX's, undefined
            # in LuaLaTeX, where the fonts have the characters themselves.
            self._rst2_drop_pdftex_requirements()
        super().depart_document(node)

    def _rst2_drop_pdftex_requirements(self):
        for key in [k for k in self.requirements if k.startswith(("_fontenc", "_inputenc", "_textquotedbl"))]:
            del self.requirements[key]

    def _rst2_babel(self):
        return script_preamble.lua_babel(
            self.rst2_plan, self.rst2_main, tuple(self.babel.otherlanguages),
            bool(getattr(self.settings, "rst2_sans", True)))

    def _rst2_language(self, direction, text):
        """babel's language for text in ``direction`` (its first strong character's script)."""
        if direction == "ltr":
            return "english" if script_preamble.main_is_rtl(self.rst2_main) else self.rst2_main
        if script_preamble.main_is_rtl(self.rst2_main):
            return self.rst2_main
        for char in text:
            if _STRONG.get(unicodedata.bidirectional(char)) == "rtl":
                kind = scripts.classify(char, scripts.table(), shaped=True)[0]
                return script_preamble.LOCALES.get(kind, "arabic" if kind != "hebrew" else "hebrew")
        return "arabic"

    def _rst2_turn(self, node):
        """The direction ``node`` needs when it differs from the one it is in, else None."""
        if not getattr(self, "rst2_lua", False):
            return None
        direction = _direction(node.astext())
        if direction is None or direction == self.rst2_dirs[-1]:
            return None
        if direction == "rtl" and not any(s in scripts.RTL for s in self.rst2_plan.shaped()):
            return None  # an RTL script no font has: placeholders, kept in line
        return direction

    def _rst2_open(self, node, inline=False, block=False):
        direction = self._rst2_turn(node)
        if direction is None:
            self.rst2_closers.append(None)
            return
        language = self._rst2_language(direction, node.astext())
        if inline:
            self.out.append("\\foreignlanguage{%s}{" % language)
            self.rst2_closers.append(("}", False))
        else:
            self.out.append("\\begin{otherlanguage}{%s}" % language)
            self.rst2_closers.append(("\\end{otherlanguage}" + ("\n" if block else ""), True))
            self.rst2_dirs.append(direction)

    def _rst2_close(self):
        closer = self.rst2_closers.pop() if getattr(self, "rst2_lua", False) else None
        if closer is not None:
            text, pushed = closer
            self.out.append(text)
            if pushed:
                self.rst2_dirs.pop()

    def visit_paragraph(self, node):
        super().visit_paragraph(node)
        if getattr(self, "rst2_lua", False):
            # An item's first paragraph is already started by \item (its
            # direction is the list's); text in a table with auto-sized
            # columns is in a box: there only the run turns.
            first = node.parent.index(node) == 0 and isinstance(node.parent, (nodes.list_item, nodes.definition, nodes.description, nodes.field_body))
            self._rst2_open(node, inline=first or bool(self.active_table.colwidths_auto))

    def depart_paragraph(self, node):
        self._rst2_close()
        super().depart_paragraph(node)

    def _rst2_list(self, visit, node):
        if getattr(self, "rst2_lua", False):
            self.out.append("\n")
            self._rst2_open(node, block=True)
        visit(node)

    def _rst2_list_end(self, depart, node):
        depart(node)
        self._rst2_close()

    def visit_bullet_list(self, node):
        self._rst2_list(super().visit_bullet_list, node)

    def depart_bullet_list(self, node):
        self._rst2_list_end(super().depart_bullet_list, node)

    def visit_enumerated_list(self, node):
        self._rst2_list(super().visit_enumerated_list, node)

    def depart_enumerated_list(self, node):
        self._rst2_list_end(super().depart_enumerated_list, node)

    def visit_definition_list(self, node):
        self._rst2_list(super().visit_definition_list, node)

    def depart_definition_list(self, node):
        self._rst2_list_end(super().depart_definition_list, node)

    # A field list is a description list too: one whose first words are
    # Arabic or Hebrew is set right to left as a whole, else its labels stay
    # left to right while its bodies turn (the label was printed over the
    # text). An option list stays left to right: its options are commands
    # ("-1" would read "1-"), its descriptions turn as runs.
    def visit_field_list(self, node):
        self._rst2_list(super().visit_field_list, node)

    def depart_field_list(self, node):
        self._rst2_list_end(super().depart_field_list, node)

    def visit_line_block(self, node):
        if isinstance(node.parent, nodes.line_block):
            return super().visit_line_block(node)  # nested: the outer one turned
        self._rst2_list(super().visit_line_block, node)

    def depart_line_block(self, node):
        if isinstance(node.parent, nodes.line_block):
            return super().depart_line_block(node)
        self._rst2_list_end(super().depart_line_block, node)

    def visit_title(self, node):
        super().visit_title(node)
        if getattr(self, "rst2_lua", False):
            self._rst2_open(node, inline=True)

    def depart_title(self, node):
        self._rst2_close()
        super().depart_title(node)


def _after_a_block(node):
    """Whether the nearest visible sibling before ``node`` is a block other
    than a linked or plain image (a target or substitution definition is
    not visible)."""
    index = node.parent.index(node)
    for sibling in reversed(node.parent.children[:index]):
        if isinstance(sibling, nodes.Invisible):
            continue
        return not isinstance(sibling, (nodes.reference, nodes.image))
    return False


def _fallback_title(document, limit=80):
    """A title for a document without one: its first section's title, else
    the start of its first paragraph (at a word's end, within ``limit``
    characters), else what PDF readers show for none."""
    section = next(document.findall(nodes.section), None)
    text = ""
    if section is not None and section.children and isinstance(section[0], nodes.title):
        text = " ".join(section[0].astext().split())
    if not text:
        # Not a bibliographic field's (":Web: https://..." first).
        paragraph = next((p for p in document.findall(nodes.paragraph)
                          if not any(isinstance(a, nodes.docinfo) for a in _ancestors(p))), None)
        text = " ".join(paragraph.astext().split()) if paragraph is not None else ""
    if len(text) > limit:
        cut = text[:limit + 1].rsplit(" ", 1)[0] if " " in text[:limit + 1] else text[:limit]
        # Three dots, not an ellipsis: that is a CJK font's character here
        # (scripts.py), whose packages the title alone would load.
        text = cut.rstrip(" ,;:") + "..."
    return text or "Untitled document"


class Tagged:
    """A tagged PDF (PDF/UA-1), asked for with the script set's member
    scripts.TAGGED: \\DocumentMetadata before the class, each table's
    header rows named, and each image's alt text (latex_images.py). An
    untagged document goes through untouched."""

    def _rst2_tag_setup(self, settings):
        plan = scripts.Plan.parse(getattr(settings, "rst2_scripts", ""))
        self.rst2_tagged = scripts.TAGGED in plan.members

    def _rst2_lang(self, document):
        """The PDF's /Lang: docutils' language_code; for its default (a
        document cannot choose another), the language of a shaped script
        when the text starts in one, as an Arabic note's does."""
        lang = script_preamble.bcp47(self.settings.language_code)
        if lang.lower() != "en":
            return lang
        t = scripts.table()
        for char in document.astext():
            if _STRONG.get(unicodedata.bidirectional(char)):
                kind = scripts.classify(char, t, shaped=True)[0]
                return script_preamble.SCRIPT_LANGUAGES.get(kind, lang)
        return lang

    @staticmethod
    def _rst2_header_rows(node):
        for tgroup in node.children:
            for thead in tgroup.children if isinstance(tgroup, nodes.tgroup) else ():
                if isinstance(thead, nodes.thead):
                    return len(thead.children)
        return 0

    def visit_table(self, node):
        if self.rst2_tagged and self._rst2_header_rows(node):
            # The setting lasts to the end of the enclosing group: reset after the table.
            self.out.append("\n" + script_preamble.table_header_rows(self._rst2_header_rows(node)))
        super().visit_table(node)

    def depart_table(self, node):
        super().depart_table(node)
        if self.rst2_tagged and self._rst2_header_rows(node):
            self.out.append(script_preamble.table_header_rows(0))

    def provide_fallback(self, feature, key=None):
        super().provide_fallback(feature, key)
        if self.rst2_tagged and (key or feature) in script_preamble.TAGGED_FALLBACKS:
            self.fallbacks[key or feature] = script_preamble.TAGGED_FALLBACKS[key or feature]

    def depart_document(self, node):
        if self.rst2_tagged:
            self.head_prefix.insert(0, script_preamble.document_metadata(self._rst2_lang(node)))
            if not node.get("title") and not any(line.startswith("  pdftitle=") for line in self.pdfinfo):
                # PDF/UA-1 asks for a dc:title, which hyperref writes only
                # from pdftitle, and docutils sets that only from the
                # document's title (or a meta title).
                self.pdfinfo.append("  pdftitle={%s}," % self.encode(_fallback_title(node)))
        super().depart_document(node)
        if self.rst2_tagged:
            # Always there: a tagged document always has a pdftitle (above).
            at = self.pdfsetup.index("\\hypersetup{")
            self.pdfsetup[at:at] = [script_preamble.TAGGED_REPAIRS, script_preamble.TAGGED_PURIFY]
        if self.rst2_tagged and not getattr(self, "rst2_lua", False):
            # After docutils' hyperref block, which a preamble format ends
            # with (latex_format), and before the primitive lock.
            self.pdfsetup.append(script_preamble.TAGGED_PDFTEX_BACKEND)


class SafeLaTeXTranslator(ScriptMarking, Shaped, Tagged, latex2e.LaTeXTranslator):
    def __init__(self, document, babel_class=Babel):
        super().__init__(document, babel_class)
        self._rst2_lua_setup(document.settings)
        self._rst2_tag_setup(document.settings)

    def visit_math(self, node, math_env="$"):
        # ShowUnsafeMath has replaced what fails; this holds should a later
        # transform ever make math of its own.
        self._refuse_unsafe_math(node)
        super().visit_math(node, math_env)

    def visit_math_block(self, node):
        # Its own path since docutils 0.23 (it no longer calls visit_math).
        self._refuse_unsafe_math(node)
        super().visit_math_block(node)

    def _refuse_unsafe_math(self, node):
        if math_refusal(tex_math(node)) is not None:
            self.out.append("\\texttt{%s}" % self.encode(node.astext()))
            raise nodes.SkipNode

    def visit_reference(self, node):
        if "refuri" not in node:
            return super().visit_reference(node)
        if self.rst2_tagged and not self.is_inline(node) and _after_a_block(node):
            # An image's :target: right after a block (an admonition): a
            # paragraph of its own, as docutils 0.23 writes it. Without the
            # blank line LaTeX continues the block's paragraph, and the
            # tagging nests the image's paragraph in it (a P in a P). A row
            # of linked badges stays one paragraph, as untagged.
            self.out.append("\n")
        href = link_target(node["refuri"])
        if href is None:
            # The text stays, in a group that depart_reference closes.
            self.out.append("{")
            return None
        # Escaped as hyperref reads them back even where the link is inside
        # another command's argument (a table cell spanning columns, a
        # footnote): raw there, "&" ends the cell, "~" is a space, "#" doubles.
        escaped = "".join(_HREF_ESCAPES.get(char, char) for char in href)
        if node["refuri"] == node.astext() == href:
            self.out.append("\\url{%s}" % escaped)
            raise nodes.SkipNode
        self.out.append("\\href{%s}{" % escaped)
        return None

    def visit_meta(self, node):
        name = node.attributes.get("name")
        content = node.attributes.get("content")
        if not name or not content:
            return
        value = self.attval(content)
        if name in ("author", "creator", "keywords", "subject", "title"):
            self.pdfinfo.append("  pdf%s={%s}," % (name, value))
        elif name == "producer":
            self.pdfinfo.append("  addtopdfproducer={%s}," % value)
        elif PDFINFO_KEY.fullmatch(name):
            self.pdfinfo.append("  pdfinfo={%s={%s}}," % (name, value))

    def visit_image(self, node):
        # docutils' own sizes and alignment; the picture is named by number
        # (latex_images.py), never by its URI.
        # docutils turns the URI into a file path first (url2pathname), which
        # raises on some URIs ("//host/x.png" on Python 3.14) and would fail
        # the whole document; the path is thrown away, so it never sees the URI.
        start = len(self.out)
        uri = node.get("uri")
        node["uri"] = ""
        try:
            super().visit_image(node)
        finally:
            node["uri"] = uri
        self.out[start:] = latex_images.rewrite(self, node, self.out[start:])

    def visit_rubric(self, node):
        if all(isinstance(up, (nodes.section, nodes.document)) for up in _ancestors(node)):
            return super().visit_rubric(node)
        # The styles' \\DUrubric is a \\subsubsection*, which a list item
        # or a table cell cannot take: a bold line of its own instead.
        self.fallbacks["rsttworubric"] = INLINE_RUBRIC
        self.out.append("\n\\rsttworubric{")

    def visit_raw(self, node):
        # raw is disabled in the settings; should a raw node exist anyway,
        # it never reaches LaTeX.
        raise nodes.SkipNode

    def depart_document(self, node):
        super().depart_document(node)
        self.pdfsetup.append(PRIMITIVE_LOCK)


class Writer(latex2e.Writer):
    def __init__(self):
        super().__init__()
        self.translator_class = SafeLaTeXTranslator

    def get_transforms(self):
        return super().get_transforms() + [ShowUnsafeMath, NormalizeClasses, SectionsOutsideTheFlow]
