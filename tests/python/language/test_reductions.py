"""Reductions and scans: sum, max, min, argmax, argmin (tie_break_left),
xor_sum, reduce_or, cumsum, cumprod, associative_scan and tl.reduce with
custom @jit combine functions (tuple inputs: Welford), on axis 0/1/None
with keep_dims, over 1-d and 2-d blocks of several sizes and dtypes.

Result dtypes follow Triton: sum (and cumsum) of integers narrower than 32
bits is 32-bit of the same signedness (int1 counts as unsigned); max/min
of types narrower than 32 bits are int32/fp32; scans of bf16 are fp32;
argmax/argmin give int32."""

import numpy as np
import pytest

import tritium
import tritium.language as tl

from .helpers import (assert_close, bits, expect_error, io_name, is_float, is_int, np_value, random_values, rng,
                      tlt)

# (shape, axis): 1-d blocks are [N]; 2-d ones [M, N].
SHAPE_AXES = [((128, ), 0), ((128, ), None), ((1, ), 0), ((8, 16), 0), ((8, 16), 1), ((8, 16), None), ((32, 4), 1),
              ((2, 64), 0)]
SA_IDS = [f"{'x'.join(map(str, s))}-ax{a}" for s, a in SHAPE_AXES]


def k_reduce(X, Z, M: tl.constexpr, N: tl.constexpr, TWO_D: tl.constexpr, OP: tl.constexpr, AXIS: tl.constexpr,
             KEEP: tl.constexpr, T: tl.constexpr, RT: tl.constexpr, ZIO: tl.constexpr, RM: tl.constexpr,
             RN: tl.constexpr, RANK: tl.constexpr, TIE: tl.constexpr):
    if TWO_D:
        x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]).to(T)
    else:
        x = tl.load(X + tl.arange(0, N)).to(T)
    if OP == "sum":
        r = tl.sum(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "max":
        r = tl.max(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "min":
        r = tl.min(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "argmax":
        r = tl.argmax(x, axis=AXIS, tie_break_left=TIE, keep_dims=KEEP)
    elif OP == "argmin":
        r = tl.argmin(x, axis=AXIS, tie_break_left=TIE, keep_dims=KEEP)
    elif OP == "xor_sum":
        r = tl.xor_sum(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "reduce_or":
        r = tl.reduce_or(x, axis=AXIS, keep_dims=KEEP)
    elif OP == "method_sum":
        r = x.sum(axis=AXIS, keep_dims=KEEP)
    elif OP == "method_max":
        r = x.max(AXIS, keep_dims=KEEP)
    tl.static_assert(RT == r.dtype, "unexpected result dtype")
    tl.static_assert(len(r.shape) == RANK, "unexpected result rank")
    if RANK == 0:
        tl.store(Z, r.to(ZIO))
    elif RANK == 1:
        tl.store(Z + tl.arange(0, RN), r.to(ZIO))
    else:
        tl.store(Z + tl.arange(0, RM)[:, None] * RN + tl.arange(0, RN)[None, :], r.to(ZIO))


def _sum_dtype(name):
    if is_int(name) and bits(name) < 32:
        return "uint32" if name.startswith("u") or name == "int1" else "int32"
    return name


def _minmax_dtype(name):
    if name == "bfloat16" or (bits(name) < 32):
        return "float32" if is_float(name) else "int32"
    return name


def result_dtype(op, name):
    if op in ("sum", "method_sum"):
        return _sum_dtype(name)
    if op in ("max", "min", "method_max"):
        return _minmax_dtype(name)
    if op in ("argmax", "argmin"):
        return "int32"
    return name


def _result_shape(shape, axis, keep):
    if axis is None:
        return tuple(1 for _ in shape) if keep else ()
    out = list(shape)
    if keep:
        out[axis] = 1
    else:
        del out[axis]
    return tuple(out)


def run_reduce(backend, op, x, dtype, shape, axis, keep, tie=True):
    rdt = result_dtype(op, dtype)
    rshape = _result_shape(shape, axis, keep)
    rank = len(rshape)
    rm, rn = (rshape[0], rshape[1]) if rank == 2 else (1, rshape[0] if rank == 1 else 1)
    z = np.zeros(max(1, int(np.prod(rshape))), dtype=np.dtype(io_name(rdt)))
    two_d = len(shape) == 2
    _, out = backend.run(k_reduce, 1, x, z, M=shape[0] if two_d else 1, N=shape[-1], TWO_D=two_d, OP=op, AXIS=axis,
                         KEEP=keep, T=tlt(dtype), RT=tlt(rdt), ZIO=tlt(io_name(rdt)), RM=rm, RN=rn, RANK=rank,
                         TIE=tie)
    return out.reshape(rshape), rdt


def _values(dtype, shape, rs, exact_sums=False):
    """Random values; with exact_sums small integers whose sums are exact
    in every float type (in any order)."""
    if is_float(dtype) and exact_sums:
        lim = {"float16": 8, "bfloat16": 2}.get(dtype, 1000)
        return np_value(rs.randint(-lim, lim + 1, size=shape).astype(np.float64), dtype)
    return random_values(dtype, shape, rs, special=not is_float(dtype))


REDUCE_DTYPES = ["int1", "int8", "int16", "int32", "int64", "uint8", "uint32", "float16", "bfloat16", "float32",
                 "float64"]


@pytest.mark.parametrize("keep", [False, True], ids=["", "keep"])
@pytest.mark.parametrize("shape,axis", SHAPE_AXES, ids=SA_IDS)
@pytest.mark.parametrize("dtype", REDUCE_DTYPES)
@pytest.mark.parametrize("op", ["sum", "max", "min"])
def test_reduce(backend, op, dtype, shape, axis, keep):
    x = _values(dtype, shape, rng(40), exact_sums=True)
    out, rdt = run_reduce(backend, op, x, dtype, shape, axis, keep)
    xv = np_value(x, rdt) if op == "sum" else x
    with np.errstate(over="ignore"):
        if op == "sum":
            ref = np.sum(xv, axis=axis, keepdims=keep, dtype=np.dtype(io_name(rdt)))
        elif op == "max":
            ref = np.max(xv, axis=axis, keepdims=keep)
        else:
            ref = np.min(xv, axis=axis, keepdims=keep)
    assert_close(out, np_value(ref, rdt), rdt, rtol=0)


@pytest.mark.parametrize("op", ["method_sum", "method_max"])
@pytest.mark.parametrize("shape,axis", [((8, 16), 0), ((8, 16), 1), ((128, ), 0)])
def test_reduce_methods(backend, op, shape, axis):
    x = _values("float32", shape, rng(41), exact_sums=True)
    out, rdt = run_reduce(backend, op, x, "float32", shape, axis, False)
    ref = x.sum(axis=axis) if op == "method_sum" else x.max(axis=axis)
    assert_close(out, ref, "float32", rtol=0)


def test_sum_float_accuracy(backend):
    """A sum of 1024 random floats is within float32 rounding of the exact sum."""
    x = random_values("float32", (1024, ), rng(42))
    out, _ = run_reduce(backend, "sum", x, "float32", (1024, ), 0, False)
    ref = x.astype(np.float64).sum()
    assert abs(float(out) - ref) <= 1e-6 * np.abs(x).sum()


ARG_DTYPES = ["int8", "int32", "uint32", "int64", "float16", "bfloat16", "float32", "float64"]


@pytest.mark.parametrize("tie", [True, False], ids=["left", "any"])
@pytest.mark.parametrize("shape,axis", [sa for sa in SHAPE_AXES if sa[0] != (1, )],
                         ids=[i for i, sa in zip(SA_IDS, SHAPE_AXES) if sa[0] != (1, )])
@pytest.mark.parametrize("dtype", ARG_DTYPES)
@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_argmin_argmax(backend, op, dtype, shape, axis, tie):
    rs = rng(43)
    # Few distinct values: many ties.
    x = np_value(rs.randint(0, 6, size=shape).astype(np.float64), dtype)
    out, _ = run_reduce(backend, op, x, dtype, shape, axis, False, tie=tie)
    flat = x.reshape(-1) if axis is None else x
    ax = 0 if axis is None else axis
    best = (np.max if op == "argmax" else np.min)(flat, axis=ax)
    if tie:
        ref = (np.argmax if op == "argmax" else np.argmin)(flat, axis=ax)
        assert_close(out, ref.astype(np.int32))
    else:
        # Any index of an extremum.
        got = np.take_along_axis(flat, np.expand_dims(out.astype(np.int64), ax), axis=ax).squeeze(ax)
        assert_close(got, best)


@pytest.mark.parametrize("dtype", ["uint8", "uint16", "uint32", "uint64"])
@pytest.mark.parametrize("op", ["argmax", "argmin"])
def test_argmin_argmax_unsigned_high_bit(backend, op, dtype):
    """Unsigned values with the top bit set are the largest, not negative."""
    top = np.iinfo(np.dtype(dtype)).max
    x = np.array([5, top, 7, top - 1, 0, 3, top // 2 + 1, 1] * 16, dtype=dtype).reshape(8, 16)
    out, _ = run_reduce(backend, op, x, dtype, (8, 16), 1, False)
    ref = (np.argmax if op == "argmax" else np.argmin)(x, axis=1)
    assert_close(out, ref.astype(np.int32))


@pytest.mark.parametrize("shape,axis", [((8, 16), 0), ((8, 16), 1), ((8, 16), None)])
def test_argmax_keep_dims(backend, shape, axis):
    x = random_values("float32", shape, rng(44))
    out, _ = run_reduce(backend, "argmax", x, "float32", shape, axis, True)
    ref = np.argmax(x.reshape(-1) if axis is None else x, axis=0 if axis is None else axis)
    assert_close(out, np.reshape(ref, _result_shape(shape, axis, True)).astype(np.int32))


def k_max_indices(X, V, I, M: tl.constexpr, N: tl.constexpr, AXIS: tl.constexpr, IS_MAX: tl.constexpr):
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    if IS_MAX:
        v, i = tl.max(x, axis=AXIS, return_indices=True)
    else:
        v, i = tl.min(x, axis=AXIS, return_indices=True)
    tl.static_assert(i.dtype == tl.int32)
    if AXIS == 0:
        tl.store(V + tl.arange(0, N), v)
        tl.store(I + tl.arange(0, N), i)
    else:
        tl.store(V + tl.arange(0, M), v)
        tl.store(I + tl.arange(0, M), i)


@pytest.mark.parametrize("is_max", [True, False], ids=["max", "min"])
@pytest.mark.parametrize("axis", [0, 1])
@pytest.mark.parametrize("dtype", ["float32", "int32"])
def test_max_min_return_indices(backend, dtype, axis, is_max):
    x = random_values(dtype, (8, 16), rng(45), special=dtype == "int32")
    n = 16 if axis == 0 else 8
    v = np.zeros(n, dtype=dtype)
    i = np.zeros(n, dtype=np.int32)
    _, vo, io = backend.run(k_max_indices, 1, x, v, i, M=8, N=16, AXIS=axis, IS_MAX=is_max)
    assert_close(vo, (np.max if is_max else np.min)(x, axis=axis))
    assert_close(io, (np.argmax if is_max else np.argmin)(x, axis=axis).astype(np.int32))


BIT_DTYPES = ["int8", "int16", "int32", "int64", "uint8", "uint32", "uint64"]


@pytest.mark.parametrize("shape,axis", SHAPE_AXES, ids=SA_IDS)
@pytest.mark.parametrize("dtype", BIT_DTYPES)
@pytest.mark.parametrize("op", ["xor_sum", "reduce_or"])
def test_bitwise_reductions(backend, op, dtype, shape, axis):
    x = random_values(dtype, shape, rng(46), special=True)
    if op == "reduce_or":
        # Sparse bits, so that the result is not all ones.
        x = x & np.array(0x11, dtype=x.dtype) if bits(dtype) == 8 else x & np.array(0x1111, dtype=x.dtype)
    out, rdt = run_reduce(backend, op, x, dtype, shape, axis, False)
    fn = np.bitwise_xor if op == "xor_sum" else np.bitwise_or
    flat = x.reshape(-1) if axis is None else x
    ref = fn.reduce(flat, axis=0 if axis is None else axis)
    assert_close(out, np.asarray(ref).astype(dtype))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_xor_sum_float_is_error(backend, dtype):
    x = random_values(dtype, (128, ), rng(47))
    expect_error(run_reduce, backend, "xor_sum", x, dtype, (128, ), 0, False)


@pytest.mark.parametrize("axis", [2, -3])
def test_reduce_axis_out_of_range_is_error(backend, axis):
    x = random_values("float32", (8, 16), rng(48))
    z = np.zeros(8, dtype=np.float32)
    expect_error(backend.run, k_reduce, 1, x, z, M=8, N=16, TWO_D=True, OP="sum", AXIS=axis, KEEP=False,
                 T=tl.float32, RT=tl.float32, ZIO=tl.float32, RM=1, RN=8, RANK=1, TIE=True)


def k_sum_dtype(X, Z, N: tl.constexpr, T: tl.constexpr, DT: tl.constexpr, ZIO: tl.constexpr):
    x = tl.load(X + tl.arange(0, N)).to(T)
    r = tl.sum(x, axis=0, dtype=DT)
    tl.static_assert(DT == r.dtype)
    tl.store(Z, r.to(ZIO))


@pytest.mark.parametrize("src,dt", [("int8", "int8"), ("int8", "int64"), ("float16", "float32"),
                                    ("int32", "float32"), ("uint8", "uint8")])
def test_sum_dtype_argument(backend, src, dt):
    x = random_values(src, (128, ), rng(49), special=True) if is_int(src) else \
        random_values(src, (128, ), rng(49), low=-4, high=4)
    z = np.zeros(1, dtype=np.dtype(dt))
    _, out = backend.run(k_sum_dtype, 1, x, z, N=128, T=tlt(src), DT=tlt(dt), ZIO=tlt(dt))
    with np.errstate(over="ignore"):
        ref = np.sum(np_value(x, dt), dtype=np.dtype(dt))
    assert_close(out[0], ref, dt, rtol=1e-6)


# ---------------------------------------------------------------------------
# Scans
# ---------------------------------------------------------------------------

SCAN_SHAPES = [((128, ), 0), ((8, 16), 0), ((8, 16), 1), ((16, 4), 1), ((4, 32), -1)]


def k_scan(X, Z, M: tl.constexpr, N: tl.constexpr, TWO_D: tl.constexpr, OP: tl.constexpr, AXIS: tl.constexpr,
           REV: tl.constexpr, T: tl.constexpr, RT: tl.constexpr, ZIO: tl.constexpr):
    if TWO_D:
        offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    else:
        offs = tl.arange(0, N)
    x = tl.load(X + offs).to(T)
    if OP == "cumsum":
        r = tl.cumsum(x, axis=AXIS, reverse=REV)
    elif OP == "cumprod":
        r = tl.cumprod(x, axis=AXIS, reverse=REV)
    elif OP == "cummax":
        r = tl.associative_scan(x, AXIS, _max_combine, reverse=REV)
    tl.static_assert(RT == r.dtype, "unexpected result dtype")
    tl.store(Z + offs, r.to(ZIO))


@tritium.jit
def _max_combine(a, b):
    return tl.maximum(a, b)


def _scan_dtype(op, name):
    if name == "bfloat16":
        return "float32"
    if op == "cumsum":
        return _sum_dtype(name)
    return name


def _np_scan(fn, x, axis, rev, dtype):
    if rev:
        x = np.flip(x, axis=axis)
    with np.errstate(over="ignore"):
        r = fn(x, axis=axis, dtype=dtype) if fn is not np.maximum.accumulate else fn(x, axis=axis)
    return np.flip(r, axis=axis) if rev else r


SCAN_DTYPES = ["int8", "int32", "int64", "uint32", "float16", "bfloat16", "float32", "float64"]


@pytest.mark.parametrize("rev", [False, True], ids=["fwd", "rev"])
@pytest.mark.parametrize("shape,axis", SCAN_SHAPES, ids=[f"{'x'.join(map(str, s))}-ax{a}" for s, a in SCAN_SHAPES])
@pytest.mark.parametrize("dtype", SCAN_DTYPES)
@pytest.mark.parametrize("op", ["cumsum", "cumprod", "cummax"])
def test_scan(backend, op, dtype, shape, axis, rev):
    rs = rng(50)
    if op == "cumprod" and is_float(dtype):
        # Powers of two: exact products in any order (fp16: no overflow).
        choices = [1.0, -1.0, 0.5, 2.0, 1.0] if dtype != "float16" else [1.0, -1.0, 1.0]
        x = np_value(rs.choice(choices, size=shape), dtype)
    elif op == "cumprod":
        x = random_values(dtype, shape, rs, low=0 if dtype.startswith("u") else -3, high=3)
    else:
        x = _values(dtype, shape, rs, exact_sums=True)
    rdt = _scan_dtype(op, dtype) if op != "cummax" else dtype
    z = np.zeros(shape, dtype=np.dtype(io_name(rdt)))
    two_d = len(shape) == 2
    _, out = backend.run(k_scan, 1, x, z, M=shape[0] if two_d else 1, N=shape[-1], TWO_D=two_d, OP=op, AXIS=axis,
                         REV=rev, T=tlt(dtype), RT=tlt(rdt), ZIO=tlt(io_name(rdt)))
    xv = np_value(x, rdt)
    fn = {"cumsum": np.cumsum, "cumprod": np.cumprod, "cummax": np.maximum.accumulate}[op]
    ref = _np_scan(fn, xv, axis % len(shape), rev, np.dtype(io_name(rdt)))
    assert_close(out, np_value(ref, rdt), rdt, rtol=0)


@tritium.jit
def _linrec_combine(a1, b1, a2, b2):
    # h = a * h_prev + b, composed left to right.
    return a1 * a2, b1 * a2 + b2


def k_linrec(A, B, H, N: tl.constexpr, REV: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.load(A + offs)
    b = tl.load(B + offs)
    _, h = tl.associative_scan((a, b), 0, _linrec_combine, reverse=REV)
    tl.store(H + offs, h)


@pytest.mark.parametrize("rev", [False, True], ids=["fwd", "rev"])
@pytest.mark.parametrize("n", [16, 128])
def test_associative_scan_tuple(backend, n, rev):
    """A linear recurrence h_t = a_t h_(t-1) + b_t as a scan of pairs."""
    rs = rng(51)
    a = rs.uniform(0.5, 1.0, size=n).astype(np.float32)
    b = rs.uniform(-1, 1, size=n).astype(np.float32)
    h = np.zeros(n, dtype=np.float32)
    _, _, out = backend.run(k_linrec, 1, a, b, h, N=n, REV=rev)
    ref = np.zeros(n)
    prev = 0.0
    order = range(n - 1, -1, -1) if rev else range(n)
    for t in order:
        prev = a[t] * prev + b[t]
        ref[t] = prev
    assert_close(out, ref.astype(np.float32), "float32", rtol=1e-5, atol=1e-5)


# ---------------------------------------------------------------------------
# tl.reduce with custom combine functions
# ---------------------------------------------------------------------------


@tritium.jit
def _prod_combine(a, b):
    return a * b


@tritium.jit
def _welford_combine(mean_a, m2_a, n_a, mean_b, m2_b, n_b):
    n = n_a + n_b
    delta = mean_b - mean_a
    w = tl.where(n == 0, 0.0, n_b / tl.where(n == 0, 1.0, n))
    return mean_a + delta * w, m2_a + m2_b + delta * delta * n_a * w, n


@tritium.jit
def _argmax_pair_combine(v1, i1, v2, i2):
    pick = (v1 > v2) | ((v1 == v2) & (i1 < i2))
    return tl.where(pick, v1, v2), tl.where(pick, i1, i2)


def k_custom_reduce(X, Z, Z2, M: tl.constexpr, N: tl.constexpr, FN: tl.constexpr, AXIS: tl.constexpr,
                    KEEP: tl.constexpr):
    offs = tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]
    x = tl.load(X + offs)
    if FN == "prod":
        r = tl.reduce(x, AXIS, _prod_combine, keep_dims=KEEP)
        r2 = r
    elif FN == "welford":
        mean, m2, cnt = tl.reduce((x, tl.zeros_like(x), tl.full(x.shape, 1.0, tl.float32)), AXIS, _welford_combine,
                                  keep_dims=KEEP)
        r = mean
        r2 = m2 / cnt
    else:
        idx = tl.broadcast_to(tl.arange(0, N)[None, :], (M, N))
        r, r2 = tl.reduce((x, idx), AXIS, _argmax_pair_combine, keep_dims=KEEP)
    if AXIS is None:
        tl.store(Z, r)
        tl.store(Z2, r2)
    elif AXIS == 0:
        o = tl.arange(0, N)
        if KEEP:
            o = o[None, :]
        tl.store(Z + o, r)
        tl.store(Z2 + o, r2)
    else:
        o = tl.arange(0, M)
        if KEEP:
            o = o[:, None]
        tl.store(Z + o, r)
        tl.store(Z2 + o, r2)


@pytest.mark.parametrize("axis,keep", [(0, False), (1, False), (None, False), (0, True), (1, True)],
                         ids=["ax0", "ax1", "axNone", "ax0-keep", "ax1-keep"])
@pytest.mark.parametrize("fn", ["prod", "welford", "argmax_pair"])
def test_reduce_custom_combine(backend, fn, axis, keep):
    m, n = 8, 16
    rs = rng(52)
    if fn == "prod":
        x = rs.choice(np.array([1, -1, 2, 1, 1, 3], dtype=np.int32), size=(m, n)).astype(np.int32)
    elif fn == "argmax_pair":
        x = rs.randint(0, 5, size=(m, n)).astype(np.int32)
    else:
        x = rs.randn(m, n).astype(np.float32)
    rlen = 1 if axis is None else (n if axis == 0 else m)
    z = np.zeros(rlen, dtype=x.dtype)
    z2 = np.zeros(rlen, dtype=np.float32 if fn == "welford" else np.int32)
    _, out, out2 = backend.run(k_custom_reduce, 1, x, z, z2, M=m, N=n, FN=fn, AXIS=axis, KEEP=keep)
    if fn == "prod":
        with np.errstate(over="ignore"):
            ref = np.prod(x, axis=axis, dtype=np.int32)
        assert_close(out, np.reshape(ref, rlen))
    elif fn == "welford":
        flat = x.astype(np.float64).reshape(-1) if axis is None else x.astype(np.float64)
        ax = 0 if axis is None else axis
        assert_close(out, np.reshape(flat.mean(axis=ax), rlen).astype(np.float32), "float32", rtol=1e-5, atol=1e-6)
        assert_close(out2, np.reshape(flat.var(axis=ax), rlen).astype(np.float32), "float32", rtol=1e-5, atol=1e-6)
    else:
        # Values with their column index: the max value and its leftmost column.
        if axis == 1:
            assert_close(out, x.max(axis=1))
            assert_close(out2, x.argmax(axis=1).astype(np.int32))
        elif axis == 0:
            assert_close(out, x.max(axis=0))
            assert_close(out2, np.arange(n, dtype=np.int32))
        else:
            assert_close(out, np.reshape(x.max(), 1))
            cols = np.where((x == x.max()).any(axis=0))[0]
            assert_close(out2, np.reshape(cols.min(), 1).astype(np.int32))


def k_histogram(X, Z, M: tl.constexpr, NB: tl.constexpr, MASKED: tl.constexpr):
    offs = tl.arange(0, M)
    x = tl.load(X + offs)
    if MASKED:
        z = tl.histogram(x, NB, mask=offs < M // 2)
    else:
        z = x.histogram(NB)
    tl.store(Z + tl.arange(0, NB), z)


@pytest.mark.parametrize("m,nb", [(2048, 2), (256, 512), (8, 2), (64, 64)])
@pytest.mark.parametrize("masked", [False, True])
def test_histogram(backend, m, nb, masked):
    """Triton's tl.histogram: counts of 0 .. nb - 1 (int32), values outside
    not counted, masked-off elements not counted."""
    x = rng(120).randint(-2, nb + 2, size=m).astype(np.int32)
    z = np.full(nb, 7, dtype=np.int32)
    (_, out) = backend.run(k_histogram, 1, x, z, M=m, NB=nb, MASKED=masked)
    kept = x[:m // 2] if masked else x
    kept = kept[(kept >= 0) & (kept < nb)]
    assert_close(out, np.bincount(kept, minlength=nb).astype(np.int32))


def k_histogram_2d(X, Z):
    x = tl.load(X + tl.arange(0, 4)[:, None] * 4 + tl.arange(0, 4)[None, :])
    tl.store(Z + tl.arange(0, 4), tl.histogram(x, 4))


def test_histogram_of_a_2d_block_is_an_error(backend):
    err = expect_error(backend.run, k_histogram_2d, 1, np.zeros(16, np.int32), np.zeros(4, np.int32))
    assert "1-D block of integers" in str(err)
