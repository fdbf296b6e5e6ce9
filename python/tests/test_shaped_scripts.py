"""The shaped scripts (issue 31): Arabic, Hebrew, Devanagari, Bengali, Tamil
and Thai typeset by LuaLaTeX (LuaHBTeX) when the TeX tree has it.

The tree says so with scripts.json's ``shaped`` key (scripts/tex/script-table.py);
these tests give the renderer a table with and without that key, so they do
not depend on the tree the suite runs with. The compile tests at the end run
only where a native LuaHBTeX and the unpacked Debian bookworm texmf of the
issue's probes are (they are skipped elsewhere, e.g. in Pyodide).
"""

import contextlib
import json
import os
import shutil
import tempfile
import unicodedata
import unittest

from rst2 import script_preamble, scripts
from rst2.render import render_latex

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))

# Article 1 of the Universal Declaration of Human Rights, in part: title,
# paragraph and list item of each script.
CASES = {
    "arabic": ("الإعلان العالمي لحقوق الإنسان", "يولد جميع الناس أحرارا متساوين في الكرامة والحقوق", "وقد وهبوا عقلا وضميرا"),
    "hebrew": ("ההכרזה לכל באי עולם בדבר זכויות האדם", "כל בני האדם נולדו בני חורין ושווים בערכם ובזכויותיהם", "כולם חוננו בתבונה ובמצפון"),
    "devanagari": ("मानव अधिकारों की सार्वभौम घोषणा", "सभी मनुष्यों को गौरव और अधिकारों के मामले में जन्मजात स्वतन्त्रता प्राप्त है", "क्षत्रिय द्वारा"),
    "bengali": ("মানবাধিকারের সার্বজনীন ঘোষণা", "সমস্ত মানুষ স্বাধীনভাবে সমান মর্যাদা এবং অধিকার নিয়ে জন্মগ্রহণ করে। তুমি", "ক্ষমা"),
    "tamil": ("மனித உரிமைகள் பற்றிய உலகப் பிரகடனம்", "மனிதப் பிறவியினர் சகலரும் சுதந்திரமாகவே பிறக்கின்றனர்", "க்ஷ"),
    "thai": ("ปฏิญญาสากลว่าด้วยสิทธิมนุษยชน", "มนุษย์ทั้งหลายเกิดมามีอิสระและเสมอภาคกันในเกียรติศักดิ์และสิทธิ", "ภาษาไทย"),
}

# The scripts' blocks, as script-table.py lists them (each fully covered here:
# the unit tests need no fonts).
BLOCKS = {
    "arabic": [[0x0600, 0x06FF], [0x0750, 0x077F], [0x08A0, 0x08FF], [0xFB50, 0xFDFF], [0xFE70, 0xFEFF]],
    "hebrew": [[0x0590, 0x05FF], [0xFB1D, 0xFB4F]],
    "devanagari": [[0x0900, 0x097F], [0xA8E0, 0xA8FF]],
    "bengali": [[0x0980, 0x09FF]],
    "tamil": [[0x0B80, 0x0BFF]],
    "thai": [[0x0E00, 0x0E7F]],
}
STEMS = {
    "arabic": ("NotoSansArabic", "NotoSansArabic"),
    "hebrew": ("NotoSerifHebrew", "NotoSansHebrew"),
    "devanagari": ("NotoSerifDevanagari", "NotoSansDevanagari"),
    "bengali": ("NotoSerifBengali", "NotoSansBengali"),
    "tamil": ("NotoSansTamil", "NotoSansTamil"),
    "thai": ("NotoSansThai", "NotoSansThai"),
}


def synthetic_shaped():
    return {
        "engine": "luahbtex",
        "format": "lualatex.fmt",
        "scripts": {
            name: {"rm": STEMS[name][0], "sf": STEMS[name][1], "bold": True, "ranges": BLOCKS[name]} for name in BLOCKS
        },
        "fallback": {"rm": "NotoSerif", "sf": "NotoSans", "bold": True, "ranges": [[0x20, 0x7E], [0x2026, 0x2026]]},
        # Latin Modern's OpenType faces: ASCII, the ellipsis and the minus sign.
        "latin": [[0x20, 0x7E], [0x2026, 0x2026], [0x2212, 0x2212]],
    }


def doc(title, body):
    return "%s\n%s\n\n%s\n" % (title, "=" * (2 * len(title)), body)


def case_doc(name):
    title, body, item = CASES[name]
    return doc(title, "%s.\n\n* %s\n* Latin 2026\n" % (body, item))


@contextlib.contextmanager
def table_with(shaped):
    """scripts.json as the tree's (if any), with ``shaped`` (None: without)."""
    saved = scripts.TABLE_PATH
    directory = tempfile.mkdtemp(prefix="rst2-shaped-")
    try:
        with open(saved, encoding="utf-8") as f:
            data = json.load(f)
    except FileNotFoundError:
        data = {}
    data.pop("shaped", None)
    if shaped is not None:
        data["shaped"] = shaped
    path = os.path.join(directory, "scripts.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(data, f)
    scripts.TABLE_PATH = path
    scripts.forget_table()
    try:
        yield
    finally:
        scripts.TABLE_PATH = saved
        scripts.forget_table()
        shutil.rmtree(directory, ignore_errors=True)


class TableSwitch(unittest.TestCase):
    """Each test reads the table it is given: the tree's, with or without ``shaped``."""

    shaped = None  # the "shaped" entry, or None for a tree without LuaHBTeX

    def setUp(self):
        self.table = table_with(self.shaped)
        self.table.__enter__()

    def tearDown(self):
        self.table.__exit__(None, None, None)


class WithoutTheEngineTest(TableSwitch):
    """A tree without LuaHBTeX: every document as before, pdfTeX and placeholders."""

    def test_shaped_scripts_stay_placeholders(self):
        for name in CASES:
            out = render_latex(case_doc(name))
            self.assertEqual(out["engine"], "pdftex", name)
            self.assertIn("placeholders", out["scripts"], name)
            self.assertGreater(out["replaced_characters"], 0, name)
            self.assertIn("\\rstwoU{", out["latex"], name)
            self.assertNotIn("fontspec", out["latex"], name)


class EngineChoiceTest(TableSwitch):
    shaped = synthetic_shaped()

    def test_each_shaped_script_goes_to_luahbtex(self):
        for name in CASES:
            out = render_latex(case_doc(name))
            self.assertEqual(out["engine"], "luahbtex", name)
            self.assertIsNone(out["format_preamble"], name)
            self.assertEqual(out["scripts"], [name], name)
            self.assertEqual(out["replaced_characters"], 0, name)
            self.assertNotIn("\\rstwoU{", out["latex"], name)
            for words in CASES[name]:
                self.assertIn(unicodedata.normalize("NFC", words), out["latex"], name)

    def test_persian_and_urdu_letters_are_arabic(self):
        out = render_latex(doc("گفتگو", "من می\u200cخواهم ڈ ے"))
        self.assertEqual(out["engine"], "luahbtex")
        self.assertEqual(out["scripts"], ["arabic"])
        # ZWNJ inside a word chooses the letters' forms: kept there.
        self.assertIn("می\u200cخواهم", out["latex"])

    def test_a_bengali_danda_needs_no_devanagari(self):
        out = render_latex(doc("বাংলা", "আমি বাংলায় গান গাই। তুমি?"))
        self.assertEqual(out["scripts"], ["bengali"])
        self.assertNotIn("hindi", out["latex"])
        self.assertIn('\\babelcharproperty{"0964}["0965]{locale}{bengali}', out["latex"])
        self.assertIn("গাই।", out["latex"])
        self.assertEqual(render_latex(doc("हिन्दी", "नमस्ते। ঢাকা"))["scripts"], ["bengali", "devanagari"])

    def test_other_documents_stay_on_pdftex(self):
        for source in (doc("Title", "Latin text."), doc("Статья", "Все люди рождаются свободными."),
                       doc("Title", "人人生而自由 👋")):
            out = render_latex(source)
            self.assertEqual(out["engine"], "pdftex", source)
            self.assertNotIn("fontspec", out["latex"])

    def test_characters_no_font_has_are_still_counted_placeholders(self):
        out = render_latex(doc("Placeholder", "مرحبا ქ بالعالم"))
        self.assertEqual(out["engine"], "luahbtex")
        self.assertEqual(out["replaced_characters"], 1)
        self.assertIn("\\rstwoU{10E5}", out["latex"])
        self.assertEqual(out["scripts"], ["arabic", "placeholders"])

    def test_what_pdftex_sets_in_a_cjk_font_and_every_lua_face_has_is_text(self):
        # The ellipsis: a CJK character to pdfTeX (a CJK font has it); Latin
        # Modern's OpenType faces and the Noto faces behind Hebrew's have it.
        out = render_latex(doc("Wait\u2026", "שלום\u2026 1"))
        self.assertEqual(out["engine"], "luahbtex")
        self.assertEqual(out["replaced_characters"], 0)
        self.assertEqual(out["scripts"], ["hebrew"])
        self.assertIn("שלום\u2026 1", out["latex"])
        self.assertIn("Wait\u2026", out["latex"])
        # The minus sign only Latin Modern has: in a Hebrew run it would be a
        # missing glyph, so it stays a counted placeholder.
        minus = render_latex(doc("Minus", "שלום \u2212 1"))
        self.assertEqual(minus["replaced_characters"], 1)
        self.assertIn("\\rstwoU{2212}", minus["latex"])
        self.assertIn("\\rstwoCJK{gbsn}{\u2026}", render_latex(doc("Wait\u2026", "Latin only."))["latex"])

    def test_cjk_and_emoji_next_to_a_shaped_script_are_placeholders(self):
        # CJKutf8 and hwemoji are pdfTeX's; LuaLaTeX has no font for them here.
        out = render_latex(doc("Mixed", "שלום 中文 👋"))
        self.assertEqual(out["engine"], "luahbtex")
        self.assertEqual(out["replaced_characters"], 3)
        self.assertIn("\\rstwoU{4E2D}", out["latex"])
        self.assertIn("\\rstwoU{1F44B}", out["latex"])
        self.assertNotIn("CJKutf8", out["latex"])
        self.assertNotIn("hwemoji", out["latex"])
        self.assertEqual(out["scripts"], ["hebrew", "placeholders"])


class LatinUnchangedTest(unittest.TestCase):
    """pdfTeX documents are byte for byte the same with and without ``shaped``."""

    SOURCES = (
        doc("Title", "Latin text with *emphasis*, ``code`` and a list:\n\n* one\n* two\n"),
        doc("Статья 1", "Все люди рождаются свободными. Όλοι οι άνθρωποι. Tất cả mọi người."),
        doc("Title", "人人生而自由 すべての人間 모든 인간 👋 ✓ a\u200db"),
        ".. role:: x\n   :class: language-de\n\nText :x:`Wort`.\n",
    )

    def render_all(self, shaped):
        with table_with(shaped):
            return [render_latex(s) for s in self.SOURCES] + [render_latex(self.SOURCES[0], {"style": "zope"})]

    def test_same_latex_with_and_without_the_engine(self):
        before = self.render_all(None)
        after = self.render_all(synthetic_shaped())
        for old, new in zip(before, after):
            self.assertEqual(old["engine"], "pdftex")
            self.assertEqual(new["engine"], "pdftex")
            self.assertEqual(old["latex"], new["latex"])
            self.assertEqual(old["format_preamble"], new["format_preamble"])
            self.assertEqual(old["scripts"], new["scripts"])
            self.assertEqual(old["replaced_characters"], new["replaced_characters"])


class PreambleTest(TableSwitch):
    shaped = synthetic_shaped()

    def latex(self, source, options=None):
        out = render_latex(source, options)
        self.assertEqual(out["engine"], "luahbtex")
        return out["latex"]

    def test_pdftex_lines_give_way_to_fontspec_and_babel(self):
        latex = self.latex(case_doc("arabic"))
        self.assertTrue(latex.startswith("\\documentclass[a4paper]{article}\n"))
        for gone in ("{fontenc}", "{inputenc}", "mathptmx", "helvet", "courier", "\\usepackage{cmap}",
                     "glyphtounicode", "\\usepackage[arabic]{babel}"):
            self.assertNotIn(gone, latex)
        self.assertIn("\\usepackage{fontspec}", latex)
        self.assertIn("\\usepackage[bidi=basic, main=english]{babel}", latex)
        self.assertIn("\\babelprovide[import, onchar=ids fonts]{arabic}", latex)
        self.assertIn("\\babelfont[arabic]{rm}[Renderer=HarfBuzz, Extension=.ttf, UprightFont=*-Regular, BoldFont=*-Bold", latex)
        self.assertIn("]{NotoSansArabic}", latex)
        # Selected by file: there is no font name database.
        self.assertIn('luaotfload.add_fallback("rstwofbrmregular", {"file:NotoSerif-Regular.ttf:mode=harf;"})', latex)
        self.assertIn("UprightFeatures={RawFeature={fallback=rstwofbrmregular}}", latex)
        self.assertIn("BoldFeatures={RawFeature={fallback=rstwofbrmbold}}", latex)
        # The ToUnicode fix and the base-size warm-up (issue 31, §5).
        self.assertIn('"before", "luaotfload.harf.finalize_unicode"', latex)
        self.assertIn("\\immediate\\saveboxresource0", latex)
        # fontspec and babel before the style (whose lmodern gives the Latin fonts).
        self.assertLess(latex.index("\\usepackage{fontspec}"), latex.index("\\usepackage{lmodern}"))
        self.assertIn("\\DeclareFontFamilySubstitution{TU}{ptm}{lmr}", latex)

    def test_each_script_gets_its_locale_and_faces(self):
        latex = self.latex(doc("Many", " ".join(CASES[name][1] for name in CASES)))
        for name, locale in script_preamble.LOCALES.items():
            self.assertIn("]{%s}" % locale, latex)
            self.assertIn("\\babelfont[%s]{rm}" % locale, latex)
            self.assertIn("]{%s}" % STEMS[name][0], latex)
        # babel's Thai glue between syllables would show as spaces.
        self.assertIn("\\babelprovide[import, onchar=ids fonts, intraspace=0 0 0]{thai}", latex)
        # The default style sets no sans text: no sans faces to load.
        self.assertNotIn("{sf}", latex)

    def test_a_sans_style_gets_sans_faces(self):
        latex = self.latex(case_doc("hebrew"), {"style": "zope"})
        self.assertIn("\\babelfont[hebrew]{sf}", latex)
        self.assertIn("]{NotoSansHebrew}", latex)
        self.assertIn('"file:NotoSans-Regular.ttf:mode=harf;"', latex)

    def test_right_to_left_text_is_set_right_to_left(self):
        title, body, item = CASES["arabic"]
        latex = self.latex(doc(title, "%s.\n\n* %s\n* %s\n\nEnglish, then %s.\n" % (body, item, item, body)))
        self.assertIn("\\title{\\foreignlanguage{arabic}{%s}}" % title, latex)
        self.assertIn("\\begin{otherlanguage}{arabic}%s.\\end{otherlanguage}" % body, latex)
        self.assertIn("\\begin{otherlanguage}{arabic}\n\\begin{itemize}", latex)
        # A paragraph that starts in English stays left to right (babel's
        # onchar turns the Arabic run).
        self.assertIn("\nEnglish, then %s.\n" % body, latex)
        # Definition lists and line blocks turn as a whole (their labels and
        # indents go to the right).
        latex = self.latex(doc(title, "%s\n    %s.\n\n| %s\n| %s\n" % (item, body, item, body)))
        self.assertIn("\\begin{otherlanguage}{arabic}\n\\begin{description}", latex)
        self.assertIn("\\begin{otherlanguage}{arabic}\n\\begin{DUlineblock}", latex)
        # So do field lists (the label was printed over its body), their
        # first paragraphs inside \\item's line; an option list of Latin
        # options stays left to right, its Arabic descriptions turned.
        latex = self.latex(doc(title, "%s.\n\n:%s: %s.\n:%s: %s.\n\n-a    %s\n" % (body, item, body, item, body, item)))
        self.assertIn("\\begin{otherlanguage}{arabic}\n\\begin{DUfieldlist}\n\\item[{%s:}]\n%s.\n" % (item, body), latex)
        self.assertIn("\\begin{DUoptionlist}\n\\item[-a]  \\foreignlanguage{arabic}{%s}" % item, latex)
        # A definition under a Latin term: its first paragraph is in \\item's line, turned as a run.
        latex = self.latex(doc(title, "%s.\n\nTerm\n   %s.\n" % (body, body)))
        self.assertIn("\\item[{Term}] \n\\foreignlanguage{arabic}{%s.}" % body, latex)

    def test_hebrew_in_a_table_cell_and_a_heading(self):
        source = "Title\n=====\n\nSection שלום\n------------\n\nשלום עולם\n------------\n\n+--------+--------+\n| שלום   | Latin  |\n+--------+--------+\n"
        latex = self.latex(source)
        self.assertIn("\\section{Section שלום", latex)
        self.assertIn("\\section{\\foreignlanguage{hebrew}{שלום עולם}", latex)
        self.assertIn("\\begin{otherlanguage}{hebrew}שלום\\end{otherlanguage}", latex)

    def test_cyrillic_and_greek_get_noto_faces(self):
        latex = self.latex(doc("Mixed", "مرحبا Привет Γειά Việt"))
        self.assertIn("\\rstwoCyr{russian}{Привет}", latex)
        self.assertIn("\\DeclareRobustCommand\\rstwoCyr[2]{{\\rstwo@noto#2}}", latex)
        self.assertIn("\\newfontfamily\\rstwo@notorm{NotoSerif}[Renderer=HarfBuzz, Extension=.ttf", latex)
        self.assertIn("\\let\\rstwoViet\\@firstofone", latex)
        self.assertNotIn("T2A", latex)

    def test_a_right_to_left_main_language(self):
        plan = scripts.Plan(["arabic", "hebrew"])
        setup = script_preamble.lua_babel(plan, "arabic", ())
        self.assertIn("\\usepackage[bidi=basic-r]{babel}", setup)
        self.assertIn("\\babelprovide[import, main, onchar=ids fonts]{arabic}", setup)
        self.assertIn("\\babelprovide[import, onchar=ids fonts]{english}", setup)
        self.assertIn("\\babelprovide[import, onchar=ids fonts]{hebrew}", setup)
        self.assertEqual(script_preamble.language_name("fa", ""), "persian")
        self.assertEqual(script_preamble.language_name("ar", "arabic"), "arabic")
        self.assertEqual(script_preamble.language_name("de", "ngerman"), "ngerman")
        self.assertEqual(script_preamble.language_name("en", ""), "english")


# --- Compiled natively: LuaHBTeX 1.15 and Debian bookworm's texmf (TeX Live 2022),
# as unpacked for issue 31's probes.
SCRATCH = "/tmp/scratch-r31"
LUAHBTEX = "/usr/bin/luahbtex"
BOOKWORM = os.path.join(SCRATCH, "x-bookworm/usr/share/texlive")
NOTO = os.path.join(SCRATCH, "fx/usr/share/fonts/truetype/noto")
FONTS_TEXMF = os.path.join(SCRATCH, "fx/usr/share/texmf")
FORMAT_DIR = os.path.join(SCRATCH, "probe/fmt-bookworm")
LANGUAGE_CFG = os.path.join(SCRATCH, "probe/cfg-bookworm")
PDFTOTEXT = os.path.join(SCRATCH, "pyx/usr/bin/pdftotext")
PDFTOTEXT_LIBS = os.path.join(SCRATCH, "pyx/usr/lib/x86_64-linux-gnu")
# rst2's own tree (lmodern.sty and Latin Modern's metrics, which the probe tree lacks).
RST2_TEXMF = os.path.join(REPO, "wasm", "tex", "texmf")
SCRIPT_TABLE = os.path.join(REPO, "scripts", "tex", "script-table.py")

NATIVE = all(os.path.exists(p) for p in (LUAHBTEX, BOOKWORM, NOTO, FORMAT_DIR, LANGUAGE_CFG, PDFTOTEXT,
                                          RST2_TEXMF, SCRIPT_TABLE))

CNF = """TEXMFROOT = {bookworm}
TEXMFDIST = {bookworm}/texmf-dist
TEXMFCFG = {cfg}
TEXMF = {{$TEXMFCFG,$TEXMFDIST,{fonts},{rst2}}}
TEXMFDBS = $TEXMF
TEXMFVAR = {var}
TEXMFSYSVAR = {var}
TEXMFCACHE = {var}
TEXMFHOME = {var}
TEXMFCONFIG = {var}
TEXMFSYSCONFIG = {var}
TEXINPUTS.lualatex = .;$TEXMF/tex/{{lualatex,latex,luatex,generic,}}//
TEXINPUTS = .;$TEXMF/tex/{{latex,generic,}}//
LUAINPUTS = .;$TEXMF/tex/{{luatex,lualatex,latex,generic,}}//;$TEXMF/scripts/{{$progname,$engine,}}/{{lua,}}//
CLUAINPUTS = .
TEXFORMATS = .;{fmt}
TFMFONTS = .;$TEXMF/fonts/tfm//
VFFONTS = .;$TEXMF/fonts/vf//
T1FONTS = .;$TEXMF/fonts/type1//
AFMFONTS = .;$TEXMF/fonts/afm//
OPENTYPEFONTS = .;$TEXMF/fonts/opentype//
TTFONTS = .;$TEXMF/fonts/truetype//;{noto}
ENCFONTS = .;$TEXMF/fonts/enc//
TEXFONTMAPS = .;{rst2}/fonts/map/{{pdftex,dvips,}}//;$TEXMF/fonts/map/{{pdftex,dvips,}}//
WEB2C = $TEXMF/web2c
MKTEXTEX = 0
MKTEXPK = 0
MKTEXMF = 0
MKTEXTFM = 0
MKTEXFMT = 0
shell_escape = f
openout_any = p
openin_any = a
main_memory = 5000000
font_mem_size = 8000000
font_max = 9000
hash_extra = 600000
max_strings = 500000
buf_size = 200000
trie_size = 1100000
hyph_size = 8191
nest_size = 1000
max_in_open = 15
param_size = 20000
save_size = 200000
stack_size = 10000
error_line = 79
half_error_line = 50
max_print_line = 79
expand_depth = 10000
"""


# Thai tone marks and thanthakhat stacked on a vowel mark (ทั้ง, ดิ์) come
# back from pdftotext after the next letter (it reads a second mark above a
# base as a word of its own): compared without them, and counted.
THAI_TONE_MARKS = "".join(chr(c) for c in range(0x0E47, 0x0E4F))


def comparable(text, tone_marks=True):
    """NFKC (Arabic presentation forms are compatibility characters of the
    letters), without whitespace, format characters and hyphens."""
    return "".join(c for c in unicodedata.normalize("NFKC", text)
                   if not c.isspace() and unicodedata.category(c) != "Cf" and c not in "-\u2010\u00ad"
                   and (tone_marks or c not in THAI_TONE_MARKS))


@unittest.skipUnless(NATIVE, "no native LuaHBTeX or issue 31's unpacked bookworm texmf")
class CompileTest(TableSwitch):
    @classmethod
    def setUpClass(cls):
        cls.dir = tempfile.mkdtemp(prefix="rst2-luahbtex-")
        # luaotfload's cache outlives the run: its first run is slow.
        var = os.path.join(tempfile.gettempdir(), "rst2-test-luahbtex-var")
        os.makedirs(var, exist_ok=True)
        with open(os.path.join(cls.dir, "texmf.cnf"), "w", encoding="utf-8") as f:
            f.write(CNF.format(bookworm=BOOKWORM, cfg=LANGUAGE_CFG, fonts=FONTS_TEXMF, rst2=RST2_TEXMF,
                               var=var, fmt=FORMAT_DIR, noto=NOTO))
        # The table as the build writes it, from the fonts' cmaps.
        import importlib.util

        spec = importlib.util.spec_from_file_location("script_table", SCRIPT_TABLE)
        table = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(table)
        cls.shaped = table.shaped(table.index(NOTO))

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.dir, ignore_errors=True)

    def compile_all(self, sources):
        """{name: (log, text)} for each LaTeX, compiled in parallel."""
        import subprocess

        env = dict(os.environ, TEXMFCNF=self.dir)
        runs = {}
        for name, latex in sources.items():
            with open(os.path.join(self.dir, name + ".tex"), "w", encoding="utf-8") as f:
                f.write(latex)
            runs[name] = subprocess.Popen(
                [LUAHBTEX, "--fmt=" + os.path.join(FORMAT_DIR, "lualatex.fmt"), "-progname=lualatex",
                 "-interaction=nonstopmode", "-halt-on-error", name + ".tex"],
                cwd=self.dir, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        results = {}
        for name, run in runs.items():
            run.wait(timeout=300)
            with open(os.path.join(self.dir, name + ".log"), encoding="utf-8", errors="replace") as f:
                log = f.read()
            pdf = os.path.join(self.dir, name + ".pdf")
            self.assertTrue(os.path.isfile(pdf), "%s: no PDF\n%s" % (name, log[-3000:]))
            text = subprocess.run([PDFTOTEXT, pdf, "-"], capture_output=True, check=True,
                                  env=dict(os.environ, LD_LIBRARY_PATH=PDFTOTEXT_LIBS)).stdout.decode("utf-8")
            results[name] = (log, text)
        return results

    def check(self, name, log, text, words):
        self.assertNotIn("\n! ", log, name)
        self.assertNotIn("Missing character", log, name)
        got, loose = comparable(text), comparable(text, tone_marks=False)
        for word in words:
            if any(c in THAI_TONE_MARKS for c in word):
                self.assertIn(comparable(word, tone_marks=False), loose, "%s: %r in %r" % (name, word, text))
            else:
                self.assertIn(comparable(word), got, "%s: %r in %r" % (name, word, text))
        for mark in THAI_TONE_MARKS:
            self.assertEqual(sum(w.count(mark) for w in words) <= got.count(mark), True, name)

    def test_each_script_in_a_title_a_paragraph_and_a_list_item(self):
        sources = {}
        for name in CASES:
            out = render_latex(case_doc(name))
            self.assertEqual(out["engine"], "luahbtex")
            self.assertEqual(out["replaced_characters"], 0)
            sources[name] = out["latex"]
        for name, (log, text) in self.compile_all(sources).items():
            self.check(name, log, text, CASES[name] + ("Latin 2026",))
            if name == "arabic":
                # The title's ToUnicode is the letters, not presentation
                # forms, but for the lam-alef ligatures (one glyph each).
                self.assertFalse([c for c in text if 0xFB50 <= ord(c) <= 0xFEFF and not 0xFEF5 <= ord(c) <= 0xFEFC], text)

    def test_every_script_in_one_document_with_other_styles_and_markup(self):
        body = "\n\n".join(
            ["Latin *emphasis* **strong** ``literal`` 2026, Привет, Γειά, Tất cả."]
            + ["%s: %s, *%s*, **%s**, ``%s`` (42)." % (name, CASES[name][1], CASES[name][2], CASES[name][2], CASES[name][2])
               for name in CASES]
            + ["::\n\n  %s\n  %s" % (CASES["arabic"][2], CASES["hebrew"][2]),
               "+---------+---------+\n| %s | %s |\n+---------+---------+" % (CASES["thai"][2], CASES["hebrew"][2]),
               "Section %s\n--------------------" % CASES["devanagari"][2]]
        )
        source = doc("%s %s" % (CASES["arabic"][0], CASES["hebrew"][0]), body)
        sources = {}
        for style in ("default", "style2", "zope"):
            out = render_latex(source, {"style": style})
            self.assertEqual(out["replaced_characters"], 0)
            sources["many-" + style] = out["latex"]
        words = [CASES[name][1] for name in CASES] + [CASES[name][2] for name in CASES] + ["Привет", "Γειά", "Tất cả"]
        for name, (log, text) in self.compile_all(sources).items():
            self.check(name, log, text, words)


if __name__ == "__main__":
    unittest.main()
