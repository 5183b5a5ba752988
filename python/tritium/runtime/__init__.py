"""The runtime: @jit and launching (jit.py), the on-disk cache (cache.py),
autotuning (autotuner.py) and the seam to a GPU backend (driver.py)."""

from .jit import JITFunction, KernelInterface, MockTensor, cdiv, jit, next_power_of_2
from .autotuner import Autotuner, Config, Heuristics, autotune, heuristics
from .driver import NoBackendError

__all__ = ["JITFunction", "KernelInterface", "MockTensor", "cdiv", "jit", "next_power_of_2",
           "Autotuner", "Config", "Heuristics", "autotune", "heuristics", "NoBackendError"]
