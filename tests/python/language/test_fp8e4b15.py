"""tl.float8e4b15, Triton's fp8 of fp8e4nv's encoding (1 sign, 4 exponent and
3 mantissa bits, no infinities, 0x7F and 0xFF NaN) with exponent bias 15:
the largest finite value is 0x7E = 1.75, the smallest subnormal 2^-17.
Conversions from wider floats round to nearest even and saturate (infinities
too), as fp8e4nv's do; arithmetic computes in fp32 and rounds back.

The reference is written here from the format's definition (a value per
pattern, and rounding by searching the nearest of them), not from the bit
tricks of the implementation. Kernels pass the bits as uint8 arrays seen as
float8e4b15 (``tritium.reinterpret``, as Triton's tests do), or load uint8
and bitcast."""

import re

import numpy as np
import pytest

import tritium
import tritium.language as tl

from .helpers import rng

# -- Reference ----------------------------------------------------------------


def ref_value(bits):
    """The value of each pattern (float64; NaN for 0x7F and 0xFF)."""
    b = np.asarray(bits, dtype=np.int64)
    exp, mant = (b >> 3) & 0xF, b & 0x7
    mag = np.where(exp == 0, mant / 8.0 * 2.0**-14, (1 + mant / 8.0) * 2.0**(exp - 15.0))
    mag = np.where((b & 0x7F) == 0x7F, np.nan, mag)
    return np.where(b & 0x80, -mag, mag)


#: The non-negative finite values, in pattern order (ascending).
FINITE = ref_value(np.arange(0x7F))


def ref_bits(x):
    """float values -> patterns: the nearest finite value, ties to the even
    pattern, beyond 1.75 (infinities too) 1.75 of the sign, NaN 0x7F."""
    x = np.asarray(x, dtype=np.float64)
    mag = np.abs(x)
    with np.errstate(invalid="ignore"):
        lo = np.clip(np.searchsorted(FINITE, mag, side="right") - 1, 0, 0x7E)
        hi = np.minimum(lo + 1, 0x7E)
        below, above = mag - FINITE[lo], FINITE[hi] - mag
        pick = np.where(above < below, hi, np.where(above > below, lo, np.where(lo % 2 == 0, lo, hi)))
        pick = np.where(mag >= FINITE[0x7E], 0x7E, pick)
    pick = np.where(np.isnan(x), 0x7F, pick)
    return (pick | np.where(np.signbit(x), 0x80, 0)).astype(np.uint8)


def test_reference_knows_the_format():
    assert FINITE[0x7E] == 1.75 and FINITE[1] == 2.0**-17 and FINITE[8] == 2.0**-14 and FINITE[0x78] == 1.0
    assert list(ref_bits([1.0, -1.0, 1.8125, 1.875, 1e9, -np.inf, 2.0**-18, 3 * 2.0**-18, -0.0])) == \
        [0x78, 0xF8, 0x7E, 0x7E, 0x7E, 0xFE, 0x00, 0x02, 0x80]
    assert ref_bits([np.nan])[0] == 0x7F and ref_bits([-np.nan])[0] == 0xFF


def rounding_inputs():
    """fp32 values that decide the rounding: every finite value, the ties
    between neighbours and the floats either side of them, the region past
    1.75, tiny values, infinities, NaNs and signed zeros; then random ones."""
    f = FINITE.astype(np.float32)
    ties = ((FINITE[:-1] + FINITE[1:]) / 2).astype(np.float32)  # exact in fp32
    near = np.concatenate([np.nextafter(ties, np.float32(0)), np.nextafter(ties, np.float32(4))])
    edge = np.array([1.8125, 1.875, 1.9, 2.0, 100.0, 3e38, np.inf, np.nan, 0.0, 1e-30, 2.0**-18, 2.0**-19,
                     1e-45, 2.0**-14 - 2.0**-30], dtype=np.float32)
    rs = rng(15)
    rand = (rs.choice([-1, 1], 512) * 2.0**rs.uniform(-20, 2, 512)).astype(np.float32)
    x = np.concatenate([f, ties, near, edge, rand]).astype(np.float32)
    return pad_pow2(np.concatenate([x, -x]))


def pad_pow2(x):
    """``x`` padded with zeros to a power-of-two length (a block's)."""
    return np.concatenate([x, np.zeros((1 << (len(x) - 1).bit_length()) - len(x), x.dtype)])


# -- Running kernels on fp8e4b15 arrays ---------------------------------------

FP8 = object()  # marks an array the kernel sees as float8e4b15


def run(backend, fn, *args, **kwargs):
    """``fn[(1,)](*args)`` where ``(FP8, uint8 array)`` pairs are passed as
    ``tritium.reinterpret(array, tl.float8e4b15)``; returns the arrays
    (numpy) as the kernel left them, in order."""
    if backend.name in ("compile", "compile-hip"):
        return backend.run(fn, 1, *["*fp8e4b15" if isinstance(a, tuple) else a for a in args], **kwargs)
    k = backend.jit(fn)
    dev = []
    for a in args:
        if isinstance(a, tuple):
            dev.append(tritium.reinterpret(backend.to_device(a[1]), tl.float8e4b15))
        else:
            dev.append(backend.to_device(a) if isinstance(a, np.ndarray) else a)
    backend.launch(k, (1, ), dev, kwargs)
    backend.synchronize()
    out = []
    for a, d in zip(args, dev):
        if isinstance(a, tuple):
            out.append(backend.to_numpy(d.base))
        elif isinstance(a, np.ndarray):
            out.append(backend.to_numpy(d))
    return out


def assert_same_bits(actual, expected):
    actual, expected = np.asarray(actual, np.uint8), np.asarray(expected, np.uint8)
    bad = np.nonzero(actual != expected)[0]
    assert bad.size == 0, (f"{bad.size} patterns differ, first at {bad[0]}: "
                           f"{actual[bad[0]]:#04x} != {expected[bad[0]]:#04x}")


def assert_rounds_to(actual, values):
    """``actual`` patterns are ``values`` rounded; where a value is NaN, a
    NaN pattern of either sign (fp32 arithmetic does not keep a NaN's sign
    alike on every target)."""
    nan = np.isnan(values)
    assert np.all(np.asarray(actual)[nan] & 0x7F == 0x7F)
    assert_same_bits(np.asarray(actual)[~nan], ref_bits(values[~nan]))


# -- Conversions --------------------------------------------------------------


def k_patterns_through_f32(X, F, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    f = tl.load(X + offs).to(tl.float32)
    tl.store(F + offs, f)
    tl.store(Y + offs, f.to(tl.float8e4b15))


def test_every_pattern_through_fp32_and_back(backend):
    """Each of the 256 patterns to fp32 is its value (NaN for 0x7F and 0xFF)
    and back is itself: 0x7F and 0xFF stay NaN with their sign."""
    bits = np.arange(256, dtype=np.uint8)
    f = np.zeros(256, np.float32)
    _, f, y = run(backend, k_patterns_through_f32, (FP8, bits), f, (FP8, np.zeros(256, np.uint8)), N=256)
    np.testing.assert_array_equal(f, ref_value(bits).astype(np.float32))
    assert np.array_equal(np.signbit(f), bits >= 0x80)
    assert_same_bits(y, bits)


def k_from_f32(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    y = tl.load(X + offs).to(tl.float8e4b15)
    tl.store(Y + offs, y.to(tl.uint8, bitcast=True))


def test_fp32_to_fp8e4b15_rounds_to_nearest_even_and_saturates(backend):
    x = rounding_inputs()
    (y, ) = run(backend, k_from_f32, x, np.zeros(len(x), np.uint8), N=len(x))[1:]
    assert_same_bits(y, ref_bits(x))


def k_from_f16(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Y + offs, tl.load(X + offs).to(tl.float8e4b15).to(tl.uint8, bitcast=True))


def test_fp16_to_fp8e4b15(backend):
    """From fp16: every fp16 value of [-4, 4] (each rounds once)."""
    x = np.arange(0x0000, 0x4400, dtype=np.uint16).view(np.float16)[::8]
    x = pad_pow2(np.concatenate([x, -x, np.array([np.inf, -np.inf, np.nan, 60000], np.float16)]))
    (y, ) = run(backend, k_from_f16, x, np.zeros(len(x), np.uint8), N=len(x))[1:]
    assert_same_bits(y, ref_bits(x.astype(np.float64)))


def k_to_wider(X, H, D, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.store(H + offs, x.to(tl.float16))
    tl.store(D + offs, x.to(tl.float64))


def test_fp8e4b15_to_fp16_and_fp64_is_exact(backend):
    bits = np.arange(256, dtype=np.uint8)
    h, d = run(backend, k_to_wider, (FP8, bits), np.zeros(256, np.float16), np.zeros(256, np.float64), N=256)[1:]
    np.testing.assert_array_equal(h, ref_value(bits).astype(np.float16))
    np.testing.assert_array_equal(d, ref_value(bits))


def k_constant(Y, V: tl.constexpr, N: tl.constexpr):
    tl.store(Y + tl.arange(0, N), tl.full([N], V, tl.float8e4b15))


@pytest.mark.parametrize("value", [1.0, -0.3, 1.75, 2.0**-17, 3 * 2.0**-18, -2.0**-18, 0.01123046875])
def test_constant(backend, value):
    """A constant of the type is its value rounded to nearest even (the
    last three are ties: to 2^-16, to -0, and between 0x43 and 0x44)."""
    (y, ) = run(backend, k_constant, (FP8, np.zeros(16, np.uint8)), V=value, N=16)
    assert_same_bits(y, np.full(16, ref_bits([value])[0]))


# -- Arithmetic ---------------------------------------------------------------


def k_arith(A, B, S, D, P, Q, M, G, N: tl.constexpr):
    offs = tl.arange(0, N)
    a, b = tl.load(A + offs), tl.load(B + offs)
    s, d, p, q = a + b, a - b, a * b, a / b
    tl.static_assert(s.dtype == tl.float8e4b15 and d.dtype == tl.float8e4b15)
    tl.static_assert(p.dtype == tl.float8e4b15 and q.dtype == tl.float8e4b15)
    tl.store(S + offs, s)
    tl.store(D + offs, d)
    tl.store(P + offs, p)
    tl.store(Q + offs, q)
    tl.store(M + offs, tl.abs(a))
    tl.store(G + offs, -b)


def test_arithmetic_rounds_back_to_fp8e4b15(backend):
    """fp8e4b15 op fp8e4b15 is fp8e4b15, computed in fp32 (exact for sums
    and products of these values; a quotient of 4-bit significands is never
    so near a tie that its fp32 rounding decides it) and rounded back;
    negation flips the sign, of zeros too."""
    a = np.repeat(np.arange(256, dtype=np.uint8), 4)
    b = rng(16).permutation(a).astype(np.uint8)
    z = [(FP8, np.zeros(1024, np.uint8)) for _ in range(6)]
    s, d, p, q, m, g = run(backend, k_arith, (FP8, a), (FP8, b), *z, N=1024)[2:]
    va, vb = ref_value(a), ref_value(b)
    with np.errstate(invalid="ignore", divide="ignore"):
        assert_rounds_to(s, va + vb)
        assert_rounds_to(d, va - vb)
        assert_rounds_to(p, va * vb)
        assert_rounds_to(q, va / vb)
        assert_rounds_to(m, np.abs(va))
        assert_rounds_to(g, -vb)


# -- Dot ----------------------------------------------------------------------


def k_dot(A, B, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm, rn, rk = tl.arange(0, M), tl.arange(0, N), tl.arange(0, K)
    a = tl.load(A + rm[:, None] * K + rk[None, :])
    b = tl.load(B + rk[:, None] * N + rn[None, :])
    tl.store(C + rm[:, None] * N + rn[None, :], tl.dot(a, b))


@pytest.mark.parametrize("shape", [(16, 16, 32), (64, 32, 64)], ids=lambda s: "x".join(map(str, s)))
def test_dot_of_fp8e4b15(backend, shape):
    """fp8e4b15 x fp8e4b15 -> fp32 (the operands upcast exactly: f16 holds
    every value). Values of [2^-4, 1.75], either sign: the products' bits
    span 2^-14 to 2^1 and the sums stay below 2^8, so every sum is exact in
    fp32, in any order."""
    m, n, k = shape
    rs = rng(17)

    def patterns(shape):
        return (rs.randint(0x58, 0x7F, size=shape) | rs.randint(0, 2, size=shape) * 0x80).astype(np.uint8)

    a, b = patterns((m, k)), patterns((k, n))
    (c, ) = run(backend, k_dot, (FP8, a), (FP8, b), np.zeros((m, n), np.float32), M=m, N=n, K=k)[2:]
    np.testing.assert_array_equal(c, (ref_value(a) @ ref_value(b)).astype(np.float32))


# -- Compiled for the targets ---------------------------------------------------


def _compile(fn, signature, constexprs, target):
    from tritium.compiler.compiler import ASTSource
    kernel = tritium.jit(fn)
    names = [n for n in kernel.arg_names if n not in constexprs]
    src = ASTSource(kernel, dict(zip(names, signature.split(","))), constexprs,
                    {n: {"divisibility": 16} for n, t in zip(names, signature.split(",")) if t.startswith("*")})
    return tritium.compile(src, target=target, options={"num_warps": 4})


def _assembled(k, target):
    """Whether the backend's assembler took the kernel (ptxas for CUDA,
    where it is installed; the code object for AMD)."""
    if target.startswith("hip"):
        assert k.asm.get("hsaco", b"")[:4] == b"\x7fELF"
        return
    from tritium._C import nvptx
    if not (tritium.knobs.nvidia.ptxas_path or nvptx.find_ptxas()):
        pytest.skip("ptxas not found: the PTX was checked, the cubin stage did not run")
    assert k.asm.get("cubin", b"")[:4] == b"\x7fELF"


COMPILE_TARGETS = ["cuda:80", "cuda:90a", "hip:gfx90a"]


def _needs(target):
    if target.startswith("hip"):
        from tritium._C import amdgpu
        if not amdgpu.find_device_libs():
            pytest.skip("the ROCm device libraries are not installed")


@pytest.mark.parametrize("target", COMPILE_TARGETS)
def test_conversions_compile(target):
    """The conversion kernels for each target: integer code (no fp8
    instructions: sm_80 and gfx90a have none, and sm_90's cvt has no e4b15)."""
    _needs(target)
    k = _compile(k_patterns_through_f32, "*fp8e4b15,*fp32,*fp8e4b15", {"N": 256}, target)
    if target.startswith("cuda"):
        assert "cvt.rn.satfinite" not in k.asm["ptx"] and "e4m3" not in k.asm["ptx"]
    _assembled(k, target)
    _assembled(_compile(k_from_f32, "*fp32,*u8", {"N": 1024}, target), target)
    # A constant is its pattern, computed by the compiler (a tie: 0x44).
    k = _compile(k_constant, "*fp8e4b15", {"V": 0.01123046875, "N": 16}, target)
    if target.startswith("cuda"):
        assert re.search(r"mov\.u16\s+%rs\d+, 68;", k.asm["ptx"])
    _assembled(k, target)


@pytest.mark.parametrize("target", COMPILE_TARGETS)
def test_dot_compiles(target):
    """A dot of fp8e4b15 operands: mma.sync on f16 after the upcast on
    NVIDIA (also on sm_90a: wgmma has no e4b15), FMA on AMD."""
    _needs(target)
    k = _compile(k_dot, "*fp8e4b15,*fp8e4b15,*fp32", {"M": 64, "N": 64, "K": 64}, target)
    if target.startswith("cuda"):
        ptx = k.asm["ptx"]
        assert "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx and "wgmma" not in ptx
    _assembled(k, target)
