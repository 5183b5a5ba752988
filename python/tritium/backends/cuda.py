"""The NVIDIA compile stages after ``tir`` (codegen/nvptx/NVPTXBackend.h):

    tgir   layouts assigned (layout-level Tritium IR)
    llir   LLVM IR, optimized, libdevice linked
    ptx    LLVM's NVPTX backend
    cubin  ptxas; skipped when no ptxas is found (the driver then JIT-compiles
           the PTX when the kernel is loaded)

The stages are the C++ core's (NativeBackend); this module says which knobs
join their options and the cache key.
"""

import os

from .. import knobs
from .._C import nvptx as _nvptx
from ..compiler import compiler as _compiler
from .compiler import NativeBackend


def _ptxas():
    path = knobs.nvidia.ptxas_path
    if path:
        return path if os.access(path, os.X_OK) else ""
    return _nvptx.find_ptxas()


def _ptxas_options():
    return " ".join(filter(None, [knobs.nvidia.ptxas_options,
                                  "-O0" if knobs.nvidia.disable_ptxas_opt else ""]))


class CudaBackend(NativeBackend):
    kind = "cuda"
    binary_ext = "cubin"

    @property
    def version(self):
        # The cache key changes with the ptxas that builds the cubins and
        # with the LLVM pipeline.
        return (_ptxas() + (" llvm-o3" if knobs.compilation.llvm_o3 else "")
                + (" tma" if knobs.nvidia.tma else "")
                + ("" if knobs.compilation.disable_line_info else " lines")
                + (f" ptxas {_ptxas_options()}" if _ptxas_options() else ""))

    def tool_options(self):
        return {"llvm_o3": bool(knobs.compilation.llvm_o3), "tma": bool(knobs.nvidia.tma),
                "line_info": not knobs.compilation.disable_line_info,
                "library_path": knobs.nvidia.libdevice_path or "", "assembler_path": _ptxas(),
                "assembler_options": _ptxas_options(),
                "dump_assembler_log": bool(knobs.nvidia.dump_ptxas_log)}

    def skipped_stages(self, opts):
        return () if opts["assembler_path"] else ("cubin",)


_compiler.STAGE_PARSERS["tgir"] = lambda text: _compiler.parse_verified(text, "<override>")
_compiler.register_backend("cuda", CudaBackend())
