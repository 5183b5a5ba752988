"""The runtime: @jit and launching (jit.py), the on-disk cache (cache.py),
autotuning (autotuner.py), the seam to a GPU backend (driver.py) and the
CUDA and HIP drivers behind it (cuda.py, hip.py, over native.py)."""

from .jit import JITFunction, KernelInterface, MockTensor, cdiv, jit, next_power_of_2
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics
from .driver import NoBackendError
from . import driver as _driver
from .cuda import CudaDriver
from .hip import HipDriver
from .cpu import CpuDriver

# The first that loads its library and reports a device becomes active (an
# NVIDIA machine has no HIP runtime, an AMD one no libcuda); with neither,
# the NullDriver compiles for TRITIUM_DEFAULT_BACKEND, unless that is "cpu",
# whose driver runs kernels on the host's threads.
_driver.register(CudaDriver())
_driver.register(HipDriver())
_driver.register(CpuDriver())

__all__ = ["JITFunction", "KernelInterface", "MockTensor", "cdiv", "jit", "next_power_of_2",
           "Autotuner", "Config", "Heuristics", "autotune", "heuristics", "NoBackendError",
           "CudaDriver", "HipDriver", "CpuDriver"]
