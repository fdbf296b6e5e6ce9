"""Images in the LaTeX for pdfTeX (latex_images.py): numbered, never named by URI."""

import re
import unittest

from rst2.latex_format import MARKER
from rst2.render import render_latex

IMAGE_CALL = re.compile(r"\\rsttwoimage\{(\d+)\}\{([^{}]*)\}\{([^{}]*)\}")


def body_of(latex):
    return latex.split("\\begin{document}", 1)[1]


def calls(latex):
    return IMAGE_CALL.findall(body_of(latex))


class NumberingTest(unittest.TestCase):
    def test_every_kind_of_image_is_numbered_in_document_order(self):
        src = (
            "Title\n=====\n\nBadge |b| first.\n\n"
            ".. |b| image:: https://example.org/b.svg\n\n"
            ".. image:: https://example.org/a.png\n\n"
            ".. figure:: shot.png\n\n   Caption.\n"
        )
        out = render_latex(src)
        self.assertEqual([u["uri"] for u in out["images"]], ["https://example.org/b.svg", "https://example.org/a.png", "shot.png"])
        self.assertEqual([c[0] for c in calls(out["latex"])], ["1", "2", "3"])

    def test_no_uri_becomes_a_file_name(self):
        for uri in ("/etc/passwd", "file:///etc/passwd", "../../etc/passwd", "x}\\input{/etc/passwd}.png"):
            latex = render_latex(".. image:: %s\n" % uri)["latex"]
            self.assertNotIn("\\includegraphics", body_of(latex))
            self.assertNotIn("{/etc/passwd}", latex)
            self.assertNotIn("\\input{", body_of(latex))

    def test_uris_docutils_cannot_make_a_path_of_are_images_too(self):
        # url2pathname raises on these (Python 3.14), which failed the document.
        uris = ["//example.org/x.png", "file://otherhost/etc/passwd", "file://localhost/etc/passwd"]
        out = render_latex("".join(".. image:: %s\n\n" % u for u in uris))
        self.assertEqual([u["uri"] for u in out["images"]], uris)
        self.assertEqual([c[0] for c in calls(out["latex"])], ["1", "2", "3"])

    def test_data_uris_reach_the_list_but_not_the_latex(self):
        uri = "data:image/png;base64,iVBORw0KGgo="
        out = render_latex(".. image:: %s\n   :alt: dot\n" % uri)
        self.assertEqual(out["images"], [{"uri": uri, "alt": "dot"}])
        self.assertNotIn("iVBORw0KGgo", out["latex"])

    def test_without_images_nothing_is_added(self):
        out = render_latex("Title\n=====\n\nText.\n")
        self.assertEqual(out["images"], [])
        self.assertNotIn("graphicx", out["latex"])
        self.assertNotIn("rsttwoimage", out["latex"])


class EscapingTest(unittest.TestCase):
    def test_alt_text_and_uris_are_escaped_like_text(self):
        for alt in ("\\input{/etc/passwd}", "} \\ % # $ & _ ^ ~ {"):
            latex = render_latex(".. image:: https://example.org/x.png\n   :alt: %s\n" % alt)["latex"]
            (number, options, width), = calls(latex)
            text = body_of(latex).split("{%s}{" % width, 1)[1]
            self.assertNotIn("\\input{", text)
            self.assertIn("\\textbackslash{}", text)
        latex = render_latex(".. image:: https://example.org/%25}{x}#y.png\n")["latex"]
        self.assertIn("\\%25\\}\\{x\\}\\#y.png", body_of(latex).replace("\\allowbreak{}", ""))

    def test_the_macro_is_in_the_document_part_not_the_format(self):
        out = render_latex(".. image:: https://example.org/x.png\n")
        self.assertIsNotNone(out["format_preamble"], "an image document still uses the format")
        self.assertNotIn("rsttwoimage", out["format_preamble"])
        after_marker = out["latex"].split(MARKER, 1)[1]
        self.assertIn("\\DeclareRobustCommand*{\\rsttwoimage}", after_marker)
        self.assertIn("\\usepackage{graphicx}", after_marker)


class SizeTest(unittest.TestCase):
    """docutils' own conversions, kept."""

    def options(self, directive_options):
        latex = render_latex(".. image:: https://example.org/x.png\n%s" % directive_options)["latex"]
        (number, options, width), = calls(latex)
        return options, width

    def test_width_height_scale(self):
        # docutils 0.23 writes shortest decimals (0.19: 0.500, 0.500000).
        self.assertEqual(self.options("   :width: 50%\n"), ("width=0.5\\linewidth", "0.5\\linewidth"))
        self.assertEqual(self.options("   :width: 3cm\n"), ("width=3cm", "3cm"))
        self.assertEqual(self.options("   :height: 40\n")[0], "height=40bp")
        self.assertEqual(self.options("   :scale: 50\n")[0], "scale=0.5")
        self.assertEqual(self.options("   :width: 200px\n   :height: 100px\n")[0], "height=100px,width=200px")

    def test_sizes_past_the_page_are_clamped_to_it(self):
        # TeX stops at 16,383.99 pt: each of these made the whole PDF fail.
        for given, expected in (
            ("   :width: 5000cm\n", ("width=\\linewidth", "\\linewidth")),
            ("   :width: 99999999px\n", ("width=\\linewidth", "\\linewidth")),
            ("   :width: 300%\n", ("width=\\linewidth", "\\linewidth")),
            ("   :height: 99999in\n", ("height=0.9\\textheight", "0.3\\linewidth")),
            ("   :width: 400pt\n   :scale: 100000\n", ("width=\\linewidth", "\\linewidth")),
        ):
            self.assertEqual(self.options(given), expected, given)
        # Within the page, docutils' sizes stay; a scale multiplies them as in the HTML.
        self.assertEqual(self.options("   :width: 20cm\n")[0], "width=20cm")
        self.assertEqual(self.options("   :width: 100pt\n   :scale: 200\n")[0], "width=200.00000bp")

    def test_a_scale_alone_is_checked_in_tex(self):
        latex = render_latex(".. image:: https://example.org/x.png\n   :scale: 100000\n")["latex"]
        self.assertIn("{\\def\\rsttwoscale{1000000}\\rsttwoimage{1}{scale=1000}", body_of(latex))

    def test_placeholder_without_width_gets_a_default(self):
        self.assertEqual(self.options("")[1], "0.3\\linewidth")

    def test_alignment(self):
        latex = render_latex(".. image:: https://example.org/x.png\n   :align: right\n")["latex"]
        self.assertIn("\\noindent{\\hfill\\rsttwoimage{1}", body_of(latex))
        latex = render_latex("x |i| y\n\n.. |i| image:: https://example.org/x.png\n   :align: middle\n")["latex"]
        self.assertIn("\\raisebox{-0.5\\height}{\\rsttwoimage{1}", body_of(latex))


class FigureAndTargetTest(unittest.TestCase):
    def test_figure_keeps_caption_and_legend(self):
        latex = render_latex(".. figure:: https://example.org/x.png\n   :alt: pic\n\n   The caption.\n\n   The legend.\n")["latex"]
        body = body_of(latex)
        self.assertIn("\\begin{figure}", body)
        self.assertIn("\\caption{The caption.}", body)
        self.assertIn("The legend.", body)
        self.assertIn("\\makebox[\\linewidth][c]{\\rsttwoimage{1}", body)

    def test_target_goes_through_the_link_policy(self):
        latex = render_latex(".. image:: https://example.org/x.png\n   :target: https://example.org/home\n")["latex"]
        self.assertIn("\\href{https://example.org/home}{", body_of(latex))
        latex = render_latex(".. image:: https://example.org/x.png\n   :target: file:///etc/passwd\n")["latex"]
        self.assertNotIn("\\href{file:", body_of(latex))
        self.assertIn("\\rsttwoimage{1}", body_of(latex))


if __name__ == "__main__":
    unittest.main()
