"""Data languages with a parser in Python's standard library: JSON, TOML and XML.

Examples are often abridged: ``...`` for what is left out, ``//`` comments
(JSON with comments), several documents one after another. A block that
abridges is not reported; one that fails to parse otherwise is.
"""

import json
import re

from .languages import register

_ABRIDGED = re.compile(r"\.\.\.|…|<[A-Za-z][\w .:/-]*>|\{\{|^\s*//|/\*|^\s*#", re.M)


def check_json(text):
    if _ABRIDGED.search(text):
        return []
    try:
        json.loads(text)
        return []
    except RecursionError:
        return []
    except json.JSONDecodeError as error:
        if error.msg == "Extra data" and _json_lines(text) or _fragment(text):
            return []
        return [(error.lineno - 1, error.colno - 1, "JSON does not parse: %s." % error.msg)]


def _fragment(text):
    """Whether the block is the inside of an object or array (``"key": {...}``, as an example shows one part)."""
    for opening, closing in ("{}", "[]"):
        try:
            json.loads(opening + text + closing)
            return True
        except (json.JSONDecodeError, RecursionError):
            pass
    return False


def _json_lines(text):
    """Whether every non-empty line is a JSON value (JSON Lines, or one value per example line)."""
    try:
        for line in text.splitlines():
            if line.strip():
                json.loads(line)
        return True
    except (json.JSONDecodeError, RecursionError):
        return False


_TOML_AT = re.compile(r"\(at line (\d+), column (\d+)\)$")


def check_toml(text):
    if re.search(r"\.\.\.|…|<[A-Za-z][\w .:/-]*>|\{\{", text):
        return []
    try:
        import tomllib
    except ImportError:
        return []
    try:
        tomllib.loads(text)
        return []
    except RecursionError:
        return []
    except tomllib.TOMLDecodeError as error:
        message = str(error)
        at = _TOML_AT.search(message)
        line, column = (int(at.group(1)) - 1, int(at.group(2)) - 1) if at else (0, 0)
        return [(line, column, "TOML does not parse: %s." % _TOML_AT.sub("", message).strip().rstrip("."))]


def check_xml(text):
    if re.search(r"\.\.\.|…|\{\{", text):
        return []
    from xml.etree import ElementTree
    from xml.parsers import expat

    # The declaration and a DOCTYPE cannot go inside the root put around the
    # block; without the DOCTYPE no entity is defined, so none is expanded.
    body = re.sub(r"^\s*<\?xml[^>]*\?>", "", text)
    body = re.sub(r"<!DOCTYPE[^>\[]*(?:\[[^\]]*\])?\s*>", "", body)
    try:
        # Expat reads no external entity and no DTD from anywhere: the text alone.
        parser = ElementTree.XMLParser()
        # Several elements one after another, as examples often show: one root around them.
        parser.feed("<rst2-root>" + body + "</rst2-root>")
        parser.close()
        return []
    except ElementTree.ParseError as error:
        code = getattr(error, "code", None)
        if code in (expat.errors.codes.get(expat.errors.XML_ERROR_UNDEFINED_ENTITY), expat.errors.codes.get(expat.errors.XML_ERROR_EXTERNAL_ENTITY_HANDLING)):
            return []  # &nbsp; and friends: HTML's entities, or a DTD the example leaves out
        line, column = error.position
        if line == 1:
            column -= len("<rst2-root>")
        message = str(error).split(":")[0]
        return [(line - 1, max(column, 0), "XML does not parse: %s." % message)]
    except RecursionError:
        return []


register("json", "code-json", check_json, aliases=("json5-strict",))
register("toml", "code-toml", check_toml)
register("xml", "code-xml", check_xml, aliases=("xsd", "xslt", "svg", "rss"))
