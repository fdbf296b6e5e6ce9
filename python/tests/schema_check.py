"""The worker contract's checker on Python's side: the same few JSON Schema
rules as src/engines/python/contract-check.ts, so that Python's tests hold
its replies to what TypeScript checks them against.

Only the keywords of KEYWORDS are known; a schema with another one is
refused rather than half-checked (contract-schema.ts refuses the same).
"""

import json

KEYWORDS = frozenset(
    ("description", "default", "type", "enum", "const", "properties", "required", "additionalProperties", "items", "oneOf", "$ref")
)

_TYPES = {
    "string": lambda v: isinstance(v, str),
    # JSON has no booleans among its numbers; Python's bool is an int.
    "integer": lambda v: isinstance(v, int) and not isinstance(v, bool),
    "number": lambda v: isinstance(v, (int, float)) and not isinstance(v, bool),
    "boolean": lambda v: isinstance(v, bool),
    "null": lambda v: v is None,
    "object": lambda v: isinstance(v, dict),
    "array": lambda v: isinstance(v, list),
}


def unknown_keywords(schema, at="$"):
    """Where a schema uses a keyword outside KEYWORDS (or additionalProperties other than false)."""
    found = []
    if not isinstance(schema, dict):
        return ["%s: not a schema" % at]
    for key, value in schema.items():
        if key not in KEYWORDS:
            found.append("%s: keyword %s" % (at, key))
        elif key == "additionalProperties" and value is not False:
            found.append("%s: additionalProperties other than false" % at)
    for name, sub in schema.get("properties", {}).items():
        found += unknown_keywords(sub, "%s.properties.%s" % (at, name))
    if "items" in schema:
        found += unknown_keywords(schema["items"], at + ".items")
    for i, sub in enumerate(schema.get("oneOf", ())):
        found += unknown_keywords(sub, "%s.oneOf[%d]" % (at, i))
    return found


def _same(a, b):
    # Plain JSON values: True must not equal 1 as it does in Python.
    return type(a) is type(b) and json.dumps(a) == json.dumps(b)


def problems(defs, schema, value, at="$"):
    """What is wrong with ``value`` as ``schema`` describes it, one line per problem, each naming where."""
    if "$ref" in schema:
        return problems(defs, defs[schema["$ref"][len("#/$defs/"):]], value, at)
    if "oneOf" in schema:
        each = [problems(defs, alternative, value, at) for alternative in schema["oneOf"]]
        matching = sum(1 for p in each if not p)
        if matching == 1:
            return []
        if matching > 1:
            return ["%s: matches %d alternatives, not one" % (at, matching)]
        return min(each, key=len)
    types = schema.get("type", [])
    types = [types] if isinstance(types, str) else types
    if types and not any(_TYPES[t](value) for t in types):
        return ["%s: %r is not %s" % (at, value, " or ".join(types))]
    if "const" in schema and not _same(value, schema["const"]):
        return ["%s: must be %s" % (at, json.dumps(schema["const"]))]
    if "enum" in schema and not any(_same(value, e) for e in schema["enum"]):
        return ["%s: %r is not one of %s" % (at, value, ", ".join(json.dumps(e) for e in schema["enum"]))]
    out = []
    if isinstance(value, dict) and ("properties" in schema or "required" in schema):
        declared = schema.get("properties", {})
        out += ["%s.%s: missing" % (at, name) for name in schema.get("required", ()) if name not in value]
        for name, sub in value.items():
            if name in declared:
                out += problems(defs, declared[name], sub, "%s.%s" % (at, name))
            elif schema.get("additionalProperties") is False:
                out.append("%s.%s: not in the contract" % (at, name))
    if isinstance(value, list) and "items" in schema:
        for i, item in enumerate(value):
            out += problems(defs, schema["items"], item, "%s[%d]" % (at, i))
    return out


def reply_problems(defs, operation, reply):
    """What is wrong with a reply of rst2.api.handle to a job of ``operation``: its envelope, then its result."""
    envelope = problems(defs, {"$ref": "#/$defs/Reply"}, reply)
    if envelope or reply.get("ok") is not True:
        return envelope
    return problems(defs, defs["Results"]["properties"][operation], reply["result"], "$.result")
