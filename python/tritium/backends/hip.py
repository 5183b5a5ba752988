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

    @property
    def version(self):
        # The device libraries join the code object; their folder and the
        # LLVM pipeline join the cache key.
        return (knobs.amd.device_libs_path or _amdgpu.find_device_libs()) + (
            " llvm-o3" if knobs.compilation.llvm_o3 else "") + (
            "" if knobs.compilation.disable_line_info else " lines")

    def tool_options(self):
        return {"llvm_o3": bool(knobs.compilation.llvm_o3),
                "line_info": not knobs.compilation.disable_line_info,
                "library_path": knobs.amd.device_libs_path or ""}


_compiler.register_backend("hip", HipBackend())
