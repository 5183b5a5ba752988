"""The HIP driver: runtime/native.py's ``NativeDriver`` over libamdhip64
(``tritium._C.runtime.HipDriver``, runtime/HipDriver.h), loaded from
``TRITIUM_LIBHIP_PATH`` or the loader's search path.

The current device is torch's (ROCm torch names its devices "cuda"), else
HIP's; ``make_launcher`` loads the kernel's code object (``hsaco``). AMD
kernels keep their LDS in the code object, so a launch passes no dynamic
shared memory. No AMD GPU has run this: the launch path is checked against
the fake runtime of tests/fakehip (docs/amdgpu.md).
"""

from .. import knobs
from .native import NativeDriver

__all__ = ["HipDriver"]


class HipDriver(NativeDriver):
    """The AMD GPU driver; ``libhip_path`` overrides TRITIUM_LIBHIP_PATH (a
    file, or a directory holding libamdhip64.so). ``properties()`` gives
    ``arch`` ("gfx90a"), ``max_shared_mem`` (LDS per workgroup),
    ``warpSize``, ``multiprocessor_count``, ..."""

    _native_class = "HipDriver"
    _library = "libamdhip64.so"

    def __init__(self, libhip_path=None):
        super().__init__(libhip_path)

    def _default_path(self):
        return knobs.amd.libhip_path

    def _image(self, kernel):
        return kernel.asm.get("hsaco")

    def _dynamic_shared(self, md):
        return 0  # the LDS is static (hip backend, llir stage)

    def get_current_target(self):
        from ..compiler.compiler import parse_target
        device = self.get_current_device()
        target = self._targets.get(device)
        if target is None:
            # The target description decides what the architecture is; one
            # Tritium cannot compile for (gfx942) raises its ValueError here.
            target = self._targets[device] = parse_target("hip:" + self.properties(device)["arch"])
        return target
