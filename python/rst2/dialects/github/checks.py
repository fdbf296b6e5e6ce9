"""check's findings for dialect=github: what GitHub shows differently from what the author wrote.

GitHub renders with ``report_level`` 5, so it reports nothing: an unknown
directive shows as a code block, an include is silently missing, a raw
block loses what the sanitizer removes. These rules say so, from the
parse rest2html's settings give (see parser.STATE) and the doctree.
"""

import re

from docutils import nodes

from .parser import STATE
from .sanitizer import emptied

UNKNOWN = "github-unknown-directive"
RAW = "github-raw-emptied"
INCLUDE = "github-include"
CONTENTS = "github-contents-links"

# docutils' message when file insertion is off: include, and raw or
# csv-table reading a file or URL.
_DISABLED = re.compile(r'"([\w:-]+)" directive disabled\.')


def _item(rule, message, line, type_="warning"):
    return {"message": message, "type": type_, "line": line, "context": "", "rule": rule}


def renamed(items):
    """docutils' messages, those GitHub turns into a silently missing file named as github-include."""
    for item in items:
        found = _DISABLED.match(item["message"])
        if found and "rule" not in item:
            item["rule"] = INCLUDE
            item["message"] = (
                '"%s" reads a file or URL, which GitHub does not: its content is missing from the README '
                "GitHub shows (%s)" % (found.group(1), item["message"])
            )
    return items


def findings(document):
    found = [
        _item(UNKNOWN, 'Directive "%s" is not known to GitHub\'s renderer: GitHub shows it as a code block '
              '(a ".. github display off" comment before it hides it instead).' % name, line)
        for line, name in STATE.unknown
    ]
    for raw in document.findall(nodes.raw):
        if "html" in raw.get("format", "").split() and emptied(raw.astext()):
            found.append(_item(RAW, "Raw HTML GitHub's sanitizer empties: nothing of it is shown.", _line(raw)))
    found.extend(_contents_links(document))
    return found


def _line(node):
    while node is not None:
        if node.line:
            return node.line
        node = node.parent
    return None


def _contents_links(document):
    """Section titles linking back to a contents entry: GitHub keeps section anchors only."""
    sections = {id_ for section in document.findall(nodes.section) for id_ in section["ids"]}
    found = []
    for topic in document.findall(nodes.topic):
        if "contents" not in topic["classes"]:
            continue
        entries = {id_ for ref in topic.findall(nodes.reference) for id_ in ref["ids"]}
        broken = [title for title in document.findall(nodes.title) if title.get("refid") in entries and title["refid"] not in sections]
        if broken:
            found.append(
                _item(
                    CONTENTS,
                    "%d section title%s back to this contents' entries, ids GitHub does not keep: "
                    'those links go nowhere on GitHub (":backlinks: none" or ":backlinks: top" avoids them).'
                    % (len(broken), " links" if len(broken) == 1 else "s link"),
                    topic.line or _line(broken[0]),
                )
            )
    return found
