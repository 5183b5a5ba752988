"""The tutorial kernels of tests/python/kernels run on the interpreter and
match numpy references, on several shapes including ragged ones."""

import numpy as np
import pytest

import tritium

import attention
import block_ptr_matmul
import dropout
import layer_norm
import matmul
import softmax
import vector_add

pytestmark = pytest.mark.usefixtures("interpret")


def _rng(seed=0):
    return np.random.default_rng(seed)


@pytest.mark.parametrize("n,block", [(1, 128), (1000, 128), (4096, 1024), (98432, 1024), (12345, 256)])
@pytest.mark.parametrize("dtype", [np.float32, np.float16, np.int32])
def test_vector_add(n, block, dtype):
    r = _rng(n)
    x = (r.standard_normal(n) * 100).astype(dtype)
    y = (r.standard_normal(n) * 100).astype(dtype)
    out = np.full(n, 7, dtype=dtype)
    vector_add.add_kernel[(tritium.cdiv(n, block),)](x, y, out, n, BLOCK=block)
    np.testing.assert_array_equal(out, x + y)


def test_vector_add_leaves_the_rest_alone():
    x = np.ones(300, np.float32)
    out = np.full(512, -1.0, np.float32)
    vector_add.add_kernel[(3,)](x, x, out, 300, BLOCK=128)
    assert (out[:300] == 2).all() and (out[300:] == -1).all()


def _softmax_ref(x):
    e = np.exp(x - x.max(1, keepdims=True))
    return e / e.sum(1, keepdims=True)


@pytest.mark.parametrize("rows,cols,programs", [(1, 1, 1), (7, 100, 3), (33, 1000, 4), (64, 128, 64)])
def test_softmax(rows, cols, programs):
    x = _rng(rows).standard_normal((rows, cols)).astype(np.float32)
    y = np.zeros_like(x)
    block = tritium.next_power_of_2(cols)
    softmax.softmax_kernel[(programs,)](y, x, x.strides[0] // 4, y.strides[0] // 4, rows, cols, BLOCK=block,
                                        NUM_STAGES=2)
    np.testing.assert_allclose(y, _softmax_ref(x), rtol=1e-5, atol=1e-6)


def _strides(a):
    return [s // a.itemsize for s in a.strides]


@pytest.mark.parametrize("M,N,K", [(64, 64, 64), (100, 70, 50), (17, 129, 33), (1, 1, 1)])
@pytest.mark.parametrize("dtype,activation", [(np.float16, ""), (np.float32, "leaky_relu")])
def test_matmul(M, N, K, dtype, activation):
    r = _rng(M * N + K)
    a = r.standard_normal((M, K)).astype(dtype)
    b = r.standard_normal((K, N)).astype(dtype)
    c = np.zeros((M, N), np.float16)
    BM, BN, BK = 32, 32, 16
    grid = (tritium.cdiv(M, BM) * tritium.cdiv(N, BN),)
    matmul.matmul_kernel[grid](a, b, c, M, N, K, *_strides(a), *_strides(b), *_strides(c), BLOCK_M=BM, BLOCK_N=BN,
                               BLOCK_K=BK, GROUP_M=4, ACTIVATION=activation)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    if activation:
        ref = np.where(ref >= 0, ref, 0.01 * ref)
    np.testing.assert_allclose(c.astype(np.float64), ref, rtol=2e-3, atol=2e-2)


@pytest.mark.parametrize("M,N,K", [(64, 64, 64), (100, 70, 50), (33, 17, 65)])
def test_block_pointer_matmul(M, N, K):
    r = _rng(M + N + K)
    a = r.standard_normal((M, K)).astype(np.float16)
    b = r.standard_normal((K, N)).astype(np.float16)
    c = np.full((M, N), 99, np.float16)
    grid = (tritium.cdiv(M, 32), tritium.cdiv(N, 32))
    block_ptr_matmul.matmul_block_ptr[grid](a, b, c, M, N, K, *_strides(a), *_strides(b), *_strides(c), BLOCK_M=32,
                                            BLOCK_N=32, BLOCK_K=16)
    ref = a.astype(np.float64) @ b.astype(np.float64)
    np.testing.assert_allclose(c.astype(np.float64), ref, rtol=2e-3, atol=2e-2)


def philox_numpy(seed, c0, c1=None, c2=None, c3=None, rounds=10):
    """Philox 4x32 (Random123) on uint32 arrays."""
    c0 = np.asarray(c0, np.uint32)
    z = np.zeros_like(c0)
    c = [c0, z if c1 is None else np.asarray(c1, np.uint32), z if c2 is None else np.asarray(c2, np.uint32),
         z if c3 is None else np.asarray(c3, np.uint32)]
    k0, k1 = np.uint32(seed & 0xFFFFFFFF), np.uint32(seed >> 32)
    for _ in range(rounds):
        p0 = c[0].astype(np.uint64) * np.uint64(0xD2511F53)
        p1 = c[2].astype(np.uint64) * np.uint64(0xCD9E8D57)
        c = [(p1 >> np.uint64(32)).astype(np.uint32) ^ c[1] ^ k0, p1.astype(np.uint32),
             (p0 >> np.uint64(32)).astype(np.uint32) ^ c[3] ^ k1, p0.astype(np.uint32)]
        k0 = np.uint32((int(k0) + 0x9E3779B9) & 0xFFFFFFFF)
        k1 = np.uint32((int(k1) + 0xBB67AE85) & 0xFFFFFFFF)
    return c


def uniform_numpy(bits):
    x = bits.view(np.int32).astype(np.int64)
    x = np.where(x < 0, -x - 1, x).astype(np.int32)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


@pytest.mark.parametrize("n,block,seed,p", [(1000, 256, 123, 0.5), (4096, 1024, 2**40 + 5, 0.25), (7, 128, 0, 0.9)])
def test_dropout(n, block, seed, p):
    x = _rng(n).standard_normal(n).astype(np.float32) + 3
    out = np.zeros_like(x)
    dropout.seeded_dropout[(tritium.cdiv(n, block),)](x, out, n, p, seed, BLOCK=block)
    keep = uniform_numpy(philox_numpy(seed, np.arange(n))[0]) > np.float32(p)
    ref = np.where(keep, x / (np.float32(1) - np.float32(p)), np.float32(0))
    np.testing.assert_array_equal(out, ref)
    out2 = np.zeros_like(x)
    dropout.seeded_dropout[(tritium.cdiv(n, block),)](x, out2, n, p, seed, BLOCK=block)
    np.testing.assert_array_equal(out, out2)


def _layer_norm_ref(x, w, b, eps):
    mu = x.mean(1, keepdims=True)
    var = ((x - mu) ** 2).mean(1, keepdims=True)
    rstd = 1 / np.sqrt(var + eps)
    return (x - mu) * rstd * w + b, mu[:, 0], rstd[:, 0]


@pytest.mark.parametrize("M,N,block", [(1, 1, 16), (7, 300, 128), (16, 1024, 256), (5, 777, 1024)])
def test_layer_norm_forward(M, N, block):
    r = _rng(M * N)
    x = r.standard_normal((M, N)).astype(np.float32)
    w = r.standard_normal(N).astype(np.float32)
    b = r.standard_normal(N).astype(np.float32)
    y = np.zeros_like(x)
    mean = np.zeros(M, np.float32)
    rstd = np.zeros(M, np.float32)
    layer_norm.layer_norm_fwd[(M,)](x, y, w, b, mean, rstd, x.strides[0] // 4, N, 1e-5, BLOCK=block)
    ref, mu, rs = _layer_norm_ref(x.astype(np.float64), w, b, 1e-5)
    np.testing.assert_allclose(y, ref, rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(mean, mu, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(rstd, rs, rtol=1e-4)


@pytest.mark.parametrize("M,N,group", [(8, 100, 4), (33, 256, 8), (3, 1000, 16)])
def test_layer_norm_backward_with_lock(M, N, group):
    r = _rng(M + N)
    x = r.standard_normal((M, N)).astype(np.float32)
    w = r.standard_normal(N).astype(np.float32)
    b = r.standard_normal(N).astype(np.float32)
    dy = r.standard_normal((M, N)).astype(np.float32)
    _, mu, rs = _layer_norm_ref(x.astype(np.float64), w, b, 1e-5)
    mean, rstd = mu.astype(np.float32), rs.astype(np.float32)
    dx = np.zeros_like(x)
    block = tritium.next_power_of_2(N)
    dw_part = np.zeros((group, N), np.float32)
    db_part = np.zeros((group, N), np.float32)
    lock = np.zeros(2 * group, np.int32)
    layer_norm.layer_norm_bwd_dx[(M,)](dx, dy, dw_part, db_part, x, w, mean, rstd, lock, N, N, GROUP=group,
                                      BLOCK=block)
    assert (lock[:group] == 0).all(), "every lock is released"
    dw = np.zeros(N, np.float32)
    db = np.zeros(N, np.float32)
    layer_norm.layer_norm_bwd_dwdb[(tritium.cdiv(N, 128),)](dw_part, db_part, dw, db, group, N, BLOCK_M=32,
                                                           BLOCK_N=128)
    xhat = (x - mean[:, None]) * rstd[:, None]
    wdy = w * dy
    c1 = (xhat * wdy).sum(1, keepdims=True) / N
    c2 = wdy.sum(1, keepdims=True) / N
    np.testing.assert_allclose(dx, (wdy - (xhat * c1 + c2)) * rstd[:, None], rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(dw, (dy * xhat).sum(0), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(db, dy.sum(0), rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("stage", [1, 3])
@pytest.mark.parametrize("Z,H,n_ctx,block_m,block_n", [(1, 2, 128, 64, 32), (2, 1, 64, 32, 32)])
def test_attention(stage, Z, H, n_ctx, block_m, block_n):
    D = 64
    r = _rng(stage + n_ctx)
    q = (r.standard_normal((Z, H, n_ctx, D)) * 0.5).astype(np.float16)
    k = (r.standard_normal((Z, H, n_ctx, D)) * 0.5).astype(np.float16)
    v = r.standard_normal((Z, H, n_ctx, D)).astype(np.float16)
    o = np.zeros_like(q)
    m = np.zeros((Z * H, n_ctx), np.float32)
    sm_scale = 0.5
    attention.attn_fwd[(n_ctx // block_m, Z * H)](q, k, v, sm_scale, m, o, *_strides(q), *_strides(k), *_strides(v),
                                                  *_strides(o), H, n_ctx, HEAD_DIM=D, BLOCK_M=block_m,
                                                  BLOCK_N=block_n, STAGE=stage)
    s = (q.astype(np.float64) @ k.astype(np.float64).transpose(0, 1, 3, 2)) * sm_scale
    if stage == 3:
        s = np.where(np.tril(np.ones((n_ctx, n_ctx), bool)), s, -np.inf)
    p = np.exp(s - s.max(-1, keepdims=True))
    lse2 = (np.log(p.sum(-1)) + s.max(-1)) / np.log(2)
    p /= p.sum(-1, keepdims=True)
    np.testing.assert_allclose(o.astype(np.float64), p @ v.astype(np.float64), rtol=1e-2, atol=1e-2)
    np.testing.assert_allclose(m.reshape(Z, H, n_ctx), lse2, rtol=1e-3, atol=1e-3)
