"""Unary operators and math functions: neg, ~, not, abs, exp, exp2, log,
log2, sqrt, sqrt_rn, rsqrt, sin, cos, floor, ceil, erf, sigmoid, fma and
libdevice basics, with per-dtype tolerances and edge values (inf, nan,
signed zeros). As in Triton 3, the transcendental functions take fp32 and
fp64 only (fp16/bf16 operands are a compile error: cast first)."""

import math

import numpy as np
import pytest

import tritium.language as tl
from tritium.language.extra import libdevice

from .helpers import (FLOATS, INTS, assert_close, expect_error, io_name, is_float, np_value, random_values, rng, tlt)

N = 128

MATH = ["exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos", "floor", "ceil", "erf", "sigmoid"]


def k_unary(X, Z, N: tl.constexpr, OP: tl.constexpr, T: tl.constexpr, ZIO: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs).to(T)
    if OP == "exp":
        z = tl.exp(x)
    elif OP == "exp2":
        z = tl.exp2(x)
    elif OP == "log":
        z = tl.log(x)
    elif OP == "log2":
        z = tl.log2(x)
    elif OP == "sqrt":
        z = tl.sqrt(x)
    elif OP == "sqrt_rn":
        z = tl.sqrt_rn(x)
    elif OP == "rsqrt":
        z = tl.rsqrt(x)
    elif OP == "sin":
        z = tl.sin(x)
    elif OP == "cos":
        z = tl.cos(x)
    elif OP == "floor":
        z = tl.floor(x)
    elif OP == "ceil":
        z = tl.ceil(x)
    elif OP == "erf":
        z = tl.erf(x)
    elif OP == "sigmoid":
        z = tl.sigmoid(x)
    elif OP == "abs":
        z = tl.abs(x)
    elif OP == "neg":
        z = -x
    elif OP == "invert":
        z = ~x
    elif OP == "not":
        z = not x
    elif OP == "plus":
        z = +x
    elif OP == "method_exp":
        z = x.exp()
    elif OP == "math_exp":
        z = tl.math.exp(x)
    tl.static_assert(T == z.dtype, "unexpected result dtype")
    tl.store(Z + offs, z.to(ZIO))


def _erf(a):
    return np.vectorize(math.erf, otypes=[np.float64])(a)


def _ref(op, x):
    x = x.astype(np.float64)
    with np.errstate(all="ignore"):
        return {
            "exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "sqrt": np.sqrt, "sqrt_rn": np.sqrt,
            "rsqrt": lambda v: 1 / np.sqrt(v), "sin": np.sin, "cos": np.cos, "floor": np.floor, "ceil": np.ceil,
            "erf": _erf, "sigmoid": lambda v: 1 / (1 + np.exp(-v)), "abs": np.abs, "neg": np.negative,
        }[op](x)


def _domain(op, dtype, rs):
    if op in ("log", "log2", "sqrt", "sqrt_rn", "rsqrt"):
        return random_values(dtype, N, rs, low=1e-3, high=1e3)
    if op in ("exp", "sigmoid"):
        return random_values(dtype, N, rs, low=-20, high=20)
    if op == "exp2":
        return random_values(dtype, N, rs, low=-30, high=30)
    if op in ("sin", "cos"):
        return random_values(dtype, N, rs, low=-2 * np.pi, high=2 * np.pi)
    if op == "erf":
        return random_values(dtype, N, rs, low=-3, high=3)
    return random_values(dtype, N, rs)


# (rtol, atol) per function for fp32: the fast approximations of a GPU
# (ex2.approx, lg2.approx, sin.approx ...) are within these.
FP32_TOL = {"exp": (3e-6, 0), "exp2": (2e-6, 0), "log": (2e-6, 2e-6), "log2": (2e-6, 2e-6), "sqrt": (2e-6, 0),
            "sqrt_rn": (0, 0), "rsqrt": (3e-6, 0), "sin": (2e-6, 2e-6), "cos": (2e-6, 2e-6), "floor": (0, 0),
            "ceil": (0, 0), "erf": (2e-6, 1e-7), "sigmoid": (3e-6, 0), "abs": (0, 0), "neg": (0, 0)}


def _accepts(op, dtype):
    if op in ("abs", "neg"):
        return True
    if op == "sqrt_rn":
        return dtype == "float32"
    return dtype in ("float32", "float64")


UNARY_DTYPES = FLOATS + ["int32"]


@pytest.mark.parametrize("dtype", UNARY_DTYPES)
@pytest.mark.parametrize("op", MATH + ["abs", "neg"])
def test_unary_float(backend, op, dtype):
    rs = rng(20)
    x = _domain(op, dtype, rs)
    z = np.zeros(N, dtype=x.dtype)
    if not _accepts(op, dtype):
        expect_error(backend.run, k_unary, 1, x, z, N=N, OP=op, T=tlt(dtype), ZIO=tlt(io_name(dtype)))
        return
    _, out = backend.run(k_unary, 1, x, z, N=N, OP=op, T=tlt(dtype), ZIO=tlt(io_name(dtype)))
    ref = np_value(_ref(op, x), dtype)
    if dtype == "float32":
        rtol, atol = FP32_TOL[op]
    elif dtype == "float64":
        rtol, atol = (1e-13, 1e-14) if op not in ("floor", "ceil", "abs", "neg") else (0, 0)
    else:
        rtol, atol = (0, 0)
    assert_close(out, ref, dtype, rtol=rtol, atol=atol)


EDGE_CASES = [(op, d) for op in MATH + ["abs", "neg"] for d in ("float32", "float64") if _accepts(op, d)]


@pytest.mark.parametrize("op,dtype", EDGE_CASES)
def test_unary_edges(backend, op, dtype):
    """inf, -inf, nan, +-0, negative operands of log and sqrt."""
    vals = [np.inf, -np.inf, np.nan, 0.0, -0.0, -1.0, 1.0, -0.5, 0.5, 2.0, -2.5, 1e-30]
    x = np.array((vals * (N // len(vals) + 1))[:N], dtype=dtype)
    z = np.zeros(N, dtype=dtype)
    _, out = backend.run(k_unary, 1, x, z, N=N, OP=op, T=tlt(dtype), ZIO=tlt(dtype))
    ref = _ref(op, x).astype(dtype)
    if op == "rsqrt":
        ref[:12] = [0.0, np.nan, np.nan, np.inf, -np.inf, np.nan, 1.0, np.nan, 2**0.5, 0.5**0.5, np.nan, 1e15]
        ref = ref.astype(dtype)
    rtol, atol = FP32_TOL[op] if dtype == "float32" else (1e-13, 1e-14)
    if op == "rsqrt":
        # rsqrt(-0) may be -inf or inf; only compare the others.
        keep = np.ones(N, bool)
        keep[4::12] = False
        out, ref = out[keep], ref[keep]
    assert_close(out, ref, dtype, rtol=rtol, atol=atol)
    if op in ("neg", "abs", "floor", "ceil", "sqrt", "sqrt_rn"):
        # Signs of zeros: -(0.0), abs(-0.0), floor/ceil(-0.0), sqrt(-0.0).
        zeros = np.where(ref == 0)[0]
        assert np.signbit(out[zeros]).tolist() == np.signbit(ref[zeros]).tolist()


def test_exp2_denormal_results(backend):
    """fp32 exp2 on NVIDIA flushes denormal results to zero, as Triton's
    does (ex2.approx.ftz); elsewhere it keeps them."""
    x = np.array(([-127.5, -130.0, -140.0, -126.0] * N)[:N], dtype="float32")
    z = np.zeros(N, dtype="float32")
    _, out = backend.run(k_unary, 1, x, z, N=N, OP="exp2", T=tlt("float32"), ZIO=tlt("float32"))
    ref = np.exp2(x)
    if backend.name == "cuda":
        ref = np.where(np.abs(ref) < np.finfo(np.float32).tiny, 0.0, ref).astype("float32")
    assert_close(out, ref, "float32", rtol=2e-6, atol=0)


@pytest.mark.parametrize("op", ["neg", "abs", "invert", "plus"])
@pytest.mark.parametrize("dtype", INTS)
def test_unary_int(backend, op, dtype):
    x = random_values(dtype, N, rng(21), special=True)
    z = np.zeros(N, dtype=dtype)
    _, out = backend.run(k_unary, 1, x, z, N=N, OP=op, T=tlt(dtype), ZIO=tlt(dtype))
    with np.errstate(all="ignore"):
        ref = {"neg": lambda v: (np.zeros_like(v) - v), "abs": np.abs, "invert": np.invert,
               "plus": lambda v: v}[op](x)
    assert_close(out, ref.astype(dtype))


@pytest.mark.parametrize("op", ["invert", "not"])
def test_unary_bool(backend, op):
    x = random_values("int1", N, rng(22))
    z = np.zeros(N, dtype=np.int8)
    _, out = backend.run(k_unary, 1, x, z, N=N, OP=op, T=tl.int1, ZIO=tl.int8)
    assert_close(out, (x == 0).astype(np.int8))


@pytest.mark.parametrize("dtype", FLOATS)
def test_invert_float_is_error(backend, dtype):
    x = random_values(dtype, N, rng(23))
    z = np.zeros(N, dtype=x.dtype)
    expect_error(backend.run, k_unary, 1, x, z, N=N, OP="invert", T=tlt(dtype), ZIO=tlt(io_name(dtype)))


@pytest.mark.parametrize("op", ["method_exp", "math_exp"])
def test_spellings(backend, op):
    """x.exp() and tl.math.exp(x) are tl.exp(x)."""
    x = random_values("float32", N, rng(24), low=-5, high=5)
    z = np.zeros(N, dtype=np.float32)
    _, out = backend.run(k_unary, 1, x, z, N=N, OP=op, T=tl.float32, ZIO=tl.float32)
    assert_close(out, np.exp(x.astype(np.float64)).astype(np.float32), "float32", rtol=3e-6)


# ---------------------------------------------------------------------------
# fma
# ---------------------------------------------------------------------------


def k_fma(X, Y, W, Z, N: tl.constexpr, A: tl.constexpr, B: tl.constexpr, C: tl.constexpr, RT: tl.constexpr,
          ZIO: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs).to(A)
    y = tl.load(Y + offs).to(B)
    w = tl.load(W + offs).to(C)
    z = tl.fma(x, y, w)
    tl.static_assert(RT == z.dtype)
    tl.store(Z + offs, z.to(ZIO))


@pytest.mark.parametrize("a,b,c,rt", [(d, d, d, d) for d in FLOATS] + [
    ("float16", "float32", "float16", "float32"), ("float32", "float64", "float32", "float64"),
    ("int32", "float32", "float32", "float32"), ("bfloat16", "bfloat16", "float16", "float16")])
def test_fma(backend, a, b, c, rt):
    rs = rng(25)
    x = random_values(a, N, rs, low=-8, high=8)
    y = random_values(b, N, rs, low=-8, high=8)
    w = random_values(c, N, rs, low=-8, high=8)
    z = np.zeros(N, dtype=np.dtype(io_name(rt)))
    _, _, _, out = backend.run(k_fma, 1, x, y, w, z, N=N, A=tlt(a), B=tlt(b), C=tlt(c), RT=tlt(rt),
                               ZIO=tlt(io_name(rt)))
    ref = np_value(x.astype(np.float64) * y.astype(np.float64) + w.astype(np.float64), rt)
    assert_close(out, ref, rt, rtol={"float16": 1e-3, "bfloat16": 8e-3, "float32": 2e-7, "float64": 1e-15}[rt],
                 atol=1e-6 if rt != "float64" else 1e-14)


def test_fma_int_is_error(backend):
    x = random_values("int32", N, rng(26))
    z = np.zeros(N, dtype=np.int32)
    expect_error(backend.run, k_fma, 1, x, x, x, z, N=N, A=tl.int32, B=tl.int32, C=tl.int32, RT=tl.int32,
                 ZIO=tl.int32)


# ---------------------------------------------------------------------------
# libdevice basics
# ---------------------------------------------------------------------------


def k_libdevice(X, Y, Z, N: tl.constexpr, FN: tl.constexpr, T: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs).to(T)
    y = tl.load(Y + offs).to(T)
    if FN == "tanh":
        z = libdevice.tanh(x)
    elif FN == "pow":
        z = libdevice.pow(x, y)
    elif FN == "log1p":
        z = libdevice.log1p(x)
    elif FN == "expm1":
        z = libdevice.expm1(x)
    elif FN == "atan2":
        z = libdevice.atan2(x, y)
    elif FN == "trunc":
        z = libdevice.trunc(x)
    elif FN == "rint":
        z = libdevice.rint(x)
    elif FN == "fmod":
        z = libdevice.fmod(x, y)
    elif FN == "hypot":
        z = libdevice.hypot(x, y)
    elif FN == "cbrt":
        z = libdevice.cbrt(x)
    elif FN == "isnan":
        z = libdevice.isnan(x).to(T)
    elif FN == "isinf":
        z = libdevice.isinf(x).to(T)
    elif FN == "signbit":
        z = libdevice.signbit(x).to(T)
    elif FN == "erfinv":
        z = libdevice.erfinv(x)
    elif FN == "sinh":
        z = libdevice.sinh(x)
    elif FN == "atan":
        z = libdevice.atan(x)
    tl.static_assert(T == z.dtype)
    tl.store(Z + offs, z)


def _erfinv(a):
    """erf^-1 by bisection in float64."""
    v = a.astype(np.float64)
    lo = np.full_like(v, -7.0)
    hi = np.full_like(v, 7.0)
    erf = np.vectorize(math.erf, otypes=[np.float64])
    for _ in range(80):
        mid = (lo + hi) / 2
        below = erf(mid) < v
        lo = np.where(below, mid, lo)
        hi = np.where(below, hi, mid)
    return (lo + hi) / 2


LIBDEVICE = {
    "tanh": (np.tanh, (-5, 5)), "pow": (np.power, (0.1, 4)), "log1p": (np.log1p, (-0.9, 10)),
    "expm1": (np.expm1, (-5, 5)), "atan2": (np.arctan2, (-5, 5)), "trunc": (np.trunc, (-50, 50)),
    "rint": (np.rint, (-50, 50)), "fmod": (np.fmod, (-50, 50)), "hypot": (np.hypot, (-50, 50)),
    "cbrt": (np.cbrt, (-50, 50)), "isnan": (np.isnan, None), "isinf": (np.isinf, None),
    "signbit": (np.signbit, None), "erfinv": (_erfinv, (-0.99, 0.99)), "sinh": (np.sinh, (-5, 5)),
    "atan": (np.arctan, (-5, 5)),
}


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("fn", sorted(LIBDEVICE))
def test_libdevice(backend, fn, dtype):
    ref_fn, rng_ = LIBDEVICE[fn]
    rs = rng(27)
    if rng_ is None:
        x = random_values(dtype, N, rs, special=True)
    else:
        x = random_values(dtype, N, rs, low=rng_[0], high=rng_[1])
    y = random_values(dtype, N, rs, low=0.5, high=3) if fn != "atan2" else random_values(dtype, N, rs, low=-3,
                                                                                           high=3)
    if fn == "rint":
        x[:4] = [0.5, 1.5, 2.5, -0.5]  # ties to even
    z = np.zeros(N, dtype=dtype)
    _, _, out = backend.run(k_libdevice, 1, x, y, z, N=N, FN=fn, T=tlt(dtype))
    with np.errstate(all="ignore"):
        ref = ref_fn(x, y) if fn in ("pow", "atan2", "fmod", "hypot") else ref_fn(x)
    ref = np.asarray(ref).astype(dtype)
    rtol = {"float32": 4e-6, "float64": 1e-13}[dtype]
    assert_close(out, ref, dtype, rtol=rtol, atol=1e-6 if dtype == "float32" else 1e-13)
