"""rest2html's HTML: docutils' html4css1 writer with GitHub's changes."""

import os

from docutils.writers import html4css1

from .parser import STATE


class GithubTranslator(html4css1.HTMLTranslator):
    def depart_document(self, node):
        super().depart_document(node)
        # rest2html serves html_body without the <div class="document">
        # around it (and so without the document title's id).
        self.html_body[:] = self.html_body[1:-1]

    def visit_section(self, node):
        # No <div class="section">: a named anchor for each id instead,
        # which is what links into a README on GitHub reach.
        for id_ in node["ids"]:
            self.body.append('<a name="%s"></a>\n' % self.attval(id_))
        self.section_level += 1

    def depart_section(self, node):
        self.section_level -= 1

    def visit_literal_block(self, node):
        classes = node["classes"]
        if len(classes) >= 2 and classes[0] == "code":
            language = classes[1]
            del classes[:]
            self.body.append(self.starttag(node, "pre", lang=language))
        elif STATE.highlight is not None:
            # The last ``highlight`` of the document, as rest2html reads its
            # global once the whole document is parsed.
            self.body.append(self.starttag(node, "pre", lang=STATE.highlight))
        else:
            self.body.append(self.starttag(node, "pre"))

    def visit_doctest_block(self, node):
        self.body.append(self.starttag(node, "pre", lang="pycon"))

    def visit_literal(self, node):
        if node.get("rst2_kbd"):
            self.body.append("<kbd>")
        else:
            self.body.append(self.starttag(node, "code", suffix=""))

    def depart_literal(self, node):
        self.body.append("</kbd>" if node.get("rst2_kbd") else "</code>")

    def visit_table(self, node):
        self.context.append(self.compact_p)
        self.compact_p = True
        self.body.append(self.starttag(node, "table", CLASS=" ".join(["docutils", self.settings.table_style]).strip()))

    def visit_image(self, node):
        super().visit_image(node)
        if os.path.splitext(node["uri"])[1].lower() == ".svg":
            # An <img> rather than docutils' <object>, with every
            # attribute the node has a value for (uri as src).
            self.body.pop()
            atts = {("src" if name == "uri" else name): value for name, value in node.attributes.items() if value}
            self.body.append(self.starttag(node, "img", **atts))
