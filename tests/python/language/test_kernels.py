"""The tutorial kernels of tests/python/kernels run on every backend and
agree with numpy on a few shapes: vector add, fused softmax, grouped
matmul (with a fused activation), low-memory dropout, layer norm forward
and backward (spin lock), attention forward (causal and not) and the
block-pointer matmul."""

import os
import sys

import numpy as np
import pytest

from .helpers import assert_close, rng
from .test_random import randint4x_ref, uniform_ref

_KERNELS = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "kernels")
if _KERNELS not in sys.path:
    sys.path.insert(0, _KERNELS)

import attention  # noqa: E402
import block_ptr_matmul  # noqa: E402
import dropout  # noqa: E402
import layer_norm  # noqa: E402
import matmul  # noqa: E402
import softmax  # noqa: E402
import vector_add  # noqa: E402


@pytest.mark.parametrize("n", [1, 1000, 4097])
@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_vector_add(backend, dtype, n):
    rs = rng(130)
    x = rs.randn(n).astype(dtype)
    y = rs.randn(n).astype(dtype)
    out = np.zeros(n, dtype=dtype)
    block = 1024
    _, _, o = backend.run(vector_add.add_kernel, (n + block - 1) // block, x, y, out, n, BLOCK=block)
    assert_close(o, x + y, dtype)


@pytest.mark.parametrize("rows,cols", [(4, 100), (17, 128), (1, 1000)])
def test_fused_softmax(backend, rows, cols):
    x = rng(131).randn(rows, cols).astype(np.float32)
    out = np.zeros_like(x)
    block = 1 << (cols - 1).bit_length()
    o, _ = backend.run(softmax.softmax_kernel, min(rows, 4), out, x, cols, cols, rows, cols, BLOCK=block,
                       NUM_STAGES=2)
    e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
    assert_close(o, (e / e.sum(axis=1, keepdims=True)).astype(np.float32), "float32", rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("activation", ["", "leaky_relu"])
@pytest.mark.parametrize("m,n,k", [(64, 64, 64), (100, 70, 50)])
def test_matmul(backend, m, n, k, activation):
    rs = rng(132)
    a = (rs.randn(m, k) / 4).astype(np.float16)
    b = (rs.randn(k, n) / 4).astype(np.float16)
    c = np.zeros((m, n), dtype=np.float16)
    bm, bn, bk = 32, 32, 32
    grid = ((m + bm - 1) // bm * ((n + bn - 1) // bn), )
    _, _, out = backend.run(matmul.matmul_kernel, grid, a, b, c, m, n, k, k, 1, n, 1, n, 1, BLOCK_M=bm, BLOCK_N=bn,
                            BLOCK_K=bk, GROUP_M=2, ACTIVATION=activation)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    if activation:
        ref = np.where(ref >= 0, ref, 0.01 * ref)
    assert_close(out, ref.astype(np.float16), "float16", rtol=2e-3, atol=2e-3)


@pytest.mark.parametrize("p", [0.25, 0.5])
def test_dropout(backend, p):
    n, seed = 3000, 123
    x = rng(133).randn(n).astype(np.float32)
    out = np.zeros_like(x)
    _, o = backend.run(dropout.seeded_dropout, (n + 1023) // 1024, x, out, n, p, seed, BLOCK=1024)
    keep = uniform_ref(randint4x_ref(seed, np.arange(n, dtype=np.int32))[0]) > np.float32(p)
    assert_close(o, np.where(keep, x / np.float32(1 - p), 0).astype(np.float32), "float32", rtol=1e-6)
    assert abs((o != 0).mean() - (1 - p)) < 0.05


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("m,n", [(4, 100), (3, 1000)])
def test_layer_norm_forward(backend, m, n, dtype):
    rs = rng(134)
    x = rs.randn(m, n).astype(dtype)
    w = rs.randn(n).astype(dtype)
    b = rs.randn(n).astype(dtype)
    y = np.zeros_like(x)
    mean = np.zeros(m, dtype=np.float32)
    rstd = np.zeros(m, dtype=np.float32)
    eps = 1e-5
    _, yo, _, _, mo, ro = backend.run(layer_norm.layer_norm_fwd, m, x, y, w, b, mean, rstd, n, n, eps, BLOCK=256)
    xf = x.astype(np.float64)
    mu = xf.mean(axis=1)
    var = xf.var(axis=1)
    assert_close(mo, mu.astype(np.float32), "float32", rtol=1e-5, atol=1e-6)
    assert_close(ro, (1 / np.sqrt(var + eps)).astype(np.float32), "float32", rtol=1e-4)
    ref = (xf - mu[:, None]) / np.sqrt(var + eps)[:, None] * w.astype(np.float64) + b.astype(np.float64)
    assert_close(yo, ref.astype(dtype), dtype, rtol=2e-3 if dtype == "float16" else 1e-4, atol=1e-3)


def test_layer_norm_backward(backend):
    m, n, group = 8, 64, 2
    rs = rng(135)
    x = rs.randn(m, n).astype(np.float32)
    w = rs.randn(n).astype(np.float32)
    dy = rs.randn(m, n).astype(np.float32)
    xf = x.astype(np.float64)
    mu = xf.mean(axis=1)
    rstd = 1 / np.sqrt(xf.var(axis=1) + 1e-5)
    dx = np.zeros_like(x)
    dw_part = np.zeros((group, n), dtype=np.float32)
    db_part = np.zeros((group, n), dtype=np.float32)
    locks = np.zeros(2 * group, dtype=np.int32)
    dxo, _, dwp, dbp, _, _, _, _, _ = backend.run(
        layer_norm.layer_norm_bwd_dx, m, dx, dy, dw_part, db_part, x, w, mu.astype(np.float32),
        rstd.astype(np.float32), locks, n, n, GROUP=group, BLOCK=64)
    dw = np.zeros(n, dtype=np.float32)
    db = np.zeros(n, dtype=np.float32)
    _, _, dwo, dbo = backend.run(layer_norm.layer_norm_bwd_dwdb, 1, dwp, dbp, dw, db, group, n, BLOCK_M=2, BLOCK_N=64)
    xhat = (xf - mu[:, None]) * rstd[:, None]
    wdy = w * dy.astype(np.float64)
    c1 = (xhat * wdy).sum(axis=1, keepdims=True) / n
    c2 = wdy.sum(axis=1, keepdims=True) / n
    assert_close(dxo, ((wdy - (xhat * c1 + c2)) * rstd[:, None]).astype(np.float32), "float32", rtol=1e-4,
                 atol=1e-5)
    assert_close(dwo, (dy * xhat).sum(axis=0).astype(np.float32), "float32", rtol=1e-4, atol=1e-4)
    assert_close(dbo, dy.sum(axis=0).astype(np.float32), "float32", rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("causal", [False, True], ids=["full", "causal"])
def test_attention_forward(backend, causal):
    z_, h, n_ctx, d = 1, 2, 64, 16
    bm = bn = 16
    rs = rng(136)
    q = (rs.randn(z_, h, n_ctx, d) / 2).astype(np.float16)
    k = (rs.randn(z_, h, n_ctx, d) / 2).astype(np.float16)
    v = (rs.randn(z_, h, n_ctx, d) / 2).astype(np.float16)
    out = np.zeros_like(q)
    mbuf = np.zeros((z_ * h, n_ctx), dtype=np.float32)
    sm_scale = 0.5
    st = lambda t: (t.strides[0] // 2, t.strides[1] // 2, t.strides[2] // 2, t.strides[3] // 2)  # noqa: E731
    res = backend.run(attention.attn_fwd, (n_ctx // bm, z_ * h), q, k, v, sm_scale, mbuf, out, *st(q), *st(k),
                      *st(v), *st(out), h, n_ctx, HEAD_DIM=d, BLOCK_M=bm, BLOCK_N=bn, STAGE=3 if causal else 1)
    got = res[4]
    s = np.einsum("zhmd,zhnd->zhmn", q.astype(np.float64), k.astype(np.float64)) * sm_scale
    if causal:
        s = np.where(np.tril(np.ones((n_ctx, n_ctx), bool)), s, -np.inf)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p /= p.sum(axis=-1, keepdims=True)
    ref = np.einsum("zhmn,zhnd->zhmd", p, v.astype(np.float64))
    assert_close(got, ref.astype(np.float16), "float16", rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("m,n,k", [(64, 64, 64), (50, 40, 30)])
def test_block_ptr_matmul(backend, m, n, k):
    rs = rng(137)
    a = (rs.randn(m, k) / 4).astype(np.float16)
    b = (rs.randn(k, n) / 4).astype(np.float16)
    c = np.zeros((m, n), dtype=np.float16)
    bm, bn, bk = 32, 32, 16
    _, _, out = backend.run(block_ptr_matmul.matmul_block_ptr, ((m + bm - 1) // bm, (n + bn - 1) // bn), a, b, c, m,
                            n, k, k, 1, n, 1, n, 1, BLOCK_M=bm, BLOCK_N=bn, BLOCK_K=bk)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    assert_close(out, ref.astype(np.float16), "float16", rtol=2e-3, atol=2e-3)
