"""The runtime: @jit and launching (jit.py), the on-disk cache (cache.py),
autotuning (autotuner.py), the seam to a GPU backend (driver.py) and the
CUDA driver behind it (cuda.py)."""

from .jit import JITFunction, KernelInterface, MockTensor, cdiv, jit, next_power_of_2
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics
from .driver import NoBackendError
from . import driver as _driver
from .cuda import CudaDriver

# Active when libcuda loads and reports a device; else the NullDriver stays.
_driver.register(CudaDriver())

__all__ = ["JITFunction", "KernelInterface", "MockTensor", "cdiv", "jit", "next_power_of_2",
           "Autotuner", "Config", "Heuristics", "autotune", "heuristics", "NoBackendError"]
