"""The CUDA driver: runtime/native.py's ``NativeDriver`` over libcuda
(``tritium._C.runtime.Driver``, runtime/CudaDriver.h), loaded from
``TRITIUM_LIBCUDA_PATH`` or the loader's search path.

Kernels run in the primary context of the current device (the device of
the calling thread's current context when torch is not imported);
``make_launcher`` loads the kernel's cubin, or its PTX through the driver's
JIT.
"""

from .. import knobs
from .native import NativeDriver

__all__ = ["CudaDriver"]


class CudaDriver(NativeDriver):
    """The NVIDIA GPU driver; ``libcuda_path`` overrides TRITIUM_LIBCUDA_PATH
    (a file, or a directory holding libcuda.so.1). ``properties()`` gives
    ``max_shared_mem`` (the opt-in limit per block), ``multiprocessor_count``,
    ``major``, ``minor``, ..."""

    _native_class = "Driver"
    _library = "libcuda.so.1"

    def __init__(self, libcuda_path=None):
        super().__init__(libcuda_path)

    def _default_path(self):
        return knobs.nvidia.libcuda_path

    #: Loads PTX through the driver's JIT (backends/cuda.py leaves small
    #: kernels' cubins to it).
    jits_ptx = True

    def _image(self, kernel):
        return kernel.asm.get("cubin") or kernel.asm.get("ptx")

    def get_current_target(self):
        from ..compiler.compiler import GPUTarget, parse_target
        if knobs.nvidia.arch:  # read each time: a test may set it
            return parse_target("cuda:" + knobs.nvidia.arch)
        device = self.get_current_device()
        target = self._targets.get(device)
        if target is None:
            p = self.properties(device)
            arch = p["major"] * 10 + p["minor"]
            # An H100/H200 gets sm_90a, its wgmma (TRITIUM_CUDA_ARCH=90: the
            # portable sm_90).
            target = GPUTarget("cuda", arch, 32, "sm_90a" if arch == 90 else None)
            self._targets[device] = target
        return target
