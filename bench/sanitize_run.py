"""One pipelined matmul and one causal attention run, small enough for compute-sanitizer.

    PYTHONPATH=python compute-sanitizer --tool racecheck python3 bench/sanitize_run.py
    PYTHONPATH=python compute-sanitizer --tool memcheck python3 bench/sanitize_run.py

K = 520 is not a multiple of BLOCK_K, so the last stage's copies are masked
(zero-filled); the attention is causal (STAGE 3: two pipelined loops). The
same matmul also runs through host-side tensor descriptors (with
TRITIUM_TMA=1 on sm_90a: TMA copies on mbarriers, zero-filled past K, and a
TMA store). Each result is checked against torch; the script exits non-zero
on a mismatch.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "python"))

import torch  # noqa: E402

import tritium  # noqa: E402
from tritium.tools.tensor_descriptor import TensorDescriptor  # noqa: E402
from bench_gpu import load_kernels  # noqa: E402


def main():
    mod = load_kernels("sanitize_kernels", tritium)
    torch.manual_seed(0)
    M, N, K = 256, 256, 520
    a = torch.randn(M, K, device="cuda", dtype=torch.float16)
    b = torch.randn(K, N, device="cuda", dtype=torch.float16)
    c = torch.empty(M, N, device="cuda", dtype=torch.float16)
    mod.matmul_kernel[(M // 128 * (N // 128),)](a, b, c, M, N, K, *a.stride(), *b.stride(),
                                                *c.stride(), BLOCK_M=128, BLOCK_N=128,
                                                BLOCK_K=64, GROUP_M=8, num_warps=4,
                                                num_stages=3)
    err_mm = (c.float() - a.float() @ b.float()).abs().max().item()
    cd = torch.empty_like(c)
    mod.matmul_desc_kernel[(M // 128 * (N // 128),)](
        TensorDescriptor.from_tensor(a, [128, 64]), TensorDescriptor.from_tensor(b, [64, 128]),
        TensorDescriptor.from_tensor(cd, [128, 128]), M, N, K, BLOCK_M=128, BLOCK_N=128,
        BLOCK_K=64, GROUP_M=8, num_warps=4, num_stages=3)
    err_desc = (cd.float() - a.float() @ b.float()).abs().max().item()

    Z, H, S, D = 1, 2, 256, 64
    q, k, v = (torch.randn(Z, H, S, D, device="cuda", dtype=torch.float16) * 0.5
               for _ in range(3))
    o = torch.empty_like(q)
    m = torch.empty(Z * H, S, device="cuda", dtype=torch.float32)
    mod.attn_fwd[(S // 128, Z * H)](q, k, v, D ** -0.5, m, o, *q.stride(), *k.stride(),
                                    *v.stride(), *o.stride(), H, S, HEAD_DIM=D, BLOCK_M=128,
                                    BLOCK_N=64, STAGE=3, num_warps=4, num_stages=3)
    # The reference is plain torch math: cuDNN's SDPA kernel has races of its own
    # that racecheck reports.
    scores = (q.float() @ k.float().transpose(-1, -2)) * D ** -0.5
    causal = torch.ones(S, S, device="cuda", dtype=torch.bool).tril()
    ref = torch.softmax(scores.masked_fill(~causal, float("-inf")), dim=-1) @ v.float()
    err_att = (o.float() - ref.float()).abs().max().item()
    torch.cuda.synchronize()
    print(f"matmul max error {err_mm:.3g}, descriptor matmul {err_desc:.3g}, "
          f"attention {err_att:.3g}")
    sys.exit(0 if max(err_mm, err_desc) < 0.5 and err_att < 2e-2 else 1)


if __name__ == "__main__":
    main()
