"""Plain docutils baseline: the html5 writer with rst2's protections, nothing else of rst2.

What any service embedding docutils in-process would run: publish_string
with the settings of python/rst2/settings.py (PROTECTIONS) and docutils'
defaults for the rest (its own stylesheets, long highlighting classes);
problem reports go to a buffer, as rst2's do, not to stderr. Runs under
whichever docutils is on the path (0.23 from the bundle, 0.19 from
bookworm; a setting the older release does not know is ignored by it),
natively or inside Pyodide (bench/html.ts imports it there).

usage: python3 plain_render.py FILE ITERATIONS  ->  {"docutils": version, "times": [ms per render]}
"""

import io
import json
import sys
import time

import docutils
from docutils.core import publish_string

from rst2.settings import PROTECTIONS


def render(source):
    return publish_string(source, writer_name="html5", settings_overrides=dict(PROTECTIONS, warning_stream=io.StringIO()))


def times(source, runs):
    """ms per render of ``source`` (each made distinct), after one warm-up render."""
    render(source)  # imports, lexers
    measured = []
    for i in range(runs):
        started = time.perf_counter()
        render(source + "\n.. bench %d\n" % i)
        measured.append((time.perf_counter() - started) * 1000)
    return measured


if __name__ == "__main__":
    text = open(sys.argv[1], encoding="utf-8").read()
    print(json.dumps({"docutils": docutils.__version__, "times": times(text, int(sys.argv[2]))}))
