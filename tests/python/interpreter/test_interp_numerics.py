"""The interpreter's numbers and dtypes are compiled code's: integer
wrap-around, C-like division and remainder, shifts, fp16/bf16/fp8 rounding,
weak literals, and Philox's published known answers."""

import numpy as np
import pytest

import tritium
import tritium.language as tl
from tritium.interpreter import floats
from tritium._C import frontend as _fe
from tritium.runtime.jit import reinterpret

jit = tritium.jit(interpret=True)


def run1(kernel, *args, grid=(1,), **kw):
    kernel[grid](*args, **kw)


# -- integers -----------------------------------------------------------------


@jit
def _int8_ops(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    tl.static_assert(x.dtype == tl.int8)
    y = x + 100  # a weak literal: stays int8 and wraps
    tl.static_assert(y.dtype == tl.int8)
    tl.store(out_ptr + tl.arange(0, 4), y)
    tl.store(out_ptr + 4 + tl.arange(0, 4), x * x)
    tl.store(out_ptr + 8 + tl.arange(0, 4), -x)


def test_int8_wraps():
    x = np.array([100, -128, 27, 127], np.int8)
    out = np.zeros(12, np.int8)
    run1(_int8_ops, x, out)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out[:4], (x.astype(np.int32) + 100).astype(np.int8))
        np.testing.assert_array_equal(out[4:8], (x.astype(np.int32) ** 2).astype(np.int8))
        np.testing.assert_array_equal(out[8:], (-x.astype(np.int32)).astype(np.int8))


@jit
def _divmod(a_ptr, b_ptr, q_ptr, r_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    a = tl.load(a_ptr + i)
    b = tl.load(b_ptr + i)
    tl.store(q_ptr + i, a // b)
    tl.store(r_ptr + i, a % b)


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.int8, np.int16])
def test_c_like_division_and_remainder(dtype):
    a = np.array([-7, 7, -7, 7, -8, 0, 5, -1], dtype)
    b = np.array([2, 2, -2, -2, 3, 3, -5, 4], dtype)
    q = np.zeros_like(a)
    r = np.zeros_like(a)
    run1(_divmod, a, b, q, r, N=8)
    np.testing.assert_array_equal(q, [-3, 3, 3, -3, -2, 0, -1, 0])
    np.testing.assert_array_equal(r, [-1, 1, -1, 1, -2, 0, 0, -1])
    assert q[0] == -3 and r[0] == -1  # -7 // 2 == -3 and -7 % 2 == -1, as Triton defines


def test_unsigned_division():
    a = np.array([7, 0xFFFFFFF9, 10, 3], np.uint32)
    b = np.array([2, 2, 3, 5], np.uint32)
    q, r = np.zeros_like(a), np.zeros_like(a)
    run1(_divmod, a, b, q, r, N=4)
    np.testing.assert_array_equal(q, a // b)
    np.testing.assert_array_equal(r, a % b)


@jit
def _shifts(x_ptr, s_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    s = tl.load(s_ptr + i)
    tl.store(out_ptr + i, x >> s)
    tl.store(out_ptr + N + i, x << s)
    tl.store(out_ptr + 2 * N + i, x >> 4)


def test_uint32_shifts_are_logical():
    x = np.array([0x80000000, 0xFFFFFFFF, 1, 0xF0F0F0F0], np.uint32)
    s = np.array([31, 4, 0, 32], np.uint32)
    out = np.zeros(12, np.uint32)
    run1(_shifts, x, s, out, N=4)
    np.testing.assert_array_equal(out[:4], [1, 0x0FFFFFFF, 1, 0])  # a shift by 32 is clamped: 0
    np.testing.assert_array_equal(out[4:8], [0, 0xFFFFFFF0, 1, 0])
    np.testing.assert_array_equal(out[8:], x >> 4)


def test_int32_shifts_are_arithmetic():
    x = np.array([-16, -1, 16, -2**31], np.int32)
    s = np.array([2, 40, 1, 31], np.int32)
    out = np.zeros(12, np.int32)
    run1(_shifts, x, s, out, N=4)
    np.testing.assert_array_equal(out[:4], [-4, -1, 8, -1])
    np.testing.assert_array_equal(out[8:], x >> 4)


@jit
def _umulhi(a_ptr, b_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(out_ptr + i, tl.umulhi(tl.load(a_ptr + i), tl.load(b_ptr + i)))


@pytest.mark.parametrize("dtype", [np.uint32, np.uint64])
def test_umulhi(dtype):
    bits = np.dtype(dtype).itemsize * 8
    vals = [0, 1, 2**bits - 1, 0xD2511F53, 2**(bits - 1) + 12345, 3, 2**(bits // 2) + 7, 99991]
    a = np.array(vals, dtype)
    b = np.array(vals[::-1], dtype)
    out = np.zeros_like(a)
    run1(_umulhi, a, b, out, N=8)
    np.testing.assert_array_equal(out, np.array([(int(x) * int(y)) >> bits for x, y in zip(a, b)], dtype))


# -- floats -----------------------------------------------------------------------


@jit
def _fp16_ops(x_ptr, y_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    y = tl.load(y_ptr + i)
    tl.static_assert((x + y).dtype == tl.float16)
    tl.static_assert((x * 2.0).dtype == tl.float16)  # weak float literal
    tl.static_assert((x / y).dtype == tl.float32)  # / on fp16 computes in fp32
    tl.store(out_ptr + i, x + y)
    tl.store(out_ptr + N + i, x * y)
    tl.store(out_ptr + 2 * N + i, (x.to(tl.float32) * 3.0).to(tl.float16))


def test_fp16_rounding():
    r = np.random.default_rng(1)
    x = r.standard_normal(64).astype(np.float16)
    y = r.standard_normal(64).astype(np.float16)
    out = np.zeros(192, np.float16)
    run1(_fp16_ops, x, y, out, N=64)
    np.testing.assert_array_equal(out[:64], (x.astype(np.float32) + y.astype(np.float32)).astype(np.float16))
    np.testing.assert_array_equal(out[64:128], (x.astype(np.float32) * y.astype(np.float32)).astype(np.float16))
    np.testing.assert_array_equal(out[128:], (x.astype(np.float32) * 3).astype(np.float16))


def _bf16_rne(f32):
    """Reference bf16 rounding with Python integers."""
    out = []
    for v in np.asarray(f32, np.float32):
        b = int(np.float32(v).view(np.uint32))
        if v != v:
            out.append((b >> 16) & 0x8000 | 0x7FC0)
            continue
        lower = b & 0xFFFF
        hi = b >> 16
        if lower > 0x8000 or (lower == 0x8000 and hi & 1):
            hi += 1
        out.append(hi & 0xFFFF)
    return np.array(out, np.uint16)


@jit
def _to_bf16(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    tl.store(out_ptr + i, x.to(tl.bfloat16).to(tl.int16, bitcast=True))


@jit
def _bf16_add(x_ptr, y_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i).to(tl.bfloat16)
    y = tl.load(y_ptr + i).to(tl.bfloat16)
    s = x + y
    tl.static_assert(s.dtype == tl.bfloat16)
    tl.store(out_ptr + i, s.to(tl.float32))


def test_bf16_round_to_nearest_even():
    vals = np.array([1.0, 1.00390625, 1.01171875, 1.0 + 2**-8 + 2**-20, -3.14159, 3.0e38, 3.4e38, np.inf, np.nan,
                     1e-40, -0.0, 65504.0, 0.1, 2.0**-130, 1.0 - 2**-9, 255.5], np.float32)
    out = np.zeros(16, np.int16)
    run1(_to_bf16, vals, out, N=16)
    np.testing.assert_array_equal(out.view(np.uint16), _bf16_rne(vals))


def test_bf16_arithmetic_rounds_each_op():
    r = np.random.default_rng(2)
    x = r.standard_normal(128).astype(np.float32)
    y = (r.standard_normal(128) * 1e-2).astype(np.float32)
    out = np.zeros(128, np.float32)
    run1(_bf16_add, x, y, out, N=128)
    xb = (_bf16_rne(x).astype(np.uint32) << 16).view(np.float32)
    yb = (_bf16_rne(y).astype(np.uint32) << 16).view(np.float32)
    ref = (_bf16_rne(xb + yb).astype(np.uint32) << 16).view(np.float32)
    np.testing.assert_array_equal(out, ref)


def test_fp8_conversions_round_and_saturate():
    x = np.array([1.0, 448.0, 464.0, 1e6, -1e6, np.inf, 0.001953125, 0.0009765625, 0.00146484375, 1.0625], np.float32)
    np.testing.assert_array_equal(floats.round_to(x, "fp8e4nv"),
                                  np.array([1, 448, 448, 448, -448, 448, 0.001953125, 0, 0.001953125, 1.0],
                                           np.float32))
    assert np.isnan(floats.round_to(np.array([np.nan], np.float32), "fp8e4nv")[0])
    y = np.array([57344.0, 61440.0, np.inf, 1.52587890625e-05, 1.125, 1.375], np.float32)
    np.testing.assert_array_equal(floats.round_to(y, "fp8e5"), [57344, 57344, 57344, 1.52587890625e-05, 1.0, 1.5])
    # Every pattern but NaNs (and e5m2's infinities, which saturate) converts back to itself.
    for name in ("fp8e4nv", "fp8e5"):
        bits = np.arange(256, dtype=np.uint8)
        vals = floats.fp8_bits_to_f32(bits, name)
        back = floats.f32_to_fp8_bits(vals, name)
        finite = np.isfinite(vals)
        np.testing.assert_array_equal(back[finite], bits[finite])


@jit
def _fp8_store(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(out_ptr + i, tl.load(x_ptr + i).to(tl.float8e4nv).to(tl.float32))


def test_fp8_through_a_kernel():
    x = np.array([0.3, -1.7, 500.0, 2.0**-10, 3.0, -0.0, 7.5, 100.0], np.float32)
    out = np.zeros_like(x)
    run1(_fp8_store, x, out, N=8)
    np.testing.assert_array_equal(out, floats.round_to(x, "fp8e4nv"))


@jit
def _rtz(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    tl.store(out_ptr + i, x.to(tl.float16, fp_downcast_rounding="rtz"))


def test_fp16_round_toward_zero():
    x = np.array([1.0009765625 * 1.9, -1.0009765625 * 1.9, 70000.0, -70000.0, 1e-8, 0.1, 3.0, -5.55], np.float32)
    out = np.zeros(8, np.float16)
    run1(_rtz, x, out, N=8)
    with np.errstate(over="ignore"):
        ref = x.astype(np.float16)
    ref = np.where(np.abs(ref.astype(np.float32)) > np.abs(x), np.nextafter(ref, np.float16(0)), ref)
    np.testing.assert_array_equal(out, ref)
    assert out[2] == 65504 and out[3] == -65504


@jit
def _float_to_int(x_ptr, out_ptr, u_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    tl.store(out_ptr + i, x.to(tl.int32))
    tl.store(u_ptr + i, x.to(tl.uint8))


def test_float_to_int_truncates_and_saturates():
    x = np.array([1.9, -1.9, 3e9, -3e9, np.nan, 255.5, 300.0, -5.0], np.float32)
    out = np.zeros(8, np.int32)
    u = np.zeros(8, np.uint8)
    run1(_float_to_int, x, out, u, N=8)
    np.testing.assert_array_equal(out, [1, -1, 2**31 - 1, -2**31, 0, 255, 300, -5])
    np.testing.assert_array_equal(u, [1, 0, 255, 0, 0, 255, 255, 0])


# -- type rules ---------------------------------------------------------------------


@jit
def _promotions(i8_ptr, u32_ptr, f16_ptr, bf_ptr, out_ptr):
    a = tl.load(i8_ptr)
    u = tl.load(u32_ptr)
    h = tl.load(f16_ptr)
    b = tl.load(bf_ptr)
    tl.static_assert((a + u).dtype == tl.uint32)
    tl.static_assert((a + 1).dtype == tl.int8)
    tl.static_assert((a < 1).dtype == tl.int1)
    tl.static_assert((h + b).dtype == tl.float16)
    tl.static_assert((b + b).dtype == tl.bfloat16)
    tl.static_assert((b + 1.0).dtype == tl.bfloat16)
    tl.static_assert((b + h.to(tl.float32)).dtype == tl.float32)
    tl.static_assert((u / u).dtype == tl.float32)
    tl.static_assert((a * 1.5).dtype == tl.float32)
    x = 0  # a plain assignment makes an int32 tensor, as compiled
    tl.static_assert((x + a).dtype == tl.int32)
    acc = 0.0
    tl.static_assert((acc + h).dtype == tl.float32)
    c: tl.constexpr = 3
    tl.static_assert((c + a).dtype == tl.int8)
    tl.store(out_ptr, (a + u).to(tl.int64))


def test_promotions_match_compiled_rules():
    out = np.zeros(1, np.int64)
    run1(_promotions, np.array([-1], np.int8), np.array([5], np.uint32), np.zeros(1, np.float16),
         reinterpret(np.zeros(1, np.uint16), tl.bfloat16), out)
    assert out[0] == 4  # -1 converted to uint32 plus 5 wraps to 4


def test_promotions_compile_the_same():
    """The same kernel compiles: its static_asserts hold for compiled code."""
    from tir_helpers import to_ir
    to_ir(_promotions, "*i8,*u32,*fp16,*bf16,*i64", {})


@jit
def _negative_literal_with_unsigned(u_ptr):
    u = tl.load(u_ptr)
    tl.store(u_ptr, u + -1)


@jit
def _out_of_range_literal(x_ptr):
    a = tl.load(x_ptr)
    tl.store(x_ptr, a + 2**40)


def test_out_of_range_weak_literal():
    with pytest.raises(tritium.CompilationError, match="Scalar 1099511627776 is out of range for type int8"):
        run1(_out_of_range_literal, np.zeros(1, np.int8))


def test_weak_literal_errors_are_compile_errors():
    with pytest.raises(tritium.CompilationError, match="unsigned tensor and a negative scalar") as e:
        run1(_negative_literal_with_unsigned, np.zeros(1, np.uint32))
    assert e.value.line is not None and "u + -1" in str(e.value)


@jit
def _bool_arith(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4)) != 0
    tl.store(out_ptr + tl.arange(0, 4), (x + x).to(tl.int32))
    tl.store(out_ptr + 4 + tl.arange(0, 4), tl.sum(x.to(tl.int32), axis=0) + tl.zeros([4], tl.int32))


def test_int1_arithmetic_wraps_to_one_bit():
    out = np.zeros(8, np.int32)
    run1(_bool_arith, np.array([1, 0, 1, 1], np.int32), out)
    np.testing.assert_array_equal(out[:4], [0, 0, 0, 0])
    np.testing.assert_array_equal(out[4:], [3, 3, 3, 3])


# -- Philox -----------------------------------------------------------------------

# Random123's published known-answer vectors for Philox4x32-10 (kat_vectors):
# counter (4 words), key (2 words) -> output (4 words).
_KAT = [
    ((0x00000000, 0x00000000, 0x00000000, 0x00000000), (0x00000000, 0x00000000),
     (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
    ((0xffffffff, 0xffffffff, 0xffffffff, 0xffffffff), (0xffffffff, 0xffffffff),
     (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
    ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
     (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1)),
]


@jit
def _philox_kat(c_ptr, seed, out_ptr):
    i = tl.arange(0, 2)
    c0 = tl.load(c_ptr + i * 4)
    c1 = tl.load(c_ptr + i * 4 + 1)
    c2 = tl.load(c_ptr + i * 4 + 2)
    c3 = tl.load(c_ptr + i * 4 + 3)
    r0, r1, r2, r3 = tl.philox(seed, c0, c1, c2, c3)
    tl.store(out_ptr + i * 4, r0)
    tl.store(out_ptr + i * 4 + 1, r1)
    tl.store(out_ptr + i * 4 + 2, r2)
    tl.store(out_ptr + i * 4 + 3, r3)


@pytest.mark.parametrize("ctr,key,expected", _KAT)
def test_philox_known_answers(ctr, key, expected):
    c = np.array(ctr * 2, np.uint32)
    out = np.zeros(8, np.uint32)
    seed = key[0] | (key[1] << 32)
    run1(_philox_kat, c, seed, out)
    assert [int(v) for v in out[:4]] == list(expected)
    assert [int(v) for v in out[4:]] == list(expected)


@jit
def _randint4x(seed, out_ptr, N: tl.constexpr):
    offs = tl.arange(0, N)
    r0, r1, r2, r3 = tl.randint4x(seed, offs)
    tl.store(out_ptr + offs * 4, r0)
    tl.store(out_ptr + offs * 4 + 1, r1)
    tl.store(out_ptr + offs * 4 + 2, r2)
    tl.store(out_ptr + offs * 4 + 3, r3)


def test_randint4x_known_answer():
    """randint4x(seed=0, offset=0) is Philox4x32-10 of counter 0 and key 0."""
    out = np.zeros(4 * 4, np.uint32)
    run1(_randint4x, 0, out, N=4)
    assert [int(v) for v in out[:4]] == list(_KAT[0][2])
    from test_interp_tutorials import philox_numpy
    ref = philox_numpy(0, np.arange(4))
    np.testing.assert_array_equal(out.reshape(4, 4).T, np.array(ref))


def test_randint4x_seed_and_offsets_follow_philox():
    from test_interp_tutorials import philox_numpy
    seed = 0x123456789AB
    out = np.zeros(16 * 4, np.uint32)
    run1(_randint4x, seed, out, N=16)
    np.testing.assert_array_equal(out.reshape(16, 4).T, np.array(philox_numpy(seed, np.arange(16))))


@jit
def _bf16_io(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    tl.static_assert(x.dtype == tl.bfloat16)
    tl.store(out_ptr + i, x * 3.0)


def test_bf16_memory_holds_bit_patterns():
    """A uint16 array reinterpreted as bf16: loads read bits, stores round."""
    vals = np.array([1.0, -2.5, 0.1, 1e10, 3.0e38, 7.0, -0.0, 100.0], np.float32)
    bits = _bf16_rne(vals)
    out = np.zeros(8, np.uint16)
    run1(_bf16_io, reinterpret(bits, tl.bfloat16), reinterpret(out, tl.bfloat16), N=8)
    x = (bits.astype(np.uint32) << 16).view(np.float32)
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out, _bf16_rne(x * np.float32(3.0)))
