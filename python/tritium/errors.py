"""Errors that Tritium reports to its users."""


class CompilationError(Exception):
    """A kernel or IR text that Tritium cannot compile.

    ``message`` is what went wrong; ``file``, ``line`` and ``col`` say where
    (1-based; all None when the location is unknown). ``str(err)`` is the
    full report: ``file:line:col: error: message``, then the source line
    and a caret under the column when the source text is known.
    """

    def __init__(self, message, file=None, line=None, col=None, detail=None):
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.detail = detail

    def __str__(self):
        if self.detail:
            return self.detail
        if self.line is not None:
            return f"{self.file}:{self.line}:{self.col}: {self.message}"
        return self.message
