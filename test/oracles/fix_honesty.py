"""The honesty of rst2's fixes, on real documents (test/fix-honesty.test.ts).

usage: python3 fix_honesty.py  < {"documents": [{"name", "text"}]}  ->  JSON

For each document, with the rules of python/rst2/fixes (the files the
workers run) and the bundle's docutils, run natively by Debian's CPython:

  every fix alone (each problem's own, safe and suggested): applied to the
        document by itself, the document must not have more problems after
        it than before ("worse");
  every safe fix alone: the rendered text of the lines it does not touch
        must not change ("changed"). Both documents are rendered to HTML with
        report_level 5, so that problem reports are no text, and their body
        text (test/oracles/native.py's extractor) compared word by word: each
        word that differs must come from the lines the fix touches, that is
        the lines from its first edit's line to its last edit's end line,
        or from the text its edits write. An edit that only inserts whole
        lines (a blank line before line N) touches no line. A title's
        overline and underline span the title between them: the
        title-overline rule turns a title docutils lost back into a title,
        and only that title's words may appear. Words are compared by their
        letters and digits, as the extractor may split a word where a tag
        was (a problematic ``*`` before the word it started);
  fix_document, safe only and with suggested fixes: never more problems
        after than before, and fixing the fixed text again changes nothing
        and applies nothing ("idempotent");
  fix_document's text, and every suggested fix alone (as an editor's
        quick fix applies it), rendered by stock docutils with its defaults (file
        insertion and raw markup on, as a user's own docutils or Sphinx
        renders the fixed file): no ``<script``, event handler,
        ``javascript:`` link, raw node, file read or URL fetched that the
        original, rendered the same way, lacked ("armed"). Files and URLs
        are recorded, never read: docutils' dependency list names each file
        it opens, and urllib's urlopen is replaced by a recorder that fails.

Prints, per document, what was exercised and every failure found.
"""

import difflib
import io
import json
import os
import re
import sys
import urllib.request

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from native import body_text  # noqa: E402

from rst2 import dialects, rules  # noqa: E402
from rst2.fixes import check as _check, fix_document as _fix_document  # noqa: E402

# Every rule on by default, of every family, as the command line and the
# editors check: the fixes of the rules that read the source are judged too.
ENABLED = rules.DEFAULTS

# A document with five hundred lines of trailing spaces has five hundred
# fixes of one kind: the first few of each rule are judged alone.
MAX_JUDGED_PER_RULE = 6


def check(text):
    return _check(text, enabled=ENABLED)


def fix_document(text, unsafe=False):
    return _fix_document(text, unsafe=unsafe, enabled=ENABLED)
from rst2.fixes.edits import Source, apply  # noqa: E402
from rst2.publish import publish  # noqa: E402

_WORD = re.compile(r"[^\W_]+")


_HANDLER = re.compile(r"<[^>]*\son[a-z]+\s*=", re.I)


def stock_features(text):
    """What stock docutils' defaults make of ``text`` that acts or reads: (kind, what) pairs, counted."""
    from docutils import nodes
    from docutils.core import publish_doctree, publish_from_doctree
    from docutils.utils import DependencyList

    fetched = []

    def recorder(url, *args, **kwargs):
        fetched.append(getattr(url, "full_url", url))
        raise OSError("not fetched: the honesty judge records URLs only")

    dependencies = DependencyList()
    settings = {"report_level": 5, "halt_level": 5, "warning_stream": io.StringIO(), "record_dependencies": dependencies, "_disable_config": True, "embed_stylesheet": False, "stylesheet_path": ""}
    saved, urllib.request.urlopen = urllib.request.urlopen, recorder
    try:
        doctree = publish_doctree(text, settings_overrides=settings)
        html = publish_from_doctree(doctree, writer_name="html5", settings_overrides=settings).decode("utf-8", "replace")
    finally:
        urllib.request.urlopen = saved
    found = [("raw", node.astext()[:80]) for node in doctree.findall(nodes.raw)]
    found += [("file", name) for name in dependencies.list]
    found += [("url", url) for url in fetched]
    found += [("script", m.group(0)[:80]) for m in re.finditer(r"<script\b[^>]*>", html, re.I)]
    found += [("handler", m.group(0)[:80]) for m in _HANDLER.finditer(html)]
    found += [("javascript", m.group(0)[:80]) for m in re.finditer(r"javascript:[^\"'<>]{0,40}", html, re.I)]
    return found


def armed(before, after):
    """What ``after`` has of stock_features that ``before`` had fewer of."""
    counted = {}
    for feature in before:
        counted[feature] = counted.get(feature, 0) + 1
    out = []
    for feature in after:
        if counted.get(feature, 0) > 0:
            counted[feature] -= 1
        else:
            out.append("%s %r" % feature)
    return out


def rendered_words(text):
    parts, _ = publish(text, "html5", dialect=dialects.DOCUTILS, report_level=5, syntax_highlight="short", embed_stylesheet=False, stylesheet_path="")
    return body_text(parts["whole"]).split()


def touched_lines(source, fix):
    """The text a fix may change: its lines, from its first edit's line to its last edit's, and what its edits write.

    An edit touches the lines of its range (not the line it ends on at
    column 1); an edit that only inserts whole lines (at column 1, its text
    ending with a line break: a blank line before line N) touches none.
    """
    spans = []
    for e in fix["edits"]:
        inserts_lines = (e["line"], e["column"]) == (e["endLine"], e["endColumn"]) and e["column"] == 1 and e["text"].endswith(("\n", "\r"))
        if inserts_lines:
            continue
        last = e["endLine"] - 1 if e["endColumn"] == 1 and e["endLine"] > e["line"] else e["endLine"]
        spans.append((e["line"], last))
    lines = [e["text"] for e in fix["edits"]]
    if spans:
        first, last = min(s for s, _ in spans), max(e for _, e in spans)
        lines += [source.line(n) or "" for n in range(first, last + 1)]
    return lines


def _letters(words):
    return " ".join(w for word in words for w in _WORD.findall(word))


def changed_words(before, after, touched):
    """The differences between two word lists that no touched line accounts for."""
    allowed = " %s " % _letters(touched)
    out = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for side in (before[i1:i2], after[j1:j2]):
            letters = _letters(side)
            if letters and " %s " % letters not in allowed:
                out.append("%s %r -> %r" % (tag, " ".join(before[i1:i2])[:200], " ".join(after[j1:j2])[:200]))
                break
    return out


def where(fix):
    e = fix["edits"][0]
    return "line %d (%s: %s)" % (e["line"], fix["rule"], fix["description"])


def judge(doc):
    text = doc["text"]
    items = check(text)
    if "probe" in doc:
        # The judge's own test: a fix of the caller's, said to be safe, in place of the rules'.
        items = [{"message": "probe", "fix": dict(doc["probe"], applicability="safe", rule="probe")}]
    problems = len(items)
    source = Source(text)
    result = {"name": doc["name"], "problems": problems, "fixes": {}, "safe": 0, "changed": [], "worse": [], "idempotent": [], "noop": [], "armed": [], "stock": 0}
    before = stock = None
    for item in items:
        fix = item.get("fix")
        if fix is None:
            continue
        result["fixes"][fix["rule"]] = result["fixes"].get(fix["rule"], 0) + 1
        if result["fixes"][fix["rule"]] > MAX_JUDGED_PER_RULE:
            continue
        new_text, applied = apply(text, [fix])
        if not applied or new_text == text:
            result["noop"].append(where(fix))
            continue
        after = len(check(new_text))
        if after > problems:
            result["worse"].append("%s: %d problems, then %d" % (where(fix), problems, after))
        if fix["applicability"] == "suggested":
            # A quick fix in an editor is applied alone, whatever fix_document would keep.
            if stock is None:
                stock = stock_features(text)
            added = armed(stock, stock_features(new_text))
            if added:
                result["armed"].append("%s alone: %s" % (where(fix), "; ".join(added[:3])))
        if fix["applicability"] == "safe":
            result["safe"] += 1
            if before is None:
                before = rendered_words(text)
            diff = changed_words(before, rendered_words(new_text), touched_lines(source, fix))
            if diff:
                result["changed"].append("%s: %s" % (where(fix), "; ".join(diff[:3])))
    for unsafe in (False, True) if "probe" not in doc else ():
        label = "fix_document(unsafe=%s)" % unsafe
        once, applied, left = fix_document(text, unsafe=unsafe)
        if once != text:
            result["stock"] += 1
            if stock is None:
                stock = stock_features(text)
            added = armed(stock, stock_features(once))
            if added:
                result["armed"].append("%s: %s (fixes: %s)" % (label, "; ".join(added[:3]), "; ".join(where(f) for f in applied[:6])))
        if len(left) > problems:
            result["worse"].append("%s: %d problems, then %d" % (label, problems, len(left)))
        if applied:
            twice, again, _ = fix_document(once, unsafe=unsafe)
            if twice != once or again:
                result["idempotent"].append("%s: a second run applied %d more (%s)" % (label, len(again), "; ".join(where(f) for f in again[:3])))
    return result


if __name__ == "__main__":
    documents = json.load(sys.stdin)["documents"]
    json.dump({"documents": [judge(doc) for doc in documents]}, sys.stdout)
