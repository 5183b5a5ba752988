"""The launch side of the bounds-checking mode (the option bounds_check:
TRITIUM_BOUNDS_CHECK=1, @jit(bounds_check=True); docs/knobs.md).

The pass check-bounds (codegen/transforms/CheckBounds.cpp) gives the kernel
one hidden i64 parameter per pointer parameter, the bytes from the pointer
passed to the end of its tensor, and a pointer to a five-word report
(compiler/descriptors.py's bounds_parameters, which the compiled kernel's
signature ends with). A
launch passes them after the kernel's own arguments, then reads the report
back (it waits for the kernel) and raises BoundsError for the first access
the kernel found outside its tensor, which it did not make.
"""

import struct

from .. import _C
from ..errors import BoundsError
from ..language._types import str_to_ty
from . import driver as _driver

_KINDS = ("load", "store", "atomic")
_REPORT_BYTES = 5 * 8


def extent_bytes(x):
    """The bytes from a tensor's first element to the end of its last
    (_C.runtime.tensor_span's elements); an object without them is not bounded."""
    span = _C.runtime.tensor_span(x)
    try:
        return 1 << 62 if span is None else span * x.element_size()
    except (AttributeError, TypeError):
        return 1 << 62


class BoundsChecking:
    """One compiled kernel's checked launches: its launch parameters
    (names and types, descriptors expanded: the kernel's parameters, whose
    numbers the report gives) and the extents and report of the launch
    under way."""

    def __init__(self, kernel, names, types):
        self.kernel, self.names, self.types = kernel, names, types
        self.report, self.extents = None, {}

    def launch_args(self, args):
        """The kernel's arguments, then each pointer's extent and a zeroed
        report."""
        native = _driver.active.get().native_driver
        self.report = native.mem_alloc(_REPORT_BYTES, _driver.active.get().get_current_device())
        native.memcpy_htod(self.report, bytes(_REPORT_BYTES))
        self.extents = {i: extent_bytes(a) for i, (a, ty) in enumerate(zip(args, self.types))
                        if ty.startswith("*")}
        return (*args, *self.extents.values(), self.report)

    def check(self):
        """Waits for the launch, reads its report, raises BoundsError."""
        words = self._read_report()
        if words[0]:
            raise self.error(*words)

    def _read_report(self):
        native = _driver.active.get().native_driver
        native.synchronize(_driver.active.get().get_current_device())
        report, self.report = self.report, None
        try:
            return struct.unpack("<5q", native.memcpy_dtoh(report, _REPORT_BYTES))
        finally:
            native.mem_free(report)

    def error(self, site, offset, *program):
        """The BoundsError of a report (its words)."""
        kind, other_file = _KINDS[site >> 1 & 3], site >> 3 & 1
        arg, col, line = site >> 4 & 0xFFF, site >> 16 & 0xFFF, site >> 28
        name, ty = self.names[arg], self.types[arg].lstrip("*k")
        code = getattr(getattr(getattr(self.kernel, "src", None), "fn", None), "fn", None)
        file = code.__code__.co_filename if code is not None else "<kernel>"
        where = f"line {line} of a function inlined from another file" if other_file else f"{file}:{line}:{col}"
        extent, size = self.extents.get(arg, -1), max(str_to_ty(ty).primitive_bitwidth // 8, 1)
        return BoundsError(
            f"{self.kernel.name}: the {kind} at {where} through argument '{name}' reaches byte offset "
            f"{offset} (element {offset // size}) outside its tensor of {extent} bytes ({extent // size} "
            f"elements of {ty}), in program {tuple(program)}; the access was not made",
            kernel=self.kernel.name, file=None if other_file else file, line=line, col=col, kind=kind,
            argument=name, offset=offset, extent=extent, program=tuple(program))
