"""Casts: every ordered pair of dtypes (C conversions: integers wrap or
extend by the source's signedness, floats truncate toward zero into
integers, anything != 0 is True), bitcasts between types of one width,
fp_downcast_rounding ("rtne", "rtz") and the errors."""

import numpy as np
import pytest

import tritium.language as tl

from .helpers import (ALL, assert_close, bits, expect_error, int_range, io_name, is_float, is_int,
                      is_unsigned, np_value, random_values, rng, round_bf16, tlt, truncate_bf16)

N = 128


def k_cast(X, Z, N: tl.constexpr, SRC: tl.constexpr, DST: tl.constexpr, ZIO: tl.constexpr, BITCAST: tl.constexpr,
           ROUNDING: tl.constexpr, METHOD: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs).to(SRC)
    if BITCAST:
        z = x.to(DST, bitcast=True)
    elif ROUNDING != "":
        z = tl.cast(x, DST, fp_downcast_rounding=ROUNDING)
    elif METHOD:
        z = x.to(DST)
    else:
        z = tl.cast(x, DST)
    tl.static_assert(DST == z.dtype, "unexpected result dtype")
    tl.store(Z + offs, z.to(ZIO))


def _run(backend, x, src, dst, bitcast=False, rounding="", method=False):
    z = np.zeros(N, dtype=np.dtype(io_name(dst)))
    _, out = backend.run(k_cast, 1, x, z, N=N, SRC=tlt(src), DST=tlt(dst), ZIO=tlt(io_name(dst)), BITCAST=bitcast,
                         ROUNDING=rounding, METHOD=method)
    return out


FLOAT_MAX = {"float16": 65504.0, "bfloat16": 3.0e38, "float32": 3.0e38, "float64": 1e300}


def _cast_inputs(src, dst, rs):
    """Source values whose conversion to ``dst`` is defined (and is rounded
    once: no double-rounding ties)."""
    if is_int(src) and is_float(dst):
        if dst in ("float16", "bfloat16"):
            lo, hi = int_range(src)
            return random_values(src, N, rs, low=max(lo, -60000), high=min(hi, 60000), special=True)
        return random_values(src, N, rs, special=True)
    if is_float(src) and is_int(dst):
        if dst == "int1":
            return random_values(src, N, rs, special=True)
        lo, hi = int_range(dst)
        bound = min(float(hi), 2.0**40, FLOAT_MAX[src] * 0.9)
        low = 0.0 if is_unsigned(dst) else -min(bound, -float(lo))
        x = random_values(src, N, rs, low=low, high=bound)
        x[:4] = np_value(np.array([0.0, 1.0, 2.75, 0.5] if is_unsigned(dst) else [0.0, -2.75, 2.75, -0.5]), src)
        return x
    if src == "float64" and dst == "bfloat16":
        return random_values("float32", N, rs, special=True).astype(np.float64)
    return random_values(src, N, rs, special=True)


PAIRS = [(a, b) for a in ALL for b in ALL]


@pytest.mark.parametrize("src,dst", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
def test_cast(backend, src, dst):
    x = _cast_inputs(src, dst, rng(30))
    out = _run(backend, x, src, dst, method=(ALL.index(src) + ALL.index(dst)) % 2 == 0)
    ref = np_value(x, dst)
    if is_float(dst):
        assert_close(out, ref, dst, rtol=0)
        zeros = np.where(ref == 0)[0]
        assert np.signbit(out[zeros]).tolist() == np.signbit(ref[zeros]).tolist(), "the sign of zero is kept"
    else:
        assert_close(out, ref)


@pytest.mark.parametrize("dst", ["int8", "int32", "int64", "uint8", "uint32", "float32", "float16", "int1"])
def test_cast_negative_float_to_int_truncates(backend, dst):
    x = np.array([-2.75, 2.75, -0.5, 0.5, 7.0, -7.9, 100.2, 1.0] * (N // 8), dtype=np.float32)
    if is_unsigned(dst) and dst != "int1":
        x = np.abs(x)
    out = _run(backend, x, "float32", dst)
    assert_close(out, np_value(x, dst), dst)


SATURATING = [(s, d) for s in ("float16", "float32", "float64")
              for d in ("int16", "int32", "int64", "uint16", "uint32", "uint64")]


@pytest.mark.parametrize("src,dst", SATURATING, ids=[f"{a}-{b}" for a, b in SATURATING])
def test_cast_float_to_int_saturates(backend, src, dst):
    """Out of range saturates and NaN gives 0 into 16 bits and more: NVIDIA's
    cvt, the interpreter and the cpu target agree (x86's own conversion
    gives INT_MIN). 8-bit results are not promised: NVIDIA saturates to 16
    bits and wraps."""
    big = FLOAT_MAX[src] * 0.9
    x = np.array([np.nan, np.inf, -np.inf, big, -big, -1.5, -0.5, 3.75] * (N // 8)).astype(src)
    lo, hi = int_range(dst)
    out = _run(backend, x, src, dst)
    ref = np.array([0, hi, lo, min(hi, int(float(x[3]))), max(lo, int(float(x[4]))), 0 if lo == 0 else -1, 0, 3]
                   * (N // 8), dtype=np.dtype(dst))
    assert out.tolist() == ref.tolist()


# ---------------------------------------------------------------------------
# Bitcasts
# ---------------------------------------------------------------------------

WIDTH_GROUPS = [["int8", "uint8"], ["int16", "uint16", "float16", "bfloat16"], ["int32", "uint32", "float32"],
                ["int64", "uint64", "float64"]]
BITCAST_PAIRS = [(a, b) for g in WIDTH_GROUPS for a in g for b in g if a != b]


def _to_bits(x, name):
    if name == "bfloat16":
        return (x.astype(np.float32).view(np.uint32) >> np.uint32(16)).astype(np.uint16)
    return x.view(np.dtype(f"uint{bits(name)}"))


def _from_bits(u, name):
    if name == "bfloat16":
        return (u.astype(np.uint32) << np.uint32(16)).view(np.float32)
    return u.view(np.dtype(name))


@pytest.mark.parametrize("src,dst", BITCAST_PAIRS, ids=[f"{a}-{b}" for a, b in BITCAST_PAIRS])
def test_bitcast(backend, src, dst):
    rs = rng(31)
    if is_float(src):
        x = random_values(src, N, rs, special=True)
    else:
        # Bit patterns that are not NaN in the destination (NaN payloads may
        # be quieted by conversions).
        x = random_values(src, N, rs, special=True)
        if is_float(dst):
            f = _from_bits(_to_bits(x, src), dst)
            x = np.where(np.isnan(f), np.array(0).astype(x.dtype), x)
    out = _run(backend, x, src, dst, bitcast=True)
    ref = _from_bits(_to_bits(x, src), dst)
    if is_float(dst):
        nan = np.isnan(ref)
        assert np.isnan(out[nan]).all()
        assert (_to_bits(out[~nan], dst) == _to_bits(ref[~nan], dst)).all(), "bit patterns differ"
    else:
        assert_close(out, ref)


@pytest.mark.parametrize("src,dst", [("int32", "int16"), ("float32", "float64"), ("int8", "float16"),
                                     ("float64", "int32")])
def test_bitcast_width_mismatch_is_error(backend, src, dst):
    x = random_values(src, N, rng(32))
    z = np.zeros(N, dtype=np.dtype(io_name(dst)))
    expect_error(backend.run, k_cast, 1, x, z, N=N, SRC=tlt(src), DST=tlt(dst), ZIO=tlt(io_name(dst)), BITCAST=True,
                 ROUNDING="", METHOD=False)


# ---------------------------------------------------------------------------
# fp_downcast_rounding
# ---------------------------------------------------------------------------


def _rtz(x64, dst):
    """Rounds float64 values toward zero to ``dst`` (I/O representation)."""
    if dst == "bfloat16":
        f32 = _rtz(x64, "float32")
        return truncate_bf16(f32)
    t = np.dtype(dst)
    with np.errstate(all="ignore"):
        r = x64.astype(t)
        over = np.abs(r.astype(np.float64)) > np.abs(x64)
        r = np.where(over & np.isfinite(x64), np.nextafter(r, np.zeros_like(r)), r)
    return r.astype(t)


DOWNCASTS = [("float32", "float16"), ("float32", "bfloat16"), ("float64", "float32"), ("float64", "float16"),
             ("float64", "bfloat16")]


@pytest.mark.parametrize("rounding", ["rtne", "rtz"])
@pytest.mark.parametrize("src,dst", DOWNCASTS, ids=[f"{a}-{b}" for a, b in DOWNCASTS])
def test_fp_downcast_rounding(backend, src, dst, rounding):
    rs = rng(33)
    x = (rs.randn(N) * 1000).astype(src)
    x[:8] = [1e5, -1e5, 1e-6, -1e-6, 0.1, -0.1, 3.0e38 if src == "float64" else 1e38, 1.0 / 3]
    if src == "float64" and dst == "bfloat16" and rounding == "rtne":
        x = x.astype(np.float32).astype(np.float64)  # one rounding only
    out = _run(backend, x, src, dst, rounding=rounding)
    x64 = x.astype(np.float64)
    if rounding == "rtz":
        ref = _rtz(x64, dst)
    else:
        with np.errstate(over="ignore"):
            ref = round_bf16(x64.astype(np.float32)) if dst == "bfloat16" else x64.astype(dst)
    assert_close(out, ref, dst, rtol=0)


@pytest.mark.parametrize("src,dst", [("float16", "float32"), ("int32", "float16"), ("float32", "int32"),
                                     ("bfloat16", "float32")])
def test_fp_downcast_rounding_on_other_casts_is_error(backend, src, dst):
    x = random_values(src, N, rng(34))
    z = np.zeros(N, dtype=np.dtype(io_name(dst)))
    expect_error(backend.run, k_cast, 1, x, z, N=N, SRC=tlt(src), DST=tlt(dst), ZIO=tlt(io_name(dst)),
                 BITCAST=False, ROUNDING="rtz", METHOD=False)


def test_bad_rounding_mode_is_error(backend):
    x = random_values("float32", N, rng(35))
    z = np.zeros(N, dtype=np.float16)
    expect_error(backend.run, k_cast, 1, x, z, N=N, SRC=tl.float32, DST=tl.float16, ZIO=tl.float16, BITCAST=False,
                 ROUNDING="rtp", METHOD=False)


# ---------------------------------------------------------------------------
# Implicit conversions: stores convert to the pointer's element type
# ---------------------------------------------------------------------------


def k_store_convert(X, Z, N: tl.constexpr, T: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Z + offs, tl.load(X + offs).to(T))


@pytest.mark.parametrize("src,dst", [("float32", "float16"), ("float32", "int32"), ("int32", "float32"),
                                     ("float64", "float32"), ("int64", "int8"), ("int1", "float32")])
def test_store_converts_to_element_type(backend, src, dst):
    x = _cast_inputs(src, dst, rng(36))
    z = np.zeros(N, dtype=np.dtype(io_name(dst)))
    _, out = backend.run(k_store_convert, 1, x, z, N=N, T=tlt(src))
    assert_close(out, np_value(np_value(x, src), dst), dst, rtol=0)
