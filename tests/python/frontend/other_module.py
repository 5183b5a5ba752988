"""@jit functions of another module: a kernel calling ``scale`` must resolve
``FACTOR`` and ``_twice`` in this module's globals, not the caller's."""

import tritium.language as tl
from tir_helpers import jit

FACTOR = tl.constexpr(3)


@jit
def _twice(x):
    return x + x


@jit
def scale(x):
    return _twice(x) * FACTOR
