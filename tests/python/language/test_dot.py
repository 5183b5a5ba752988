"""tl.dot: shapes, input dtypes (fp16, bf16, fp32, int8), out_dtype,
accumulators, input_precision / allow_tf32, transposed operands, 3-d
batched products, a chained attention-like product and the errors.

Result types follow Triton: int8 x int8 -> int32, fp32 and bf16 inputs ->
fp32, fp16 inputs -> out_dtype (fp32 by default, or fp16). Tolerances
allow any summation order of fp32 products, and tf32 rounding of fp32
inputs where the precision allows it (the CUDA backend's FMA dot is exact
fp32; a tensor-core dot would not be)."""

import re

import numpy as np
import pytest

import tritium
import tritium.language as tl

from .helpers import assert_close, expect_error, io_name, np_value, random_values, rng, round_bf16, tlt

SHAPES = [(16, 16, 16), (32, 16, 64), (16, 64, 32), (64, 32, 16), (32, 32, 128)]


def k_dot(A, B, C, D, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, IN: tl.constexpr, MODE: tl.constexpr,
          OUT: tl.constexpr, DIO: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(A + rm[:, None] * K + rk[None, :]).to(IN)
    if MODE == "trans_b":
        bt = tl.load(B + rn[:, None] * K + rk[None, :]).to(IN)
        d = tl.dot(a, tl.trans(bt))
    else:
        b = tl.load(B + rk[:, None] * N + rn[None, :]).to(IN)
        if MODE == "plain":
            d = tl.dot(a, b)
        elif MODE == "acc":
            c = tl.load(C + rm[:, None] * N + rn[None, :]).to(OUT)
            d = tl.dot(a, b, c)
        elif MODE == "acc_kw":
            c = tl.load(C + rm[:, None] * N + rn[None, :]).to(OUT)
            d = tl.dot(a, b, acc=c)
        elif MODE == "plus_eq":
            d = tl.load(C + rm[:, None] * N + rn[None, :]).to(OUT)
            d += tl.dot(a, b)
        elif MODE == "out_fp16":
            d = tl.dot(a, b, out_dtype=tl.float16)
        elif MODE == "out_fp16_acc":
            c = tl.load(C + rm[:, None] * N + rn[None, :]).to(tl.float16)
            d = tl.dot(a, b, c, out_dtype=tl.float16)
        elif MODE == "ieee":
            d = tl.dot(a, b, input_precision="ieee")
        elif MODE == "tf32":
            d = tl.dot(a, b, input_precision="tf32")
        elif MODE == "tf32x3":
            d = tl.dot(a, b, input_precision="tf32x3")
        elif MODE == "bf16x3":
            d = tl.dot(a, b, input_precision="bf16x3")
        elif MODE == "bf16x6":
            d = tl.dot(a, b, input_precision="bf16x6")
        elif MODE == "no_tf32":
            d = tl.dot(a, b, allow_tf32=False)
        elif MODE == "method":
            d = tl.dot(a, b)
    tl.static_assert(OUT == d.dtype, "unexpected dot result dtype")
    tl.store(D + rm[:, None] * N + rn[None, :], d.to(DIO))


def _out_dtype(in_dtype, mode):
    if in_dtype == "int8":
        return "int32"
    if mode.startswith("out_fp16"):
        return "float16"
    return "float32"


def _inputs(in_dtype, m, n, k, rs, trans=False):
    if in_dtype == "int8":
        a = random_values("int8", (m, k), rs)
        b = random_values("int8", (n, k) if trans else (k, n), rs)
    else:
        a = random_values(in_dtype, (m, k), rs, low=-2, high=2)
        b = random_values(in_dtype, (n, k) if trans else (k, n), rs, low=-2, high=2)
    return a, b


def _check(out, ref, a, b, out_dtype, tf32=False, extra=0.0, rel=None):
    if out_dtype == "int32":
        assert_close(out, ref.astype(np.int32))
        return
    scale = np.abs(a.astype(np.float64)) @ np.abs(b.astype(np.float64)) + extra
    rel = rel or {"float32": 2e-6, "float16": 1e-3}[out_dtype]
    if tf32:
        rel = max(rel, 2.0**-10)
    err = np.abs(out.astype(np.float64) - ref)
    bad = err > rel * scale + 1e-6
    assert not bad.any(), f"{bad.sum()} elements off; max error {err.max()} (scale {scale.max()})"


def _run(backend, in_dtype, mode, m, n, k, seed=60):
    rs = rng(seed)
    trans = mode == "trans_b"
    a, b = _inputs(in_dtype, m, n, k, rs, trans)
    out_dtype = _out_dtype(in_dtype, mode)
    c = random_values("float32", (m, n), rs, low=-4, high=4)
    if out_dtype == "float16":
        c = c.astype(np.float16).astype(np.float32)
    if in_dtype == "int8":
        c = random_values("int32", (m, n), rs, low=-1000, high=1000)
    d = np.zeros((m, n), dtype=np.dtype(io_name(out_dtype)))
    _, _, _, out = backend.run(k_dot, 1, a, b, c, d, M=m, N=n, K=k, IN=tlt(in_dtype), MODE=mode, OUT=tlt(out_dtype),
                               DIO=tlt(io_name(out_dtype)))
    bm = b.T if trans else b
    if in_dtype == "int8":
        ref = a.astype(np.int64) @ bm.astype(np.int64)
        if mode in ("acc", "acc_kw", "plus_eq"):
            ref = ref + c
        ref = ref.astype(np.int64).astype(np.int32)
    else:
        ref = a.astype(np.float64) @ bm.astype(np.float64)
        if mode in ("acc", "acc_kw", "plus_eq", "out_fp16_acc"):
            ref = ref + c.astype(np.float64)
    return out, ref, a, bm, out_dtype, c


MODES = {"float16": ["plain", "acc", "acc_kw", "plus_eq", "out_fp16", "out_fp16_acc", "trans_b"],
         "bfloat16": ["plain", "acc", "trans_b"],
         "float32": ["plain", "acc", "ieee", "tf32", "tf32x3", "bf16x3", "bf16x6", "no_tf32", "trans_b"],
         "int8": ["plain", "acc", "trans_b"]}
# Triton's NVIDIA bound: K >= 32 for 8-bit operands (K >= 16 otherwise).
CASES = [(d, m, (s[0], s[1], max(s[2], 32)) if d == "int8" else s) for d, ms in MODES.items() for m in ms
         for s in SHAPES]


@pytest.mark.parametrize("in_dtype,mode,shape", CASES,
                         ids=[f"{d}-{m}-{'x'.join(map(str, s))}" for d, m, s in CASES])
def test_dot(backend, in_dtype, mode, shape):
    m, n, k = shape
    out, ref, a, b, out_dtype, c = _run(backend, in_dtype, mode, m, n, k)
    tf32 = in_dtype == "float32" and mode in ("plain", "acc", "tf32", "trans_b")
    extra = np.abs(c).astype(np.float64) if mode in ("acc", "acc_kw", "plus_eq", "out_fp16_acc") else 0.0
    # tf32x3 drops only small * small: far closer than tf32; bf16x3 keeps
    # about 16 bits of each operand, bf16x6 about 24 (Triton's F32DotTC).
    rel = {"tf32x3": 1e-5, "bf16x3": 2.0**-14, "bf16x6": 1e-6}.get(mode)
    _check(out, ref, a, b, out_dtype, tf32=tf32, extra=extra, rel=rel)


def k_dot_loop(A, B, D, K, LDA, M: tl.constexpr, N: tl.constexpr, BK: tl.constexpr, IN: tl.constexpr,
               MASKED: tl.constexpr, OUT: tl.constexpr):
    # The tutorial's K loop: its loads feed only the dot, so the pipeliner
    # copies them num_stages - 1 iterations ahead (bf16 arrives as int16
    # bits: the pointer cast keeps the load a plain bf16 load).
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, BK)
    a_ptrs = A.to(tl.pointer_type(IN)) + rm[:, None] * LDA + rk[None, :]
    b_ptrs = B.to(tl.pointer_type(IN)) + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((M, N), dtype=OUT)
    for k in range(0, tl.cdiv(K, BK)):
        if MASKED:
            a = tl.load(a_ptrs, mask=rk[None, :] < K - k * BK, other=0)
            b = tl.load(b_ptrs, mask=rk[:, None] < K - k * BK, other=0)
        else:
            a = tl.load(a_ptrs)
            b = tl.load(b_ptrs)
        acc = tl.dot(a, b, acc)
        a_ptrs += BK
        b_ptrs += BK * N
    tl.store(D + rm[:, None] * N + rn[None, :], acc)


# (K, masked): one iteration (fewer than every num_stages but 1), three,
# and K % BLOCK_K != 0 with the last stage's copies partly masked.
LOOP_K = [(32, False), (96, False), (176, True)]
LOOP_CASES = [(d, s, k, m) for d in ("float16", "bfloat16", "float32", "int8") for s in (1, 2, 3, 4, 5)
              for k, m in LOOP_K]


@pytest.mark.parametrize("in_dtype,stages,k,masked", LOOP_CASES,
                         ids=[f"{d}-s{s}-k{k}{'-masked' if m else ''}" for d, s, k, m in LOOP_CASES])
def test_dot_loop_num_stages(backend, in_dtype, stages, k, masked):
    """A K loop of dots for num_stages 1 to 5 (the pipeliner's prologue,
    ring slots and drain), trip counts below num_stages, masked tails."""
    rs = rng(61)
    m = n = 64
    a, b = _inputs(in_dtype, m, n, k, rs)
    if in_dtype == "bfloat16":
        a, b = round_bf16(a), round_bf16(b)
        a_io, b_io = ((x.view(np.uint32) >> 16).astype(np.uint16).view(np.int16) for x in (a, b))
    else:
        a_io, b_io = a, b
    out_dtype = "int32" if in_dtype == "int8" else "float32"
    d = np.zeros((m, n), dtype=out_dtype)
    *_, out = backend.run(k_dot_loop, 1, a_io, b_io, d, k, k, M=m, N=n, BK=32, IN=tlt(in_dtype), MASKED=masked,
                          OUT=tlt(out_dtype), num_stages=stages)
    _check_loop(out, a, b, in_dtype, out_dtype)


def _check_loop(out, a, b, in_dtype, out_dtype):
    if in_dtype == "int8":
        ref = (a.astype(np.int64) @ b.astype(np.int64)).astype(np.int32)
    else:
        ref = a.astype(np.float64) @ b.astype(np.float64)
    _check(out, ref, a, b, out_dtype, tf32=in_dtype == "float32")


@pytest.mark.parametrize("in_dtype", ["float16", "float32", "int8"])
@pytest.mark.parametrize("stages", [1, 3])
def test_dot_loop_k_tail_of_aligned_rows(backend, in_dtype, stages):
    """K = 171 in rows padded to 192: the rows are aligned but the K bound
    is not a multiple of anything, so each copy of A's tile is true on a
    prefix (compiled: 16-byte cp.async reading that prefix, zeros after)."""
    rs = rng(62)
    m = n = 64
    k, lda = 171, 192
    a, b = _inputs(in_dtype, m, n, k, rs)
    padded = np.zeros((m, lda), dtype=a.dtype)
    padded[:, :k] = a
    padded[:, k:] = 7  # past K: must not be read into the product
    out_dtype = "int32" if in_dtype == "int8" else "float32"
    d = np.zeros((m, n), dtype=out_dtype)
    *_, out = backend.run(k_dot_loop, 1, padded, b, d, k, lda, M=m, N=n, BK=32, IN=tlt(in_dtype), MASKED=True,
                          OUT=tlt(out_dtype), num_stages=stages)
    _check_loop(out, a, b, in_dtype, out_dtype)


def test_dot_loop_k_tail_copies_stay_wide(monkeypatch):
    """cuda:80: with rows known aligned and K not known to divide anything,
    A's tile is still copied 16 bytes at a time (each copy reads the prefix
    its mask holds) instead of one synchronous 2-byte load per element;
    assembled by ptxas where it is installed."""
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:80")
    k = tritium.jit(k_dot_loop).warmup(MockTensor("fp16"), MockTensor("fp16"), MockTensor("fp32"), 171, 192, M=64,
                                       N=64, BK=32, IN=tl.float16, MASKED=True, OUT=tl.float32, num_stages=3,
                                       grid=(1, ))
    ptx = k.asm["ptx"]
    assert re.search(r"cp\.async\.cg\.shared\.global \[%r\d+\], \[%rd\d+\], 16, %r\d+;", ptx)
    assert not re.search(r"ld\.global[.a-z0-9]*\.[bu]16", ptx)
    from tritium._C import nvptx
    ptxas = nvptx.find_ptxas()
    if ptxas:
        nvptx.assemble_cubin(ptx, "cuda:80", ptxas)


def k_dot_fp8(A, B, D, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, TA: tl.constexpr, TB: tl.constexpr,
              OUT: tl.constexpr, TRANS_B: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(A + rm[:, None] * K + rk[None, :]).to(TA)
    if TRANS_B:
        b = tl.trans(tl.load(B + rn[:, None] * K + rk[None, :]).to(TB))
    else:
        b = tl.load(B + rk[:, None] * N + rn[None, :]).to(TB)
    d = tl.dot(a, b, out_dtype=OUT)
    tl.store(D + rm[:, None] * N + rn[None, :], d.to(tl.float32))


FP8_CASES = [("float8e4nv", "float8e4nv", "float32", False), ("float8e5", "float8e5", "float32", False),
             ("float8e5", "float8e4nv", "float32", False), ("float8e4nv", "float8e4nv", "float16", False),
             ("float8e4nv", "float8e5", "float32", True)]


@pytest.mark.parametrize("shape", [(16, 16, 32), (32, 64, 64), (64, 32, 128)], ids=lambda s: "x".join(map(str, s)))
@pytest.mark.parametrize("ta,tb,out,trans_b", FP8_CASES, ids=["-".join(map(str, c)) for c in FP8_CASES])
def test_dot_fp8(backend, ta, tb, out, trans_b, shape):
    """fp8 operands (on NVIDIA's mma.sync path: upcast to f16 in registers,
    two m16n8k16 per K tile of 32 over a K permutation both operands share).
    Multiples of 1/4 in [-2, 2] are exact in both fp8 kinds, so every product
    is exact and only the f32 (or f16) sums round."""
    m, n, k = shape
    rs = rng(64)
    a = (rs.randint(-8, 9, size=(m, k)) / 4).astype(np.float32)
    b = (rs.randint(-8, 9, size=(n, k) if trans_b else (k, n)) / 4).astype(np.float32)
    d = np.zeros((m, n), dtype=np.float32)
    _, _, out_arr = backend.run(k_dot_fp8, 1, a, b, d, M=m, N=n, K=k, TA=tlt(ta), TB=tlt(tb), OUT=tlt(out),
                                TRANS_B=trans_b)
    bm = b.T if trans_b else b
    ref = a.astype(np.float64) @ bm.astype(np.float64)
    _check(out_arr, ref, a, bm, out)


def k_dot_fp8_limited(A, B, D, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, LIMIT: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(A + rm[:, None] * K + rk[None, :]).to(tl.float8e5)
    b = tl.trans(tl.load(B + rn[:, None] * K + rk[None, :]).to(tl.float8e5))
    acc = tl.load(D + rm[:, None] * N + rn[None, :])
    d = tl.dot(a, b, acc, max_num_imprecise_acc=LIMIT)
    tl.store(D + rm[:, None] * N + rn[None, :], d)


@pytest.mark.parametrize("limit", [0, 32, 64])
def test_dot_fp8_max_num_imprecise_acc(backend, limit):
    """max_num_imprecise_acc: at most that many K elements are summed in the
    tensor cores' own (on Hopper, fewer-bit) accumulation before the f32
    accumulator takes them. Positive e5m2 values of one scale (2^-10 to
    2^-5), as Triton's test takes them: over K = 256 an accumulation of
    fewer bits than f32 drifts past rtol 1e-3 (on the H100, 2.3e-3 with a
    limit of 256, which lets all of K accumulate so)."""
    m, n, k = 64, 64, 256
    rs = rng(65)

    def e5m2(shape):
        return (2.0**rs.randint(-10, -5, size=shape) * (1 + rs.randint(0, 4, size=shape) / 4)).astype(np.float32)

    a, bt = e5m2((m, k)), e5m2((n, k))
    acc = np.zeros((m, n), dtype=np.float32)
    _, _, out = backend.run(k_dot_fp8_limited, 1, a, bt, acc, M=m, N=n, K=k, LIMIT=limit)
    ref = a.astype(np.float64) @ bt.T.astype(np.float64)
    np.testing.assert_allclose(out, ref, rtol=1e-3, atol=0)


def k_dot3d(A, B, D, BS: tl.constexpr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, IN: tl.constexpr):
    rb = tl.arange(0, BS)[:, None, None]
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(A + rb * M * K + rm[None, :, None] * K + rk[None, None, :]).to(IN)
    b = tl.load(B + rb * K * N + rk[None, :, None] * N + rn[None, None, :]).to(IN)
    d = tl.dot(a, b, input_precision="ieee" if IN == tl.float32 else None)
    tl.store(D + rb * M * N + rm[None, :, None] * N + rn[None, None, :], d)


@pytest.mark.parametrize("in_dtype", ["float16", "float32", "bfloat16"])
@pytest.mark.parametrize("bs,m,n,k", [(2, 16, 16, 16), (4, 16, 32, 16), (2, 32, 16, 64)])
def test_dot_3d_batched(backend, in_dtype, bs, m, n, k):
    rs = rng(61)
    a = random_values(in_dtype, (bs, m, k), rs, low=-2, high=2)
    b = random_values(in_dtype, (bs, k, n), rs, low=-2, high=2)
    d = np.zeros((bs, m, n), dtype=np.float32)
    _, _, out = backend.run(k_dot3d, 1, a, b, d, BS=bs, M=m, N=n, K=k, IN=tlt(in_dtype))
    ref = np.matmul(a.astype(np.float64), b.astype(np.float64))
    for i in range(bs):
        _check(out[i], ref[i], a[i], b[i], "float32")


def k_attention_like(Q, K_, V, O, M: tl.constexpr, N: tl.constexpr, D: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rd = tl.arange(0, D)
    q = tl.load(Q + rm[:, None] * D + rd[None, :])
    k = tl.load(K_ + rn[:, None] * D + rd[None, :])
    v = tl.load(V + rn[:, None] * D + rd[None, :])
    s = tl.dot(q, tl.trans(k))
    p = tl.exp(s - tl.max(s, axis=1)[:, None])
    p = p / tl.sum(p, axis=1)[:, None]
    o = tl.dot(p.to(tl.float16), v)
    tl.store(O + rm[:, None] * D + rd[None, :], o)


@pytest.mark.parametrize("m,n,d", [(16, 16, 16), (32, 64, 16), (64, 32, 32)])
def test_dot_chain_softmax(backend, m, n, d):
    rs = rng(62)
    q = random_values("float16", (m, d), rs, low=-1, high=1)
    k = random_values("float16", (n, d), rs, low=-1, high=1)
    v = random_values("float16", (n, d), rs, low=-1, high=1)
    o = np.zeros((m, d), dtype=np.float32)
    _, _, _, out = backend.run(k_attention_like, 1, q, k, v, o, M=m, N=n, D=d)
    s = q.astype(np.float64) @ k.astype(np.float64).T
    p = np.exp(s - s.max(axis=1, keepdims=True))
    p /= p.sum(axis=1, keepdims=True)
    ref = p.astype(np.float16).astype(np.float64) @ v.astype(np.float64)
    assert_close(out, ref.astype(np.float32), "float32", rtol=2e-3, atol=2e-3)


def k_dot_err(A, B, D, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr, K2: tl.constexpr, TA: tl.constexpr,
              TB: tl.constexpr, OUT: tl.constexpr):
    a = tl.load(A + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :]).to(TA)
    b = tl.load(B + tl.arange(0, K2)[:, None] * N + tl.arange(0, N)[None, :]).to(TB)
    d = tl.dot(a, b, out_dtype=OUT)
    tl.store(D + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], d.to(tl.float32))


@pytest.mark.parametrize("case", ["k_mismatch", "mixed_dtypes", "bf16_out"])
def test_dot_errors(backend, case):
    rs = rng(63)
    a = random_values("float32", (16, 32), rs)
    b = random_values("float32", (32, 16), rs)
    d = np.zeros((16, 16), dtype=np.float32)
    kw = dict(M=16, N=16, K=32, K2=32, TA=tl.float16, TB=tl.float16, OUT=tl.float32)
    if case == "k_mismatch":
        kw.update(K2=16)
    elif case == "mixed_dtypes":
        kw.update(TB=tl.float32)
    else:
        kw.update(OUT=tl.bfloat16)
    expect_error(backend.run, k_dot_err, 1, a, b, d, **kw)


def test_bf16_inputs_rounded(backend):
    """bf16 operands hold bf16 values exactly (the kernel rounds fp32 inputs
    to bf16 with .to)."""
    rs = rng(64)
    a = rs.randn(16, 16).astype(np.float32)
    b = rs.randn(16, 16).astype(np.float32)
    c = np.zeros((16, 16), dtype=np.float32)
    d = np.zeros((16, 16), dtype=np.float32)
    _, _, _, out = backend.run(k_dot, 1, a, b, c, d, M=16, N=16, K=16, IN=tl.bfloat16, MODE="plain", OUT=tl.float32,
                               DIO=tl.float32)
    ra, rb = round_bf16(a).astype(np.float64), round_bf16(b).astype(np.float64)
    _check(out, ra @ rb, ra, rb, "float32")


_ = np_value


def k_dot_multidim(X, Y, Z, RANK: tl.constexpr, TRANS_A: tl.constexpr, TRANS_B: tl.constexpr):
    x = tl.load(X + tl.arange(0, 256 << RANK)).reshape([2] * (RANK - 2) + [32, 32])
    y = tl.load(Y + tl.arange(0, 256 << RANK)).reshape([2] * (RANK - 2) + [32, 32])
    if TRANS_A:
        x = tl.trans(x)
    if TRANS_B:
        y = tl.trans(y)
    z = tl.dot(x, y)
    tl.store(Z + tl.arange(0, 256 << RANK), z.reshape([256 << RANK]))


@pytest.mark.parametrize("rank", [2, 3, 4, 5])
@pytest.mark.parametrize("trans_a,trans_b", [(False, False), (True, False), (False, True)])
def test_dot_multidim(backend, rank, trans_a, trans_b):
    """Triton's test_dot_multidim: dots of rank 4 and up fold their batch
    dimensions into one; tl.trans without dims swaps the last two."""
    shape = (2, ) * (rank - 2) + (32, 32)
    rs = rng(71)
    a = rs.randint(-4, 5, size=shape).astype(np.float16)
    b = rs.randint(-4, 5, size=shape).astype(np.float16)
    c = np.zeros(shape, dtype=np.float32)
    _, _, out = backend.run(k_dot_multidim, 1, a.reshape(-1), b.reshape(-1), c.reshape(-1), RANK=rank, TRANS_A=trans_a,
                            TRANS_B=trans_b)
    at = np.swapaxes(a, -1, -2) if trans_a else a
    bt = np.swapaxes(b, -1, -2) if trans_b else b
    np.testing.assert_array_equal(out.reshape(shape), at.astype(np.float32) @ bt.astype(np.float32))


def k_trans_1d(X):
    tl.trans(tl.load(X + tl.arange(0, 8)))


def test_trans_of_a_1d_block_is_an_error(backend):
    err = expect_error(backend.run, k_trans_1d, 1, np.zeros(8, np.float32))
    assert "0- or 1-dimensional" in str(err)
