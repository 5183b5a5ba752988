"""What `make run` runs: the examples, on the GPU when there is one.

    PYTHONPATH=python python3 examples/run.py

1. The hand-written IR files examples/*.tir: parsed, verified, printed, and
   checked to print the same after parsing the printed form.
2. The kernels of examples/kernels.py (vector add, row softmax, matmul),
   checked against numpy: compiled and launched on an NVIDIA GPU when the
   CUDA driver sees one and torch is installed (the arrays are torch
   tensors), otherwise run on the interpreter (TRITIUM_INTERPRET=1, numpy
   arrays).
3. The vector add compiled for sm_90, printed at three stages: Tritium IR,
   LLVM IR and PTX (ptxas, when installed, also makes the cubin); and next
   to it the same kernel compiled for an AMD MI200 (hip:gfx90a): its
   assembly and its code object's metadata (linked by LLD here; no AMD GPU
   has run it). Without a GPU, then how to run on one.
"""

import glob
import os
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import tritium  # noqa: E402
from tritium.compiler.compiler import ASTSource  # noqa: E402


def run_ir_files():
    for path in sorted(glob.glob(os.path.join(HERE, "*.tir"))):
        rel = os.path.relpath(path)
        with open(path) as f:
            text = f.read()
        module = tritium.parse_module(text, name=rel)
        module.verify()
        printed = str(module)
        if str(tritium.parse_module(printed, name=rel + " (printed)")) != printed:
            raise SystemExit(f"{rel}: printing and parsing again changed the module")
        print(f"== {rel}: parsed, verified, printed and parsed back")


def find_gpu():
    """(torch, device name) when kernels can run on a GPU, else (None, why not)."""
    try:
        import torch
    except ImportError:
        return None, "torch is not installed"
    if not torch.cuda.is_available():
        return None, "torch sees no CUDA device"
    from tritium.runtime import driver
    if not driver.active.is_active():
        return None, "the CUDA driver (libcuda.so.1) did not load"
    return torch, torch.cuda.get_device_name()


class Arrays:
    """numpy in, numpy out; torch tensors on the GPU in between."""

    def __init__(self, torch):
        self.torch = torch

    def put(self, a):
        return self.torch.from_numpy(a).cuda() if self.torch else a.copy()

    def get(self, a):
        if self.torch:
            self.torch.cuda.synchronize()
            return a.cpu().numpy()
        return a


def run_kernels(arrays):
    import kernels
    rng = np.random.default_rng(0)

    n = 98_432
    x, y = rng.standard_normal(n, dtype=np.float32), rng.standard_normal(n, dtype=np.float32)
    X, Y, OUT = arrays.put(x), arrays.put(y), arrays.put(np.zeros(n, np.float32))
    t0 = time.perf_counter()
    kernels.add_kernel[(tritium.cdiv(n, 1024),)](X, Y, OUT, n, BLOCK=1024)
    got = arrays.get(OUT)
    np.testing.assert_array_equal(got, x + y)
    print(f"== vector add, {n} elements: matches numpy ({(time.perf_counter() - t0) * 1e3:.0f} ms "
          "with the compile)")

    rows, cols = 64, 781
    a = rng.standard_normal((rows, cols), dtype=np.float32)
    A, O = arrays.put(a), arrays.put(np.zeros_like(a))
    kernels.softmax_kernel[(rows,)](O, A, cols, cols, cols, BLOCK=1024)
    e = np.exp(a - a.max(1, keepdims=True))
    np.testing.assert_allclose(arrays.get(O), e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)
    print(f"== row softmax, {rows}x{cols}: matches numpy")

    M, N, K = 96, 80, 72
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    A, B, C = arrays.put(a), arrays.put(b), arrays.put(np.zeros((M, N), np.float32))
    kernels.matmul_kernel[(tritium.cdiv(M, 32), tritium.cdiv(N, 32))](
        A, B, C, M, N, K, K, 1, N, 1, N, 1, BLOCK_M=32, BLOCK_N=32, BLOCK_K=16)
    np.testing.assert_allclose(arrays.get(C), a.astype(np.float32) @ b.astype(np.float32),
                               rtol=1e-4, atol=1e-3)
    print(f"== matmul fp16 -> fp32, {M}x{K} @ {K}x{N}: matches numpy")


def show_compiled():
    import kernels
    src = ASTSource(kernels.add_kernel, {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"},
                    {"BLOCK": 1024}, {p: {"divisibility": 16} for p in ("x_ptr", "y_ptr", "out_ptr", "n")})
    k = tritium.compile(src, target="cuda:90")
    for stage, title in (("tir", "Tritium IR"), ("llir", "LLVM IR"), ("ptx", "PTX")):
        print(f"\n== vector add compiled for sm_90: {title} ({stage})")
        print(k.asm[stage].rstrip())
    if "cubin" in k.asm:
        print(f"\n== ptxas made a {len(k.asm['cubin'])}-byte cubin: {k.n_regs} registers, "
              f"{k.n_spills} bytes spilled")
    amd = tritium.compile(src, target="hip:gfx90a")
    asm = amd.asm["amdgcn"]
    start = asm.index("add_kernel:")
    body = asm[start:asm.index("\t.section", start)].rstrip()  # the code, not the descriptor
    print("\n== the same vector add compiled for hip:gfx90a (AMD MI200): AMDGPU assembly (amdgcn)")
    print(body)
    print(f"\n== LLD linked a {len(amd.asm['hsaco'])}-byte code object (hsaco): "
          f"{amd.n_regs} VGPRs, {amd.metadata.n_sgprs} SGPRs, {amd.metadata.shared} bytes of LDS, "
          f"wavefronts of {amd.metadata.warp_size} (compiled and inspected only: no AMD GPU here)")


def main():
    print(f"tritium {tritium.__version__}")
    run_ir_files()
    torch, where = find_gpu()
    if torch is not None:
        os.environ.pop("TRITIUM_INTERPRET", None)
        print(f"== running the kernels on {where}")
        run_kernels(Arrays(torch))
        show_compiled()
        return 0
    print(f"== no GPU here ({where}): running the kernels on the interpreter")
    os.environ["TRITIUM_INTERPRET"] = "1"
    run_kernels(Arrays(None))
    del os.environ["TRITIUM_INTERPRET"]
    show_compiled()
    print("\nTo run on a GPU: on a machine with an NVIDIA GPU, its driver and torch, "
          "`make run` compiles these kernels and launches them there (the same command).")
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except tritium.CompilationError as e:
        print(e, file=sys.stderr)
        sys.exit(1)
