"""Text in every script in the LaTeX path (rst2.scripts, issue 12).

Needs scripts.json from the TeX build (test/python.test.ts copies it in):
the classes below are what the shipped fonts really contain.
"""

import os
import unittest

from rst2 import scripts
from rst2.render import render_latex

HERE = os.path.dirname(os.path.abspath(__file__))

RUSSIAN = "Все люди рождаются свободными и равными в своем достоинстве и правах."
UKRAINIAN = "Всі люди народжуються вільними і рівними у своїй гідності та правах."
GREEK = "Όλοι οι άνθρωποι γεννιούνται ελεύθεροι και ίσοι στην αξιοπρέπεια και τα δικαιώματα."
VIETNAMESE = "Tất cả mọi người sinh ra đều được tự do và bình đẳng về nhân phẩm và quyền lợi."
CHINESE = "人人生而自由，在尊严和权利上一律平等。"
TRADITIONAL = "人人生而自由，在尊嚴和權利上一律平等。他們賦有理性和良心，並應以兄弟關係的精神相對待。"
JAPANESE = "すべての人間は、生まれながらにして自由であり、かつ、尊厳と権利とについて平等である。"
KOREAN = "모든 인간은 태어날 때부터 자유로우며 그 존엄과 권리에 있어 동등하다."
# No shipped font has Georgian or Armenian (Arabic and Devanagari have
# fonts once the tree has LuaHBTeX: tests/test_shaped_scripts.py).
GEORGIAN = "ყველა ადამიანი"
LATIN_EXTENDED = "Wszyscy ludzie rodzą się wolni. Všichni lidé rodí se svobodní. Bütün insanlar hür doğarlar."


def doc(title, body):
    return "%s\n%s\n\n%s\n" % (title, "=" * (2 * len(title)), body)


def have_table():
    return os.path.isfile(scripts.TABLE_PATH)


@unittest.skipUnless(have_table(), "no scripts.json (TeX tree not built)")
class ScriptSetTest(unittest.TestCase):
    def plan(self, text):
        return scripts.plan_for(text).members

    def test_each_script_is_found(self):
        self.assertIn("cyrillic", self.plan(RUSSIAN))
        self.assertIn("greek", self.plan(GREEK))
        self.assertIn("vietnamese", self.plan(VIETNAMESE))
        self.assertIn("cjk-gbsn", self.plan(CHINESE))
        self.assertIn("cjk-bsmi", self.plan(TRADITIONAL))
        self.assertIn("cjk-min", self.plan(JAPANESE))
        self.assertIn("cjk-mj", self.plan(KOREAN))
        self.assertIn("emoji", self.plan("hi 👋"))
        self.assertIn("placeholders", self.plan(GEORGIAN))

    def test_latin_extended_needs_nothing(self):
        self.assertEqual(self.plan(LATIN_EXTENDED), frozenset())

    def test_ukrainian_letters_choose_ukrainian_patterns(self):
        self.assertIn("\\rstwoCyr{ukrainian}", render_latex(doc("Стаття", UKRAINIAN))["latex"])
        self.assertIn("\\rstwoCyr{russian}", render_latex(doc("Статья", RUSSIAN))["latex"])

    def test_runs_are_marked_and_the_preamble_loads_what_they_need(self):
        out = render_latex(doc("Статья 1", RUSSIAN + " " + GREEK))
        latex = out["latex"]
        self.assertIn("\\usepackage[T2A,LGR,T1]{fontenc}", latex)
        self.assertIn("\\rstwoCyr{russian}{Все люди", latex)
        self.assertIn("\\rstwoGrk{monogreek}{Όλοι", latex)
        self.assertIn("\\title{\\rstwoCyr{russian}{Статья} 1", latex)
        self.assertNotIn("CJKutf8", latex)
        self.assertNotIn("hwemoji", latex)
        self.assertEqual(out["replaced_characters"], 0)
        self.assertEqual(out["scripts"], ["cyrillic", "greek"])
        # The script set is in the format part, so it gets a format of its own.
        self.assertIsNotNone(out["format_preamble"])
        self.assertIn("\\rstwoCyr", out["format_preamble"])

    def test_cjk_runs_use_the_font_that_has_them(self):
        for text, family in ((CHINESE, "gbsn"), (TRADITIONAL, "bsmi"), (JAPANESE, "min"), (KOREAN, "mj")):
            latex = render_latex(doc("Title", text))["latex"]
            self.assertIn("\\rstwoCJK{%s}{" % family, latex, text)
            self.assertIn("\\usepackage{CJKutf8}", latex)

    def test_vietnamese_words_are_set_in_t5(self):
        latex = render_latex(doc("Điều 1", VIETNAMESE))["latex"]
        self.assertIn("\\rstwoViet{Tất}", latex)
        self.assertIn("T5,T1]{fontenc}", latex)

    def test_symbols_come_from_the_table(self):
        table = scripts.table()
        self.assertTrue(table.symbols, "scripts.json has no symbols")
        code, latex = next(iter(sorted(table.symbols.items())))
        out = render_latex(doc("Symbols", "x %s y" % chr(code)))["latex"]
        self.assertIn(latex, out)
        self.assertIn("\\usepackage{pifont}", out)

    def test_uncovered_characters_become_counted_placeholders(self):
        out = render_latex(doc("Georgian", "Text: " + GEORGIAN + " and Բոլոր."))
        letters = [c for c in GEORGIAN + "Բոլոր" if not c.isspace()]
        self.assertEqual(out["replaced_characters"], len(letters))
        self.assertIn("\\rstwoU{10E7}", out["latex"])
        self.assertIn("placeholders", out["scripts"])

    def test_a_title_placeholder_is_counted_once(self):
        out = render_latex(doc("ა", "body"))
        self.assertEqual(out["replaced_characters"], 1)

    def test_combining_marks_are_composed_first(self):
        out = render_latex(doc("Cafe", "Cafe\u0301 and Vie\u0323\u0302t"))
        self.assertEqual(out["replaced_characters"], 0)
        self.assertIn("Café", out["latex"])
        self.assertIn("\\rstwoViet{Việt}", out["latex"])

    def test_invisible_format_characters_are_dropped(self):
        out = render_latex(doc("Zero width", "a\u200db\ufeffc\u200bd"))
        self.assertEqual(out["replaced_characters"], 0)
        self.assertIn("ab", out["latex"])

    def test_a_language_class_gets_a_babel_language_that_is_shipped(self):
        source = ".. role:: x\n   :class: language-%s\n\nText :x:`Việt`.\n"
        # docutils 0.23 names the document's language main=.
        self.assertIn("\\usepackage[vietnamese,main=english]{babel}", render_latex(source % "vi")["latex"])
        self.assertIn("\\usepackage[russian,main=english]{babel}", render_latex(source % "ru")["latex"])

    def test_math_sets_other_scripts_as_text(self):
        out = render_latex("Inline :math:`x + Ж = \\alpha`.\n\n.. math::\n\n   E = mc^2 + 中 + ა\n")
        self.assertIn("$x + \\text{\\rstwoCyr{russian}{Ж}} = \\alpha$", out["latex"])
        self.assertIn("\\text{\\rstwoCJK{gbsn}{中}}", out["latex"])
        self.assertEqual(out["replaced_characters"], 1)

    def test_literal_text_is_marked_too(self):
        latex = render_latex("::\n\n  код\n\nand ``κώδικας``\n")["latex"]
        self.assertIn("\\rstwoCyr{russian}{код}", latex)
        self.assertIn("\\rstwoGrk{monogreek}{κώδικας}", latex)


@unittest.skipUnless(have_table(), "no scripts.json (TeX tree not built)")
class LatinUnchangedTest(unittest.TestCase):
    """A Latin-only document's LaTeX is what it was before the script machinery."""

    def without_scripts(self):
        # The machinery switched off: no script set, text passed through.
        saved = (scripts.plan_for, scripts.Marker.mark)
        scripts.plan_for = lambda text: scripts.Plan()
        scripts.Marker.mark = lambda self, text, counter=None: text
        return saved

    def restore(self, saved):
        scripts.plan_for, scripts.Marker.mark = saved

    def latex_of(self, source, options):
        return render_latex(source, options)

    def test_the_corpus_is_byte_identical(self):
        corpus = [os.path.join(HERE, "everything.rst")] + [
            os.path.join(HERE, "fixtures", name) for name in sorted(os.listdir(os.path.join(HERE, "fixtures")))
            if name.endswith(".rst")
        ]
        corpus_text = [doc("Zażółć", LATIN_EXTENDED)]
        for path in corpus:
            with open(path, encoding="utf-8") as f:
                corpus_text.append(f.read())
        for options in ({}, {"class": "report", "style": "style2"}, {"style": "zope", "use_latex_toc": True}):
            for source in corpus_text:
                with_scripts = self.latex_of(source, options)
                saved = self.without_scripts()
                try:
                    plain = self.latex_of(source, options)
                finally:
                    self.restore(saved)
                self.assertEqual(with_scripts["scripts"], [])
                self.assertEqual(with_scripts["latex"], plain["latex"])
                self.assertEqual(with_scripts["format_preamble"], plain["format_preamble"])
                self.assertNotIn("rstwo", with_scripts["latex"])
                self.assertIn("\\usepackage[T1]{fontenc}", with_scripts["latex"])


if __name__ == "__main__":
    unittest.main()
