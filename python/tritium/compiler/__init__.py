"""The compiler: the code generator (codegen.py, AST -> Tritium IR) and
compile() with its stages (compiler.py)."""

from . import errors
from .compiler import ASTSource, CompiledKernel, GPUTarget, IRSource, compile, parse_target

__all__ = ["errors", "ASTSource", "CompiledKernel", "GPUTarget", "IRSource", "compile", "parse_target"]
