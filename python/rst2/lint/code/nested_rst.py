"""A ``code:: rst`` block: the example is checked as the reStructuredText it shows.

Only docutils' own messages, in the page's dialect: an example of a
mistake in prose (trailing spaces, a long line) is still an example. The
nested check runs no rule that reads source, so a block in a block is not
checked again.
"""

from .languages import register

# The dialect of the page being checked: the nested document is read in it.
_page = {"dialect": "docutils"}


def for_page(dialect):
    _page["dialect"] = dialect


def check_rst(text):
    from ... import rules
    from ...fixes import problems

    found = []
    for item in problems(text + "\n", _page["dialect"], rules.API_DEFAULTS - rules.OWN):
        line = (item.get("line") or 1) - 1
        column = (item.get("column") or 1) - 1
        found.append((line, column, "In this reStructuredText example: %s" % item["message"]))
    return found


register("rst", "code-rst", check_rst, aliases=("rest", "restructuredtext"))
