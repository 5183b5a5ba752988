"""Microscaling (OCP MX v1.0) element and scale formats (``triton.tools.mxfp``).

    a = MXFP4Tensor(size=(M, K), device="cuda").random()   # E2M1 codes, one per uint8
    a.to(torch.float32)                                     # their values
    packed = a.to_packed_tensor(dim=1)                      # two codes a byte, low nibble first
    s = MXScaleTensor(torch.rand(n) + 1e-8)                 # E8M0 codes of float32 scales
    s.data, s.to(torch.float32)

``MXFP4Tensor``: 4-bit E2M1 (sign, 2 exponent bits with bias 1, 1 mantissa
bit; values 0, 0.5, 1, 1.5, 2, 3, 4, 6 and their negatives; no Inf or NaN).
Floats convert to the nearest value, ties to the even code; magnitudes past
6 and Inf/NaN become 6 with their sign. ``MXScaleTensor``: 8-bit E8M0 (an
exponent with bias 127, value 2**(e - 127); 255 is NaN). Floats convert to
2**floor(log2(x)) clamped to the codes 0..254; x <= 0, Inf and NaN become 255.

The classes hold torch tensors, as Triton's do; the conversions are written
once for torch tensors and numpy arrays alike (the same operators), so they
run on the tensor's device and their rounding is tested without torch.
"""

import math

import numpy as np

__all__ = ["MXFP4Tensor", "MXScaleTensor"]

# E2M1 magnitudes by code (sign bit clear) and the rounding between them: the
# midpoint of codes k and k + 1, and whether a tie there goes up (to the even
# code k + 1 when k is odd).
E2M1_MAGNITUDES = (0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0)
_E2M1_STEPS = tuple(((lo + hi) / 2, k % 2 == 1)
                    for k, (lo, hi) in enumerate(zip(E2M1_MAGNITUDES, E2M1_MAGNITUDES[1:])))
E8M0_BIAS = 127
E8M0_NAN = 255


def _xp(x):
    """The array library of ``x``: numpy for an ndarray, else torch."""
    if isinstance(x, np.ndarray):
        return np
    import torch
    return torch


def _cast(x, xp, dtype_name):
    return xp.asarray(x, dtype=getattr(xp, dtype_name))


def e2m1_encode(values):
    """The E2M1 codes (uint8, the low 4 bits) of float ``values``."""
    xp = _xp(values)
    values = _cast(values, xp, "float32")
    mag = abs(values)
    code = xp.isnan(values) * len(_E2M1_STEPS)  # NaN: the largest magnitude
    for mid, tie_up in _E2M1_STEPS:
        code = code + ((mag >= mid) if tie_up else (mag > mid)) * 1
    return _cast(xp.signbit(values) * 8 + code, xp, "uint8")


def e2m1_decode(codes):
    """The float32 values of E2M1 ``codes`` (the low 4 bits of each)."""
    xp = _xp(codes)
    c = _cast(_cast(codes, xp, "uint8") & 0xF, xp, "float32")
    sign, exp, man = c // 8, (c // 2) % 4, c % 2
    mag = xp.where(exp == 0, man * 0.5, (1 + man * 0.5) * 2.0 ** (exp - 1))
    return _cast((1 - 2 * sign) * mag, xp, "float32")  # -0.0 keeps its sign


def e8m0_encode(values):
    """The E8M0 codes (uint8) of float ``values``: 2**floor(log2(x)), clamped."""
    xp = _xp(values)
    values = _cast(values, xp, "float32")
    bad = xp.isnan(values) | xp.isinf(values) | (values <= 0)
    # frexp: x = m * 2**e with 0.5 <= m < 1, so floor(log2(x)) = e - 1, exactly.
    exp = _cast(xp.frexp(xp.where(bad, 1.0, values))[1], xp, "float32") - 1 + E8M0_BIAS
    code = xp.where(bad, float(E8M0_NAN), xp.clip(exp, 0, E8M0_NAN - 1))
    return _cast(code, xp, "uint8")


def e8m0_decode(codes):
    """The float32 values 2**(code - 127) of E8M0 ``codes`` (255: NaN)."""
    xp = _xp(codes)
    c = _cast(codes, xp, "float32")
    nan = c == E8M0_NAN
    value = 2.0 ** (xp.where(nan, float(E8M0_BIAS), c) - E8M0_BIAS)  # 2**128 would overflow
    return _cast(xp.where(nan, float("nan"), value), xp, "float32")


def pack_nibbles(codes, dim):
    """Two 4-bit codes a byte along ``dim``: element 2i in the low nibble,
    2i + 1 in the high one; an odd length gets a zero high nibble last."""
    xp = _xp(codes)
    if not 0 <= dim < codes.ndim:
        raise ValueError(f"dim {dim} is not a dimension of a {codes.ndim}-d tensor")
    moved = xp.moveaxis(_cast(codes, xp, "uint8") & 0xF, dim, -1)
    low, high = moved[..., 0::2], moved[..., 1::2]
    packed = low * 1  # a copy: the odd element has no high nibble
    packed[..., :high.shape[-1]] |= high << 4
    return xp.moveaxis(packed, -1, dim)


def unpack_nibbles(packed, dim, length):
    """The codes pack_nibbles(codes, dim) packed, ``length`` along ``dim``."""
    xp = _xp(packed)
    moved = xp.moveaxis(_cast(packed, xp, "uint8"), dim, -1)
    pairs = xp.stack((moved & 0xF, (moved >> 4) & 0xF), -1)
    codes = pairs.reshape(*moved.shape[:-1], 2 * moved.shape[-1])[..., :length]
    return xp.moveaxis(codes, -1, dim)


def _check_float32(dtype, what):
    name = str(dtype)
    if not (name == "torch.float32" if name.startswith("torch.") else np.dtype(dtype) == np.float32):
        raise AssertionError(f"{what} converts to float32 only, not {dtype}")


class _Codes:
    """One 8-bit code per element in ``data``: encoded from float ``data``,
    or of ``size`` (then ``random()``) on ``device``."""

    _encode = _decode = None

    def __init__(self, data=None, size=None, device=None):
        self.device = device
        if data is not None:
            self.device = getattr(data, "device", device)
            self.data = type(self)._encode(data)
            self.size = tuple(self.data.shape)
        elif size is not None:
            self.size = tuple(size) if isinstance(size, (tuple, list)) else (size, )
        else:
            raise ValueError(f"{type(self).__name__} needs data or size")

    def to(self, dtype):
        """The values as a float32 tensor (an E8M0 scale's NaN code: NaN)."""
        _check_float32(dtype, type(self).__name__)
        return type(self)._decode(self.data)


class MXFP4Tensor(_Codes):
    """E2M1 data, one code per uint8 in ``data`` (Triton's MXFP4Tensor)."""

    _encode, _decode = staticmethod(e2m1_encode), staticmethod(e2m1_decode)

    def random(self):
        """Uniformly random codes (every sign, exponent and mantissa)."""
        import torch
        self.data = torch.randint(0, 16, self.size, dtype=torch.uint8, device=self.device)
        return self

    def to_packed_tensor(self, dim):
        """Two codes per uint8 along ``dim`` (see pack_nibbles)."""
        return pack_nibbles(self.data, dim)

    def unpack_packed_tensor(self, packed_tensor, dim, original_shape):
        """The one-code-per-byte tensor of ``original_shape`` that
        ``to_packed_tensor(dim)`` packed."""
        return unpack_nibbles(packed_tensor, dim, original_shape[dim])


class MXScaleTensor(_Codes):
    """E8M0 block scales, one code per uint8 in ``data`` (Triton's
    MXScaleTensor)."""

    _encode, _decode = staticmethod(e8m0_encode), staticmethod(e8m0_decode)

    def random(self, low=None, high=None):
        """Uniformly random codes between those of ``low`` and ``high``
        (their log2 truncated toward zero, as Triton's), never NaN."""
        import torch
        lo = 0 if low is None else max(0, int(math.log2(low)) + E8M0_BIAS)
        hi = E8M0_NAN - 1 if high is None else min(E8M0_NAN - 1,
                                                   max(0, int(math.log2(high)) + E8M0_BIAS))
        if lo > hi:
            raise AssertionError("MXScaleTensor.random: low must not exceed high")
        self.data = torch.randint(lo, hi + 1, self.size, dtype=torch.uint8, device=self.device)
        return self
