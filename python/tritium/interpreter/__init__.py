"""The numpy executor behind interpreter mode (TRITIUM_INTERPRET=1).

* semantic.py: ``InterpreterSemantic``, the semantic protocol on numpy
  arrays (type rules from the C++ core through the binding);
* floats.py: bf16 and fp8, bit-exact with the NVIDIA lowering;
* memory.py: the launch's buffers, checked loads, stores and atomics;
* rewrite.py: the kernel's own code, with the code generator's meaning of
  assignments, loops, conditions and a few builtins;
* extern.py: libdevice functions.

``tritium.runtime.interpreter`` launches kernels with them.
"""
