"""Relative links and images of a document fetched by URL (rst2.base_url)."""

import re
import unittest

from rst2.base_url import resolve
from rst2.render import render_html

BASE = "https://code.example/project/raw/main/README.rst"

DOCUMENT = """\
Project
=======

.. image:: docs/shot.png
   :alt: screenshot
   :target: docs/shot-large.png

.. figure:: ../assets/diagram.png

   A caption.

See `the guide <docs/guide.rst>`_, `the site <https://other.example/>`_,
`mail <mailto:a@b.example>`_, the `Section`_ below, `root </LICENSE>`_
and `elsewhere <//cdn.example/x.css>`_.

.. _named: CHANGES.rst

Read named_.

Section
-------

Text.
"""


def _attrs(page, name):
    return re.findall(r'\b%s="([^"]*)"' % name, page)


class ResolveTests(unittest.TestCase):
    def test_relative_paths_join_the_base_as_a_browser_would(self):
        self.assertEqual(resolve(BASE, "docs/a.png"), "https://code.example/project/raw/main/docs/a.png")
        self.assertEqual(resolve(BASE, "../a.png"), "https://code.example/project/raw/a.png")
        self.assertEqual(resolve(BASE, "/LICENSE"), "https://code.example/LICENSE")
        self.assertEqual(resolve(BASE, "//cdn.example/x"), "https://cdn.example/x")

    def test_absolute_uris_and_anchors_stay(self):
        for uri in ("https://other.example/a", "mailto:a@b.example", "#section", "", "javascript:alert(1)"):
            self.assertEqual(resolve(BASE, uri), uri)

    def test_a_malformed_uri_is_left_alone(self):
        self.assertEqual(resolve(BASE, "http://[::1"), "http://[::1")


class RenderTests(unittest.TestCase):
    def test_without_a_base_the_page_keeps_relative_uris(self):
        page = render_html(DOCUMENT)["html"]
        self.assertIn('src="docs/shot.png"', page)
        self.assertIn('href="docs/guide.rst"', page)

    def test_with_a_base_links_and_images_point_where_the_author_meant(self):
        page = render_html(DOCUMENT, base=BASE)["html"]
        srcs = _attrs(page, "src")
        hrefs = _attrs(page, "href")
        self.assertIn("https://code.example/project/raw/main/docs/shot.png", srcs)
        self.assertIn("https://code.example/project/raw/assets/diagram.png", srcs)
        for expected in (
            "https://code.example/project/raw/main/docs/shot-large.png",
            "https://code.example/project/raw/main/docs/guide.rst",
            "https://code.example/project/raw/main/CHANGES.rst",
            "https://code.example/LICENSE",
            "https://cdn.example/x.css",
            "https://other.example/",
            "mailto:a&#64;b.example",  # docutils' cloaking of the @, as without a base
            "#section",
        ):
            self.assertIn(expected, hrefs)
        # Nothing relative is left but the in-page anchor.
        self.assertEqual([h for h in hrefs + srcs if not re.match(r"(https:|mailto:|#|data:)", h)], [])

    def test_pypi_shows_relative_links_as_pypi_does(self):
        page = render_html(DOCUMENT, dialect="pypi", base=BASE)["html"]
        self.assertIn('src="docs/shot.png"', page)

    def test_the_same_document_renders_the_same_without_a_base(self):
        self.assertEqual(render_html(DOCUMENT)["html"], render_html(DOCUMENT, base=None)["html"])


if __name__ == "__main__":
    unittest.main()
