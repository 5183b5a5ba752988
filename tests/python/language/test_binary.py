"""Binary operators and elementwise binary functions: every operator on
every dtype it accepts, mixed dtypes (C-like promotion, mixed signedness),
Python scalars as weak types, C-like integer division and remainder,
shifts by signedness, NaN and infinities, min/max/clamp with
propagate_nan, fdiv, div_rn, umulhi."""

import itertools

import numpy as np
import pytest

import tritium.language as tl

from .helpers import (ALL, FLOATS, INTS, NUMERIC, SINT, TypingError, assert_close, binary_result, bits,
                      expect_error, int_range, io_name, is_float, is_int, is_unsigned, np_value, random_values, ref_binary, rng,
                      tlt)

N = 64
ARITH = ["+", "-", "*", "/", "//", "%"]
BITWISE = ["&", "|", "^"]
SHIFTS = ["<<", ">>"]
COMPARE = ["==", "!=", "<", "<=", ">", ">="]


def k_binary(X, Y, Z, N: tl.constexpr, OP: tl.constexpr, XT: tl.constexpr, YT: tl.constexpr, RT: tl.constexpr,
             ZIO: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs).to(XT)
    y = tl.load(Y + offs).to(YT)
    if OP == "+":
        z = x + y
    elif OP == "-":
        z = x - y
    elif OP == "*":
        z = x * y
    elif OP == "/":
        z = x / y
    elif OP == "//":
        z = x // y
    elif OP == "%":
        z = x % y
    elif OP == "&":
        z = x & y
    elif OP == "|":
        z = x | y
    elif OP == "^":
        z = x ^ y
    elif OP == "<<":
        z = x << y
    elif OP == ">>":
        z = x >> y
    elif OP == "==":
        z = x == y
    elif OP == "!=":
        z = x != y
    elif OP == "<":
        z = x < y
    elif OP == "<=":
        z = x <= y
    elif OP == ">":
        z = x > y
    elif OP == ">=":
        z = x >= y
    elif OP == "and":
        z = x and y
    elif OP == "or":
        z = x or y
    tl.static_assert(RT == z.dtype, "unexpected result dtype")
    tl.store(Z + offs, z.to(ZIO))


def _safe_operands(op, a, b, comp, x, y):
    """Removes operands whose result is undefined: integer division by zero,
    MIN // -1, shifts by >= the width or by negative amounts."""
    if op in ("//", "%", "/") and is_int(comp):
        yc = np_value(y, comp)
        xc = np_value(x, comp)
        bad = yc == 0
        if comp not in ("int1", ) and not comp.startswith("u"):
            bad |= (xc == int_range(comp)[0]) & (yc == np.array(-1).astype(yc.dtype))
        y = np.where(bad, np.array(1).astype(y.dtype), y)
    if op in SHIFTS:
        y = (np.abs(y.astype(np.int64)) % bits(comp)).astype(y.dtype)
    return x, y


def _run_binary(backend, op, a, b, x, y):
    comp, res = binary_result(op, a, b)
    z = np.zeros(N, dtype=np.dtype(io_name(res)))
    _, _, out = backend.run(k_binary, 1, x, y, z, N=N, OP=op, XT=tlt(a), YT=tlt(b), RT=tlt(res),
                            ZIO=tlt(io_name(res)))
    ref = ref_binary(op, np_value(x, comp), np_value(y, comp), comp, res, shr_signed=not is_unsigned(a))
    return out, ref, res


def _small_kw(name):
    return dict(low=0, high=100) if name.startswith("u") else dict(low=-100, high=100)


def _inputs(op, a, b, seed, small=False):
    """Random operands with edge values (small ones, exact in every dtype,
    when a float takes part)."""
    rs = rng(seed)
    xa = random_values(a, N, rs, special=not small, **(_small_kw(a) if small else {}))
    yb = random_values(b, N, rs, special=not small, **(_small_kw(b) if small else {}))
    return xa, yb


def _check_binary(backend, op, a, b, seed=0, small=False):
    try:
        comp, res = binary_result(op, a, b)
    except TypingError:
        rs = rng(seed)
        x = random_values(a, N, rs)
        y = random_values(b, N, rs)
        z = np.zeros(N, dtype=np.float32)
        expect_error(backend.run, k_binary, 1, x, y, z, N=N, OP=op, XT=tlt(a), YT=tlt(b), RT=tl.float32,
                     ZIO=tl.float32)
        return
    x, y = _inputs(op, a, b, seed, small)
    x, y = _safe_operands(op, a, b, comp, x, y)
    out, ref, res = _run_binary(backend, op, a, b, x, y)
    assert_close(out, ref, res, err_msg=f"{a} {op} {b}")


# ---------------------------------------------------------------------------
# Same dtype
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("op", ARITH)
def test_arith_same_dtype(backend, op, dtype):
    _check_binary(backend, op, dtype, dtype, seed=1)


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("op", BITWISE + SHIFTS)
def test_bitwise_same_dtype(backend, op, dtype):
    _check_binary(backend, op, dtype, dtype, seed=2)


@pytest.mark.parametrize("dtype", ALL)
@pytest.mark.parametrize("op", COMPARE)
def test_compare_same_dtype(backend, op, dtype):
    _check_binary(backend, op, dtype, dtype, seed=3)


@pytest.mark.parametrize("op", ["and", "or"])
def test_logical_bool(backend, op):
    """`and`/`or` on int1 blocks are elementwise logical operations."""
    rs = rng(4)
    x = random_values("int1", N, rs)
    y = random_values("int1", N, rs)
    z = np.zeros(N, dtype=np.int8)
    _, _, out = backend.run(k_binary, 1, x, y, z, N=N, OP=op, XT=tl.int1, YT=tl.int1, RT=tl.int1, ZIO=tl.int8)
    ref = (x != 0) & (y != 0) if op == "and" else (x != 0) | (y != 0)
    assert_close(out, ref.astype(np.int8))


# ---------------------------------------------------------------------------
# Mixed dtypes: promotion (all ordered pairs of dtypes)
# ---------------------------------------------------------------------------

PAIRS = [(a, b) for a, b in itertools.product(ALL, ALL) if a != b]


@pytest.mark.parametrize("a,b", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
@pytest.mark.parametrize("op", ["+", "*", "/", "%", "<"])
def test_mixed_dtypes(backend, op, a, b):
    # Values small enough to be exact in every dtype they are converted to.
    small = is_float(a) or is_float(b)
    _check_binary(backend, op, a, b, seed=5, small=small)


INT_PAIRS = [(a, b) for a, b in itertools.product(INTS, INTS) if a != b]


@pytest.mark.parametrize("a,b", INT_PAIRS, ids=[f"{a}-{b}" for a, b in INT_PAIRS])
@pytest.mark.parametrize("op", ["-", "//", "^", ">>"])
def test_mixed_int_dtypes(backend, op, a, b):
    _check_binary(backend, op, a, b, seed=6)


def test_mixed_signedness_compare(backend):
    """-1 (int32) < 1 (uint32) is false: both compare as uint32."""
    x = np.array([-1, 1, 5, -7] * (N // 4), dtype=np.int32)
    y = np.array([1, 1, 4, 0] * (N // 4), dtype=np.uint32)
    z = np.zeros(N, dtype=np.int8)
    _, _, out = backend.run(k_binary, 1, x, y, z, N=N, OP="<", XT=tl.int32, YT=tl.uint32, RT=tl.int1, ZIO=tl.int8)
    assert out[:4].tolist() == [0, 0, 0, 0]


# ---------------------------------------------------------------------------
# Python scalars are weakly typed
# ---------------------------------------------------------------------------


def k_scalar(X, Z, N: tl.constexpr, OP: tl.constexpr, S: tl.constexpr, XT: tl.constexpr, RT: tl.constexpr,
             ZIO: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs).to(XT)
    if OP == "x+s":
        z = x + S
    elif OP == "s-x":
        z = S - x
    elif OP == "x*s":
        z = x * S
    elif OP == "x/s":
        z = x / S
    elif OP == "s/x":
        z = S / x
    elif OP == "x%s":
        z = x % S
    elif OP == "x//s":
        z = x // S
    elif OP == "x&s":
        z = x & S
    elif OP == "x<s":
        z = x < S
    elif OP == "s<x":
        z = S < x
    tl.static_assert(RT == z.dtype, "unexpected result dtype")
    tl.store(Z + offs, z.to(ZIO))


SCALAR_OPS = ["x+s", "s-x", "x*s", "x/s", "s/x", "x%s", "x//s", "x&s", "x<s", "s<x"]
SCALARS = [3, -2, 2.5, True]


@pytest.mark.parametrize("scalar", SCALARS, ids=["int3", "int-2", "float2.5", "True"])
@pytest.mark.parametrize("op", SCALAR_OPS)
@pytest.mark.parametrize("dtype", ALL)
def test_weak_scalar(backend, dtype, op, scalar):
    sym = op.replace("x", "").replace("s", "")
    lhs_is_scalar = op.startswith("s")
    a, b = (dtype, None) if not lhs_is_scalar else (None, dtype)
    lit_ty = "int1" if isinstance(scalar, bool) else "int32" if isinstance(scalar, int) else "float32"
    try:
        if lhs_is_scalar:
            comp, res = binary_result(sym, lit_ty, dtype, a_lit=scalar)
        else:
            comp, res = binary_result(sym, dtype, lit_ty, b_lit=scalar)
    except TypingError:
        x = random_values(dtype, N, rng(7))
        z = np.zeros(N, dtype=np.float32)
        expect_error(backend.run, k_scalar, 1, x, z, N=N, OP=op, S=scalar, XT=tlt(dtype), RT=tl.float32,
                     ZIO=tl.float32)
        return
    rs = rng(7)
    if is_float(dtype) or is_float(comp):
        x = random_values(dtype, N, rs, low=-100, high=100) if not dtype.startswith("u") else \
            random_values(dtype, N, rs, low=0, high=100)
    else:
        x = random_values(dtype, N, rs, special=True)
    if sym in ("/", "//", "%") and op.startswith("s") and is_int(comp):
        x = np.where(np_value(x, comp) == 0, np.array(1).astype(x.dtype), x)
    z = np.zeros(N, dtype=np.dtype(io_name(res)))
    _, out = backend.run(k_scalar, 1, x, z, N=N, OP=op, S=scalar, XT=tlt(dtype), RT=tlt(res), ZIO=tlt(io_name(res)))
    xs = np_value(x, comp)
    ss = np_value(np.full(N, scalar), comp)
    if sym == "<" and lhs_is_scalar:
        ref = ref_binary("<", ss, xs, comp, res)
    elif lhs_is_scalar:
        ref = ref_binary(sym, ss, xs, comp, res)
    else:
        ref = ref_binary(sym, xs, ss, comp, res)
    assert_close(out, ref, res, err_msg=f"{dtype} {op} {scalar!r}")


@pytest.mark.parametrize("dtype,scalar", [("uint8", -1), ("int8", 300), ("uint16", 70000), ("int16", -40000),
                                          ("uint32", -5), ("int32", 2**40)])
def test_weak_scalar_out_of_range(backend, dtype, scalar):
    """An integer literal that does not fit the tensor's type is an error
    (Triton: 'Scalar ... is out of range', 'negative scalar')."""
    x = random_values(dtype, N, rng(8))
    z = np.zeros(N, dtype=np.float32)
    expect_error(backend.run, k_scalar, 1, x, z, N=N, OP="x+s", S=scalar, XT=tlt(dtype), RT=tlt(dtype),
                 ZIO=tl.float32)


# ---------------------------------------------------------------------------
# Integer division and remainder are C's; float remainder is fmod
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", SINT)
def test_c_like_div_mod(backend, dtype):
    xs = [-7, 7, -7, 7, 0, -1, 6, -6]
    ys = [2, -2, -2, 2, 3, 5, -4, 4]
    x = np.array(xs * (N // 8), dtype=dtype)
    y = np.array(ys * (N // 8), dtype=dtype)
    z = np.zeros(N, dtype=dtype)
    _, _, q = backend.run(k_binary, 1, x, y, z, N=N, OP="//", XT=tlt(dtype), YT=tlt(dtype), RT=tlt(dtype),
                          ZIO=tlt(dtype))
    _, _, r = backend.run(k_binary, 1, x, y, z, N=N, OP="%", XT=tlt(dtype), YT=tlt(dtype), RT=tlt(dtype),
                          ZIO=tlt(dtype))
    assert q[:8].tolist() == [-3, -3, 3, 3, 0, 0, -1, -1]
    assert r[:8].tolist() == [-1, 1, -1, 1, 0, -1, 2, -2]


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint16", "uint32", "uint64"])
def test_div_mod_by_zero_does_not_trap(backend, dtype):
    """A zero divisor (typically a masked-off lane's `other=0`) and MIN // -1
    go on: 0 for a zero divisor and MIN // -1 wraps to MIN on the interpreter
    and the cpu target (whose x86 division would raise SIGFPE and kill the
    process); a GPU gives some value (PTX leaves it unspecified)."""
    lo = int_range(dtype)[0]
    x = np.array([7, lo, 5, lo, 0, 1, 9, 3] * (N // 8), dtype=dtype)
    y = np.array([0, 0, 0, -1 if lo else 1, 0, 1, 2, 3] * (N // 8)).astype(dtype)
    z = np.zeros(N, dtype=dtype)
    kw = dict(N=N, XT=tlt(dtype), YT=tlt(dtype), RT=tlt(dtype), ZIO=tlt(dtype))
    _, _, q = backend.run(k_binary, 1, x, y, z, OP="//", **kw)
    _, _, r = backend.run(k_binary, 1, x, y, z, OP="%", **kw)
    if backend.on_gpu:
        assert q[5:8].tolist() == [1, 4, 1]
        return
    assert q[:8].tolist() == [0, 0, 0, lo if lo else 0, 0, 1, 4, 1]
    assert r[:8].tolist() == [0, 0, 0, 0, 0, 0, 1, 0]


@pytest.mark.parametrize("dtype", ["float16", "float32", "float64"])
def test_float_mod_edges(backend, dtype):
    nan, inf = np.nan, np.inf
    xs = [-7.5, 7.5, 5.0, inf, -inf, nan, 3.0, -0.0, 1.0, 0.0, -3.25, 2.0, 1e-3, -1e3, 9.0, 4.0]
    ys = [2.0, -2.0, 0.0, 2.0, 3.0, 1.0, inf, 1.0, nan, -inf, 0.5, 2.0, 7.0, 7.0, -4.0, 4.0]
    x = np.array(xs * (N // 16), dtype=dtype)
    y = np.array(ys * (N // 16), dtype=dtype)
    comp, res = binary_result("%", dtype, dtype)
    z = np.zeros(N, dtype=res)
    _, _, out = backend.run(k_binary, 1, x, y, z, N=N, OP="%", XT=tlt(dtype), YT=tlt(dtype), RT=tlt(res),
                            ZIO=tlt(res))
    with np.errstate(invalid="ignore"):
        ref = np.fmod(x.astype(res), y.astype(res))
    assert_close(out, ref, res)
    assert np.signbit(out[[0, 7]]).tolist() == [True, True]


@pytest.mark.parametrize("dtype", FLOATS)
def test_float_div_special(backend, dtype):
    nan, inf = np.nan, np.inf
    xs = [1.0, -1.0, 0.0, inf, inf, nan, 3.0, -2.0]
    ys = [0.0, 0.0, 0.0, inf, 2.0, 1.0, -inf, -0.0]
    x = np_value(np.array(xs * (N // 8)), dtype)
    y = np_value(np.array(ys * (N // 8)), dtype)
    comp, res = binary_result("/", dtype, dtype)
    z = np.zeros(N, dtype=np.dtype(io_name(res)))
    _, _, out = backend.run(k_binary, 1, x, y, z, N=N, OP="/", XT=tlt(dtype), YT=tlt(dtype), RT=tlt(res),
                            ZIO=tlt(io_name(res)))
    assert_close(out[:8], np.array([inf, -inf, nan, nan, inf, nan, -0.0, inf]), res)


@pytest.mark.parametrize("dtype", SINT + ["uint8", "uint32", "uint64"])
def test_shift_signedness(backend, dtype):
    """>> is arithmetic on signed integers and logical on unsigned ones."""
    w = bits(dtype)
    x = np.full(N, (1 << w) - 8 if dtype[0] == "u" else -8, dtype=dtype)
    y = np.array([1, 2, w - 1, 0] * (N // 4), dtype=dtype)
    z = np.zeros(N, dtype=dtype)
    _, _, out = backend.run(k_binary, 1, x, y, z, N=N, OP=">>", XT=tlt(dtype), YT=tlt(dtype), RT=tlt(dtype),
                            ZIO=tlt(dtype))
    if dtype[0] == "u":
        expect = [((1 << w) - 8) >> s for s in (1, 2, w - 1, 0)]
    else:
        expect = [-4, -2, -1, -8]
    assert [int(v) for v in out[:4]] == expect
    _, _, out = backend.run(k_binary, 1, x, y, z, N=N, OP="<<", XT=tlt(dtype), YT=tlt(dtype), RT=tlt(dtype),
                            ZIO=tlt(dtype))
    assert_close(out, np.left_shift(x, y))


@pytest.mark.parametrize("dtype", FLOATS)
@pytest.mark.parametrize("op", BITWISE + SHIFTS + ["//"])
def test_float_bitwise_is_error(backend, op, dtype):
    _check_binary(backend, op, dtype, dtype)


@pytest.mark.parametrize("op", ["+", "*", "-", "<", "%"])
def test_broadcast_operands(backend, op):
    """A [M, 1] block and a [1, N] block combine into [M, N]."""
    rs = rng(9)
    x = random_values("float32", (8, 1), rs)
    y = random_values("float32", (1, 16), rs)
    z = np.zeros((8, 16), dtype=np.float32)
    _, _, out = backend.run(k_broadcast, 1, x, y, z, M=8, N=16, OP=op)
    with np.errstate(all="ignore"):
        ref = {"+": x + y, "*": x * y, "-": x - y, "<": (x < y).astype(np.float32), "%": np.fmod(x, y)}[op]
    assert_close(out, ref, "float32")


def k_broadcast(X, Y, Z, M: tl.constexpr, N: tl.constexpr, OP: tl.constexpr):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(X + rm)
    y = tl.load(Y + rn)
    if OP == "+":
        z = x + y
    elif OP == "*":
        z = x * y
    elif OP == "-":
        z = x - y
    elif OP == "<":
        z = (x < y).to(tl.float32)
    else:
        z = x % y
    tl.store(Z + rm * N + rn, z)


def test_scalar_operands(backend):
    """Scalar (0-d) values: a loaded scalar combined with a block and with
    another scalar."""
    x = np.array([5], dtype=np.int32)
    y = np.array([3], dtype=np.int32)
    z = np.zeros(N, dtype=np.int32)
    _, _, out = backend.run(k_scalar_operands, 1, x, y, z, N=N)
    ar = np.arange(N, dtype=np.int32)
    assert_close(out, (5 * 3 - 5 // 3) + ar * 5)


def k_scalar_operands(X, Y, Z, N: tl.constexpr):
    a = tl.load(X)
    b = tl.load(Y)
    s = a * b - a // b
    tl.store(Z + tl.arange(0, N), s + tl.arange(0, N) * a)


def k_scalar_arguments(Z, a, b, c, N: tl.constexpr):
    tl.store(Z + tl.arange(0, N), tl.arange(0, N) * a + b + c.to(tl.float32))


def test_numpy_scalar_arguments(backend):
    """numpy's scalars are values (an int, a float, a bool) as Python's numbers
    are, though they carry an __array_interface__ (they were typed as
    pointers: 'invalid operands of type fp32 and pointer<int32>')."""
    z = np.zeros(N, dtype=np.float32)
    (out,) = backend.run(k_scalar_arguments, 1, z, np.int32(3), np.float32(1.5), np.bool_(True), N=N)
    assert_close(out, np.arange(N, dtype=np.float32) * 3 + 2.5)
    (out,) = backend.run(k_scalar_arguments, 1, z, np.int64(2), np.float64(0.25), np.bool_(False), N=N)
    assert_close(out, np.arange(N, dtype=np.float32) * 2 + 0.25)


# ---------------------------------------------------------------------------
# minimum, maximum, clamp
# ---------------------------------------------------------------------------


def k_minmax(X, Y, Z, N: tl.constexpr, FN: tl.constexpr, T: tl.constexpr, PROPAGATE: tl.constexpr,
             ZIO: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs).to(T)
    y = tl.load(Y + offs).to(T)
    if FN == "minimum":
        if PROPAGATE:
            z = tl.minimum(x, y, propagate_nan=tl.PropagateNan.ALL)
        else:
            z = tl.minimum(x, y, propagate_nan=tl.PropagateNan.NONE)
    elif FN == "maximum":
        if PROPAGATE:
            z = tl.maximum(x, y, propagate_nan=tl.PropagateNan.ALL)
        else:
            z = tl.maximum(x, y)
    else:
        if PROPAGATE:
            z = tl.clamp(x, -tl.abs(y), tl.abs(y), propagate_nan=tl.PropagateNan.ALL)
        else:
            z = tl.clamp(x, -tl.abs(y), tl.abs(y), propagate_nan=tl.PropagateNan.NONE)
    tl.static_assert(T == z.dtype)
    tl.store(Z + offs, z.to(ZIO))


MINMAX_CASES = [(d, p) for d in NUMERIC for p in ([False, True] if is_float(d) else [False])]


@pytest.mark.parametrize("dtype,propagate", MINMAX_CASES,
                         ids=[f"{d}-{'ALL' if p else 'NONE'}" for d, p in MINMAX_CASES])
@pytest.mark.parametrize("fn", ["minimum", "maximum"])
def test_minimum_maximum(backend, fn, dtype, propagate):
    rs = rng(10)
    x = random_values(dtype, N, rs, special=True)
    y = random_values(dtype, N, rs, special=False)
    if is_float(dtype):
        y[8] = np.nan
        y[4] = np.nan  # both NaN
        x[9] = 0.0
        y[9] = 0.0
    z = np.zeros(N, dtype=x.dtype)
    _, _, out = backend.run(k_minmax, 1, x, y, z, N=N, FN=fn, T=tlt(dtype), PROPAGATE=propagate,
                            ZIO=tlt(io_name(dtype)))
    if is_float(dtype):
        ref = (np.minimum if fn == "minimum" else np.maximum)(x, y) if propagate else \
            (np.fmin if fn == "minimum" else np.fmax)(x, y)
    else:
        ref = (np.minimum if fn == "minimum" else np.maximum)(x, y)
    assert_close(out, ref, dtype)


@pytest.mark.parametrize("a,b", [("int8", "int32"), ("uint8", "int16"), ("float16", "float32"), ("int32", "float32"),
                                 ("uint32", "int32"), ("bfloat16", "float16")])
@pytest.mark.parametrize("fn", ["minimum", "maximum"])
def test_minimum_maximum_mixed(backend, fn, a, b):
    rs = rng(11)
    x = random_values(a, N, rs, low=0, high=100) if not is_float(a) else random_values(a, N, rs, low=-50, high=50)
    y = random_values(b, N, rs, low=0, high=100) if not is_float(b) else random_values(b, N, rs, low=-50, high=50)
    comp, _ = binary_result("+", a, b)
    z = np.zeros(N, dtype=np.dtype(io_name(comp)))
    _, _, out = backend.run(k_minmax_mixed, 1, x, y, z, N=N, FN=fn, A=tlt(a), B=tlt(b), RT=tlt(comp),
                            ZIO=tlt(io_name(comp)))
    xs, ys = np_value(x, comp), np_value(y, comp)
    ref = np.minimum(xs, ys) if fn == "minimum" else np.maximum(xs, ys)
    assert_close(out, ref, comp)


def k_minmax_mixed(X, Y, Z, N: tl.constexpr, FN: tl.constexpr, A: tl.constexpr, B: tl.constexpr, RT: tl.constexpr,
                   ZIO: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs).to(A)
    y = tl.load(Y + offs).to(B)
    if FN == "minimum":
        z = tl.minimum(x, y)
    else:
        z = tl.maximum(x, y)
    tl.static_assert(RT == z.dtype)
    tl.store(Z + offs, z.to(ZIO))


@pytest.mark.parametrize("propagate", [False, True], ids=["NONE", "ALL"])
@pytest.mark.parametrize("dtype", FLOATS)
def test_clamp(backend, dtype, propagate):
    rs = rng(12)
    x = random_values(dtype, N, rs)
    y = random_values(dtype, N, rs, low=0.5, high=8.0)
    x[3] = np.nan
    z = np.zeros(N, dtype=x.dtype)
    _, _, out = backend.run(k_minmax, 1, x, y, z, N=N, FN="clamp", T=tlt(dtype), PROPAGATE=propagate,
                            ZIO=tlt(io_name(dtype)))
    ok = ~np.isnan(x)
    assert_close(out[ok], np.clip(x, -y, y)[ok], dtype)
    # A NaN x: NaN with PropagateNan.ALL, never NaN with NONE.
    assert np.isnan(out[3]) == propagate


@pytest.mark.parametrize("dtype", ["int32", "int8", "uint32", "int64"])
def test_clamp_int_is_error(backend, dtype):
    x = random_values(dtype, N, rng(13))
    z = np.zeros(N, dtype=dtype)
    expect_error(backend.run, k_minmax, 1, x, x, z, N=N, FN="clamp", T=tlt(dtype), PROPAGATE=False,
                 ZIO=tlt(dtype))


def k_clamp_scalars(X, Z, N: tl.constexpr, LO: tl.constexpr, HI: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.store(Z + offs, tl.clamp(x, LO, HI))


@pytest.mark.parametrize("lo,hi", [(-1.0, 1.0), (0.0, 0.5), (-3.5, -2.0)])
def test_clamp_scalar_bounds(backend, lo, hi):
    x = random_values("float32", N, rng(14))
    z = np.zeros(N, dtype=np.float32)
    _, out = backend.run(k_clamp_scalars, 1, x, z, N=N, LO=lo, HI=hi)
    assert_close(out, np.clip(x, lo, hi), "float32")


# ---------------------------------------------------------------------------
# fdiv, div_rn, umulhi
# ---------------------------------------------------------------------------


def k_math2(X, Y, Z, N: tl.constexpr, FN: tl.constexpr, T: tl.constexpr, RT: tl.constexpr, ZIO: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs).to(T)
    y = tl.load(Y + offs).to(T)
    if FN == "fdiv":
        z = tl.fdiv(x, y)
    elif FN == "fdiv_ieee":
        z = tl.fdiv(x, y, ieee_rounding=True)
    elif FN == "div_rn":
        z = tl.div_rn(x, y)
    elif FN == "umulhi":
        z = tl.umulhi(x, y)
    tl.static_assert(RT == z.dtype)
    tl.store(Z + offs, z.to(ZIO))


FDIV_CASES = [pytest.param(fn, d, marks=[pytest.mark.xfail(
    strict=True, reason="frontend: fdiv(ieee_rounding=True) is typed as div_rn (fp32 only); Triton ignores "
    "ieee_rounding and accepts every float type")] if fn == "fdiv_ieee" and d != "float32" else [])
    for fn in ("fdiv", "fdiv_ieee", "div_rn") for d in FLOATS]


@pytest.mark.parametrize("fn,dtype", FDIV_CASES)
def test_fdiv_div_rn(backend, fn, dtype):
    rs = rng(15)
    x = random_values(dtype, N, rs)
    y = random_values(dtype, N, rs, low=0.25, high=4.0)
    z = np.zeros(N, dtype=x.dtype)
    accepted = dtype == "float32" if fn != "fdiv" else True
    if fn == "div_rn" and not accepted:
        expect_error(backend.run, k_math2, 1, x, y, z, N=N, FN=fn, T=tlt(dtype), RT=tlt(dtype),
                     ZIO=tlt(io_name(dtype)))
        return
    _, _, out = backend.run(k_math2, 1, x, y, z, N=N, FN=fn, T=tlt(dtype), RT=tlt(dtype), ZIO=tlt(io_name(dtype)))
    ref = np_value(x.astype(np.float64) / y.astype(np.float64), dtype)
    # fdiv is approximate (2 ulp on GPUs); div_rn and ieee fdiv are exact.
    rtol = 0 if fn in ("div_rn", "fdiv_ieee") else {"float32": 3e-7, "float64": 1e-15}.get(dtype)
    assert_close(out, ref, dtype, rtol=rtol)


@pytest.mark.parametrize("dtype", ["int32", "uint32", "int64", "uint64", "int16", "float32"])
def test_umulhi(backend, dtype):
    rs = rng(16)
    x = random_values(dtype, N, rs, special=True)
    y = random_values(dtype, N, rs, special=True)
    z = np.zeros(N, dtype=x.dtype)
    if dtype not in ("int32", "uint32", "int64", "uint64"):
        expect_error(backend.run, k_math2, 1, x, y, z, N=N, FN="umulhi", T=tlt(dtype), RT=tlt(dtype),
                     ZIO=tlt(dtype))
        return
    _, _, out = backend.run(k_math2, 1, x, y, z, N=N, FN="umulhi", T=tlt(dtype), RT=tlt(dtype), ZIO=tlt(dtype))
    w = bits(dtype)
    mask = (1 << w) - 1
    ref = [((int(a) & mask) * (int(b) & mask)) >> w for a, b in zip(x, y)]
    ref = np.array(ref, dtype=np.uint64).astype(np.dtype("uint" + str(w))).view(x.dtype)
    assert_close(out, ref)
