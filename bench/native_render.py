"""Native CPython baseline: the same rst2 code and settings the workers run.

usage: python3 native_render.py FILE ITERATIONS  ->  JSON list of ms per render
"""

import json
import sys
import time

from rst2.render import render_html

source = open(sys.argv[1], encoding="utf-8").read()
times = []
render_html(source)  # warm-up: imports, lexers
for i in range(int(sys.argv[2])):
    started = time.perf_counter()
    render_html(source + "\n.. bench %d\n" % i)
    times.append((time.perf_counter() - started) * 1000)
print(json.dumps(times))
