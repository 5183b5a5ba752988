"""``tl.extra.cuda``: CUDA-specific helpers.

Supported: ``libdevice`` (the same module as ``tl.extra.libdevice``),
``num_warps()`` and ``num_threads()`` (compile-time constants from the
launch options), and ``gdc_wait()``/``gdc_launch_dependents()``, which are
no-ops because Tritium does not use programmatic dependent launch (kernels
on one stream run one after the other, which is what gdc_wait waits for).
``globaltimer``, ``smid`` and the custom fp8 conversions need inline
assembly, which Tritium does not have; they raise a clear error.
"""

from .. import core as _core
from . import libdevice  # noqa: F401

__all__ = ["libdevice", "num_warps", "num_threads", "gdc_wait", "gdc_launch_dependents", "globaltimer", "smid"]


@_core.builtin
def num_warps():
    """The number of warps of the launch (a constexpr)."""
    return _core.constexpr(int(_core._option("num_warps", 4)))


@_core.builtin
def num_threads():
    """The number of threads of a program (a constexpr)."""
    return _core.constexpr(32 * int(_core._option("num_warps", 4)))


@_core.builtin
def gdc_wait():
    """Waits for the previous kernel's results (a no-op without PDL)."""
    return None


@_core.builtin
def gdc_launch_dependents():
    """Lets the next kernel start early (a no-op without PDL)."""
    return None


def _unsupported(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(f"tl.extra.cuda.{name} needs inline assembly, which Tritium does not support")

    fn.__name__ = name
    return _core.builtin(fn)


globaltimer = _unsupported("globaltimer")
smid = _unsupported("smid")
convert_custom_float8_sm70 = _unsupported("convert_custom_float8_sm70")
convert_custom_float8_sm80 = _unsupported("convert_custom_float8_sm80")
