"""Tritium: a compact GPU kernel compiler.

Kernels are Python functions under ``@tritium.jit`` (runtime/, compiler/);
the IR beneath them can also be parsed from text, verified and run through
passes directly::

    import tritium
    m = tritium.parse_module(open("examples/vector_add.tir").read())
    m.verify()
    m.run_passes("verify")
    print(m)
"""

from .errors import BoundsError, CompilationError, CudaError, HipError, OutOfResources, TritonError
from ._C import Module, list_passes, parse_module, __version__ as tritium_version

# The Triton API level Tritium implements: programs written for Triton check
# `triton.__version__` (e.g. for >= 3.0). Tritium's own version is
# `tritium_version`; the compile cache keys on that one (compiler/cache.py).
__version__ = "3.6.0"

# The runtime: @jit, launching, compile(), autotuning (docs/runtime.md).
from . import knobs, runtime
from .compiler import compile
from . import backends  # noqa: F401  (the GPU targets register their stages with compile())
from .runtime import (Config, JITFunction, KernelInterface, MockTensor, NoBackendError, autotune,
                      cdiv, heuristics, jit, next_power_of_2)
from .runtime.jit import TensorWrapper, reinterpret
from .runtime._allocation import set_allocator
from . import _libtriton  # noqa: F401  (tritium._C.libtriton: the tutorials' cuBLAS)

__all__ = ["BoundsError", "CompilationError", "CudaError", "HipError", "OutOfResources", "TritonError", "Module",
           "list_passes", "parse_module", "__version__", "tritium_version",
           "Config", "JITFunction", "KernelInterface", "MockTensor", "NoBackendError",
           "autotune", "cdiv", "compile", "heuristics", "jit", "knobs", "next_power_of_2",
           "runtime", "testing", "TensorWrapper", "reinterpret", "InterpreterError", "set_allocator",
           "tools"]


def __getattr__(name):
    # The interpreter and tritium.testing (numpy: 60-80 ms of a cold start)
    # load only when asked for. `import triton; triton.language.sum` works in
    # Triton: load on first touch.
    if name in ("language", "testing", "tools"):
        import importlib
        return importlib.import_module("." + name, __name__)
    if name == "InterpreterError":
        from .runtime.interpreter import InterpreterError
        return InterpreterError
    raise AttributeError(f"module 'tritium' has no attribute {name!r}")
