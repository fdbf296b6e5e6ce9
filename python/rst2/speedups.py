"""Faster equivalents of docutils internals, installed once per interpreter.

Each does exactly what the code it replaces did, in the same order, so every
message stays the same, and the doctree too but for the one difference
named below; the conformance tests compare both with native docutils, which
runs without them (test/conformance.test.ts).
Measured inside Pyodide on a 1,000-line document (bench/documents.ts), a
check took 126 ms before and 79 ms after (``npm run bench:lsp``, docs/lsp.rst).

- **States built when entered.** docutils makes a new state machine for every
  nested block (a list item, a directive's content, a table cell) and builds
  all of its states up front: some fifteen, each compiling its table of
  transitions, where a block enters two or three. That was a fifth of a
  check. ``StateMachine.states`` becomes a mapping that builds a state on
  its first lookup and initializes it for the run in progress, as
  ``runtime_init`` would have at the run's start.
- **findall without nested generators.** ``Node.findall`` with a class (or no
  condition) recursed through one generator per level, so each node found
  passed through every level above it; transforms call it a dozen times on
  the whole doctree. The replacement walks the same children lists with a
  stack of their iterators: the same nodes in the same order, and a change
  a transform makes to the tree while it iterates is seen as before.
- **A lexer's class looked up once.** pygments' ``get_lexer_by_name`` scans
  every lexer's aliases on each call, and docutils calls it for every code
  block. The class found for a name (or that none exists) is remembered;
  each call still gets a new lexer, as before.
- **No highlighting where nothing is written.** A check publishes with the
  null writer, which writes nothing, yet docutils' ``code`` directive split
  every code block into Pygments' tokens. Inside ``code_unhighlighted()``
  a code *block*'s language is still looked up (an unknown one takes
  docutils' own path, as before) but its text stays one piece: the
  doctree's only difference. Pygments may change the text it is given (a
  leading U+FEFF dropped, a final newline added by some lexers), which in a
  literal block no message or name depends on. Inline ``:code:`` is
  highlighted as before: its text can make a title's name, and its nodes
  count against the substitution bound. A lexer that never ends on some
  input still stops a render at its deadline, but no longer a check.
"""

import contextlib

from docutils import nodes, statemachine
from docutils.parsers.rst import states
from docutils.parsers.rst.directives import body
from docutils.utils import code_analyzer


class LazyStates(dict):
    """State name -> state, each built on first lookup from the class registered for it."""

    def __init__(self, machine):
        super().__init__()
        self._machine = machine
        self._classes = {}
        # Set by the machine's first runtime_init: a state built after it
        # belongs to a run in progress and is initialized for it at once
        # (a later run initializes every built state again, as before).
        self.running = False

    def register(self, state_class):
        name = state_class.__name__
        if name in self:
            raise statemachine.DuplicateStateError(name)
        self._classes[name] = state_class

    def __contains__(self, name):
        return dict.__contains__(self, name) or name in self._classes

    def __missing__(self, name):
        state_class = self._classes.pop(name)  # KeyError for an unknown state, as before
        state = self[name] = state_class(self._machine, self._machine.debug)
        if self.running:
            state.runtime_init()
        return state


def _add_state(self, state_class):
    if not isinstance(self.states, LazyStates):
        lazy = LazyStates(self)
        lazy.update(self.states)
        self.states = lazy
    self.states.register(state_class)


def _runtime_init(original):
    def runtime_init(self):
        original(self)
        if isinstance(self.states, LazyStates):
            self.states.running = True

    return runtime_init


def _findall(node, cls):
    # The order of the recursive original: a node, then each child's
    # subtree; a node's children list is read only after the node was
    # yielded, and iterated live. ``cls`` None: every node.
    if cls is None or isinstance(node, cls):
        yield node
    stack = [iter(node.children)]
    while stack:
        for child in stack[-1]:
            if cls is None or isinstance(child, cls):
                yield child
            if child.children:
                stack.append(iter(child.children))
                break
        else:
            stack.pop()


def _fast_findall(self, cls):
    return _findall(self, cls)


def _superfast_findall(self):
    return _findall(self, None)


def _remembering_lexer_lookup(original):
    # Only found classes are kept, by the lowered name as pygments compares
    # names: a bounded table. A name not found is looked up again each time
    # (keeping its ClassNotFound would keep its traceback, and with it the
    # document being parsed, alive; and the names are the user's).
    classes = {}

    def get_lexer_by_name(alias, **options):
        key = alias.lower() if isinstance(alias, str) else None
        found = classes.get(key)
        if found is not None:
            return found(**options)
        lexer = original(alias, **options)
        if key is not None:
            classes[key] = type(lexer)
        return lexer

    return get_lexer_by_name


# The innermost publish's choice: "highlight", or "plain" inside
# code_unhighlighted(), which a code block's run turns into "drop" for its
# own lexer only.
_highlighting = ["highlight"]


@contextlib.contextmanager
def _highlighting_is(mode):
    _highlighting.append(mode)
    try:
        yield
    finally:
        _highlighting.pop()


def code_unhighlighted():
    """Code blocks published inside keep their text whole (for the null writer)."""
    return _highlighting_is("plain")


def _code_block_run(original):
    def run(self):
        if _highlighting[-1] != "plain":
            return original(self)
        with _highlighting_is("drop"):
            return original(self)

    return run


def _lexer_init(original):
    def __init__(self, *args, **kwargs):
        original(self, *args, **kwargs)
        if _highlighting[-1] == "drop":
            # After the lookup, so an unknown language takes docutils' path
            # as before; without a lexer, docutils yields the code as one
            # plain token.
            self.lexer = None

    return __init__


# (owner, attribute) -> docutils' own, kept by install() for disabled().
_originals = {}


def _patch(owner, name, value):
    _originals[(owner, name)] = getattr(owner, name)
    setattr(owner, name, value)


def install():
    """Patches docutils once per interpreter."""
    if _originals:
        return
    machine = statemachine.StateMachine
    _patch(machine, "add_state", _add_state)
    _patch(machine, "runtime_init", _runtime_init(machine.runtime_init))
    _patch(nodes.Node, "_fast_findall", _fast_findall)
    _patch(nodes.Node, "_superfast_findall", _superfast_findall)
    if code_analyzer.with_pygments:
        _patch(code_analyzer, "get_lexer_by_name", _remembering_lexer_lookup(code_analyzer.get_lexer_by_name))
    _patch(code_analyzer.Lexer, "__init__", _lexer_init(code_analyzer.Lexer.__init__))
    _patch(body.CodeBlock, "run", _code_block_run(body.CodeBlock.run))


@contextlib.contextmanager
def disabled():
    """docutils as it is without install(), for the tests that compare the two."""
    mine = {key: getattr(*key) for key in _originals}
    # docutils keeps finished nested state machines for reuse in a list on
    # the class, for every document: those built with lazy states must not
    # serve here, nor docutils' own serve after.
    cached = states.RSTState.nested_sm_cache
    states.RSTState.nested_sm_cache = []
    for (owner, name), value in _originals.items():
        setattr(owner, name, value)
    try:
        yield
    finally:
        for (owner, name), value in mine.items():
            setattr(owner, name, value)
        states.RSTState.nested_sm_cache = cached
