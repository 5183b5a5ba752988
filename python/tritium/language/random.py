"""Counter-based random numbers: Philox 4x32-10 (and 4x64 for 64-bit
counters), with the constants, the key schedule and the float conversion of
Triton's ``tl.random``, so that a seed and an offset give the same numbers
as Triton does.

Each function is a composition of tl operations; nothing here is special to
the compiler.
"""

from . import _types
from . import math as _math
from .core import _unwrap, builtin, full, maximum, static_assert, to_tensor, where

N_ROUNDS_DEFAULT = 10

# Philox 4x32: the Weyl key increments (golden ratio, sqrt(3) - 1) and the
# round multipliers.
_KEY_A_32, _KEY_B_32 = 0x9E3779B9, 0xBB67AE85
_ROUND_A_32, _ROUND_B_32 = 0xD2511F53, 0xCD9E8D57
# Philox 4x64.
_KEY_A_64, _KEY_B_64 = 0x9E3779B97F4A7C15, 0xBB67AE8584CAA73B
_ROUND_A_64, _ROUND_B_64 = 0xD2E7470EE14C6C93, 0xCA5A826395121157


@builtin
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds=N_ROUNDS_DEFAULT):
    """``n_rounds`` rounds of Philox on the counter (c0, c1, c2, c3) with
    the key (k0, k1); the counter is uint32 (Philox 4x32) or uint64."""
    c0, c1, c2, c3, k0, k1 = (to_tensor(v) for v in (c0, c1, c2, c3, k0, k1))
    if c0.dtype == _types.uint32:
        key_a, key_b, mul_a, mul_b = _KEY_A_32, _KEY_B_32, _ROUND_A_32, _ROUND_B_32
    else:
        static_assert(c0.dtype == _types.uint64, "philox_impl: the counter must be uint32 or uint64")
        key_a, key_b, mul_a, mul_b = _KEY_A_64, _KEY_B_64, _ROUND_A_64, _ROUND_B_64
    for _ in range(int(_unwrap(n_rounds))):
        prev0, prev2 = c0, c2
        c0 = _math.umulhi(mul_b, prev2) ^ c1 ^ k0
        c2 = _math.umulhi(mul_a, prev0) ^ c3 ^ k1
        c1 = mul_b * prev2
        c3 = mul_a * prev0
        k0 = k0 + key_a
        k1 = k1 + key_b
    return c0, c1, c2, c3


@builtin
def philox(seed, c0, c1, c2, c3, n_rounds=N_ROUNDS_DEFAULT):
    """Philox of the counter (c0..c3) keyed by the 64-bit ``seed``."""
    seed = to_tensor(seed)
    static_assert(seed.dtype.is_int(), "philox: the seed must be an integer")
    seed = seed.to(_types.uint64)
    c0, c1, c2, c3 = (to_tensor(v) for v in (c0, c1, c2, c3))
    if c0.dtype.primitive_bitwidth == 32:
        ctr = _types.uint32
        seed_hi = ((seed >> 32) & 0xffffffff).to(_types.uint32)
        seed_lo = (seed & 0xffffffff).to(_types.uint32)
    else:
        static_assert(c0.dtype.primitive_bitwidth == 64, "philox: the counter must have 32 or 64 bits")
        ctr = _types.uint64
        seed_hi = full((1, ), 0, _types.uint64)
        seed_lo = seed
    c0, c1, c2, c3 = (c.to(ctr, bitcast=True) for c in (c0, c1, c2, c3))
    return philox_impl(c0, c1, c2, c3, seed_lo, seed_hi, n_rounds)


@builtin
def randint4x(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    """Four blocks of random 32-bit integers for ``offset`` (a block)."""
    offset = to_tensor(offset)
    lo = offset.to(_types.uint32)
    zero = lo * 0
    hi = (offset >> 32).to(_types.uint32) if offset.dtype.primitive_bitwidth > 32 else zero
    return philox(seed, lo, hi, zero, zero, n_rounds)


@builtin
def randint(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    """A block of random 32-bit integers (the first of randint4x)."""
    return randint4x(seed, offset, n_rounds)[0]


@builtin
def uint_to_uniform_float(x):
    """A random 32- or 64-bit integer as a float32 in [0, 1)."""
    x = to_tensor(x)
    if x.dtype in (_types.uint32, _types.int32):
        x = x.to(_types.int32, bitcast=True)
        scale = 4.6566127342e-10  # the largest scale with (2**31 - 1) * scale < 1 in fp32
    else:
        static_assert(x.dtype in (_types.uint64, _types.int64), "uint_to_uniform_float: expected a 32- or 64-bit int")
        x = x.to(_types.int64, bitcast=True)
        scale = 1.0842020432385337e-19
    x = where(x < 0, -x - 1, x)
    return x * scale


@builtin
def rand(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    """A block of float32 uniform in [0, 1) for ``offset``."""
    return uint_to_uniform_float(randint(seed, offset, n_rounds))


@builtin
def rand4x(seed, offsets, n_rounds=N_ROUNDS_DEFAULT):
    """Four blocks of float32 uniform in [0, 1)."""
    return tuple(uint_to_uniform_float(i) for i in randint4x(seed, offsets, n_rounds))


@builtin
def pair_uniform_to_normal(u1, u2):
    """The Box-Muller transform of two uniform blocks."""
    u1 = maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = _math.sqrt(-2.0 * _math.log(u1))
    return r * _math.cos(th), r * _math.sin(th)


@builtin
def randn(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    """A block of float32 normally distributed (mean 0, variance 1)."""
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    n1, _ = pair_uniform_to_normal(uint_to_uniform_float(i1), uint_to_uniform_float(i2))
    return n1


@builtin
def randn4x(seed, offset, n_rounds=N_ROUNDS_DEFAULT):
    """Four blocks of float32 normally distributed."""
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4
