"""``tl.extra``: backend extras. ``libdevice`` is NVIDIA's device library
(on hip targets its functions come from AMD's libraries); ``cuda`` and
``hip`` hold the few target-specific helpers Tritium supports."""

import sys as _sys

from . import cuda, hip, libdevice

# Triton's module paths `triton.language.extra.cuda.libdevice` (Liger's
# fallback import) and `...extra.hip.libdevice`: the same module.
for _target in (cuda, hip):
    _sys.modules.setdefault(_target.__name__ + ".libdevice", libdevice)
del _target

__all__ = ["cuda", "hip", "libdevice"]
