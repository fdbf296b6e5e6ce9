"""The findings of the rules that read the source (rst2.lint), on documents given as JSON on standard input.

Run natively by test/lint-corpus.test.ts on the real-document corpus and
docutils' own documentation, with every such rule on by default: the
findings are counted per document and rule, and printed as JSON.
"""

import collections
import json
import sys

from rst2 import rules
from rst2.fixes import problems

ENABLED = frozenset(code for code in rules.DEFAULTS if code in rules.LINT)


def main():
    documents = json.load(sys.stdin)["documents"]
    found = collections.Counter()
    for doc in documents:
        for item in problems(doc["text"], "docutils", ENABLED):
            found[(doc["name"], item["rule"])] += 1
    json.dump([{"document": name, "rule": rule, "count": count} for (name, rule), count in sorted(found.items())], sys.stdout)


if __name__ == "__main__":
    main()
