"""tl.dot on Hopper's wgmma (TRITIUM_CUDA_ARCH=90a, the H200's sm_90a):
the tutorial's K loop over the configurations wgmma takes (4 and 8 warps,
one or two 64-row blocks per warpgroup, N up to 256), f16 and bf16,
row-major and transposed operands (K-major and M/N-major descriptors),
K tails under a mask and num_stages 1 to 4, against numpy in float64.
Each test also checks that the kernel ran on wgmma (its PTX), so that a
silent fall back to mma.sync would fail it."""

import numpy as np
import pytest

import tritium
import tritium.language as tl

pytestmark = pytest.mark.gpu


@tritium.jit
def k_matmul(A, B, C, M, N, K, stride_am, stride_ak, stride_bk, stride_bn,
             BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a_ptrs = A + rm[:, None] * stride_am + rk[None, :] * stride_ak
    b_ptrs = B + rk[:, None] * stride_bk + rn[None, :] * stride_bn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0.0)
        b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0.0)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK * stride_ak
        b_ptrs += BK * stride_bk
    tl.store(C + rm[:, None] * N + rn[None, :], acc)


@pytest.fixture
def hopper(dev, monkeypatch):
    import torch
    if torch.cuda.get_device_capability() != (9, 0):
        pytest.skip("wgmma needs an sm_90 GPU")
    monkeypatch.setenv("TRITIUM_CUDA_ARCH", "90a")
    return torch


def _run(torch, dtype, m, n, k, bm, bn, bk, warps, stages, trans_a=False, trans_b=False):
    g = torch.Generator(device="cpu").manual_seed(m + n + k)
    dt = getattr(torch, dtype)
    a = torch.randn(m, k, generator=g).to(dt)
    b = torch.randn(k, n, generator=g).to(dt)
    # A transposed in memory: M contiguous (an M-major operand); B: K.
    a_dev = a.t().contiguous().cuda().t() if trans_a else a.cuda()
    b_dev = b.t().contiguous().cuda().t() if trans_b else b.cuda()
    c = torch.zeros(m, n, device="cuda", dtype=torch.float32)
    grid = (m // bm, n // bn)
    kernel = k_matmul[grid](a_dev, b_dev, c, m, n, k, *a_dev.stride(), *b_dev.stride(),
                            BM=bm, BN=bn, BK=bk, num_warps=warps, num_stages=stages)
    ref = a.double().numpy() @ b.double().numpy()
    # f32 accumulation of exact products: error grows with sqrt(K).
    tol = 1e-5 * np.sqrt(k) * (np.abs(a.double().numpy()) @ np.abs(b.double().numpy())) + 1e-4
    got = c.double().cpu().numpy()
    bad = np.abs(got - ref) > tol
    assert not bad.any(), f"{bad.sum()} of {bad.size} wrong, first at {np.argwhere(bad)[0]}"
    return kernel


CONFIGS = [(128, 128, 64, 4), (128, 256, 64, 8), (64, 128, 64, 4), (256, 128, 64, 8), (128, 64, 128, 4)]


@pytest.mark.parametrize("dtype", ["float16", "bfloat16"])
@pytest.mark.parametrize("bm,bn,bk,warps", CONFIGS, ids=[f"{a}x{b}x{c}w{d}" for a, b, c, d in CONFIGS])
def test_wgmma_matmul(hopper, dtype, bm, bn, bk, warps):
    kernel = _run(hopper, dtype, 256, 256, 512, bm, bn, bk, warps, 3)
    ptx = kernel.asm["ptx"]
    assert ".target sm_90a" in ptx and "wgmma.mma_async.sync.aligned.m64n" in ptx
    assert "mma.sync" not in ptx and "ldmatrix" not in ptx
    assert kernel.n_spills == 0


@pytest.mark.parametrize("trans_a,trans_b", [(False, True), (True, False), (True, True)])
def test_wgmma_transposed_operands(hopper, trans_a, trans_b):
    kernel = _run(hopper, "float16", 256, 256, 256, 128, 128, 64, 4, 3, trans_a, trans_b)
    assert "wgmma.mma_async" in kernel.asm["ptx"]


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2"])
def test_wgmma_fp8_matmul(hopper, dtype):
    """fp8 inputs with B K-major (passed transposed): wgmma k32."""
    torch = hopper
    if not hasattr(torch, dtype):
        pytest.skip(f"torch has no {dtype}")
    m, n, k = 256, 256, 512
    g = torch.Generator(device="cpu").manual_seed(7)
    dt = getattr(torch, dtype)
    a = torch.randn(m, k, generator=g).to(dt)
    b = torch.randn(k, n, generator=g).to(dt)
    a_dev, b_dev = a.cuda(), b.t().contiguous().cuda().t()
    c = torch.zeros(m, n, device="cuda", dtype=torch.float32)
    kernel = k_matmul[(m // 128, n // 128)](a_dev, b_dev, c, m, n, k, *a_dev.stride(), *b_dev.stride(),
                                            BM=128, BN=128, BK=128, num_warps=4, num_stages=3)
    ref = a.double().numpy() @ b.double().numpy()
    # Hopper's fp8 wgmma accumulates with fewer than f32's mantissa bits
    # (as Triton's max_num_imprecise_acc notes): about 2^-10 of |a| @ |b|.
    tol = 1e-3 * (np.abs(a.double().numpy()) @ np.abs(b.double().numpy())) + 1e-3
    bad = np.abs(c.double().cpu().numpy() - ref) > tol
    assert not bad.any(), f"{bad.sum()} of {bad.size} wrong"
    assert "k32.f32.e" in kernel.asm["ptx"] and "mma.sync" not in kernel.asm["ptx"]


@pytest.mark.parametrize("stages", [1, 2, 3, 4])
@pytest.mark.parametrize("k", [64, 200, 1000])
def test_wgmma_k_tails_and_stages(hopper, stages, k):
    kernel = _run(hopper, "float16", 128, 256, k, 128, 128, 64, 4, stages)
    assert "wgmma.mma_async" in kernel.asm["ptx"]
