"""``tl.extra.cuda``: CUDA-specific helpers (docs/language.md says what each
compiles to). The custom fp8 conversions are not implemented: they raise a
clear error."""

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
    """Waits until the kernels this one depends on (launched before it on its
    stream) have finished and their writes are visible; no memory access
    moves across it. Needed before reading their results in a kernel
    launched with ``launch_pdl=True``."""
    _core._sem().gdc_wait()


@_core.builtin
def gdc_launch_dependents():
    """Lets the kernel launched after this one with ``launch_pdl=True`` start
    once every program has called it (or finished); orders no memory."""
    _core._sem().gdc_launch_dependents()


@_core.builtin
def globaltimer():
    """The GPU's global nanosecond timer (int64, PTX %globaltimer)."""
    return _core.inline_asm_elementwise("mov.u64 $0, %globaltimer;", "=l", [], dtype=_core.int64, is_pure=False,
                                        pack=1)


@_core.builtin
def smid():
    """The index of the multiprocessor running this program (int32, PTX %smid)."""
    return _core.inline_asm_elementwise("mov.u32 $0, %smid;", "=r", [], dtype=_core.int32, is_pure=True, pack=1)


def _unsupported(name):
    def fn(*args, **kwargs):
        raise NotImplementedError(f"tl.extra.cuda.{name} needs packed inline assembly (pack > 1), which Tritium "
                                  "does not support yet")
    return _core._generated_builtin(name, None, fn, method=False)


convert_custom_float8_sm70 = _unsupported("convert_custom_float8_sm70")
convert_custom_float8_sm80 = _unsupported("convert_custom_float8_sm80")
