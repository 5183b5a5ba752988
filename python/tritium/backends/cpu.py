"""The cpu compile stages after ``tir`` (codegen/cpu/CPUBackend.cpp):

    tgir   layouts for one thread of one lane (a program is a host thread)
    llir   LLVM IR: the kernel and its launch entry, O3 for the host
    obj    an ELF object, which runtime/CpuDriver.cpp links into the process

The stages are the C++ core's (NativeBackend); docs/cpu.md tells the rest.
"""

from ..compiler import compiler as _compiler
from .compiler import NativeBackend


class CpuBackend(NativeBackend):
    kind = "cpu"
    binary_ext = "o"


_compiler.BINARY_STAGES.add("obj")
_compiler.register_backend("cpu", CpuBackend())
