"""The cpu driver: runtime/native.py's ``NativeDriver`` over the process
itself (``tritium._C.runtime.CpuDriver``, runtime/CpuDriver.h): a kernel's
object is linked in with LLVM's JIT, and a launch runs its programs on the
host's threads (TRITIUM_CPU_THREADS of them at most) and returns when they
are done. It is active where TRITIUM_DEFAULT_BACKEND=cpu, and runs the
launches whose tensors are all torch CPU tensors or numpy arrays where no
GPU driver is active. docs/cpu.md tells what differs from a GPU.
"""

from .. import knobs
from .native import NativeDriver

__all__ = ["CpuDriver"]


class CpuDriver(NativeDriver):
    """The host CPU as a device; ``properties()`` gives ``arch`` (LLVM's name
    of the host processor) and ``num_threads``."""

    _library = "the process"
    #: Takes the launches of host tensors where no GPU driver is active
    #: (driver.host_driver).
    runs_on_host = True

    @property
    def native_driver(self):
        """``_C.runtime.CpuDriver``, which loads no library (no path)."""
        if self._lib is None:
            from .. import _C
            self._lib = _C.runtime.CpuDriver()
        return self._lib

    def is_active(self):
        return knobs.runtime.default_backend.partition(":")[0].strip().lower() == "cpu"

    def _image(self, kernel):
        return kernel.asm.get("obj")

    def get_current_device(self):
        return 0

    def get_current_stream(self, device=None):
        return 0

    def set_current_device(self, device):
        self.native_driver.set_current_device(device)

    def get_current_target(self):
        from ..compiler.compiler import parse_target
        target = self._targets.get(0)
        if target is None:
            # The processor's name keys the cache: an object built for this
            # host's vector units may not run on another.
            target = self._targets[0] = parse_target("cpu:" + self.properties(0)["arch"])
        return target

    def get_active_torch_device(self):
        import torch
        return torch.device("cpu")

    def get_device_interface(self):
        import torch
        return torch.cpu

    def _flush_cache(self, device, stream):
        pass  # nothing of a GPU's L2 to flush; the host's caches stay warm
