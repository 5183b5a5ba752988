"""bf16 and fp8 for the interpreter, bit-exact with compiled code.

The interpreter carries bf16 and fp8 (fp8e4nv, fp8e5, fp8e4b15) values as
float32 arrays whose values are exactly representable in the format: every
operation computes in float32 and rounds back, as the NVIDIA lowering does
(codegen/lowering/FloatConversions.cpp): round to nearest even on the bit
pattern, NaN kept (bf16: the quiet NaN with its sign), and fp8 saturating to
its largest finite value (infinities too) with one NaN pattern.
Memory holds the bit patterns (uint16, uint8).
"""

import numpy as np

_U32 = np.uint32

# name -> (exponent bits, mantissa bits, bias, max finite pattern, NaN pattern, has inf)
FP8 = {
    "fp8e4nv": (4, 3, 7, 0x7E, 0x7F, False),
    "fp8e5": (5, 2, 15, 0x7B, 0x7F, True),
    "fp8e4b15": (4, 3, 15, 0x7E, 0x7F, False),  # fp8e4nv's encoding, bias 15
}


def _f32(x):
    return np.asarray(x, dtype=np.float32, order="C")


# -- bf16 ---------------------------------------------------------------------

def f32_to_bf16_bits(x, rtz=False):
    """float32 -> bf16 bit patterns (uint16)."""
    x = _f32(x)
    b = x.view(_U32)
    if rtz:
        r = b >> _U32(16)
    else:
        r = (b + _U32(0x7FFF) + ((b >> _U32(16)) & _U32(1))) >> _U32(16)
    nan = x != x
    if nan.any():
        r = np.where(nan, ((b >> _U32(16)) & _U32(0x8000)) | _U32(0x7FC0), r)
    return r.astype(np.uint16)


def bf16_bits_to_f32(bits):
    return (np.asarray(bits).astype(_U32) << _U32(16)).view(np.float32)


# -- fp8 ----------------------------------------------------------------------

def _fp8_table(name):
    """The float32 value of each of the 256 patterns (NaN with its sign)."""
    ebits, mbits, bias, _, nan_bits, has_inf = FP8[name]
    bits = np.arange(256)
    exp, mant = (bits >> mbits) & ((1 << ebits) - 1), bits & ((1 << mbits) - 1)
    mag = np.ldexp(np.where(exp > 0, mant + (1 << mbits), mant).astype(np.float64), np.maximum(exp, 1) - bias - mbits)
    absb, top = bits & 0x7F, ((1 << ebits) - 1) << mbits  # top: the first pattern of the largest exponent
    if has_inf:
        mag = np.where(absb == top, np.inf, np.where(absb > top, np.nan, mag))
    else:
        mag = np.where(absb == nan_bits, np.nan, mag)
    return np.where(bits & 0x80, -mag, mag).astype(np.float32)


_TABLES = {name: _fp8_table(name) for name in FP8}
#: The midpoints between neighbouring finite non-negative fp8 values (their
#: patterns count up from 0 as the values grow).
_MIDPOINTS = {name: (t[:FP8[name][3]].astype(np.float64) + t[1:FP8[name][3] + 1]) / 2 for name, t in _TABLES.items()}


def f32_to_fp8_bits(x, name):
    """float32 -> fp8 bit patterns (uint8): to the nearest value (at a tie
    the even pattern), saturating to the largest finite one (infinities
    too), NaN -> the NaN pattern; the sign kept."""
    x = _f32(x)
    mids = _MIDPOINTS[name]
    a = np.abs(x).astype(np.float64)
    below, above = np.searchsorted(mids, a, "left"), np.searchsorted(mids, a, "right")
    r = np.where(x != x, FP8[name][4], np.where(below != above, below + (below & 1), below))
    return (r | (x.view(_U32) >> _U32(24) & _U32(0x80))).astype(np.uint8)


def fp8_bits_to_f32(bits, name):
    return _TABLES[name][np.asarray(bits).astype(np.intp)]


# -- generic -----------------------------------------------------------------

def to_bits(x, name, rtz=False):
    """float32 -> the bit patterns of the carried format ``name`` (fp8
    always rounds to nearest)."""
    return f32_to_bf16_bits(x, rtz) if name == "bf16" else f32_to_fp8_bits(x, name)


def from_bits(bits, name):
    return bf16_bits_to_f32(bits) if name == "bf16" else fp8_bits_to_f32(bits, name)


def round_to(x, name, rtz=False):
    """float32 ``x`` rounded to the carried format ``name`` (as float32)."""
    return from_bits(to_bits(x, name, rtz), name)


def round_toward_zero(x, np_type):
    """float values -> ``np_type`` (float16 or float32) rounded toward zero."""
    x = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        r = x.astype(np_type)
        over = np.isfinite(x) & (np.abs(r.astype(np.float64)) > np.abs(x))
        return np.where(over, np.nextafter(r, r.dtype.type(0)), r).astype(np_type)


def f64_to_f32_odd(x):
    """float64 -> float32 rounded to odd: a later rounding to a format of at
    most 22 significant bits then rounds the float64 value correctly (used
    for constants, which LLVM rounds once from the double)."""
    x = np.asarray(x, dtype=np.float64)
    bits = np.asarray(round_toward_zero(x, np.float32), order="C").view(_U32)
    inexact = np.isfinite(x) & (bits.view(np.float32) != x)
    return np.where(inexact, bits | _U32(1), bits).astype(_U32).view(np.float32)
