"""The cpu compile stages after ``tir`` (codegen/cpu/CPUBackend.cpp):

    tgir   layouts for one thread of one lane (a program is a host thread)
    llir   LLVM IR: the kernel and its launch entry, O3 for the host
    obj    an ELF object, which runtime/CpuDriver.cpp links into the process

The stages are the C++ core's (NativeBackend); docs/cpu.md tells the rest.
"""

from .. import knobs
from ..compiler import compiler as _compiler
from .compiler import NativeBackend


class CpuBackend(NativeBackend):
    kind = "cpu"
    binary_ext = "o"

    @property
    def version(self):
        return (" llvm-o3" if knobs.compilation.llvm_o3 else "") + (
            "" if knobs.compilation.disable_line_info else " lines")

    def tool_options(self):
        return {"llvm_o3": bool(knobs.compilation.llvm_o3),
                "line_info": not knobs.compilation.disable_line_info}


_compiler.BINARY_STAGES.add("obj")
_compiler.register_backend("cpu", CpuBackend())
