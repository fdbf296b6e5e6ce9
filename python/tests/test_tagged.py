"""Tagged PDF (PDF/UA-1), the option ``tagged``: the LaTeX of a tagged
document, an untagged document's LaTeX unchanged, and check's
image-without-alt rule.

A tagged document goes to the engine its scripts choose: pdfTeX for Latin,
CJK and emoji text, with the untagged LaTeX plus the tagging; LuaHBTeX for a
shaped script. The compile test at the end (a LuaHBTeX document) runs only
where issue 31's native probe tree is (trixie's texmf, a native LuaHBTeX,
pikepdf; the native pdfTeX, 1.40.24, is too old for LaTeX's PDF management):
elsewhere it is skipped, and test/http-pdf-tagged.test.ts checks the PDFs of
both engines through the service's.
"""

import json
import os
import shutil
import subprocess
import tempfile
import unittest

from rst2 import api, latex_format, script_preamble
from rst2.latex_writer import PRIMITIVE_LOCK
from rst2.render import render_latex

from .test_shaped_scripts import synthetic_shaped, table_with

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

SAMPLE = """===========
Tagged note
===========

A paragraph with a link to `the docs <https://example.org/docs>`__ and a
footnote [#f1]_.

Lists
=====

* first bullet
* second bullet

1. one
2. two

Table
-----

=====  =====
Name   Value
=====  =====
alpha  1
beta   2
=====  =====

.. figure:: https://example.org/red.png
   :alt: A red square & more

   The caption.

.. image:: https://example.org/no-alt.png

.. [#f1] The footnote text.
"""

ARABIC = "الإعلان العالمي لحقوق الإنسان\n%s\n\nيولد جميع الناس أحرارا متساوين في الكرامة والحقوق.\n\n* وقد وهبوا عقلا وضميرا\n* Latin 2026\n" % ("=" * 60)

METADATA = "\\DocumentMetadata{lang=%s, pdfstandard=ua-1, pdfversion=1.7, testphase={phase-III,table,title,firstaid}}\n\\tagpdfsetup{attach-css=false}\n"


class TaggedLatexTest(unittest.TestCase):
    def setUp(self):
        self.table = table_with(synthetic_shaped())
        self.table.__enter__()

    def tearDown(self):
        self.table.__exit__(None, None, None)

    def test_a_tagged_latin_document_goes_to_pdftex_with_document_metadata(self):
        out = render_latex(SAMPLE, {"tagged": True})
        self.assertEqual(out["engine"], "pdftex")
        # A format of its own, \\DocumentMetadata first, that the document starts with.
        fmt = out["format_preamble"]
        self.assertTrue(fmt.startswith(METADATA % "en" + "\n\\documentclass[a4paper]{article}\n"), fmt[:300])
        self.assertTrue(fmt.endswith(latex_format.METADATA_FORMAT), fmt[-300:])
        self.assertTrue(out["latex"].startswith(fmt + latex_format.MARKER))
        self.assertNotEqual(fmt, render_latex(SAMPLE)["format_preamble"])
        self.assertEqual(out["scripts"], [])  # "tagged" is a choice, not a script
        latex = out["latex"]
        self.assertTrue(latex.startswith(METADATA % "en" + "\n\\documentclass[a4paper]{article}\n"), latex[:300])
        # pdfTeX's fonts, as untagged: no fontspec, no LuaLaTeX babel.
        self.assertIn("\\usepackage[T1]{fontenc}", latex)
        self.assertNotIn("fontspec", latex)
        self.assertIn("\\hypersetup{\n  pdftitle={Tagged note},\n}", latex)
        # The PDF management keeps the primitives the lock takes from the body.
        self.assertIn(script_preamble.TAGGED_PDFTEX_BACKEND, latex)
        self.assertLess(latex.index(script_preamble.TAGGED_PDFTEX_BACKEND), latex.index("\\begin{document}"))
        # The lock still closes the preamble: the body has none of the primitives.
        self.assertLess(latex.index(script_preamble.TAGGED_PDFTEX_BACKEND), latex.index(PRIMITIVE_LOCK))

    def test_the_untagged_latex_plus_the_tagging(self):
        """Without tables or images: the untagged document's LaTeX, as
        docutils lays it out and as regrouped for a format, the metadata
        before it and the backend's primitives (and, regrouped, the line
        that lets mylatexformat dump after \\DocumentMetadata), nothing
        else; for each style and a KOMA class."""
        source = "Note\n====\n\nA `link <https://example.org/>`__ and a footnote [#f]_.\n\n* one\n* two\n\n.. [#f] Text.\n"
        for options in ({}, {"class": "report", "style": "style2"}, {"class": "scrbook", "style": "zope"}):
            for layout in ({"docutils_layout": True}, {}):
                both = dict(options, **layout)
                plain = render_latex(source, both)["latex"]
                tagged = render_latex(source, dict(both, tagged=True))["latex"]
                self.assertTrue(tagged.startswith(METADATA % "en" + "\n"), both)
                stripped = tagged[len(METADATA % "en" + "\n"):].replace(script_preamble.TAGGED_PDFTEX_BACKEND + "\n", "", 1)
                stripped = stripped.replace(script_preamble.TAGGED_REPAIRS + "\n" + script_preamble.TAGGED_PURIFY + "\n", "", 1)
                if not layout:
                    self.assertIn(latex_format.METADATA_FORMAT + latex_format.MARKER, stripped, both)
                    stripped = stripped.replace(latex_format.METADATA_FORMAT, "", 1)
                self.assertEqual(stripped, plain, both)

    def test_the_title_is_purified_before_hyperref_sets_it(self):
        latex = render_latex("Wait\u2026 what\n==========\n\nText.\n", {"tagged": True})["latex"]
        self.assertIn("pdftitle={Wait\\rstwoCJK{gbsn}{\u2026} what}", latex)
        self.assertLess(latex.index(script_preamble.TAGGED_PURIFY), latex.index("\\hypersetup{\n  pdftitle="))

    def test_a_document_without_a_title_gets_one_for_dc_title(self):
        cases = {
            "Intro\n-----\n\nText.\n\nMore\n----\n\nText.\n": "Intro",
            "A first paragraph, *emphasised*, and long enough to pass the eighty characters a title may have.\n": (
                "A first paragraph, emphasised, and long enough to pass the eighty characters a..."),
            ".. image:: https://example.org/x.png\n": "Untitled document",
            # A bibliographic field first is not the text.
            ":Web: https://example.org/\n\nThe real start.\n": "The real start.",
        }
        for source, title in cases.items():
            latex = render_latex(source, {"tagged": True})["latex"]
            self.assertEqual(latex.count("pdftitle="), 1, source)
            self.assertIn("  pdftitle={%s}," % title, latex)
            self.assertNotIn("pdftitle=", render_latex(source, {})["latex"], "untagged: as docutils writes it")
        # A title of its own (or a meta title) is kept, and nothing is added.
        titled = render_latex("Own\n===\n\nText.\n", {"tagged": True})["latex"]
        self.assertEqual(titled.count("pdftitle="), 1)
        self.assertIn("pdftitle={Own}", titled)
        meta = render_latex(".. meta::\n   :title: From meta\n\nText.\n", {"tagged": True})["latex"]
        self.assertEqual(meta.count("pdftitle="), 1)
        self.assertIn("pdftitle={From meta}", meta)

    def test_field_lists_open_their_blocks_through_begin_and_end(self):
        """docutils' DUfieldlist calls \\quote and \\description as commands,
        which the tagging cannot close (no PDF at all when a section
        follows); a tagged document has them through \\begin and \\end."""
        source = "Title\n=====\n\nSection\n=======\n\n:Field: value\n\nSection 2\n=========\n\nText.\n"
        tagged = render_latex(source, {"tagged": True})["latex"]
        self.assertIn(script_preamble.TAGGED_FALLBACKS["fieldlist"], tagged)
        self.assertIn("{\\begin{quote}\\begin{description}}", tagged)
        self.assertNotIn("{\\quote\\description}", tagged)
        self.assertIn("{\\quote\\description}", render_latex(source, {})["latex"])

    def test_no_block_inside_a_paragraph(self):
        """The admonitions' frame, a placeholder's box and an image link
        straight after a block would each nest a block in a paragraph."""
        source = (".. note:: A note.\n\n.. image:: https://example.org/a.png\n   :alt: A\n"
                  "   :target: https://example.org/\n\nText |b|.\n\n.. |b| image:: https://example.org/b.png\n")
        tagged = render_latex(source, {"tagged": True})["latex"]
        plain = render_latex(source, {})["latex"]
        self.assertLess(tagged.index(script_preamble.TAGGED_REPAIRS), tagged.index("\\hypersetup{\n  pdftitle="))
        self.assertIn("\\renewcommand*{\\rsttwoplaceholder}", tagged)
        self.assertIn("\\end{DUclass}\n\n\\href{https://example.org/}", tagged)
        for part in (script_preamble.TAGGED_REPAIRS, "\\renewcommand*{\\rsttwoplaceholder}"):
            self.assertNotIn(part, plain)
        self.assertIn("\\end{DUclass}\n\\href{https://example.org/}", plain, "untagged: as before")
        # A row of linked badges stays one paragraph.
        row = ".. image:: https://example.org/a.png\n   :target: https://example.org/a\n.. image:: https://example.org/b.png\n   :target: https://example.org/b\n"
        badges = render_latex("Text.\n\n" + row, {"tagged": True})["latex"]
        self.assertIn("}}}\n\\href{https://example.org/b}", badges)
        self.assertIn("\n\n\\href{https://example.org/a}", badges)

    def test_header_rows_are_named_around_the_table(self):
        latex = render_latex(SAMPLE, {"tagged": True})["latex"]
        start = latex.index("\\tagpdfsetup{table/header-rows={1}}\n")
        table = latex.index("\\begin{longtable*}")
        end = latex.index("\\end{longtable*}")
        reset = latex.index("\\tagpdfsetup{table/header-rows={}}\n")
        self.assertLess(start, table)
        self.assertLess(end, reset)

    def test_two_header_rows(self):
        grid = "+---+---+\n| a | b |\n+---+---+\n| c | d |\n+===+===+\n| e | f |\n+---+---+\n"
        latex = render_latex(grid, {"tagged": True})["latex"]
        self.assertIn("\\tagpdfsetup{table/header-rows={1,2}}\n", latex)
        headless = render_latex("+---+---+\n| a | b |\n+---+---+\n", {"tagged": True})["latex"]
        self.assertNotIn("header-rows", headless)

    def test_images_carry_their_alt_text_or_their_uri(self):
        out = render_latex(SAMPLE, {"tagged": True})
        latex = out["latex"]
        self.assertIn("{\\def\\rsttwoalt{A red square \\& more}\\rsttwoimage{1}{}", latex)
        self.assertIn("{\\def\\rsttwoalt{https://example.org/no-alt.png}\\rsttwoimage{2}{}", latex)
        self.assertIn("\\includegraphics[#1,alt={\\rsttwoalt}]{#2}", latex)
        self.assertEqual([i["uri"] for i in out["images"]], ["https://example.org/red.png", "https://example.org/no-alt.png"])

    def test_a_scaled_image_keeps_its_scale_and_gets_its_alt(self):
        latex = render_latex(".. image:: https://example.org/a.png\n   :scale: 50 %\n   :alt: Half\n", {"tagged": True})["latex"]
        self.assertIn("{\\def\\rsttwoscale{500}\\def\\rsttwoalt{Half}\\rsttwoimage{1}{scale=0.5}", latex)

    def test_an_arabic_note_is_tagged_as_arabic(self):
        out = render_latex(ARABIC, {"tagged": True})
        self.assertEqual(out["engine"], "luahbtex")
        self.assertEqual(out["scripts"], ["arabic"])
        self.assertTrue(out["latex"].startswith(METADATA % "ar"))
        self.assertIn("bidi=basic", out["latex"])

    def test_an_arabic_note_has_no_pdftex_backend_block(self):
        # LuaTeX's backend writes through \\pdfextension, which the lock leaves.
        self.assertNotIn("__rsttwo_keep", render_latex(ARABIC, {"tagged": True})["latex"])

    def test_cjk_and_emoji_in_a_tagged_document_are_kept_as_untagged(self):
        source = "人人生而自由 👋\n"
        out = render_latex(source, {"tagged": True})
        plain = render_latex(source)
        self.assertEqual(out["engine"], "pdftex")
        self.assertIn("CJKutf8", out["latex"])
        self.assertIn("hwemoji", out["latex"])
        self.assertEqual(out["replaced_characters"], 0)
        self.assertEqual(out["scripts"], plain["scripts"])
        # A format when the untagged document has one.
        self.assertEqual(out["format_preamble"] is None, plain["format_preamble"] is None)


class UntaggedUnchangedTest(unittest.TestCase):
    """Without tagged (or with it false) the LaTeX is byte for byte what it was."""

    SOURCES = (SAMPLE, ARABIC, "Title\n=====\n\nLatin text.\n", ".. image:: a.png\n   :scale: 50 %\n")

    def test_same_latex_without_the_option_and_with_it_false(self):
        with table_with(synthetic_shaped()):
            for source in self.SOURCES:
                plain = render_latex(source)
                off = render_latex(source, {"tagged": False})
                self.assertEqual(plain, off)
                self.assertNotIn("DocumentMetadata", plain["latex"])
                self.assertNotIn("tagpdfsetup", plain["latex"])
                self.assertNotIn("rsttwoalt", plain["latex"])
            self.assertEqual(render_latex(SAMPLE)["engine"], "pdftex")


class ImageWithoutAltTest(unittest.TestCase):
    SOURCE = (
        "Title\n=====\n\n.. image:: https://example.org/a.png\n\n"
        ".. figure:: https://example.org/b.png\n   :alt: B\n\n"
        "* .. figure:: https://example.org/c.png\n\n     Caption.\n\n"
        "A |sub| and |sub| (their alt text: the name).\n\n.. |sub| image:: https://example.org/s.png\n"
    )

    def check(self, **options):
        result = json.loads(api.handle("check", self.SOURCE, json.dumps(options)))
        self.assertTrue(result["ok"], result)
        return [m for m in result["result"]["messages"] if m["rule"] == "image-without-alt"]

    def test_reported_only_when_tagging_is_asked_for(self):
        self.assertEqual(self.check(), [])
        self.assertEqual(self.check(tagged=False), [])
        found = self.check(tagged=True)
        self.assertEqual([(m["line"], m["column"]) for m in found], [(4, 1), (9, 3)])
        self.assertIn("https://example.org/a.png", found[0]["message"])
        self.assertIn("https://example.org/c.png", found[1]["message"])
        self.assertEqual(found[0]["type"], "warning")

    def test_chosen_and_suppressed_like_any_rule(self):
        self.assertEqual(self.check(tagged=True, rules=["markdown-link"]), [])
        self.assertEqual(len(self.check(tagged=True, rules=["image-without-alt", "trailing-whitespace"])), 2)


# Issue 31's native probe tree (see python/tests/test_shaped_scripts.py and
# /work/notes/issue31.md §10): trixie's texmf with its lualatex.fmt.
SCRATCH = "/tmp/scratch-r31"
TRIXIE_CNF = os.path.join(SCRATCH, "probe/cnf-trixie/texmf.cnf")
TRIXIE_FMT = os.path.join(SCRATCH, "probe/fmt-trixie/lualatex.fmt")
LUAHBTEX = "/usr/bin/luahbtex"
RST2_TEXMF = os.path.join(REPO, "wasm", "tex", "texmf")
INSPECT = os.path.join(REPO, "test", "support", "pdf-tags.py")
NATIVE = all(os.path.exists(p) for p in (TRIXIE_CNF, TRIXIE_FMT, LUAHBTEX, RST2_TEXMF, INSPECT, "/usr/bin/python3"))


def red_png(size=8):
    """A small red PNG, image 1 of the document."""
    import struct
    import zlib

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = b"".join(b"\x00" + b"\xdc\x14\x14" * size for _ in range(size))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(rows)) + chunk(b"IEND", b""))


@unittest.skipUnless(NATIVE, "no native LuaHBTeX with issue 31's trixie texmf, or no TeX tree in wasm/tex")
class NativeCompileTest(unittest.TestCase):
    def test_the_sample_is_tagged(self):
        directory = tempfile.mkdtemp(prefix="rst2-tagged-")
        try:
            with open(TRIXIE_CNF, encoding="utf-8") as f:
                cnf = f.read()
            # rst2's tree after trixie's (lmodern.sty).
            cnf = "\n".join(line[:-1] + "," + RST2_TEXMF + "}" if line.startswith("TEXMF = {") else line for line in cnf.splitlines())
            with open(os.path.join(directory, "texmf.cnf"), "w", encoding="utf-8") as f:
                f.write(cnf + "\n")
            with table_with(synthetic_shaped()):
                # An Arabic line takes it to LuaHBTeX: the native pdfTeX
                # (1.40.24) is too old for LaTeX's PDF management, and a
                # Latin document's tagging under pdfTeX 1.40.26 is
                # test/http-pdf-tagged.test.ts's.
                source = SAMPLE.replace(".. image:: https://example.org/no-alt.png\n", "") + "\nيولد جميع الناس أحرارا.\n"
                out = render_latex(source, {"tagged": True})
                self.assertEqual(out["engine"], "luahbtex")
                latex = out["latex"]
            with open(os.path.join(directory, "doc.tex"), "w", encoding="utf-8") as f:
                f.write(latex)
            with open(os.path.join(directory, "rst2img-1.png"), "wb") as f:
                f.write(red_png())
            env = dict(os.environ, TEXMFCNF=directory)
            for _ in range(2):
                subprocess.run([LUAHBTEX, "--fmt=" + TRIXIE_FMT, "-progname=lualatex", "-interaction=nonstopmode", "doc.tex"],
                               cwd=directory, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=300)
            pdf = os.path.join(directory, "doc.pdf")
            self.assertTrue(os.path.isfile(pdf))
            tags = json.loads(subprocess.run(["/usr/bin/python3", INSPECT, pdf], capture_output=True, check=True).stdout)
            roles = tags["standardRoles"]
            for role in ("H1", "H2", "L", "LI", "Lbl", "LBody", "Table", "TR", "TH", "TD", "Figure", "Link", "Note"):
                self.assertIn(role, roles, tags)
            self.assertEqual(roles["TH"], 2)
            self.assertEqual(tags["alts"], [{"role": "Figure", "alt": "A red square & more"}])
            self.assertEqual(tags["lang"], "en")
            self.assertEqual(tags["pdfuaPart"], 1)
            self.assertEqual(tags["xmpTitle"], "Tagged note")
            self.assertTrue(tags["displayDocTitle"] and tags["marked"] and tags["parentTree"])
        finally:
            shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    unittest.main()
