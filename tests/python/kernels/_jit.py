"""The @jit the tutorial kernels use: the runtime's when it is there, else
the tests' stand-in (both carry what codegen.ast_to_ir reads)."""

try:
    from tritium import jit  # noqa: F401
except ImportError:
    from tir_helpers import jit  # noqa: F401
