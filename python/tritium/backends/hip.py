"""The AMD compile stages after ``tir`` (see codegen/amdgpu/AMDGPUBackend.h):

    tgir    layouts assigned for the target's wavefronts (64 lanes on CDNA)
    llir    LLVM IR, optimized, ROCm device libraries (ocml, ockl) linked
    amdgcn  LLVM's AMDGPU backend: the assembly
    hsaco   the code object: assembled by LLVM's MC layer and linked by LLD,
            both in process

Each stage is one call into the C++ core; this module only wires them up and
records what they report in the kernel's metadata.
"""

from .. import knobs
from .._C import amdgpu as _amdgpu
from ..compiler import compiler as _compiler
from .compiler import BaseBackend


class HipBackend(BaseBackend):
    kind = "hip"
    binary_ext = "hsaco"

    @property
    def version(self):
        # The device libraries join the code object; their folder and the
        # LLVM pipeline join the cache key.
        return (knobs.amd.device_libs_path or _amdgpu.find_device_libs()) + (
            " llvm-o3" if knobs.compilation.llvm_o3 else "")

    def add_stages(self, stages, options, target):
        gpu = str(target)
        num_warps = int(options["num_warps"])
        debug = bool(options["debug"])
        waves_per_eu = options["waves_per_eu"] or 0
        if options["maxnreg"]:
            raise ValueError("maxnreg is for cuda targets (hip targets take waves_per_eu)")
        if not isinstance(waves_per_eu, int) or isinstance(waves_per_eu, bool) or waves_per_eu < 0:
            raise ValueError(f"waves_per_eu must be a non-negative int, got {waves_per_eu!r}")

        def tgir(module, metadata, opts):
            _amdgpu.run_gpu_pipeline(module, gpu, num_warps, debug)
            return module

        def llir(module, metadata, opts):
            ir, shared = _amdgpu.lower_to_llvm_ir(module, gpu, num_warps, debug,
                                                  llvm_o3=bool(knobs.compilation.llvm_o3),
                                                  device_libs=knobs.amd.device_libs_path or "",
                                                  waves_per_eu=waves_per_eu)
            # The LDS is static (in the code object); launches pass none.
            metadata["shared"] = shared
            metadata["n_max_threads"] = num_warps * target.warp_size
            return ir

        def amdgcn(llir_text, metadata, opts):
            return _amdgpu.compile_to_amdgcn(llir_text, gpu)

        def hsaco(asm, metadata, opts):
            res = _amdgpu.assemble_hsaco(asm, gpu)
            metadata["n_regs"] = res["vgprs"]
            metadata["n_sgprs"] = res["sgprs"]
            metadata["n_spills"] = 0 if res["scratch"] == 0 else res["scratch"] // 4
            metadata["scratch"] = res["scratch"]
            return res["hsaco"]

        stages["tgir"] = tgir
        stages["llir"] = llir
        stages["amdgcn"] = amdgcn
        stages["hsaco"] = hsaco


_compiler.register_backend("hip", HipBackend())
