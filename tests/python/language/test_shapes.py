"""Shape operations: reshape/view, trans/permute, expand_dims and
x[:, None], broadcast_to/broadcast, join/split, cat, ravel, interleave,
sort and flip, and where/minimum/maximum/clamp with broadcasting."""

import itertools

import numpy as np
import pytest

import tritium.language as tl

from .helpers import assert_close, expect_error, io_name, np_value, random_values, rng, tlt


def k_reshape(X, Z, N: tl.constexpr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, VIEW: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    if VIEW:
        y = tl.view(x, (A, B, C))
    else:
        y = tl.reshape(x, A, B, C)
    tl.static_assert(y.shape[0] == A and y.shape[1] == B and y.shape[2] == C)
    offs = tl.arange(0, A)[:, None, None] * (B * C) + tl.arange(0, B)[None, :, None] * C + \
        tl.arange(0, C)[None, None, :]
    tl.store(Z + offs, y)


@pytest.mark.parametrize("shape", [(2, 4, 8), (1, 64, 1), (8, 1, 8), (4, 4, 4), (16, 2, 2)])
@pytest.mark.parametrize("view", [False, True], ids=["reshape", "view"])
def test_reshape(backend, shape, view):
    n = int(np.prod(shape))
    x = random_values("int32", n, rng(100))
    z = np.zeros(n, dtype=np.int32)
    _, out = backend.run(k_reshape, 1, x, z, N=n, A=shape[0], B=shape[1], C=shape[2], VIEW=view)
    if view:
        # view may reorder elements: only the multiset is defined.
        assert sorted(out.tolist()) == sorted(x.tolist())
    else:
        assert_close(out, x)


def k_permute(X, Z, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, P0: tl.constexpr, P1: tl.constexpr,
              P2: tl.constexpr, SPELL: tl.constexpr, D0: tl.constexpr, D1: tl.constexpr, D2: tl.constexpr):
    offs = tl.arange(0, A)[:, None, None] * (B * C) + tl.arange(0, B)[None, :, None] * C + \
        tl.arange(0, C)[None, None, :]
    x = tl.load(X + offs)
    if SPELL == "permute":
        y = tl.permute(x, (P0, P1, P2))
    elif SPELL == "trans":
        y = tl.trans(x, P0, P1, P2)
    else:
        y = x.permute(P0, P1, P2)
    o = tl.arange(0, D0)[:, None, None] * (D1 * D2) + tl.arange(0, D1)[None, :, None] * D2 + \
        tl.arange(0, D2)[None, None, :]
    tl.store(Z + o, y)


PERMS = list(itertools.permutations(range(3)))


@pytest.mark.parametrize("spell", ["permute", "trans", "method"])
@pytest.mark.parametrize("perm", PERMS, ids=["".join(map(str, p)) for p in PERMS])
def test_permute_3d(backend, perm, spell):
    a, b, c = 2, 4, 8
    x = random_values("float32", (a, b, c), rng(101))
    z = np.zeros(a * b * c, dtype=np.float32)
    ref = np.transpose(x, perm)
    _, out = backend.run(k_permute, 1, x, z, A=a, B=b, C=c, P0=perm[0], P1=perm[1], P2=perm[2], SPELL=spell,
                         D0=ref.shape[0], D1=ref.shape[1], D2=ref.shape[2])
    assert_close(out.reshape(ref.shape), ref)


@pytest.mark.parametrize("spell", ["trans", "T", "permute"])
@pytest.mark.parametrize("m,n", [(8, 16), (1, 32), (32, 1), (16, 16)])
def test_trans_2d(backend, m, n, spell):
    x = random_values("int16", (m, n), rng(102))
    z = np.zeros(m * n, dtype=np.int16)
    _, out = backend.run(k_trans2d_inline, 1, x, z, M=m, N=n, SPELL=spell)
    assert_close(out.reshape(n, m), x.T)


def k_trans2d_inline(X, Z, M: tl.constexpr, N: tl.constexpr, SPELL: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    if SPELL == "trans":
        y = tl.trans(x)
    elif SPELL == "T":
        y = x.T
    else:
        y = tl.permute(x, 1, 0)
    tl.store(Z + tl.arange(0, N)[:, None] * M + tl.arange(0, M)[None, :], y)


def k_expand(X, Z, N: tl.constexpr, HOW: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    if HOW == "none_first":
        y = x[None, :]
        tl.store(Z + tl.arange(0, 1)[:, None] * N + tl.arange(0, N)[None, :], y)
    elif HOW == "none_last":
        y = x[:, None]
        tl.store(Z + tl.arange(0, N)[:, None] + tl.arange(0, 1)[None, :], y)
    elif HOW == "expand0":
        y = tl.expand_dims(x, 0)
        tl.static_assert(y.shape[0] == 1)
        tl.store(Z + tl.arange(0, 1)[:, None] * N + tl.arange(0, N)[None, :], y)
    elif HOW == "expand_neg1":
        y = tl.expand_dims(x, -1)
        tl.static_assert(y.shape[1] == 1)
        tl.store(Z + tl.arange(0, N)[:, None] + tl.arange(0, 1)[None, :], y)
    elif HOW == "expand_tuple":
        y = tl.expand_dims(x, (0, 2))
        tl.static_assert(y.shape[0] == 1 and y.shape[1] == N and y.shape[2] == 1)
        tl.store(Z + tl.arange(0, N)[None, :, None], y)
    elif HOW == "ellipsis":
        y = x[..., None]
        tl.static_assert(y.shape[1] == 1)
        tl.store(Z + tl.arange(0, N)[:, None], y)
    elif HOW == "outer":
        y = x[:, None] * x[None, :]
        tl.store(Z + tl.arange(0, N)[:, None] * N + tl.arange(0, N)[None, :], y)


@pytest.mark.parametrize("how", ["none_first", "none_last", "expand0", "expand_neg1", "expand_tuple", "ellipsis",
                                 "outer"])
def test_expand_dims(backend, how):
    n = 16
    x = random_values("int32", n, rng(103), low=-100, high=100)
    z = np.zeros(n * n if how == "outer" else n, dtype=np.int32)
    _, out = backend.run(k_expand, 1, x, z, N=n, HOW=how)
    ref = np.outer(x, x).reshape(-1) if how == "outer" else x
    assert_close(out, ref)


def k_broadcast_to(X, Z, M: tl.constexpr, N: tl.constexpr, HOW: tl.constexpr):
    if HOW == "row":
        x = tl.load(X + tl.arange(0, N))[None, :]
        y = tl.broadcast_to(x, (M, N))
    elif HOW == "col":
        x = tl.load(X + tl.arange(0, M))[:, None]
        y = tl.broadcast_to(x, M, N)
    elif HOW == "scalar":
        x = tl.load(X)
        y = tl.broadcast_to(x, (M, N))
    elif HOW == "method":
        x = tl.load(X + tl.arange(0, N))[None, :]
        y = x.broadcast_to(M, N)
    else:
        a = tl.load(X + tl.arange(0, M))[:, None]
        b = tl.load(X + tl.arange(0, N))[None, :]
        a2, b2 = tl.broadcast(a, b)
        tl.static_assert(a2.shape[0] == M and a2.shape[1] == N and b2.shape[0] == M)
        y = a2 * 1000 + b2
    tl.store(Z + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], y)


@pytest.mark.parametrize("how", ["row", "col", "scalar", "method", "broadcast"])
@pytest.mark.parametrize("m,n", [(4, 16), (16, 4), (1, 8)])
def test_broadcast_to(backend, how, m, n):
    x = random_values("int32", 32, rng(104), low=-100, high=100)
    z = np.zeros(m * n, dtype=np.int32)
    _, out = backend.run(k_broadcast_to, 1, x, z, M=m, N=n, HOW=how)
    ref = {"row": np.broadcast_to(x[:n][None, :], (m, n)), "method": np.broadcast_to(x[:n][None, :], (m, n)),
           "col": np.broadcast_to(x[:m][:, None], (m, n)), "scalar": np.full((m, n), x[0]),
           "broadcast": x[:m][:, None] * 1000 + x[:n][None, :]}[how]
    assert_close(out.reshape(m, n), ref)


def k_join_split(X, Y, Z, W, N: tl.constexpr, T: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs).to(T)
    y = tl.load(Y + offs).to(T)
    j = tl.join(x, y)
    tl.static_assert(j.shape[0] == N and j.shape[1] == 2)
    tl.store(Z + offs[:, None] * 2 + tl.arange(0, 2)[None, :], j.to(X.dtype.element_ty))
    a, b = tl.split(j)
    tl.store(W + offs, (a - b).to(X.dtype.element_ty))


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "float16", "bfloat16", "float32", "float64", "uint16"])
def test_join_split(backend, dtype):
    rs = rng(105)
    n = 32
    x = random_values(dtype, n, rs, low=0, high=50)
    y = random_values(dtype, n, rs, low=0, high=50)
    z = np.zeros(2 * n, dtype=x.dtype)
    w = np.zeros(n, dtype=x.dtype)
    _, _, out, diff = backend.run(k_join_split, 1, x, y, z, w, N=n, T=tlt(dtype))
    assert_close(out.reshape(n, 2), np.stack([x, y], axis=1))
    with np.errstate(over="ignore"):
        assert_close(diff, np_value((x - y), dtype), dtype)


def k_join_split_2d(X, Y, Z, M: tl.constexpr, N: tl.constexpr):
    o = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    j = tl.join(tl.load(X + o), tl.load(Y + o))
    tl.store(Z + o[:, :, None] * 2 + tl.arange(0, 2)[None, None, :], j)


def test_join_2d(backend):
    x = random_values("float32", (4, 8), rng(106))
    y = random_values("float32", (4, 8), rng(107))
    z = np.zeros(64, dtype=np.float32)
    _, _, out = backend.run(k_join_split_2d, 1, x, y, z, M=4, N=8)
    assert_close(out.reshape(4, 8, 2), np.stack([x, y], axis=-1))


def k_interleave(X, Y, Z, N: tl.constexpr, TWO_D: tl.constexpr):
    if TWO_D:
        o = tl.arange(0, 4)[:, None] * N + tl.arange(0, N)[None, :]
        r = tl.interleave(tl.load(X + o), tl.load(Y + o))
        tl.store(Z + tl.arange(0, 4)[:, None] * (2 * N) + tl.arange(0, 2 * N)[None, :], r)
    else:
        o = tl.arange(0, N)
        r = tl.interleave(tl.load(X + o), tl.load(Y + o))
        tl.store(Z + tl.arange(0, 2 * N), r)


@pytest.mark.parametrize("two_d", [False, True], ids=["1d", "2d"])
@pytest.mark.parametrize("n", [2, 16])
def test_interleave(backend, n, two_d):
    shape = (4, n) if two_d else (n, )
    x = random_values("int32", shape, rng(108))
    y = random_values("int32", shape, rng(109))
    z = np.zeros(2 * x.size, dtype=np.int32)
    _, _, out = backend.run(k_interleave, 1, x, y, z, N=n, TWO_D=two_d)
    ref = np.stack([x, y], axis=-1).reshape(*shape[:-1], 2 * n)
    assert_close(out.reshape(ref.shape), ref)


def k_cat(X, Y, Z, N: tl.constexpr):
    o = tl.arange(0, N)
    r = tl.cat(tl.load(X + o), tl.load(Y + o), can_reorder=True)
    tl.static_assert(r.shape[0] == 2 * N)
    tl.store(Z + tl.arange(0, 2 * N), r)


@pytest.mark.parametrize("n", [1, 16, 64])
def test_cat(backend, n):
    x = random_values("int32", n, rng(110))
    y = random_values("int32", n, rng(111))
    z = np.zeros(2 * n, dtype=np.int32)
    _, _, out = backend.run(k_cat, 1, x, y, z, N=n)
    # can_reorder: the order of the elements is not defined.
    assert sorted(out.tolist()) == sorted(np.concatenate([x, y]).tolist())


def k_ravel(X, Z, M: tl.constexpr, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    r = tl.ravel(x)
    tl.static_assert(len(r.shape) == 1)
    tl.store(Z + tl.arange(0, M * N), r)


@pytest.mark.parametrize("m,n", [(4, 8), (1, 16), (16, 1)])
def test_ravel(backend, m, n):
    x = random_values("float32", (m, n), rng(112))
    z = np.zeros(m * n, dtype=np.float32)
    _, out = backend.run(k_ravel, 1, x, z, M=m, N=n)
    assert_close(out, x.reshape(-1))


def k_sort(X, Z, M: tl.constexpr, N: tl.constexpr, DESC: tl.constexpr, T: tl.constexpr, FLIP: tl.constexpr):
    o = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + o).to(T)
    if FLIP:
        y = tl.flip(x, 1)
    else:
        y = tl.sort(x, descending=DESC)
    tl.store(Z + o, y.to(X.dtype.element_ty))


SORT_DTYPES = ["int8", "int32", "uint32", "int64", "float16", "bfloat16", "float32", "float64"]


@pytest.mark.parametrize("desc", [False, True], ids=["asc", "desc"])
@pytest.mark.parametrize("m,n", [(1, 16), (4, 32), (2, 128), (8, 2)])
@pytest.mark.parametrize("dtype", SORT_DTYPES)
def test_sort(backend, dtype, m, n, desc):
    x = random_values(dtype, (m, n), rng(113), low=-50 if dtype[0] != "u" else 0, high=50) \
        if dtype.startswith("float") or dtype == "bfloat16" else random_values(dtype, (m, n), rng(113), special=True)
    z = np.zeros((m, n), dtype=x.dtype)
    _, out = backend.run(k_sort, 1, x, z, M=m, N=n, DESC=desc, T=tlt(dtype), FLIP=False)
    ref = np.sort(x, axis=1)
    if desc:
        ref = ref[:, ::-1]
    assert_close(out, ref, dtype, rtol=0)


def k_topk(X, Z, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(Z + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :], tl.topk(x, K))


@pytest.mark.parametrize("m,n,k", [(1, 16, 1), (4, 32, 8), (2, 64, 64), (8, 2, 2)])
@pytest.mark.parametrize("dtype", ["int32", "uint32", "float16", "float32"])
def test_topk(backend, dtype, m, n, k):
    x = random_values(dtype, (m, n), rng(115), low=0 if dtype[0] == "u" else -50, high=50)
    z = np.zeros((m, k), dtype=x.dtype)
    _, out = backend.run(k_topk, 1, x, z, M=m, N=n, K=k)
    assert_close(out, np.sort(x, axis=1)[:, ::-1][:, :k], dtype, rtol=0)  # the k largest, largest first


@pytest.mark.parametrize("m,n", [(1, 16), (4, 32), (2, 2), (8, 1)])
@pytest.mark.parametrize("dtype", ["int32", "float16", "float64"])
def test_flip(backend, dtype, m, n):
    x = random_values(dtype, (m, n), rng(114), low=-50, high=50)
    z = np.zeros((m, n), dtype=x.dtype)
    _, out = backend.run(k_sort, 1, x, z, M=m, N=n, DESC=False, T=tlt(dtype), FLIP=True)
    assert_close(out, x[:, ::-1], dtype, rtol=0)


def k_flip_1d(X, Z, N: tl.constexpr):
    tl.store(Z + tl.arange(0, N), tl.flip(tl.load(X + tl.arange(0, N))))


def test_flip_1d_default_dim(backend):
    x = random_values("int32", 64, rng(115))
    z = np.zeros(64, dtype=np.int32)
    _, out = backend.run(k_flip_1d, 1, x, z, N=64)
    assert_close(out, x[::-1])


# ---------------------------------------------------------------------------
# where / minimum / maximum / clamp with broadcasting
# ---------------------------------------------------------------------------


def k_where(C, X, Y, Z, M: tl.constexpr, N: tl.constexpr, HOW: tl.constexpr, T: tl.constexpr, RT: tl.constexpr,
            ZIO: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    c = tl.load(C + rm * N + rn) != 0
    if HOW == "blocks":
        r = tl.where(c, tl.load(X + rm * N + rn).to(T), tl.load(Y + rm * N + rn).to(T))
    elif HOW == "row_col":
        r = tl.where(c, tl.load(X + rn).to(T), tl.load(Y + rm).to(T))
    elif HOW == "scalar_else":
        r = tl.where(c, tl.load(X + rm * N + rn).to(T), 0)
    elif HOW == "scalar_then":
        r = tl.where(c, 2.5, tl.load(Y + rm * N + rn).to(T))
    elif HOW == "scalar_cond":
        r = tl.where(tl.load(C) != 0, tl.load(X + rm * N + rn).to(T), tl.load(Y + rm * N + rn).to(T))
    elif HOW == "col_cond":
        c1 = tl.load(C + rm) != 0
        r = tl.where(c1, tl.load(X + rm * N + rn).to(T), tl.load(Y + rn).to(T))
    tl.static_assert(RT == r.dtype)
    tl.store(Z + rm * N + rn, r.to(ZIO))


WHERE_HOW = ["blocks", "row_col", "scalar_else", "scalar_then", "scalar_cond", "col_cond"]


@pytest.mark.parametrize("how", WHERE_HOW)
@pytest.mark.parametrize("dtype", ["int8", "int32", "uint64", "float16", "bfloat16", "float32", "float64"])
def test_where(backend, dtype, how):
    m, n = 8, 16
    rs = rng(116)
    c = rs.randint(0, 2, size=(m, n)).astype(np.int8)
    x = random_values(dtype, (m, n), rs, special=True)
    y = random_values(dtype, (m, n), rs, special=True)
    rt = dtype
    if how == "scalar_then" and not dtype.startswith("float") and dtype != "bfloat16":
        rt = "float32"  # an int block and a float literal: fp32
    z = np.zeros((m, n), dtype=np.dtype(io_name(rt)))
    _, _, _, out = backend.run(k_where, 1, c, x, y, z, M=m, N=n, HOW=how, T=tlt(dtype), RT=tlt(rt),
                               ZIO=tlt(io_name(rt)))
    cb = c != 0
    xr = np.broadcast_to(x.reshape(-1)[:n][None, :], (m, n))
    yc = np.broadcast_to(y.reshape(-1)[:m][:, None], (m, n))
    ref = {"blocks": np.where(cb, x, y), "row_col": np.where(cb, xr, yc),
           "scalar_else": np.where(cb, x, np.zeros_like(x)),
           "scalar_then": np.where(cb, np.array(2.5), np_value(y, rt)),
           "scalar_cond": x if c.reshape(-1)[0] else y,
           "col_cond": np.where(np.broadcast_to((c.reshape(-1)[:m] != 0)[:, None], (m, n)), x,
                                np.broadcast_to(y.reshape(-1)[:n][None, :], (m, n)))}[how]
    assert_close(out, np_value(ref, rt), rt, rtol=0)


def k_minmax_bcast(X, Y, Z, M: tl.constexpr, N: tl.constexpr, FN: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(X + rm * N + rn)
    y = tl.load(Y + rn)
    if FN == "minimum":
        r = tl.minimum(x, y)
    elif FN == "maximum":
        r = tl.maximum(y, x)
    elif FN == "clamp":
        lo = tl.load(Y + rm) - 1.0
        r = tl.clamp(x, lo, lo + 2.0)
    elif FN == "minimum_scalar":
        r = tl.minimum(x, 0.25)
    tl.store(Z + rm * N + rn, r)


@pytest.mark.parametrize("fn", ["minimum", "maximum", "clamp", "minimum_scalar"])
def test_minmax_clamp_broadcast(backend, fn):
    m, n = 8, 16
    rs = rng(117)
    x = random_values("float32", (m, n), rs, low=-3, high=3)
    y = random_values("float32", 16, rs, low=-3, high=3)
    z = np.zeros((m, n), dtype=np.float32)
    _, _, out = backend.run(k_minmax_bcast, 1, x, y, z, M=m, N=n, FN=fn)
    if fn == "minimum":
        ref = np.minimum(x, y[None, :n])
    elif fn == "maximum":
        ref = np.maximum(x, y[None, :n])
    elif fn == "clamp":
        lo = y[:m][:, None] - 1.0
        ref = np.clip(x, lo, lo + 2.0)
    else:
        ref = np.minimum(x, 0.25)
    assert_close(out, ref.astype(np.float32))


def k_shape_err(X, CASE: tl.constexpr):
    x = tl.load(X + tl.arange(0, 16))
    if CASE == "reshape_numel":
        tl.reshape(x, (4, 8))
    elif CASE == "split_not_2":
        tl.split(tl.reshape(x, (4, 4)))
    elif CASE == "join_mismatch":
        tl.join(x, tl.load(X + tl.arange(0, 8)))
    elif CASE == "broadcast_bad":
        tl.broadcast_to(x, (4, 8))
    elif CASE == "permute_bad":
        tl.permute(tl.reshape(x, (4, 4)), (0, 0))
    elif CASE == "index_int":
        x[0]
    elif CASE == "bcast_binary":
        x + tl.load(X + tl.arange(0, 8))
    elif CASE == "arange_non_pow2":
        tl.arange(0, 12)
    elif CASE == "expand_dup":
        tl.expand_dims(x, (0, 0))


@pytest.mark.parametrize("case", ["reshape_numel", "split_not_2", "join_mismatch", "broadcast_bad", "permute_bad",
                                  "index_int", "bcast_binary", "arange_non_pow2", "expand_dup"])
def test_shape_errors(backend, case):
    x = np.zeros(16, dtype=np.float32)
    expect_error(backend.run, k_shape_err, 1, x, CASE=case)
