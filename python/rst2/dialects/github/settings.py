"""rest2html's docutils settings (github/markup lib/github/commands/rest2html, master aca8395)."""

# What the parser and transforms read: the same for every writer.
PARSER = {
    "strip_comments": True,
    "doctitle_xform": True,
    # GitHub shows no problem reports: unknown roles and targets show as
    # their source text. check still lists them.
    "report_level": 5,
    # ids id1, id2... for toc entries, footnotes and backlinks (docutils
    # before 0.18), which the fixtures' links point to.
    "auto_id_prefix": "id",
}

# The rest only shapes the HTML.
HTML = dict(
    PARSER,
    cloak_email_addresses=False,
    initial_header_level=2,
    syntax_highlight="none",
    math_output="latex",
    field_name_limit=50,
)

# The writer rest2html uses (its translator: translator.GithubTranslator).
HTML_WRITER = "html4css1"

# rest2html enables raw and file insertion stays off (rst2 keeps it off
# for everyone). Raw is lifted only for the HTML writer, whose output always
# goes through the sanitizer and then rst2's own safety pass, and for
# check, which writes nothing; LaTeX never gets raw.
LIFTED = {"raw_enabled": True}
LIFTED_FOR = frozenset({HTML_WRITER, "null"})
