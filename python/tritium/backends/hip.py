"""The AMD compile stages after ``tir`` (codegen/amdgpu/AMDGPUBackend.h):

    tgir    layouts assigned for the target's wavefronts (64 lanes on CDNA)
    llir    LLVM IR, optimized, ROCm device libraries (ocml, ockl) linked; the
            LDS is static (in the code object), launches pass none
    amdgcn  LLVM's AMDGPU backend: the assembly
    hsaco   the code object: assembled by LLVM's MC layer and linked by LLD,
            both in process

The stages are the C++ core's (NativeBackend); this module says which knobs
join their options and the cache key.
"""

from .. import knobs
from .._C import amdgpu as _amdgpu
from ..compiler import compiler as _compiler
from .compiler import NativeBackend


class HipBackend(NativeBackend):
    kind = "hip"
    binary_ext = "hsaco"

    def tool_version(self):
        # The device libraries join the code object; their folder joins the cache key.
        return knobs.amd.device_libs_path or _amdgpu.find_device_libs()

    def tool_options(self):
        return {**super().tool_options(), "library_path": knobs.amd.device_libs_path or ""}


_compiler.register_backend("hip", HipBackend())
