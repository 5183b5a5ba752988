"""``tl.extra``: backend extras. ``libdevice`` is NVIDIA's device library
(on hip targets its functions come from AMD's libraries); ``cuda`` and
``hip`` hold the few target-specific helpers Tritium supports."""

from . import cuda, hip, libdevice

__all__ = ["cuda", "hip", "libdevice"]
