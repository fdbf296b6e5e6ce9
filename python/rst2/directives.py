"""``code-block`` and ``sourcecode``: the names Sphinx users write for ``code``.

docutils only knows ``code``; documents written for Sphinx would otherwise
fail with "Unknown directive type".  The aliases also accept Sphinx's common
options, mapped to docutils' where one exists, so such documents render
instead of erroring on an option.
"""

from docutils.parsers.rst import directives
from docutils.parsers.rst.directives.body import CodeBlock


class SphinxCodeBlock(CodeBlock):
    option_spec = dict(CodeBlock.option_spec)
    option_spec.update(
        {
            "linenos": directives.flag,
            "lineno-start": directives.nonnegative_int,
            "emphasize-lines": directives.unchanged,
            "caption": directives.unchanged,
            "dedent": directives.unchanged,
            "force": directives.flag,
        }
    )

    def run(self):
        if "linenos" in self.options or "lineno-start" in self.options:
            start = self.options.get("lineno-start", 1)
            self.options.setdefault("number-lines", start)
        for sphinx_only in ("linenos", "lineno-start", "emphasize-lines", "caption", "dedent", "force"):
            self.options.pop(sphinx_only, None)
        return super().run()


def register():
    directives.register_directive("code-block", SphinxCodeBlock)
    directives.register_directive("sourcecode", SphinxCodeBlock)
