"""The numpy executor behind interpreter mode (TRITIUM_INTERPRET=1).

* semantic.py: ``InterpreterSemantic``: each operation built by the C++
  Semantic into a scratch function, its instructions planned once;
* evaluate.py: those instructions on numpy arrays;
* floats.py: bf16 and fp8, bit-exact with the NVIDIA lowering;
* memory.py: the launch's buffers, checked loads, stores and atomics;
* rewrite.py: the kernel's own code, with the code generator's meaning of
  assignments, loops, conditions and a few builtins;
* extern.py: libdevice functions.

``tritium.runtime.interpreter`` launches kernels with them.
"""
