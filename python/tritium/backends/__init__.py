"""Compile stages of the GPU targets, registered with the compiler on import."""

from . import cuda  # noqa: F401  (registers "cuda")
from . import hip  # noqa: F401  (registers "hip")
