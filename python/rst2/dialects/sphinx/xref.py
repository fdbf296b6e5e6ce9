"""Cross-reference roles, resolved within the document.

A role makes a placeholder (an ``inline`` marked ``rst2_xref``) holding what
it displays; once the whole document is parsed, ResolveReferences turns each
into a link when its target is in the same document, or into the bare text
when it is not (the target is then in another document of the project,
which Sphinx would resolve and rst2 cannot see).
"""

import re

from docutils import nodes, utils
from docutils.transforms import Transform

from .state import state_of

# Sphinx's explicit title syntax: ``title <target>``.
EXPLICIT_TITLE = re.compile(r"^(.+?)\s*(?<!\x00)<([^<]*?)>$", re.DOTALL)

# Roles that name callables: Sphinx appends "()" to their text.
CALLABLE_KINDS = frozenset({"func", "meth"})

MARK = "rst2_xref"


def split_title(text):
    """(explicit, title, target) from a role's unescaped text."""
    match = EXPLICIT_TITLE.match(text)
    if match:
        return True, utils.unescape(match.group(1)), utils.unescape(match.group(2))
    text = utils.unescape(text)
    return False, text, text


def xref_role(domain, kind, literal=True, lowercase=False):
    """A role function for ``:domain:kind:`` (domain "std" for ref, term, ...)."""

    def role(name, rawtext, text, lineno, inliner, options=None, content=None):
        explicit, title, target = split_title(text)
        nolink = False
        if not explicit and title.startswith("!"):
            nolink, title, target = True, title[1:], target[1:]
        title, target = _api_forms(domain, kind, explicit, title, target)
        if domain == "py" and kind == "deco":
            title = "@" + title  # as Sphinx shows a decorator, given a title or not
        if lowercase:
            target = target.lower()
        inner = nodes.literal(rawtext, title) if literal else nodes.inline(rawtext, title)
        inner["classes"] += ["xref", domain, "%s-%s" % (domain, kind)]
        holder = nodes.inline(rawtext, "", inner)
        holder[MARK] = {
            "domain": domain,
            "kind": kind,
            "target": target.strip(),
            "explicit": explicit,
            "nolink": nolink,
            "context": state_of(inliner.document).context(),
            "program": state_of(inliner.document).program,
        }
        return [holder], []

    return role


def _api_forms(domain, kind, explicit, title, target):
    """Sphinx's display rules for API names: ``~`` keeps the last part, ``()`` for callables."""
    if domain not in ("py", "c", "cpp", "js"):
        return title, target
    if not explicit:
        title = title.lstrip(".")
        target = target.lstrip("~")
        if title.startswith("~"):
            title = title[1:]
            title = re.split(r"\.|::", title)[-1]
        if kind in CALLABLE_KINDS or (domain in ("c", "cpp") and kind == "func"):
            if not title.endswith("()"):
                title += "()"
    if target.endswith("()"):
        target = target[:-2]
    return title, target


class DefaultSubstitutions(Transform):
    """|version|, |release| and |today|, which Sphinx fills from the project's configuration.

    There is no configuration here, so a document that does not define them
    shows them as written rather than failing on them.
    """

    default_priority = 210  # before docutils' Substitutions (220), as Sphinx's own

    NAMES = ("version", "release", "today")

    def apply(self):
        for reference in list(self.document.findall(nodes.substitution_reference)):
            name = reference["refname"]
            if name in self.NAMES and name not in self.document.substitution_defs:
                reference.replace_self(nodes.inline(reference.rawsource, "|%s|" % name, classes=["substitution", name]))


class PageTitle(Transform):
    """The page's title is its first section's, as in Sphinx (titles are not promoted)."""

    default_priority = 341  # after docutils' DocTitle (320)

    def apply(self):
        if self.document.hasattr("title"):
            return
        for section in self.document.findall(nodes.section):
            if section.children and isinstance(section[0], nodes.title):
                self.document["title"] = section[0].astext()
            return


class ResolveReferences(Transform):
    """Links each placeholder to its target in this document, or leaves its text."""

    # After docutils has propagated targets to sections (260) and the
    # contents directive has copied titles (720); before rst2's link safety.
    default_priority = 880

    def apply(self):
        state = state_of(self.document)
        for holder in list(self.document.findall(nodes.inline)):
            info = holder.get(MARK)
            if info is None:
                continue
            inner = holder[0]
            found = None if info["nolink"] else self._find(state, info)
            if found is None:
                holder.replace_self(inner)
                continue
            ident, text = found
            if info["explicit"] and info["kind"] == "numref" and text:
                # An explicit numref title places the number with %s or {number}.
                number = text.split()[-1]
                text = inner.astext().replace("%s", number).replace("{number}", number)
            if text is not None and (not info["explicit"] or info["kind"] == "numref"):
                inner.children = []
                inner += nodes.Text(text)
            holder.replace_self(nodes.reference("", "", inner, refid=ident, internal=True))

    def _find(self, state, info):
        """(id, text to show or None) of the target, or None."""
        domain, kind, target = info["domain"], info["kind"], info["target"]
        if domain == "std" and kind in ("ref", "numref"):
            return self._label(target, kind)
        if domain == "std" and kind == "any":
            return self._label(target, "ref") or self._object(state, info, any_domain=True)
        if domain == "math":
            found = state.equations.get(target)
            return (found[0], "(%d)" % found[1]) if found else None
        return self._object(state, info)

    def _label(self, target, kind):
        name = nodes.fully_normalize_name(target)
        if not self.document.nametypes.get(name):  # explicit targets only, as Sphinx
            return None
        ident = self.document.nameids.get(name)
        node = self.document.ids.get(ident)
        if node is None:
            return None
        if isinstance(node, nodes.image) and isinstance(node.parent, nodes.figure):
            node = node.parent  # docutils gives a figure's name to its image
        if kind == "numref":
            number = _number_of(self.document, node)
            return ident, number
        return ident, _title_of(node)

    def _object(self, state, info, any_domain=False):
        domains = ("py", "c", "cpp", "js", "rst", "std") if any_domain else (info["domain"],)
        for domain in domains:
            for candidate in _candidates(domain, info):
                ident = state.objects.get((domain, candidate))
                if ident:
                    return ident, None
            if info["target"].startswith(".") or domain == "py":
                suffix = "." + info["target"].lstrip(".")
                matches = [i for (d, n), i in state.objects.items() if d == domain and n.endswith(suffix)]
                if len(matches) == 1:
                    return matches[0], None
        return None


def _candidates(domain, info):
    target, kind = info["target"], info["kind"]
    if domain == "std" and kind == "option":
        program = info["program"]
        words = target.split()
        if len(words) > 1:  # ``:option:`prog -f```
            program, target = " ".join(words[:-1]), words[-1]
        return ["%s %s" % (program, target) if program else target]
    if domain == "std" and kind in ("term", "envvar", "token", "keyword", "confval"):
        return ["%s:%s" % (kind, target.lower() if kind == "term" else target)]
    if domain == "py":
        module, cls = info["context"]
        bare = target.lstrip(".")
        found = []
        if module and cls:
            found.append("%s.%s.%s" % (module, cls, bare))
        if cls:
            found.append("%s.%s" % (cls, bare))
        if module:
            found.append("%s.%s" % (module, bare))
        found.append(bare)
        return found
    return [target]


def _title_of(node):
    """The text a ``ref`` to ``node`` shows when it has no title of its own."""
    if isinstance(node, nodes.section) and node.children and isinstance(node[0], nodes.title):
        return node[0].astext()
    for kind in (nodes.caption, nodes.title):
        for child in node.children:
            if isinstance(child, kind):
                return child.astext()
    return None


NUMBERED = ((nodes.figure, "Fig. %d"), (nodes.table, "Table %d"), (nodes.literal_block, "Listing %d"), (nodes.container, "Listing %d"))


def _number_of(document, node):
    """Sphinx's default numfig text for a figure, table or code listing."""
    for kind, template in NUMBERED:
        if isinstance(node, kind):
            same = [n for n in document.findall(kind) if kind is not nodes.container or "literal-block-wrapper" in n["classes"]]
            if node in same:
                return template % (same.index(node) + 1)
    return None
