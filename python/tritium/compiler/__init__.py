"""The compiler: the code generator (codegen.py, AST -> Tritium IR) and
compile() with its stages (compiler.py)."""

from . import errors
from .compiler import ASTSource, CompiledKernel, GPUTarget, IRSource, compile, parse_target

# The GPU targets register their stages with compile().
from .. import backends as _backends  # noqa: E402,F401

__all__ = ["errors", "ASTSource", "CompiledKernel", "GPUTarget", "IRSource", "compile", "parse_target"]
