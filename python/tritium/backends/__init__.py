"""Compile stages of the GPU targets, registered with the compiler on import.

``backends`` is Triton's table of what is installed: "nvidia" and "amd",
each a ``Backend(compiler, driver)`` of classes (torch._inductor reads it to
learn whether Triton can serve a device)."""

import collections

from . import cuda  # noqa: F401  (registers "cuda")
from . import hip  # noqa: F401  (registers "hip")
from . import cpu  # noqa: F401  (registers "cpu")

Backend = collections.namedtuple("Backend", ["compiler", "driver"])


def __getattr__(name):
    # Built on first use: the drivers live in the runtime, which imports the
    # compiler (and so this package) while it loads.
    if name == "backends":
        from ..runtime.cuda import CudaDriver
        from ..runtime.hip import HipDriver
        table = {"nvidia": Backend(cuda.CudaBackend, CudaDriver),
                 "amd": Backend(hip.HipBackend, HipDriver)}
        globals()["backends"] = table
        return table
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
