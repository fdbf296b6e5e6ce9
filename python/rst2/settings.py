"""docutils settings for documents nobody has vetted.

Every publish call in rst2 starts from ``untrusted()``: callers may add
presentation settings but can never switch these protections back on.
"""

import io

# Settings that close docutils' doors to the host: no file or URL
# inclusion, no raw HTML/LaTeX, no configuration files, and no image files
# read (images stay links).  ``halt_level=5`` keeps a broken document from
# aborting the render; problems are shown in the output and by ``check``.
PROTECTIONS = {
    "file_insertion_enabled": False,
    "raw_enabled": False,
    "_disable_config": True,
    "image_loading": "link",
    "halt_level": 5,
    "exit_status_level": 5,
    "traceback": True,
    "input_encoding": "unicode",
    # Written into <meta charset> and LaTeX's inputenc option, so it must be
    # a real encoding; the text itself is taken from the writer's parts.
    "output_encoding": "utf-8",
}


def untrusted(**presentation):
    """Settings for one publish call: presentation first, protections last."""
    settings = dict(presentation)
    # A fresh sink per call: docutils writes warnings to stderr by default,
    # which in a worker thread would be noise in the service's log.
    settings["warning_stream"] = io.StringIO()
    settings.update(PROTECTIONS)
    return settings
