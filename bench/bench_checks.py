"""What the opt-in checks of issue 16 cost on the GPU: each kernel as it
compiles by default, with ``bounds_check=True`` (every load and store
checked against its tensor's extent) and with ``int64_offsets=True`` (the
variant a launch gets when a tensor spans 2^31 elements or more, which
kernels that fit never pay), in one process on the same tensors.

    PYTHONPATH=python python3 bench/bench_checks.py [--quick] [--json FILE]

Printed: time per kernel (median of CUDA-event timings, L2 flushed) and the
ratio to the default; kernels: the vector add (2^26 fp32), the softmax
(8192 x 4096 fp32) and the tutorial matmul (fp16 4096^3, 128x256x64, 3
stages, 8 warps). Needs torch and a GPU."""

import argparse
import json
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
if "tritium" not in sys.modules:
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "python"))

from bench_gpu import bench, load_kernels  # noqa: E402

VARIANTS = {"default": {}, "bounds_check": {"bounds_check": True},
            "int64_offsets": {"int64_offsets": True}}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--quick", action="store_true", help="fewer repetitions")
    ap.add_argument("--json", help="write the results there")
    args = ap.parse_args()
    import torch
    import tritium
    os.environ.setdefault("TRITIUM_CACHE_DIR", tempfile.mkdtemp(prefix="tritium-checks-"))
    k = load_kernels("bench_checks", tritium)
    rep = 50 if args.quick else 200
    x = torch.randn(1 << 26, device="cuda")
    y, out = torch.randn_like(x), torch.empty_like(x)
    s_in = torch.randn(8192, 4096, device="cuda")
    s_out = torch.empty_like(s_in)
    A = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    B = torch.randn(4096, 4096, device="cuda", dtype=torch.float16)
    C = torch.empty(4096, 4096, device="cuda", dtype=torch.float16)
    cases = {
        "vector add 2^26 fp32": (
            lambda o: k.add_kernel[(x.numel() // 1024,)](x, y, out, x.numel(), BLOCK=1024, **o),
            lambda: torch.testing.assert_close(out, x + y)),
        "softmax 8192x4096 fp32": (
            lambda o: k.softmax_kernel[(8192,)](s_out, s_in, s_in.stride(0), s_out.stride(0), 8192,
                                                4096, BLOCK=4096, num_warps=16, **o),
            lambda: torch.testing.assert_close(s_out, torch.softmax(s_in, dim=1))),
        "matmul fp16 4096^3": (
            lambda o: k.matmul_kernel[(32 * 16,)](A, B, C, 4096, 4096, 4096, A.stride(0), A.stride(1),
                                                 B.stride(0), B.stride(1), C.stride(0), C.stride(1),
                                                 BLOCK_M=128, BLOCK_N=256, BLOCK_K=64, GROUP_M=8,
                                                 num_warps=8, num_stages=3, **o),
            lambda: torch.testing.assert_close(C.float(), A.float() @ B.float(), rtol=2e-2, atol=2e-1)),
    }
    results = {"device": torch.cuda.get_device_name(), "rows": []}
    for name, (launch, check) in cases.items():
        row = {"name": name}
        for variant, opts in VARIANTS.items():
            launch(opts)
            torch.cuda.synchronize()
            check()
            row[variant + "_ms"] = bench(lambda: launch(opts), rep=rep)
        base = row["default_ms"]
        results["rows"].append(row)
        print(f"{name:24s} " + "  ".join(f"{v} {row[v + '_ms']:.4f} ms ({row[v + '_ms'] / base:.3f}x)"
                                         for v in VARIANTS), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
