"""What ``triton.backends.compiler`` offers other code: ``GPUTarget`` and
``BaseBackend``, the base of Tritium's CUDA and HIP compile stages.

torch._inductor imports this module under ``import triton``; it checks
``hasattr(..., "AttrsDescriptor")`` to learn how to pass specialization
attributes. Tritium, like Triton 3.6, has none (the attributes are a plain
dict), so the name is absent.
"""

import functools
import types

from .. import _C, knobs
from ..compiler.compiler import GPUTarget, debug_options, make_options, parse_target

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


class NativeBackend(BaseBackend):
    """A target compiled by the C++ core (codegen/Backend.h): its stages are
    the core's, each one call of ``_C.run_stage``; what a stage reports
    joins the kernel's metadata. A subclass names the target kind and the
    knobs that join the options (``tool_options``)."""

    @property
    def version(self):
        """Joins the cache key: the LLVM pipeline and line info, then what
        the subclass adds (``tool_version``: its tools and libraries)."""
        return (self.tool_version() + (" llvm-o3" if knobs.compilation.llvm_o3 else "")
                + ("" if knobs.compilation.disable_line_info else " lines"))

    def tool_version(self):
        return ""

    def tool_options(self):
        """The options the knobs decide (libraries, tools, LLVM's pipeline)."""
        return {"llvm_o3": bool(knobs.compilation.llvm_o3),
                "line_info": not knobs.compilation.disable_line_info}

    def add_stages(self, stages, options, target):
        opts = {"num_warps": options["num_warps"], "num_stages": options["num_stages"],
                "debug": bool(options["debug"]), "maxnreg": options["maxnreg"] or 0,
                "enable_fp_fusion": bool(options.get("enable_fp_fusion", True)),
                "enable_reflect_ftz": bool(options.get("enable_reflect_ftz", True)),
                "verify_each": bool(knobs.compilation.verify_each),
                "waves_per_eu": options.get("waves_per_eu") or 0, **self.tool_options()}
        gpu = str(target)
        for stage in _C.backend_stages(gpu, opts):  # ValueError: options it refuses
            stages[stage] = functools.partial(_run_stage, stage, gpu, opts, options, target)


def _run_stage(stage, gpu, opts, options, target, value, metadata, _options):
    opts = {**opts, **debug_options(metadata["name"])}
    out, found = _C.run_stage(stage, value, gpu, opts)
    metadata.update(found)
    if stage == "llir":
        metadata["n_max_threads"] = int(options["num_warps"]) * target.warp_size
    return out
