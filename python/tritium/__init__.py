"""Tritium: a compact GPU kernel compiler.

For now the package exposes the IR: parse its text form, verify it and run
passes on it::

    import tritium
    m = tritium.parse_module(open("examples/vector_add.tir").read())
    m.verify()
    m.run_passes("verify")
    print(m)
"""

from .errors import CompilationError
from ._C import Module, list_passes, parse_module, __version__

__all__ = ["CompilationError", "Module", "list_passes", "parse_module", "__version__"]
