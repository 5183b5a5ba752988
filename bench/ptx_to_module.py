"""PTX to a loaded module, two ways, on the GPU: a ptxas process then
cuModuleLoadData of its cubin (what Tritium does), against the driver's
whole-program JIT (cuModuleLoadDataEx of the PTX, with CUDA_CACHE_DISABLE=1
so that it compiles every time). Per kernel (the vector add, the softmax and
the 128x256x64 matmul of bench/kernels_src.py): median ms of 5 and the
registers each way gives. The question it answers (issue 17): whether the
JIT saves the ptxas process start (~9 ms, most of the vector add's cold
compile) without the relocatable code the in-process assemblers gave
(docs/performance.md, ninth session: 40 registers instead of 32).

    PYTHONPATH=python python3 bench/ptx_to_module.py      (needs torch and a GPU)
"""

import ctypes
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

os.environ["CUDA_CACHE_DISABLE"] = "1"  # before the driver initializes
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
if "tritium" not in sys.modules:
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

from bench_gpu import load_kernels  # noqa: E402

NUM_REGS = 4  # CU_FUNC_ATTRIBUTE_NUM_REGS


def compiled_kernels(torch, k):
    """The three kernels launched once (compiled by Tritium): name -> CompiledKernel."""
    a = torch.randn(128, 1024, device="cuda")
    o = torch.empty_like(a)
    x, y = torch.randn(1024, device="cuda"), torch.randn(1024, device="cuda")
    A = torch.randn(512, 512, device="cuda", dtype=torch.float16)
    B = torch.randn(512, 512, device="cuda", dtype=torch.float16)
    C = torch.empty(512, 512, device="cuda", dtype=torch.float16)
    kernels = {
        "add": k.add_kernel[(1,)](x, y, torch.empty_like(x), 1, BLOCK=1024),
        "softmax": k.softmax_kernel[(128,)](o, a, a.stride(0), o.stride(0), 128, 1024, BLOCK=1024),
        "matmul 128x256x64": k.matmul_kernel[(8,)](
            A, B, C, 512, 512, 512, A.stride(0), A.stride(1), B.stride(0), B.stride(1), C.stride(0),
            C.stride(1), BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8, num_warps=8),
    }
    torch.cuda.synchronize()
    return kernels


def main():
    import torch
    import tritium
    k = load_kernels("ptx_to_module", tritium)
    kernels = compiled_kernels(torch, k)
    cu = ctypes.CDLL("libcuda.so.1")

    def check(result, what):
        if result:
            raise RuntimeError(f"{what}: CUresult {result}")

    def registers(module, name):
        fn, n = ctypes.c_void_p(), ctypes.c_int()
        check(cu.cuModuleGetFunction(ctypes.byref(fn), module, name.encode()), "cuModuleGetFunction")
        check(cu.cuFuncGetAttribute(ctypes.byref(n), NUM_REGS, fn), "cuFuncGetAttribute")
        return n.value

    ptxas = os.environ.get("PTXAS") or shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
    version = subprocess.run([ptxas, "--version"], capture_output=True, text=True).stdout
    driver = ctypes.c_int()
    cu.cuDriverGetVersion(ctypes.byref(driver))
    print(f"{torch.cuda.get_device_name()}; ptxas {ptxas}: {version.strip().splitlines()[-1]}; "
          f"driver {driver.value}")
    for label, kernel in kernels.items():
        ptx = kernel.asm["ptx"]
        path = os.path.join(tempfile.mkdtemp(), "kernel.ptx")
        with open(path, "w") as f:
            f.write(ptx)
        ptxas_ms, jit_ms = [], []
        for _ in range(5):
            t0 = time.perf_counter()
            subprocess.run([ptxas, "-v", "-O3", "--gpu-name=sm_90a", path, "-o", path + ".cubin"],
                           check=True, capture_output=True)
            with open(path + ".cubin", "rb") as f:
                image = f.read()
            module = ctypes.c_void_p()
            check(cu.cuModuleLoadData(ctypes.byref(module), image), "cuModuleLoadData")
            ptxas_ms.append((time.perf_counter() - t0) * 1e3)
            ptxas_regs = registers(module, kernel.name)
            cu.cuModuleUnload(module)
            t0 = time.perf_counter()
            module = ctypes.c_void_p()
            check(cu.cuModuleLoadDataEx(ctypes.byref(module), ptx.encode() + b"\0", 0, None, None),
                  "cuModuleLoadDataEx")
            jit_ms.append((time.perf_counter() - t0) * 1e3)
            jit_regs = registers(module, kernel.name)
            cu.cuModuleUnload(module)
        print(f"{label:18s} ptxas + load {statistics.median(ptxas_ms):7.1f} ms ({ptxas_regs} registers)"
              f"   driver JIT {statistics.median(jit_ms):7.1f} ms ({jit_regs} registers)", flush=True)


if __name__ == "__main__":
    main()
