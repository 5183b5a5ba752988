"""Tutorial-06 attention forward (tests/python/kernels/attention.py) on Tritium, and torch's SDPA.

    PYTHONPATH=python python3 bench/bench_attention.py [--shape 4,32,4096,64] [--causal 1]

Checks Tritium's output against SDPA, then prints TFLOP/s of both (the
kernel's own configurations: BLOCK_M=128, BLOCK_N=64, 4 and 8 warps).
Triton runs a different copy of this kernel (its tutorial's); compare with
its figures in docs/performance.md.
"""

import argparse
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "tests", "python", "kernels"))

from bench_gpu import bench  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shape", default="4,32,4096,64")
    ap.add_argument("--causal", type=int, default=1)
    args = ap.parse_args()
    import torch
    import attention
    Z, H, S, D = (int(x) for x in args.shape.split(","))
    torch.manual_seed(0)
    q, k, v = (torch.randn(Z, H, S, D, device="cuda", dtype=torch.float16) * 0.5 for _ in range(3))
    sm_scale = D ** -0.5
    ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(args.causal),
                                                           scale=sm_scale)
    flops = 4 * Z * H * S * S * D * (0.5 if args.causal else 1.0)
    stage = 3 if args.causal else 1
    for bm, bn, nw in [(128, 64, 4), (128, 64, 8), (64, 64, 4)]:
        o = torch.empty_like(q)
        m = torch.empty(Z * H, S, device="cuda", dtype=torch.float32)

        def fn(bm=bm, bn=bn, nw=nw, o=o, m=m):
            attention.attn_fwd[(S // bm, Z * H)](q, k, v, sm_scale, m, o, *q.stride(), *k.stride(),
                                                 *v.stride(), *o.stride(), H, S, HEAD_DIM=D,
                                                 BLOCK_M=bm, BLOCK_N=bn, STAGE=stage, num_warps=nw)
        fn()
        torch.cuda.synchronize()
        err = (o.float() - ref.float()).abs().max().item()
        ms = bench(fn, rep=20)
        print(f"tritium attention {args.shape} causal={args.causal} {bm}x{bn}/{nw} warps: "
              f"{flops / ms * 1e-9:.1f} TFLOP/s (max err vs SDPA {err:.2e})", flush=True)
    ms = bench(lambda: torch.nn.functional.scaled_dot_product_attention(
        q, k, v, is_causal=bool(args.causal), scale=sm_scale), rep=20)
    print(f"torch SDPA: {flops / ms * 1e-9:.1f} TFLOP/s")


if __name__ == "__main__":
    main()
