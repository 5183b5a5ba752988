"""tl.dot_scaled: microscaled operands (OCP MX: e2m1 two a byte, e4m3, e5m2,
with an e8m0 scale per 32 elements along K; bf16 and fp16 unscaled),
upcast to bf16 (fp16 when either format is fp16), scaled and multiplied
with f32 accumulation, as Triton emulates them on GPUs without
microscaling instructions. Checked against numpy decoding the bytes."""

import numpy as np
import pytest

import tritium.language as tl

from .helpers import expect_error, rng


def k_dot_scaled(A, SA, B, SB, C, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, FA: tl.constexpr,
                 FB: tl.constexpr):
    KA: tl.constexpr = K // 2 if FA == "e2m1" else K
    KB: tl.constexpr = K // 2 if FB == "e2m1" else K
    a = tl.load(A + tl.arange(0, M)[:, None] * KA + tl.arange(0, KA)[None, :])
    b = tl.load(B + tl.arange(0, KB)[:, None] * N + tl.arange(0, N)[None, :])
    G: tl.constexpr = K // 32
    sa = None
    sb = None
    if SA is not None:
        sa = tl.load(SA + tl.arange(0, M)[:, None] * G + tl.arange(0, G)[None, :])
    if SB is not None:
        sb = tl.load(SB + tl.arange(0, N)[:, None] * G + tl.arange(0, G)[None, :])
    c = tl.dot_scaled(a, sa, FA, b, sb, FB)
    tl.store(C + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)


def decode(bits, fmt):
    """The values of the bytes ``bits`` in format ``fmt`` (float64)."""
    b = bits.astype(np.int64)
    if fmt == "e2m1":
        s, e, m = (b >> 3) & 1, (b >> 1) & 3, b & 1
        v = np.where(e == 0, m * 0.5, (1 + m / 2) * 2.0 ** (e - 1))
    elif fmt == "e4m3":
        s, e, m = (b >> 7) & 1, (b >> 3) & 15, b & 7
        v = np.where(e == 0, m / 8 * 2.0**-6, (1 + m / 8) * 2.0 ** (e - 7))
    else:
        s, e, m = (b >> 7) & 1, (b >> 2) & 31, b & 3
        v = np.where(e == 0, m / 4 * 2.0**-14, (1 + m / 4) * 2.0 ** (e - 15))
    return np.where(s == 1, -v, v)


def operand(fmt, rows, cols, k_axis, rs, fp16=False):
    """Bytes (or bf16/fp16 values) of a rows x cols operand and their values;
    e2m1 packs pairs along ``k_axis``, the first in the low bits. With
    ``fp16`` (the other operand is fp16, so both become fp16), e5m2's
    exponents stay within fp16's range after scaling."""
    if fmt in ("bf16", "fp16"):
        vals = rs.randint(-8, 9, size=(rows, cols)) / 4
        return vals.astype(np.float16 if fmt == "fp16" else np.float32), vals
    if fmt == "e2m1":
        nib = rs.randint(0, 16, size=(rows, cols))
        lo, hi = (nib[:, 0::2], nib[:, 1::2]) if k_axis == 1 else (nib[0::2], nib[1::2])
        return (lo | (hi << 4)).astype(np.uint8), decode(nib, "e2m1")
    bits = rs.randint(0, 256, size=(rows, cols))
    # Finite values only (e4m3's NaN is S.1111.111, e5m2's non-finite ones S.11111.xx).
    bits = np.where((bits & 0x7F) == 0x7F, bits & 0xF0, bits) if fmt == "e4m3" else \
        np.where((bits & 0x7C) == 0x7C, bits & 0x83, bits)
    if fp16 and fmt == "e5m2":
        bits = (bits & 0x83) | (rs.randint(10, 20, size=bits.shape) << 2)
    return bits.astype(np.uint8), decode(bits, fmt)


CASES = [("e2m1", "bf16", True), ("e4m3", "e5m2", True), ("e5m2", "fp16", True), ("bf16", "e2m1", False),
         ("e4m3", "e4m3", False), ("fp16", "e4m3", False)]


@pytest.mark.parametrize("fa,fb,scale_a", CASES, ids=["-".join(map(str, c)) for c in CASES])
def test_dot_scaled(backend, fa, fb, scale_a):
    m, n, k = 32, 32, 64
    rs = rng(400)
    fp16 = "fp16" in (fa, fb)
    a, av = operand(fa, m, k, 1, rs, fp16)
    b, bv = operand(fb, k, n, 0, rs, fp16)
    # Scales near 2^0 (127): every scaled value is exact in bf16 and fp16.
    sa = rs.randint(124, 131, size=(m, k // 32)).astype(np.uint8) if scale_a and fa not in ("bf16", "fp16") else None
    sb = rs.randint(124, 131, size=(n, k // 32)).astype(np.uint8) if not scale_a and fb not in ("bf16", "fp16") else None
    if sa is not None:
        av = av * 2.0 ** (np.repeat(sa.astype(np.int64), 32, axis=1) - 127)
    if sb is not None:
        bv = bv * 2.0 ** (np.repeat(sb.astype(np.int64), 32, axis=1).T - 127)
    c = np.zeros((m, n), dtype=np.float32)
    # bf16 operands travel as fp32 (numpy has no bf16; the values are exact
    # in bf16), which dot_scaled converts as it upcasts.
    args = [a.astype(np.float32) if fa == "bf16" else a, sa, b.astype(np.float32) if fb == "bf16" else b, sb, c]
    *_, out = backend.run(k_dot_scaled, 1, *args, M=m, N=n, K=k, FA=fa, FB=fb)
    ref = av @ bv
    err = np.abs(out - ref)
    bound = 1e-5 * (np.abs(av) @ np.abs(bv)) + 1e-6
    assert (err <= bound).all(), f"{(err > bound).sum()} elements off; max error {err.max()}"



@pytest.mark.parametrize("fa,out", [("e3m3", "format must be one of"), ("e4m3", "out_dtype must be float32")])
def test_dot_scaled_errors(backend, fa, out):
    def k(A, B, C, FA: tl.constexpr, OUT: tl.constexpr):
        a = tl.load(A + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
        b = tl.load(B + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :])
        c = tl.dot_scaled(a, None, FA, b, None, "e4m3", out_dtype=OUT)
        tl.store(C + tl.arange(0, 32)[:, None] * 32 + tl.arange(0, 32)[None, :], c)

    x = np.zeros((32, 32), dtype=np.uint8)
    err = expect_error(backend.run, k, 1, x, x, np.zeros((32, 32), dtype=np.float32), FA=fa,
                       OUT=tl.float32 if out.startswith("format") else tl.float16)
    assert out in str(err)
