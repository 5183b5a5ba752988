"""The errors of running kernels, where Triton's code imports them from:
OutOfResources, and InterpreterError (loaded with the interpreter, on first
use)."""

from ..errors import OutOfResources, TritonError

__all__ = ["InterpreterError", "OutOfResources", "TritonError"]


def __getattr__(name):
    if name == "InterpreterError":
        from .interpreter import InterpreterError
        return InterpreterError
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
