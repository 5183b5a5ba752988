"""``tl.extra.hip``: AMD-specific helpers, as Triton's ``triton.language.extra.hip``:
``libdevice`` (the same module as ``tl.extra.libdevice``: NVIDIA's names, on a
hip target AMD's functions, docs/amdgpu.md), ``num_warps()`` (the launch's
wavefronts) and ``num_threads()`` (its work-items, 64 per wavefront on CDNA).
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
