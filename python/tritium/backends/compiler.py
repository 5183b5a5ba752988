"""What ``triton.backends.compiler`` offers other code: ``GPUTarget`` and
``BaseBackend``, the base of Tritium's CUDA and HIP compile stages.

torch._inductor imports this module under ``import triton``; it checks
``hasattr(..., "AttrsDescriptor")`` to learn how to pass specialization
attributes. Tritium, like Triton 3.6, has none (the attributes are a plain
dict), so the name is absent.
"""

import types

from ..compiler.compiler import GPUTarget, make_options, parse_target

__all__ = ["GPUTarget", "BaseBackend"]


class BaseBackend:
    """One target kind's compile stages (registered with
    ``compiler.register_backend``). Built with no target, it is the
    registered stage provider; ``make_backend(target)`` builds one bound to a
    target, which answers Triton's ``hash()`` and ``parse_options()``."""

    #: The GPUTarget.backend this class compiles for ("cuda", "hip").
    kind = None

    def __init__(self, target=None):
        self.target = None if target is None else parse_target(target)
        if self.target is not None and not self.supports_target(self.target):
            raise ValueError(f"{type(self).__name__} does not compile for {self.target}")

    @classmethod
    def supports_target(cls, target):
        return target.backend == cls.kind

    def hash(self):
        """Changes when the binaries this backend makes for its target would."""
        return f"{getattr(self, 'version', '')}-{self.target}"

    def parse_options(self, options):
        """The launch options with defaults filled in and checked, as
        attributes (``vars()`` gives the dict)."""
        target = self.target or parse_target(self.kind)
        return types.SimpleNamespace(**make_options(target, dict(options)).to_dict())

    def add_stages(self, stages, options, target):
        raise NotImplementedError
