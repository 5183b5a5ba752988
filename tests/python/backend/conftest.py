"""The backend tests compile the tutorial kernels of tests/python/kernels
(which import ``_jit`` from there and, without the runtime, ``tir_helpers``
from tests/python/frontend); they need tritium._C.frontend and
tritium._C.nvptx, else they are not collected."""

import os
import sys

import tritium._C

HERE = os.path.dirname(os.path.abspath(__file__))
for sub in ("frontend", "kernels"):
    path = os.path.join(HERE, "..", sub)
    if path not in sys.path:
        sys.path.insert(0, path)

_needs = ("frontend", "nvptx")
collect_ignore_glob = [] if all(hasattr(tritium._C, m) for m in _needs) else ["*.py", "gpu/*.py"]
