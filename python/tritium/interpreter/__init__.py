"""The numpy executor behind interpreter mode (TRITIUM_INTERPRET=1):
semantic.py traces each operation through the C++ Semantic, evaluate.py runs
its instructions (floats.py: bf16/fp8, extern.py: libdevice, memory.py: the
checked buffers), rewrite.py runs the kernel's own code with the code
generator's meaning; ``tritium.runtime.interpreter`` launches kernels.
"""
