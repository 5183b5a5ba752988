"""The NVIDIA compile stages after ``tir`` (codegen/nvptx/NVPTXBackend.h):

    tgir   layouts assigned (layout-level Tritium IR)
    llir   LLVM IR, optimized, libdevice linked
    ptx    LLVM's NVPTX backend
    cubin  ptxas; skipped when no ptxas is found, and for small kernels
           compiled for this process's GPU (TRITIUM_DRIVER_JIT_BYTES): the
           driver then JIT-compiles the PTX when the kernel is loaded

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

    def tool_version(self):
        # The cache key changes with the ptxas that builds the cubins and
        # with the kernels left to the driver's JIT.
        return (_ptxas() + (" tma" if knobs.nvidia.tma else "")
                + (f" ptxas {_ptxas_options()}" if _ptxas_options() else "")
                + f" jit {knobs.nvidia.driver_jit_bytes}")

    def tool_options(self):
        return {**super().tool_options(), "tma": bool(knobs.nvidia.tma),
                "library_path": knobs.nvidia.libdevice_path or "", "assembler_path": _ptxas(),
                "assembler_options": _ptxas_options(),
                "dump_assembler_log": bool(knobs.nvidia.dump_ptxas_log)}

    def add_stages(self, stages, options, target):
        super().add_stages(stages, options, target)
        if not _ptxas():  # no cubin: the driver assembles the PTX when it loads it
            stages.pop("cubin", None)
        assemble = stages.get("cubin")
        if assemble is not None and _driver_loads(options, target):
            # A ptxas process costs ~10 ms of a small kernel's cold compile;
            # the driver's JIT assembles the same PTX in process, with the
            # same registers (docs/performance.md). None: no cubin stage.
            limit = knobs.nvidia.driver_jit_bytes
            stages["cubin"] = lambda ptx, metadata, opts: (
                None if len(ptx) <= limit else assemble(ptx, metadata, opts))

    def assemble(self, asm, target):
        """The cubin of a kernel whose PTX was left to the driver's JIT
        (``asm["cubin"]`` reads it)."""
        ptxas = _ptxas()
        if not ptxas:
            raise KeyError("cubin (no ptxas found: the driver assembles this kernel's PTX)")
        return _nvptx.assemble_cubin(asm["ptx"], str(target), ptxas)["cubin"]


def _driver_loads(options, target):
    """Whether a kernel of ``target`` compiled with ``options`` may be left
    to the driver's JIT: the active driver is a CUDA device of that target
    (it loads PTX) and nothing asks for ptxas's options or log, or for
    every stage (a kernel dump or override)."""
    driver = _compiler.active_driver
    if (knobs.nvidia.driver_jit_bytes <= 0 or _ptxas_options() or knobs.nvidia.dump_ptxas_log
            or knobs.compilation.dump_ir or knobs.compilation.override  # every stage's file
            or not options.get("enable_fp_fusion", True)
            or not getattr(driver, "jits_ptx", False)):
        return False
    try:
        return driver.get_current_target() == target
    except Exception:  # no device
        return False


_compiler.STAGE_PARSERS["tgir"] = lambda text: _compiler.parse_verified(text, "<override>")
_compiler.register_backend("cuda", CudaBackend())
