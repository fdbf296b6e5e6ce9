"""What finding and applying fixes may cost, counted in characters parsed.

A fix is found by trials (a rule parses its block again with a change
made) and by comparing names; a document is fixed by checking it again
after each pass. Left unbounded, each of these grows with the document in
a way its render does not: two 7,900-character paragraphs each with an
unmatched ``*`` cost 64 parses of 7,900 characters, and four references
with 1,100-character names cost a quadratic edit distance against every
target. So one ``Budget`` is given to everything one request does (one
``check``, or one ``fix_document`` with all of its checks), in one unit:
a character parsed. A parse costs its length plus ``PARSE_OVERHEAD`` (the
fixed cost of one docutils run, about 0.4 ms natively, as much as 150
characters of text); ``CELLS_PER_CHARACTER`` edit-distance cells cost as
much as a character parsed. Past the budget, problems come without a fix
and fixing stops with the passes made so far, which were each checked.

The sizes make ``check`` cost at most about ``1 + TRIAL_RATIO`` parses of a
large document, and ``fix`` at most about ``FIX_RATIO`` such checks; for a
small document a floor allows the trials that its short paragraphs need
(docs/security.rst has the worst ratios measured).
"""

# The fixed cost of one parse, in characters. Natively a parse of ten
# characters takes 0.41 ms and one of a thousand 2.54 ms (200 characters'
# worth), but in Pyodide a small trial costs about what a small render does
# (bench:fix-cost's fuzzer: forty trials of a short paragraph made a check
# 5.5 renders at 200): a thousand keeps a small document's check near two.
PARSE_OVERHEAD = 1000

# Edit-distance cells worth one character parsed (a cell is a few Python
# operations; docutils spends about 2.7 us a character).
CELLS_PER_CHARACTER = 20

# A check's trials may parse this many times the document...
TRIAL_RATIO = 2
# ...and at least this much, about twice what a render of a small document
# costs besides its parse (the writer, the request): 16 trials of a
# 300-character paragraph. bench:fix-cost's fuzzer found a 0.2 KB document of
# forty unmatched markers whose check cost 12 renders with 32,000.
TRIAL_FLOOR = 8_000

# One fix_document (its checks, their trials, its single-fix retries) may
# cost this many times one check of the document.
FIX_RATIO = 2


def parse_cost(text):
    return len(text) + PARSE_OVERHEAD


def for_check(text):
    """What one check of ``text`` may spend on its fixes."""
    return Budget(max(TRIAL_FLOOR, TRIAL_RATIO * parse_cost(text)))


def for_fix(text):
    """What one fix_document of ``text`` may spend, its checks included."""
    return Budget(FIX_RATIO * (parse_cost(text) + for_check(text).left))


class Budget:
    def __init__(self, units, parent=None):
        self.left = units
        self.parent = parent

    def part(self, units):
        """A budget of at most ``units`` that also spends from this one (one check's share of a fix)."""
        return Budget(units, self)

    def spend(self, units):
        """Take ``units`` if that many are left: whether they were.

        A refused spend takes nothing, so what is left stays the same
        whichever order the rules ask in; the answer depends only on the
        requests made, never on timing.
        """
        if units > self.left or (self.parent is not None and not self.parent.spend(units)):
            return False
        self.left -= units
        return True
