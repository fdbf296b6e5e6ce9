"""What a project tells ``check`` beyond the document: the names it defines
elsewhere (declared.py), the rules it chose, and, from its Sphinx
``conf.py``, read but never run (sphinx_conf.py)."""
