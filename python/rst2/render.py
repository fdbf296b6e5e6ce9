"""HTML and LaTeX rendering of untrusted reStructuredText."""

import os

from docutils.writers import latex2e

from . import columns, dialects, latex_format, latex_images, latex_writer, rules, script_preamble, scripts
from .contract import PATHS
from .messages import collect
from .publish import document_title, publish
from .sanitize import sanitize

# Set for runs outside Pyodide (the benches' native docutils).
STYLES_DIR = os.environ.get("RST2_STYLES_DIR", PATHS["styles"])

# docutils' LaTeX writer with our policy for untrusted text (loaded by
# module name, as docutils does for writers outside its package).
LATEX_WRITER = latex_writer.__name__

def latex_classes():
    """The classes a client may choose: latex/classes.txt, shared with the TypeScript side."""
    with open(os.path.join(STYLES_DIR, "latex", "classes.txt"), encoding="utf-8") as listed:
        lines = (line.strip() for line in listed)
        return {line for line in lines if line and not line.startswith("#")}


def _style_file(kind, name, suffix):
    path = os.path.join(STYLES_DIR, kind, name + suffix)
    if not os.path.isfile(path):
        raise ValueError("unknown %s style %r" % (kind, name))
    return path


def render_html(source, style="default", dialect="docutils", base=None, format="page"):
    """A complete HTML5 page with the chosen stylesheet embedded.

    ``removed`` lists what the final safety pass (rst2.sanitize) took out of
    the page; it is empty unless a writer path we do not know of let active
    content through, and the service logs it.  Every dialect's page goes
    through that pass, PyPI's allow-list notwithstanding.

    ``base`` (the URL a ``uri`` document came from) makes relative links and
    images absolute; not for PyPI, which shows a description's relative
    links as they are (broken), and the preview should say so.

    ``format`` "parts" adds ``parts`` (docutils' ``publish_parts()`` names,
    PARTS) and ``messages``; with "fragment" only ``html`` matters. Either
    way ``html`` is the fragment, and every part went through the same
    safety pass as the page.
    """
    if format not in FORMATS:
        raise ValueError("unknown HTML format %r" % format)
    # docutils' base rules first, shared by every style, then the style.
    stylesheets = [os.path.join(STYLES_DIR, "html", "base", "docutils.css"), _style_file("html", style, ".css")]
    chosen = dialects.get(dialect)
    if hasattr(chosen, "render_html"):
        # A site's own renderer (PyPI's, GitHub's): its settings, its allow-list.
        result = chosen.render_html(source, stylesheets)
        parts, description = result.pop("parts"), result.pop("description")
        if format != "page":
            return _site_parts(chosen, parts, description, result["title"])
        result["html"], result["removed"] = sanitize(result["html"])
        return result
    if format != "page":
        return _parts(source, chosen, base, stylesheets)
    parts, document = publish(
        source,
        "html5",
        dialect=chosen,
        base=base,
        stylesheet_path=stylesheets,
        stylesheet_dirs=[],
        embed_stylesheet=True,
        syntax_highlight="short",
        # Keeps docutils' problem reports visible in the page, as rst2html
        # does; nothing goes to stderr (settings.untrusted).
        report_level=2,
    )
    page, removed = sanitize(parts["whole"])
    return {"html": page, "title": document_title(document), "removed": removed}


FORMATS = ("page", "parts", "fragment")
# The names of docutils' publish_parts() that format=parts serves.
PARTS = ("title", "subtitle", "docinfo", "body", "fragment", "html_body", "stylesheet", "meta")
# Parts that belong in a page's <head>: the safety pass reads them there.
_HEAD_PARTS = frozenset(("stylesheet", "meta"))


def _parts(source, chosen, base, stylesheets):
    # The same settings as the page, so each part is the text the page holds.
    items, parts, document = collect(
        source,
        "html5",
        dialect=chosen,
        base=base,
        stylesheet_path=stylesheets,
        stylesheet_dirs=[],
        embed_stylesheet=True,
        syntax_highlight="short",
        report_level=2,
    )
    served, removed = _safe_parts(parts)
    return {
        "html": served["fragment"],
        "title": document_title(document),
        "removed": removed,
        "parts": served,
        # As check reports them (rule and column too); what the safety pass
        # removed is logged by the service, as for the page.
        "messages": columns.add(source, rules.name(items)),
    }


def _site_parts(chosen, parts, description, title):
    """A site's parts (PyPI's, GitHub's): each through the site's allow-list, and ``fragment`` what the site shows.

    readme_renderer serves ``clean(docinfo + fragment)``, rest2html its
    sanitized ``html_body``; that is the fragment an integrator wants from
    these dialects, so ``fragment`` is it. The head parts are rst2's (the
    site's page has its own). A description PyPI would refuse never gets
    here (422 pypi_refused), and GitHub refuses nothing, so ``messages`` is
    empty.
    """
    clean = chosen.clean
    cleaned = {name: parts.get(name, "") if name in _HEAD_PARTS else clean(parts.get(name, "")) for name in PARTS}
    cleaned["fragment"] = description
    served, removed = _safe_parts(cleaned)
    return {"html": served["fragment"], "title": title, "removed": removed, "parts": served, "messages": []}


def _safe_parts(parts):
    served, removed = {}, []
    for name in PARTS:
        text = parts.get(name, "")
        if name in _HEAD_PARTS:
            # The safety pass keeps <style> and <meta> only inside <head>.
            wrapped, gone = sanitize("<head>" + text + "</head>")
            text = wrapped[len("<head>") : -len("</head>")] if wrapped.startswith("<head>") and wrapped.endswith("</head>") else ""
        else:
            text, gone = sanitize(text)
        served[name] = text
        removed.extend("%s: %s" % (name, what) for what in gone)
    return served, removed


def render_latex(source, options=None):
    """LaTeX for pdfTeX or LuaLaTeX, and the images it refers to by number.

    ``engine`` says which: "pdftex" (pdflatex, its format), or "luahbtex"
    (lualatex.fmt) for a document with a shaped script (Arabic, Hebrew,
    Devanagari, Bengali, Tamil, Thai: scripts.SHAPED) when the TeX tree has
    that engine (scripts.json's ``shaped``). A LuaLaTeX document has no
    ``format_preamble``.

    ``images`` lists each image's ``uri`` and ``alt`` in document order:
    image N of the LaTeX is ``images[N-1]``, for the service to fetch and
    put next to the document as ``rst2img-N.<ext>`` (latex_images.py).

    ``tagged`` (an option): a tagged PDF (PDF/UA-1), by the engine the
    scripts choose, with the untagged document's LaTeX plus the tagging
    (latex_writer.Tagged). A tagged pdfTeX document's ``format_preamble``
    starts with \\DocumentMetadata: a format of its own, which holds LaTeX's
    PDF management and tagging code as set up before \\documentclass.

    ``format_preamble`` is the part of the preamble a format can hold (see
    latex_format), which ``latex`` then starts with; None when this document
    must be typeset with the plain pdflatex format. The option
    ``docutils_layout`` keeps docutils' own layout (for comparisons).
    """
    options = {} if options is None else options  # read, never changed
    chosen = dialects.get(options.get("dialect", "docutils"))
    if chosen is dialects.PYPI:
        chosen.refuse_if_rejected(chosen.check(source))
    tagged = bool(options.get("tagged", False))
    # Untagged: the call as before tagging existed (test_scripts stubs it so).
    plan = scripts.plan_for(source, tagged=True) if tagged else scripts.plan_for(source)
    settings = _latex_settings(options, plan)
    parts, document = publish(source, LATEX_WRITER, dialect=chosen, **settings)
    missing = getattr(document, "rst2_scripts_missing", set())
    if missing:
        # Text no character of the source shows (a transform's, say):
        # once more with what it needs.
        plan = scripts.Plan(plan.members | missing)
        settings = _latex_settings(options, plan)
        parts, document = publish(source, LATEX_WRITER, dialect=chosen, **settings)
    lua = plan.engine == scripts.LUAHBTEX
    fmt = None if options.get("docutils_layout") or lua else _format_for(settings, chosen)
    latex = latex_format.split(parts, fmt)
    if latex is None:
        fmt = None
        latex = parts["whole"]
        if lua:
            # cmap is pdfTeX's (LuaTeX's fonts carry their ToUnicode maps).
            latex = latex.replace(_CMAP_LINE, "", 1)
    if settings["use_latex_toc"] and "\\tableofcontents" not in latex:
        # docutils only writes \tableofcontents for a ``contents`` directive;
        # a client asking for LaTeX's TOC expects one either way.
        anchor = "\\maketitle\n" if "\\maketitle\n" in latex else "\\begin{document}\n"
        latex = latex.replace(anchor, anchor + "\\tableofcontents\n", 1)
    return {
        "latex": latex,
        "title": document_title(document),
        "format_preamble": fmt["text"] if fmt else None,
        "engine": plan.engine,
        "replaced_characters": len(getattr(document, "rst2_replaced", ())),
        "scripts": sorted(m for m in plan.members if m in scripts.REPORTED),
        "images": latex_images.images_of(document),
    }


def _latex_settings(options, plan=None):
    documentclass = options.get("class", "article")
    if documentclass not in latex_classes():
        raise ValueError("unknown LaTeX class %r" % documentclass)
    settings = {
        "documentclass": documentclass,
        "stylesheet_path": _style_file("latex", options.get("style", "default"), ".sty"),
        "stylesheet_dirs": [],
        "embed_stylesheet": True,
        "use_latex_toc": bool(options.get("use_latex_toc", False)),
        "syntax_highlight": "none",
        "report_level": 2,
    }
    settings.update(_script_settings(plan, settings["stylesheet_path"]))
    return settings


def _script_settings(plan, stylesheet=None):
    """What a script set changes in the settings: nothing for Latin-only text.

    Being settings, the set is part of the format key (_format_for), so each
    set gets a format of its own.
    """
    if plan is not None and plan.engine == scripts.LUAHBTEX:
        # docutils' custom preamble (its Type 1 "PDF Standard Fonts") gives
        # way to LuaLaTeX's; fontspec and babel come with the writer's
        # requirements (latex_writer.Shaped).
        return {
            "rst2_scripts": plan.setting(),
            "rst2_sans": _uses_sans(stylesheet),
            "latex_preamble": script_preamble.lua_preamble(plan),
        }
    extra = script_preamble.preamble(plan) if plan is not None else ""
    if not extra:
        # A tagged Latin document: its LaTeX is the untagged one's, and the
        # writer learns from the set that it is tagged (latex_writer.Tagged).
        return {"rst2_scripts": plan.setting()} if plan is not None and scripts.TAGGED in plan.members else {}
    return {
        "rst2_scripts": plan.setting(),
        "font_encoding": script_preamble.font_encoding(plan),
        "latex_preamble": _DEFAULT_PREAMBLE + "\n" + extra,
    }


_CMAP_LINE = "\\usepackage{cmap} % fix search and cut-and-paste in Acrobat\n"


def _uses_sans(stylesheet):
    """Whether a style sets text in the sans family (headings, admonition
    titles, the body): the shaped scripts then need sans faces too."""
    if not stylesheet:
        return True
    with open(stylesheet, encoding="utf-8") as f:
        text = f.read()
    return "\\sffamily" in text or "\\sfdefault" in text


# The format part for each set of settings and dialect, made from an empty
# document so that it holds nothing of any user's text. Whatever else comes
# to change the preamble (a script set, say) belongs in this key too.
_formats = {}


_DEFAULT_PREAMBLE = next(
    option[2]["default"] for option in latex2e.Writer.settings_spec[2] if "--latex-preamble" in option[1]
)


def _format_for(settings, dialect):
    key = (dialect.name if dialect else None,) + tuple(sorted((name, repr(value)) for name, value in settings.items()))
    if key not in _formats:
        empty, _ = publish("", LATEX_WRITER, dialect=dialect, **settings)
        _formats[key] = latex_format.build_format_preamble(empty)
    return _formats[key]

