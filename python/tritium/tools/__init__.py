"""Host-side tools (``triton.tools``): tensor descriptors."""

from . import tensor_descriptor  # noqa: F401  (tritium.tools.tensor_descriptor without its own import)
