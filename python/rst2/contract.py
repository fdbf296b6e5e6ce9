"""The worker contract (worker.schema.json, beside this file), as Python reads it.

The TypeScript pool and this package agree on a job, its reply, the dialect
names, the codes of a failure and the paths inside Pyodide through that one
file: TypeScript's types are generated from it, and Python takes its lists
from it here rather than spelling them again. python/tests/test_contract.py
checks real replies against it.
"""

import json
import os

FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "worker.schema.json")

with open(FILE, encoding="utf-8") as _file:
    SCHEMA = json.load(_file)

DEFS = SCHEMA["$defs"]

#: The dialect names, in the order the API lists them.
DIALECTS = tuple(DEFS["Dialect"]["enum"])

#: The codes a failure may carry: document faults of the error catalogue, and ``internal``.
FAILURE_CODES = frozenset(DEFS["FailureCode"]["enum"])

#: Where the pool lays out files in Pyodide (python, styles, scripts_table).
PATHS = {name: spec["const"] for name, spec in DEFS["PyodidePaths"]["properties"].items()}
