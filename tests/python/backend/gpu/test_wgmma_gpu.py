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


@pytest.mark.parametrize("bk,trans_b", [(32, False), (32, True), (16, False), (16, True)])
def test_wgmma_narrow_k_rows(hopper, bk, trans_b):
    """K tiles of 32 and 16 fp16 (rows of 64 and 32 bytes): the K-major
    operands take wgmma's 64- and 32-byte swizzles (descriptor swizzle 2
    and 3), not mma.sync."""
    kernel = _run(hopper, "float16", 256, 256, 256, 128, 128, bk, 4, 3, False, trans_b)
    ptx = kernel.asm["ptx"]
    assert "wgmma.mma_async" in ptx and "mma.sync" not in ptx


def test_wgmma_narrow_n_major_b_falls_back(hopper):
    """B N-major in rows of 64 bytes (BN = 32): not a layout Tritium gives
    wgmma; the dot is mma.sync's and right."""
    _run(hopper, "float16", 256, 256, 256, 128, 32, 64, 4, 3)


@tritium.jit
def k_matmul_bt(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    # B given as [N, K] (K contiguous) and transposed in the kernel: a K-major
    # B read through memdesc_trans, as tutorial 06's fp8 V.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(A + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(B + rn[:, None] * K + (k + rk)[None, :])
        acc = tl.dot(a, b.T, acc)
    tl.store(C + rm[:, None] * N + rn[None, :], acc)


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2"])
@pytest.mark.parametrize("bk", [32, 64])
def test_wgmma_fp8_narrow_k_rows(hopper, dtype, bk):
    """fp8 K tiles of 64 and 32 bytes (tutorial 06's fp8 attention at D 64
    and BLOCK_N 64 or 32): wgmma k32 in the 64- and 32-byte swizzles, B
    transposed in the kernel."""
    torch = hopper
    if not hasattr(torch, dtype):
        pytest.skip(f"torch has no {dtype}")
    m, n, k = 256, 256, 512
    g = torch.Generator(device="cpu").manual_seed(bk)
    dt = getattr(torch, dtype)
    a = torch.randn(m, k, generator=g).to(dt)
    bt = torch.randn(n, k, generator=g).to(dt)
    c = torch.zeros(m, n, device="cuda", dtype=torch.float32)
    kernel = k_matmul_bt[(m // 128, n // 128)](a.cuda(), bt.cuda(), c, m, n, k, BM=128, BN=128, BK=bk,
                                               num_warps=4, num_stages=3)
    a64, b64 = a.double().numpy(), bt.double().numpy().T
    tol = 1e-3 * (np.abs(a64) @ np.abs(b64)) + 1e-3
    bad = np.abs(c.double().cpu().numpy() - a64 @ b64) > tol
    assert not bad.any(), f"{bad.sum()} of {bad.size} wrong"
    assert "k32.f32.e" in kernel.asm["ptx"] and "mma.sync" not in kernel.asm["ptx"]


@tritium.jit
def k_attention_fp8(Q, K, VT, O, N, scale, D: tl.constexpr, BM: tl.constexpr, BN: tl.constexpr):
    # Tutorial 06's fp8 forward: V stored transposed ([D, N]) and loaded as
    # [D, BN] tiles, so both dots have K-major operands.
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rd = tl.arange(0, D)
    rn = tl.arange(0, BN)
    q = tl.load(Q + rm[:, None] * D + rd[None, :])
    m_i = tl.full((BM,), float("-inf"), tl.float32)
    l_i = tl.zeros((BM,), tl.float32)
    acc = tl.zeros((BM, D), tl.float32)
    for s in range(0, N, BN):
        k = tl.load(K + (s + rn)[:, None] * D + rd[None, :])
        qk = tl.dot(q, k.T) * scale
        m_ij = tl.maximum(m_i, tl.max(qk, 1))
        p = tl.math.exp2(qk - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        vt = tl.load(VT + rd[:, None] * N + (s + rn)[None, :])
        acc = tl.dot(p.to(Q.dtype.element_ty), vt.T, acc * alpha[:, None])
        m_i = m_ij
    tl.store(O + rm[:, None] * D + rd[None, :], acc / l_i[:, None])


@pytest.mark.parametrize("bn", [32, 64])
def test_wgmma_fp8_attention(hopper, bn):
    """Attention with fp8 e4m3 Q, K, V at D = 64 (64-byte rows): both dots on
    wgmma, against float64 softmax(QK^T)V of the same fp8 values. P is
    rounded to fp8 in the kernel (3 mantissa bits: each weight within
    2^-4), so elements may be off by 0.07 of max|V| = 1; a swizzle that
    reads the wrong K or V rows moves the peaked rows by far more."""
    torch = hopper
    if not hasattr(torch, "float8_e4m3fn"):
        pytest.skip("torch has no float8_e4m3fn")
    n, d = 256, 64
    g = torch.Generator(device="cpu").manual_seed(bn)
    q = torch.randn(n, d, generator=g).to(torch.float8_e4m3fn)
    k = torch.randn(n, d, generator=g).to(torch.float8_e4m3fn)
    v = (torch.rand(n, d, generator=g) * 2 - 1).to(torch.float8_e4m3fn)
    o = torch.zeros(n, d, device="cuda", dtype=torch.float32)
    scale = 0.25 * 1.44269504
    kernel = k_attention_fp8[(n // 128,)](q.cuda(), k.cuda(), v.t().contiguous().cuda(), o, n, scale,
                                          D=d, BM=128, BN=bn, num_warps=4, num_stages=2)
    q64, k64, v64 = (x.double().numpy() for x in (q, k, v))
    s = (q64 @ k64.T) * scale
    p = np.exp2(s - s.max(1, keepdims=True))
    ref = (p / p.sum(1, keepdims=True)) @ v64
    err = np.abs(o.double().cpu().numpy() - ref)
    assert err.max() < 0.1 and err.mean() < 0.01, (err.max(), err.mean())
    assert "k32.f32.e4m3.e4m3" in kernel.asm["ptx"] and "mma.sync" not in kernel.asm["ptx"]
