"""``tl.extra.hip``: AMD-specific helpers, as Triton's ``triton.language.extra.hip``.

``libdevice`` is the same module as ``tl.extra.libdevice``: its functions
keep NVIDIA's names, and a kernel compiled for a hip target gets them from
AMD's libraries (ocml's float functions, LLVM's integer operations; see
codegen/amdgpu/AMDGPULibdevice.cpp). ``num_warps()`` is the launch's
number of wavefronts and ``num_threads()`` its work-items (64 per
wavefront on CDNA).
"""

from .. import core as _core
from . import libdevice  # noqa: F401

__all__ = ["libdevice", "num_warps", "num_threads"]


@_core.builtin
def num_warps():
    """The number of wavefronts of the launch (a constexpr)."""
    return _core.constexpr(int(_core._option("num_warps", 4)))


@_core.builtin
def num_threads():
    """The number of work-items of a program on a 64-lane target (a constexpr)."""
    return _core.constexpr(64 * int(_core._option("num_warps", 4)))
