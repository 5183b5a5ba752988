"""Tutorial 09's use of Proton on a small fp16 matmul, to check
tritium.profiler against Triton's own Proton on the GPU machine:

    PKG=tritium PYTHONPATH=python python3 bench/proton_compare.py [OUT_DIR]
    PKG=triton  PYTHONPATH=python python3 bench/proton_compare.py [OUT_DIR]

Starts a session with hook="triton", deactivates it, then per K: checks the
kernel, times it and torch.matmul with do_bench, and profiles 200 launches
of each (torch's inside a proton.scope with its flops and bytes). Prints
do_bench's TFLOP/s, then the profile as tritium.profiler.viewer reads it
(it reads both packages' hatchet files): the profiler's tflop16/s should
match do_bench's within a few percent.
"""
import importlib
import os
import sys

import torch

PKG = os.environ.get("PKG", "tritium")
triton = importlib.import_module(PKG)
tl = importlib.import_module(PKG + ".language")
proton = importlib.import_module(PKG + ".profiler")


def _metadata(grid, kernel, args):
    M, N, K = args["M"], args["N"], args["K"]
    size = args["c_ptr"].element_size()
    return {"name": f"{kernel.name} [M={M}, N={N}, K={K}]", f"flops{size * 8}": 2. * M * N * K,
            "bytes": size * (M * K + N * K + M * N)}


@triton.jit(launch_metadata=_metadata)
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * sam + (k + rk)[None, :] * sak)
        b = tl.load(b_ptr + (k + rk)[:, None] * sbk + rn[None, :] * sbn)
        acc += tl.dot(a, b)
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc.to(tl.float16))


def matmul(a, b):
    (M, K), N = a.shape, b.shape[1]
    c = torch.empty((M, N), device="cuda", dtype=torch.float16)
    matmul_kernel[(M // 128, N // 128)](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0),
                                        b.stride(1), c.stride(0), c.stride(1), BM=128, BN=128,
                                        BK=64, num_warps=8, num_stages=3)
    return c


def torch_matmul(a, b):
    (M, K), N = a.shape, b.shape[1]
    with proton.scope(f"torch [M={M}, N={N}, K={K}]",
                      {"bytes": 2 * (M * K + N * K + M * N), "flops16": 2. * M * N * K}):
        return torch.matmul(a, b)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else "."
    name = os.path.join(out, f"proton_{PKG}")
    proton.start(name, hook="triton")
    proton.deactivate()
    for K in (1024, 4096):
        a = torch.randn((4096, K), device="cuda", dtype=torch.float16)
        b = torch.randn((K, 4096), device="cuda", dtype=torch.float16)
        assert torch.allclose(matmul(a, b).float(), torch_matmul(a, b).float(), atol=1.0)
        tflops = lambda ms: 2 * 4096 * 4096 * K / ms * 1e-9  # noqa: E731
        print(f"K={K}: do_bench {PKG} {tflops(triton.testing.do_bench(lambda: matmul(a, b))):.1f} "
              f"TFLOP/s, torch {tflops(triton.testing.do_bench(lambda: torch.matmul(a, b))):.1f}")
        proton.activate(0)
        for _ in range(200):
            matmul(a, b)
            torch_matmul(a, b)
        proton.deactivate(0)
    proton.finalize()
    from tritium.profiler import viewer
    tree, metrics = viewer.parse(["tflop16/s", "time/ms", "avg_time/us"], name + ".hatchet")
    viewer.print_tree(tree, metrics)


if __name__ == "__main__":
    main()
