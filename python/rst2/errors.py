"""The one exception the TypeScript side turns into a client error (422)."""

from .contract import FAILURE_CODES


class DocumentError(Exception):
    """The document itself cannot be rendered; ``code`` is machine-readable.

    Only a code of the worker contract (contract.FAILURE_CODES) can be
    raised: another would reach the TypeScript side as a broken reply, so it
    fails here, where its traceback shows who raised it.
    """

    def __init__(self, code, message):
        if code not in FAILURE_CODES or code == "internal":
            raise ValueError("DocumentError code %r is not a document fault of worker.schema.json" % (code,))
        super().__init__(message)
        self.code = code
        self.message = message
