"""``tl.extra``: backend extras. ``libdevice`` is NVIDIA's device library;
``cuda`` holds the few CUDA-specific helpers Tritium supports."""

from . import cuda, libdevice

__all__ = ["cuda", "libdevice"]
