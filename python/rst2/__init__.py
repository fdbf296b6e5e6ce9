"""rst2's Python side: docutils configured for untrusted input.

Runs inside Pyodide (see src/engines/python/worker.ts) and, for the tests
in python/tests, under any CPython that has docutils 0.19 and Pygments.
"""
