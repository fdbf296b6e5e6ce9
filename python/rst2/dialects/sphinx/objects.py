"""Object descriptions (py, c, cpp, js, rst and std domains) as definition lists.

``.. py:function:: name(args)`` becomes a term showing the signature, with
the id Sphinx would give it (the full dotted name for Python), and a
definition holding the content; API roles in the same document link to it.
"""

import re

from docutils import nodes
from docutils.parsers.rst import Directive, directives

from .state import claim_id, index_entry, inline, parse_to_nodes, register, state_of

flag = directives.flag
unchanged = directives.unchanged

# Option names of Sphinx 5.3, with the spellings Sphinx 7.2 added.
COMMON = {name: flag for name in ("noindex", "no-index", "noindexentry", "no-index-entry", "nocontentsentry", "no-contents-entry", "no-typesetting")}
PY_COMMON = dict(COMMON, module=unchanged, canonical=unchanged, annotation=unchanged, **{"single-line-parameter-list": flag, "single-line-type-parameter-list": flag})

PY_OPTIONS = {
    "function": dict(PY_COMMON, **{"async": flag}),
    "data": dict(PY_COMMON, type=unchanged, value=unchanged),
    "class": dict(PY_COMMON, final=flag),
    "exception": dict(PY_COMMON, final=flag),
    "method": dict(PY_COMMON, abstractmethod=flag, **{"async": flag}, classmethod=flag, final=flag, property=flag, staticmethod=flag),
    "classmethod": PY_COMMON,
    "staticmethod": PY_COMMON,
    "attribute": dict(PY_COMMON, type=unchanged, value=unchanged),
    "property": dict(PY_COMMON, abstractmethod=flag, classmethod=flag, type=unchanged),
    "decorator": dict(PY_COMMON, **{"async": flag}),
    "decoratormethod": dict(PY_COMMON, abstractmethod=flag, **{"async": flag}, classmethod=flag, final=flag, property=flag, staticmethod=flag),
    "type": dict(PY_COMMON, canonical=unchanged),
}

# What Sphinx writes before a Python signature.
PY_PREFIX = {"class": "class ", "exception": "exception ", "classmethod": "classmethod ", "staticmethod": "static ", "property": "property ", "decorator": "@", "decoratormethod": "@", "type": "type "}
PY_CLASS_LIKE = frozenset({"class", "exception"})
PY_SIGNATURE = re.compile(r"^([\w.]*\.)?(\w+)\s*(?:\[\s*(.*)\s*\])?\s*(?:\(\s*(.*)\s*\)(?:\s*->\s*(.*))?)?$")

C_KINDS = ("member", "var", "function", "macro", "struct", "union", "enum", "enumerator", "type")
CPP_KINDS = ("class", "struct", "union", "function", "member", "var", "type", "concept", "enum", "enum-struct", "enum-class", "enumerator")
JS_KINDS = ("function", "method", "class", "data", "attribute")


def signatures(directive):
    # One signature per line; a backslash at the end of a line continues it.
    text = directive.arguments[0].replace("\\\n", "")
    return [line.strip() for line in text.split("\n") if line.strip()]


class Description(Directive):
    """The common part: terms with ids, then the content as the definition."""

    has_content = True
    required_arguments = 1
    final_argument_whitespace = True
    domain = "std"
    kind = "describe"
    option_spec = COMMON

    def run(self):
        document = self.state.document
        indexed = not any(name in self.options for name in ("noindex", "no-index"))
        item = nodes.definition_list_item()
        for signature in signatures(self):
            term, key = self.signature(signature)
            keys = key if isinstance(key, list) else [key] if key else []
            if indexed and keys:
                ident = claim_id(document, term, self.wanted_id(keys[0]))
                for name in keys if ident else ():
                    state_of(document).objects.setdefault((self.domain, name), ident)
            item += term
        definition = nodes.definition()
        with self.content_context():
            self.state.nested_parse(self.content, self.content_offset, definition)
        messages = self.transform_content(definition)
        item += definition
        return [nodes.definition_list("", item, classes=[self.domain, self.kind, "object-description"])] + messages

    def signature(self, text):
        """(term node, registry name or None)."""
        return nodes.term(text, "", nodes.literal(text, text)), None

    def wanted_id(self, key):
        return "%s-%s-%s" % (self.domain, self.kind, key)

    def content_context(self):
        return _Nothing()

    def transform_content(self, definition):
        """A chance to add to the parsed content; returns messages."""
        return []


class _Nothing:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


class _InClass:
    def __init__(self, state, name):
        self.state, self.name = state, name

    def __enter__(self):
        self.state.classes.append(self.name)

    def __exit__(self, *exc):
        self.state.classes.pop()
        return False


def term_of(signature, prefix, module_prefix, name, rest):
    term = nodes.term(signature, "")
    if prefix:
        term += nodes.emphasis(prefix, prefix)
    if module_prefix:
        term += nodes.literal(module_prefix, module_prefix, classes=["sig-prename"])
    term += nodes.strong("", "", nodes.literal(name, name, classes=["sig-name"]))
    if rest:
        term += nodes.literal(rest, rest)
    return term


class PythonObject(Description):
    domain = "py"

    def signature(self, text):
        match = PY_SIGNATURE.match(text)
        if not match:
            return super().signature(text)
        prefix, name, typeparams, arglist, retann = match.groups()
        state = state_of(self.state.document)
        module = self.options.get("module", state.module)
        cls = state.classes[-1] if state.classes else None
        prefix = prefix or ""
        if cls and not (prefix == cls + "." or prefix.startswith(cls + ".")):
            fullname = "%s.%s%s" % (cls, prefix, name)
        else:
            fullname = prefix + name
        key = "%s.%s" % (module, fullname) if module else fullname
        self._fullname = fullname
        rest = ""
        if typeparams is not None:
            rest += "[%s]" % typeparams
        if arglist is not None:
            rest += "(%s)" % arglist
        elif self.kind in ("function", "method", "classmethod", "staticmethod"):
            # Sphinx writes "()" for a callable described without its parameters, not for a decorator.
            rest += "()"
        if retann:
            rest += " -> " + retann
        if self.options.get("type"):
            rest += ": " + self.options["type"]
        if self.options.get("value"):
            rest += " = " + self.options["value"]
        if self.options.get("annotation"):
            rest += " " + self.options["annotation"]
        return term_of(text, self.prefix(), prefix if not cls else "", name, rest), key

    def prefix(self):
        words = []
        for option, word in (("final", "final"), ("abstractmethod", "abstract"), ("async", "async"), ("classmethod", "classmethod"), ("staticmethod", "static"), ("property", "property")):
            if option in self.options:
                words.append(word)
        lead = " ".join(words) + " " if words else ""
        return lead + PY_PREFIX.get(self.kind, "")

    def wanted_id(self, key):
        return key

    def content_context(self):
        if self.kind in PY_CLASS_LIKE and getattr(self, "_fullname", None):
            return _InClass(state_of(self.state.document), self._fullname)
        return _Nothing()


class PythonModule(Directive):
    """module / currentmodule: sets the module later names are qualified with.

    As in Sphinx 9.2, a module's content may hold sections (titles in styles
    of their own), and it is parsed before the module's target is made.
    """

    has_content = True
    required_arguments = 1
    option_spec = dict(COMMON, platform=unchanged, synopsis=unchanged, deprecated=flag)
    anchor = True

    def run(self):
        document = self.state.document
        state = state_of(document)
        name = self.arguments[0].strip()
        state.module = None if name == "None" else name
        content = parse_to_nodes(self, titles=True)[0] if self.content else []
        made = []
        if self.anchor and state.module and not any(n in self.options for n in ("noindex", "no-index")):
            if not any(n in self.options for n in ("noindexentry", "no-index-entry")):
                made.append(index_entry())
            target = nodes.target("", "")
            if register(document, target, "py", name, "module-" + name):
                made.append(target)
        return made + content


class CurrentModule(PythonModule):
    has_content = False
    option_spec = {}
    anchor = False


class CObject(Description):
    """C and C++ declarations are not parsed: the declared name is the last
    identifier before the parameters (functions) or before any initialiser."""

    def signature(self, text):
        declaration = re.sub(r"<[^<>]*>", "", text)  # template arguments
        head = declaration.split("(", 1)[0] if "(" in declaration else declaration
        head = head.split("=", 1)[0]
        names = re.findall(r"[A-Za-z_~][\w]*(?:::[A-Za-z_~][\w]*)*", head)
        key = names[-1] if names else None
        scope = state_of(self.state.document).classes
        if key and self.domain == "cpp" and scope:
            key = "%s::%s" % (scope[-1], key)
        self._fullname = key
        return nodes.term(text, "", nodes.literal(text, text)), key

    def content_context(self):
        if self.domain == "cpp" and self.kind in ("class", "struct", "union") and getattr(self, "_fullname", None):
            return _InClass(state_of(self.state.document), self._fullname)
        return _Nothing()

    def wanted_id(self, key):
        return "%s.%s" % (self.domain, key.replace("::", "."))


class JsObject(PythonObject):
    domain = "js"

    def wanted_id(self, key):
        return "js-" + key


class RstObject(Description):
    domain = "rst"

    def signature(self, text):
        shown = {"directive": ".. %s::" % text, "role": ":%s:" % text, "directive:option": ":%s:" % text}[self.kind]
        name = text.split()[0] if text.split() else text
        return nodes.term(text, "", nodes.literal(shown, shown)), name


class Program(Directive):
    required_arguments = 1
    final_argument_whitespace = True
    option_spec = {}

    def run(self):
        program = self.arguments[0].strip()
        state_of(self.state.document).program = None if program == "None" else program
        return []


_OPTION = re.compile(r"((?:/|--|-|\+)?[^\s=\[]+)(=?\s*.*)")


class CommandOption(Description):
    kind = "option"

    def signature(self, text):
        program = state_of(self.state.document).program
        names = [match.group(1) for match in (_OPTION.match(part.strip()) for part in text.split(", ")) if match]
        keys = ["%s %s" % (program, name) if program else name for name in names]
        return nodes.term(text, "", nodes.literal(text, text)), keys

    def wanted_id(self, key):
        return "cmdoption-" + key.replace(" ", "-")


class EnvVar(Description):
    kind = "envvar"

    def signature(self, text):
        return nodes.term(text, "", nodes.literal(text, text)), "envvar:" + text

    def wanted_id(self, key):
        return key.replace(":", "-")


class ConfigurationValue(Description):
    """std's confval, with Sphinx 9.2's options: :type: and :default: are fields before the content."""

    kind = "confval"
    option_spec = {
        **{name: flag for name in ("no-index", "no-index-entry", "no-contents-entry", "no-typesetting")},
        "type": directives.unchanged_required,
        "default": directives.unchanged_required,
    }

    def signature(self, text):
        return nodes.term(text, "", nodes.literal(text, text)), "confval:" + " ".join(text.split())

    def wanted_id(self, key):
        return "confval-" + key.partition(":")[2]

    def transform_content(self, definition):
        fields = nodes.field_list()
        messages = []
        for option, label in (("type", "Type"), ("default", "Default")):
            if option in self.options:
                children, found = inline(self, self.options[option])
                fields += nodes.field("", nodes.field_name("", label), nodes.field_body("", nodes.paragraph("", "", *children)))
                messages += found
        if len(fields):
            definition.insert(0, fields)
        return messages


def _py(kind):
    return type("Py_" + kind, (PythonObject,), {"kind": kind, "option_spec": PY_OPTIONS[kind]})


def _c(domain, kind):
    spec = dict(COMMON, **({"tparam-line-spec": flag} if domain == "cpp" else {}))
    return type("%s_%s" % (domain, kind), (CObject,), {"domain": domain, "kind": kind, "option_spec": spec})


def _js(kind):
    return type("Js_" + kind, (JsObject,), {"kind": kind, "option_spec": COMMON})


def _nothing(arguments):
    return type("Nothing", (Directive,), {"optional_arguments": arguments, "final_argument_whitespace": True, "option_spec": {"maxdepth": int, "noroot": flag}, "has_content": True, "run": lambda self: []})


DIRECTIVES = {}
for _kind in PY_OPTIONS:
    DIRECTIVES["py:" + _kind] = _py(_kind)
DIRECTIVES["py:module"] = PythonModule
DIRECTIVES["py:currentmodule"] = CurrentModule
for _kind in C_KINDS:
    DIRECTIVES["c:" + _kind] = _c("c", _kind)
for _kind in CPP_KINDS:
    DIRECTIVES["cpp:" + _kind] = _c("cpp", _kind)
for _domain in ("c", "cpp"):
    # Scoping and aliases change name lookup in Sphinx; here they show nothing.
    for _kind in ("namespace", "namespace-push", "namespace-pop", "alias"):
        DIRECTIVES["%s:%s" % (_domain, _kind)] = _nothing(1)
for _kind in JS_KINDS:
    DIRECTIVES["js:" + _kind] = _js(_kind)
DIRECTIVES["js:module"] = type("JsModule", (CurrentModule,), {"option_spec": COMMON})
for _kind in ("directive", "role", "directive:option"):
    DIRECTIVES["rst:" + _kind] = type("Rst_" + _kind, (RstObject,), {"kind": _kind, "option_spec": dict(COMMON, type=unchanged)})
DIRECTIVES["std:program"] = Program
DIRECTIVES["std:option"] = DIRECTIVES["std:cmdoption"] = CommandOption
DIRECTIVES["std:envvar"] = EnvVar
DIRECTIVES["std:confval"] = ConfigurationValue
DIRECTIVES["describe"] = DIRECTIVES["object"] = Description

# Without a domain, Sphinx's default domain (py) and the std domain apply.
for _name in list(DIRECTIVES):
    _domain, _, _bare = _name.partition(":")
    if _domain in ("py", "std") and _bare:
        DIRECTIVES[_bare] = DIRECTIVES[_name]
