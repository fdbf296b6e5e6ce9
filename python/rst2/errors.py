"""The one exception the TypeScript side turns into a client error (422)."""


class DocumentError(Exception):
    """The document itself cannot be rendered; ``code`` is machine-readable."""

    def __init__(self, code, message):
        super().__init__(message)
        self.code = code
        self.message = message
