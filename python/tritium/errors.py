"""Errors that Tritium reports to its users."""

import sys


class TritonError(Exception):
    """The base of the errors a kernel's compilation or run reports, as in
    Triton: CompilationError (and InterpreterError, its kind found while
    interpreting) and OutOfResources. Driver failures (CudaError) are
    RuntimeErrors, as Triton's are."""


class CompilationError(TritonError):
    """A kernel or IR text that Tritium cannot compile.

    ``message`` is what went wrong; ``file``, ``line`` and ``col`` say where
    (1-based; all None when the location is unknown). ``str(err)`` is the
    full report: ``file:line:col: error: message``, then the source line
    and a caret under the column when the source text is known.
    """

    def __init__(self, message, file=None, line=None, col=None, detail=None):
        super().__init__(message)
        self.message, self.detail = message, detail
        self.file, self.line, self.col = file, line, col

    @property
    def error_message(self):
        """Triton's name for ``message``: what went wrong, without the location."""
        return self.message

    def __str__(self):
        if self.detail:
            return self.detail
        if self.line is not None:
            return f"{self.file}:{self.line}:{self.col}: {self.message}"
        return self.message


def recursion_limit_message():
    """What a kernel is told when compiling or interpreting it reaches
    Python's recursion limit (code generation and the ``ast`` module
    recurse as deep as the kernel's expressions nest)."""
    return (f"the code is nested too deeply, or calls itself without end: Python's recursion limit "
            f"({sys.getrecursionlimit()}) was reached; split long expressions into several statements")


class OutOfResources(TritonError):
    """A kernel needs more of a device resource than the device has:
    ``name`` ("shared memory", "threads"), ``required`` and ``limit`` (in
    bytes or threads). Raised when the kernel is first loaded, as in Triton;
    smaller blocks or fewer ``num_stages`` may help."""

    def __init__(self, required, limit, name, message=None):
        self.required, self.limit, self.name = required, limit, name
        self.message = message or (f"out of resource: {name}, Required: {required}, "
                                   f"Hardware limit: {limit}")
        super().__init__(self.message)

    def __str__(self):
        return self.message + ". Reducing block sizes or `num_stages` may help."

    def __reduce__(self):
        return (type(self), (self.required, self.limit, self.name, self.message))


class BoundsError(IndexError):
    """A kernel compiled with bounds_check accessed memory outside the tensor
    its pointer came from (runtime/bounds.py); the access was not made.
    ``kernel``, ``file``, ``line``, ``col``, ``kind`` ("load", "store",
    "atomic"), ``argument``, ``offset`` and ``extent`` (bytes) and
    ``program`` (the program ids) say which."""

    def __init__(self, message, **where):
        super().__init__(message)
        self.__dict__.update(where)


class CudaError(RuntimeError):
    """A CUDA Driver API call that failed, or a driver that cannot be loaded.

    ``name`` is the driver's name of the error (``"CUDA_ERROR_INVALID_VALUE"``;
    None when there is no driver error, e.g. libcuda is missing), ``code`` its
    number, ``description`` the driver's text for it and ``action`` what
    Tritium was doing (``"loading kernel 'add_kernel'"``).
    """

    def __init__(self, message, name=None, code=None, description=None, action=None):
        super().__init__(message)
        self.name, self.code, self.description, self.action = name, code, description, action

    def __reduce__(self):
        return (type(self), (str(self), self.name, self.code, self.description, self.action))


class HipError(CudaError):
    """A HIP runtime call that failed, or a HIP runtime that cannot be loaded:
    ``name`` is HIP's name of the error (``"hipErrorInvalidValue"``), the
    other fields as for CudaError (of which it is a kind, so code that
    catches driver errors catches both)."""
