"""The NVIDIA compile stages after ``tir`` (see codegen/nvptx/NVPTXBackend.h):

    tgir   layouts assigned (layout-level Tritium IR)
    llir   LLVM IR, optimized, libdevice linked
    ptx    LLVM's NVPTX backend
    cubin  ptxas; skipped when no ptxas is found (the driver then JIT-compiles
           the PTX when the kernel is loaded)

Each stage is one call into the C++ core; this module only wires them up and
records what they report in the kernel's metadata.
"""

import os

from .. import knobs
from .._C import nvptx as _nvptx
from ..compiler import compiler as _compiler
from .compiler import BaseBackend


def _ptxas():
    path = knobs.nvidia.ptxas_path
    if path:
        return path if os.access(path, os.X_OK) else ""
    return _nvptx.find_ptxas()


class CudaBackend(BaseBackend):
    kind = "cuda"
    binary_ext = "cubin"

    @property
    def version(self):
        # The cache key changes with the ptxas that builds the cubins and
        # with the LLVM pipeline.
        return (_ptxas() + (" llvm-o3" if knobs.compilation.llvm_o3 else "")
                + (" tma" if knobs.nvidia.tma else ""))

    def add_stages(self, stages, options, target):
        gpu = str(target)  # the C++ stages read the target description from it
        num_warps = int(options["num_warps"])
        debug = bool(options["debug"])
        maxnreg = options["maxnreg"] or 0
        num_stages = int(options["num_stages"])

        def tgir(module, metadata, opts):
            _nvptx.run_gpu_pipeline(module, gpu, num_warps, debug, num_stages,
                                    tma=bool(knobs.nvidia.tma))
            return module

        def llir(module, metadata, opts):
            ir, shared = _nvptx.lower_to_llvm_ir(module, gpu, num_warps, debug,
                                                 llvm_o3=bool(knobs.compilation.llvm_o3),
                                                 libdevice=knobs.nvidia.libdevice_path or "",
                                                 maxnreg=maxnreg)
            metadata["shared"] = shared
            metadata["n_max_threads"] = num_warps * target.warp_size
            return ir

        def ptx(llir_text, metadata, opts):
            text = _nvptx.compile_to_ptx(llir_text, gpu)
            metadata["ptx_version"] = _ptx_version(text)
            return text

        stages["tgir"] = tgir
        stages["llir"] = llir
        stages["ptx"] = ptx
        ptxas = _ptxas()
        if ptxas:
            def cubin(ptx_text, metadata, opts):
                res = _nvptx.assemble_cubin(ptx_text, gpu, ptxas)
                metadata["n_regs"] = res["registers"]
                metadata["n_spills"] = max(res["spill_stores"], 0)
                return res["cubin"]
            stages["cubin"] = cubin


def _ptx_version(text):
    for line in text.splitlines():
        if line.startswith(".version "):
            return line.split()[1]
    return None


_compiler.STAGE_PARSERS["tgir"] = lambda text: _compiler.parse_verified(text, "<override>")
_compiler.register_backend("cuda", CudaBackend())
