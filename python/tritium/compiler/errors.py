"""The compilation errors by kind, under Triton's names: a failed
``tl.static_assert`` is a CompileTimeAssertionFailure, Python that a kernel
cannot contain (lambda, break, ...) an UnsupportedLanguageConstruct; both
are CompilationErrors."""

from ..errors import CompilationError

__all__ = ["CompilationError", "CompileTimeAssertionFailure", "UnsupportedLanguageConstruct"]


class CompileTimeAssertionFailure(CompilationError):
    """A ``tl.static_assert`` whose condition is false."""


class UnsupportedLanguageConstruct(CompilationError):
    """Python syntax that @jit code does not support."""
