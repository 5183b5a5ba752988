"""Loads and stores: masks and `other` values for every dtype, scalar
pointers, strided and indirect (gather/scatter) accesses, int64 offsets,
cache and eviction hints and volatile (accepted, same results), int1
pointers, compiler hints, and block pointers (make_block_ptr/advance with
boundary_check and padding "zero"/"nan")."""

import numpy as np
import pytest

import tritium.language as tl

from .helpers import ALL, NUMERIC, assert_close, expect_error, io_name, is_float, np_value, random_values, rng, tlt

N = 64


def k_masked_load(X, Z, N: tl.constexpr, LIMIT, OTHER: tl.constexpr, HAS_OTHER: tl.constexpr):
    offs = tl.arange(0, N)
    if HAS_OTHER:
        x = tl.load(X + offs, mask=offs < LIMIT, other=OTHER)
    else:
        x = tl.load(X + offs, mask=offs < LIMIT)
    tl.store(Z + offs, x, mask=offs < LIMIT + 8)


def _other_for(dtype):
    if dtype == "int1":
        return 1
    if is_float(dtype):
        return -2.5
    return 7


@pytest.mark.parametrize("dtype", [d for d in ALL if d not in ("int1", "bfloat16")])
@pytest.mark.parametrize("limit", [0, 17, 64])
def test_masked_load_other(backend, dtype, limit):
    rs = rng(80)
    x = random_values(dtype, N, rs, special=True)
    z = np.full(N, 3, dtype=x.dtype)
    other = _other_for(dtype)
    _, out = backend.run(k_masked_load, 1, x, z, N=N, LIMIT=limit, OTHER=other, HAS_OTHER=True)
    offs = np.arange(N)
    ref = np.where(offs < limit, x, np_value(np.array(other), dtype))
    ref = np.where(offs < limit + 8, ref, np.array(3).astype(x.dtype)).astype(x.dtype)
    assert_close(out, ref, dtype, rtol=0)


def test_masked_load_other_nan(backend):
    x = random_values("float32", N, rng(81))
    z = np.zeros(N, dtype=np.float32)
    _, out = backend.run(k_masked_load, 1, x, z, N=N, LIMIT=10, OTHER=float("nan"), HAS_OTHER=True)
    assert_close(out[:10], x[:10])
    assert np.isnan(out[10:18]).all()
    assert (out[18:] == 0).all()


@pytest.mark.parametrize("dtype", ["float32", "int32", "float16"])
def test_masked_load_without_other(backend, dtype):
    """Masked-off lanes of a load without `other` are undefined: only the
    masked-on lanes are compared, and the masked-off store leaves memory."""
    x = random_values(dtype, N, rng(82))
    z = np.full(N, 5, dtype=dtype)
    _, out = backend.run(k_masked_load, 1, x, z, N=N, LIMIT=20, OTHER=0, HAS_OTHER=False)
    assert_close(out[:20], x[:20], dtype, rtol=0)
    assert (out[28:] == 5).all()


def k_bool_ptr(X, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.static_assert(x.dtype == tl.int1)
    tl.store(Z + offs, x ^ (offs % 2 == 0))


def test_int1_pointers(backend):
    """numpy bool arrays are int1 pointers (one byte per element)."""
    x = rng(83).randint(0, 2, size=N).astype(bool)
    z = np.zeros(N, dtype=bool)
    _, out = backend.run(k_bool_ptr, 1, x, z, N=N)
    assert_close(out, x ^ (np.arange(N) % 2 == 0))


def k_hints(X, Z, N: tl.constexpr, LCACHE: tl.constexpr, LEVICT: tl.constexpr, SCACHE: tl.constexpr,
            SEVICT: tl.constexpr, VOLATILE: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs, cache_modifier=LCACHE, eviction_policy=LEVICT, volatile=VOLATILE)
    tl.store(Z + offs, x * 2, cache_modifier=SCACHE, eviction_policy=SEVICT)


HINTS = [("", "", "", "", False), (".ca", "", "", "", False), (".cg", "evict_first", "", "", False),
         (".cv", "evict_last", "", "", False), ("", "", ".wb", "", False), ("", "", ".cg", "evict_first", False),
         ("", "", ".cs", "evict_last", False), ("", "", ".wt", "", False), ("", "evict_last", "", "", True),
         (".cg", "", ".cs", "", True)]


@pytest.mark.parametrize("lcache,levict,scache,sevict,volatile", HINTS)
def test_cache_eviction_hints(backend, lcache, levict, scache, sevict, volatile):
    x = random_values("float32", N, rng(84))
    z = np.zeros(N, dtype=np.float32)
    _, out = backend.run(k_hints, 1, x, z, N=N, LCACHE=lcache, LEVICT=levict, SCACHE=scache, SEVICT=sevict,
                         VOLATILE=volatile)
    assert_close(out, x * 2)


def k_scalar_ptr(X, Z, I):
    v = tl.load(X + I)
    tl.store(Z, v * 3)
    tl.store(Z + 1, v + I)


@pytest.mark.parametrize("dtype", ["int32", "int64", "float32", "float64", "float16", "uint8"])
def test_scalar_load_store(backend, dtype):
    x = random_values(dtype, 16, rng(85), low=0, high=20) if not is_float(dtype) else \
        random_values(dtype, 16, rng(85), low=-20, high=20)
    z = np.zeros(2, dtype=dtype)
    _, out = backend.run(k_scalar_ptr, 1, x, z, 5)
    with np.errstate(over="ignore"):
        assert_close(out, np.array([x[5] * 3, x[5] + 5]).astype(dtype), dtype)


def k_strided(X, Z, M: tl.constexpr, N: tl.constexpr, SXM, SXN):
    rm = tl.arange(0, M)[:, None]
    rn = tl.arange(0, N)[None, :]
    x = tl.load(X + rm * SXM + rn * SXN)
    tl.store(Z + rn * M + rm, x)  # the transpose, column-major


@pytest.mark.parametrize("sm,sn", [(16, 1), (1, 8), (32, 2), (17, 1)])
def test_strided_load_transposed_store(backend, sm, sn):
    m, n = 8, 16
    x = random_values("float32", 600, rng(86))
    z = np.zeros(m * n, dtype=np.float32)
    _, out = backend.run(k_strided, 1, x, z, M=m, N=n, SXM=sm, SXN=sn)
    ref = np.array([[x[i * sm + j * sn] for j in range(n)] for i in range(m)])
    assert_close(out.reshape(n, m), ref.T)


def k_gather_scatter(X, IDX, Z, N: tl.constexpr):
    offs = tl.arange(0, N)
    idx = tl.load(IDX + offs)
    v = tl.load(X + idx)
    tl.store(Z + (N - 1 - offs), v)


@pytest.mark.parametrize("idx_dtype", ["int32", "int64", "uint32", "int16"])
def test_indirect_load_store(backend, idx_dtype):
    rs = rng(87)
    x = random_values("float32", 100, rs)
    idx = rs.randint(0, 100, size=N).astype(idx_dtype)
    z = np.zeros(N, dtype=np.float32)
    _, _, out = backend.run(k_gather_scatter, 1, x, idx, z, N=N)
    assert_close(out, x[idx][::-1])


def k_gather_beside_vector(X, W, B, Y, n, per_channel, BLOCK: tl.constexpr):
    # The normalization loop of a group norm (Liger's): X read as vectors,
    # W and B gathered by channel, one computation.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + offs, mask=mask, other=0.0)
    ch = offs // per_channel
    w = tl.load(W + ch, mask=mask)
    b = tl.load(B + ch, mask=mask)
    tl.store(Y + offs, x * w + b, mask=mask)


@pytest.mark.parametrize("n,per_channel,block", [(1000, 10, 256), (131072, 4096, 65536)])
def test_gather_beside_vector_load(backend, n, per_channel, block):
    """The gathers take the vector load's layout (as Triton's coalescing
    does), so a 65,536-element block needs no conversion through shared
    memory (it needed 256 KiB and was refused as out of resources)."""
    rs = rng(89)
    x = random_values("float32", n, rs)
    w = random_values("float32", n // per_channel + 1, rs)
    b = random_values("float32", n // per_channel + 1, rs)
    y = np.zeros(n, dtype=np.float32)
    grid = (n + block - 1) // block
    *_, out = backend.run(k_gather_beside_vector, grid, x, w, b, y, n, per_channel, BLOCK=block)
    ch = np.arange(n) // per_channel
    # The GPU contracts x * w + b into one fma (one rounding, numpy's has
    # two): against the exact float64 value, within the product's and the
    # result's last place.
    product = x.astype(np.float64) * w[ch]
    err = np.abs(out - (product + b[ch]))
    bound = np.spacing(np.abs(product).astype(np.float32)) + np.spacing(np.abs(out))
    assert np.all(err <= bound), f"{np.sum(err > bound)} of {n} off, first at {np.argmax(err > bound)}"


def k_int64_offsets(X, Z, BASE, N: tl.constexpr):
    offs = BASE.to(tl.int64) + tl.arange(0, N).to(tl.int64)
    tl.store(Z + tl.arange(0, N), tl.load(X + offs - BASE))


def test_int64_offsets(backend):
    x = random_values("float32", N, rng(88))
    z = np.zeros(N, dtype=np.float32)
    _, out = backend.run(k_int64_offsets, 1, x, z, 3, N=N)
    assert_close(out, x)


def k_same_ptr(X, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.store(X + offs, x + 1)
    y = tl.load(X + offs)
    tl.store(X + offs, y * 2)


def test_load_store_same_pointer(backend):
    x = random_values("int32", N, rng(89), low=-100, high=100)
    (out, ) = backend.run(k_same_ptr, 1, x, N=N)
    assert_close(out, (x + 1) * 2)


def k_hinted(X, Z, N: tl.constexpr):
    offs = tl.max_contiguous(tl.multiple_of(tl.arange(0, N), N), N)
    offs = tl.max_constancy(offs, 1)
    x = tl.load(X + offs)
    tl.store(Z + offs, x + 1)


def test_compiler_hints(backend):
    x = random_values("float32", N, rng(90))
    z = np.zeros(N, dtype=np.float32)
    _, out = backend.run(k_hinted, 1, x, z, N=N)
    assert_close(out, x + 1)


def k_hint_statement(X, Z, LD, M: tl.constexpr, N: tl.constexpr):
    ptrs = X + tl.arange(0, M)[:, None] * LD + tl.arange(0, N)[None, :]
    tl.multiple_of(ptrs, [16, 16])  # tutorial 08: a statement, its result unused
    tl.store(Z + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], tl.load(ptrs) * 2)


def test_hint_statement(backend):
    """A hint given as a statement (Triton annotates its operand in place)
    keeps the values and, compiled, makes the load 16-byte vectors although
    the row stride is an unspecialized argument."""
    x = random_values("float16", (16, 64), rng(91))
    z = np.zeros((16, 64), dtype=np.float16)
    _, out = backend.run(k_hint_statement, 1, x.reshape(-1), z.reshape(-1), 64, M=16, N=64)
    assert_close(out.reshape(16, 64), x * 2)


def test_hint_statement_vectorizes(monkeypatch):
    import tritium
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:80")
    k = tritium.jit(k_hint_statement, do_not_specialize=["LD"])
    ptx = k.warmup(MockTensor("fp16"), MockTensor("fp16"), 64, M=16, N=64, grid=(1, )).asm["ptx"]
    assert "ld.global.v4.b32" in ptx and "ld.global.b16" not in ptx, ptx


def k_nested_hint_statement(Z, X, OFF, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    offs = offs + tl.load(OFF)
    tl.max_contiguous(tl.multiple_of(offs, 1024), 1024)  # Triton's test_vectorization_hints
    tl.store(Z + offs, tl.load(X + offs, mask=offs < N), mask=offs < N)


def test_nested_hint_statement_vectorizes(monkeypatch):
    """Nested hints as a statement annotate the innermost name (Triton
    annotates one definition in place): the loads become 16-byte vectors
    although the offset is loaded."""
    import tritium
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:80")
    k = tritium.jit(k_nested_hint_statement)
    ptx = k.warmup(MockTensor("fp32"), MockTensor("fp32"), MockTensor("int32"), 1024, BLOCK=1024,
                   grid=(1, )).asm["ptx"]
    assert "ld.global.v4.b32" in ptx, ptx


def k_store_scalar_value(Z, N: tl.constexpr, V: tl.constexpr):
    tl.store(Z + tl.arange(0, N), V)


@pytest.mark.parametrize("dtype,v", [("float32", 1.5), ("int32", -3), ("float16", 2.0), ("uint8", 200),
                                     ("int64", 2**40), ("int8", -1)])
def test_store_constant(backend, dtype, v):
    """A Python number stored through a pointer takes its element type."""
    z = np.zeros(N, dtype=dtype)
    (out, ) = backend.run(k_store_scalar_value, 1, z, N=N, V=v)
    assert_close(out, np.full(N, v, dtype=dtype))


def k_pid_offsets(X, Z, LEN, N: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    m = offs < LEN
    tl.store(Z + offs, tl.load(X + offs, mask=m, other=0) + 1, mask=m)


@pytest.mark.parametrize("length", [1, 63, 64, 65, 1000])
@pytest.mark.parametrize("dtype", NUMERIC)
def test_masked_tail(backend, dtype, length):
    """The vector-add pattern: every program a block, the last one masked."""
    if dtype == "bfloat16":
        dtype = "float32"
    x = random_values(dtype, length, rng(91), low=0, high=100) if not is_float(dtype) else \
        random_values(dtype, length, rng(91), low=-100, high=100)
    z = np.zeros(length, dtype=dtype)
    _, out = backend.run(k_pid_offsets, (length + N - 1) // N, x, z, length, N=N)
    assert_close(out, (x + np.array(1).astype(x.dtype)).astype(dtype), dtype)


def k_row_mask(X, Z, K, BK: tl.constexpr, W: tl.constexpr):
    rk = tl.arange(0, BK)
    rn = tl.arange(0, W)
    for k in range(0, tl.cdiv(K, BK)):
        rows = (k * BK + rk)[:, None] * W + rn[None, :]
        x = tl.load(X + rows, mask=rk[:, None] < K - k * BK, other=-1.0)
        tl.store(Z + rows, x)


@pytest.mark.parametrize("k", [8, 16, 40, 48, 64, 100, 128])
def test_row_mask_of_a_k_loop(backend, k):
    """A matmul's K-tail mask `rk[:, None] < K - k * BK`: with K divisible by
    16 (the launch says so) its rows come in runs of 16 equal ones, which the
    lowering computes once for rows r and r + 8 of a thread (lit
    nvptx/equal-registers.tir); other K, one a row."""
    bk, w = 64, 16
    padded = -(-k // bk) * bk
    x = random_values("float32", padded * w, rng(92))
    z = np.full(padded * w, 7, dtype=np.float32)
    _, out = backend.run(k_row_mask, 1, x, z, k, BK=bk, W=w)
    ref = np.where(np.arange(padded * w) < k * w, x, -1.0).astype(np.float32)
    assert_close(out, ref, "float32", rtol=0)


def k_bad_load(X, N: tl.constexpr, CASE: tl.constexpr):
    offs = tl.arange(0, N)
    if CASE == "float_ptr_offset":
        tl.load(X + 1.5)
    elif CASE == "store_to_value":
        tl.store(offs, 1)
    elif CASE == "mask_shape":
        tl.load(X + offs, mask=tl.arange(0, 2 * N) < 3)
    elif CASE == "boundary_check_plain":
        tl.load(X + offs, boundary_check=(0, ))


@pytest.mark.parametrize("case", ["float_ptr_offset", "store_to_value", "mask_shape", "boundary_check_plain"])
def test_memory_errors(backend, case):
    x = np.zeros(N, dtype=np.float32)
    expect_error(backend.run, k_bad_load, 1, x, N=N, CASE=case)


# ---------------------------------------------------------------------------
# Block pointers
# ---------------------------------------------------------------------------


def k_block_ptr_load(X, Z, M, N, SM, SN, OM, ON, BM: tl.constexpr, BN: tl.constexpr, CHECK: tl.constexpr,
                     PAD: tl.constexpr):
    p = tl.make_block_ptr(base=X, shape=(M, N), strides=(SM, SN), offsets=(OM, ON), block_shape=(BM, BN),
                          order=(1, 0))
    if CHECK == "none":
        x = tl.load(p)
    elif CHECK == "0":
        x = tl.load(p, boundary_check=(0, ), padding_option=PAD)
    elif CHECK == "1":
        x = tl.load(p, boundary_check=(1, ), padding_option=PAD)
    else:
        x = tl.load(p, boundary_check=(0, 1), padding_option=PAD)
    tl.store(Z + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], x)


BP_CASES = [  # (offset m, offset n, check, padding)
    (0, 0, "none", ""), (4, 8, "none", ""), (12, 0, "0", "zero"), (0, 28, "1", "zero"), (12, 28, "01", "zero"),
    (12, 28, "01", "nan"), (-4, 0, "0", "zero"), (0, -8, "1", "nan"), (14, 30, "01", "zero"), (12, 28, "0", "nan"),
]


@pytest.mark.parametrize("om,on,check,pad", BP_CASES)
def test_block_ptr_load(backend, om, on, check, pad):
    m, n, bm, bn = 20, 36, 8, 16
    x = random_values("float32", (m, n), rng(92)).reshape(-1)
    # Loads outside the tensor without a boundary check read other memory;
    # keep those inside one padded buffer.
    buf = np.concatenate([np.zeros(400, np.float32), x, np.zeros(400, np.float32)])
    z = np.zeros((bm, bn), dtype=np.float32)
    base = buf[400:]
    _, out = backend.run(k_block_ptr_load, 1, base, z, m, n, n, 1, om, on, BM=bm, BN=bn, CHECK=check, PAD=pad)
    full = x.reshape(m, n)
    rows = np.arange(om, om + bm)[:, None]
    cols = np.arange(on, on + bn)[None, :]
    inb = np.ones((bm, bn), bool)
    if "0" in check:
        inb &= (rows >= 0) & (rows < m)
    if "1" in check:
        inb &= (cols >= 0) & (cols < n)
    padv = np.nan if pad == "nan" else 0.0
    ok_r = np.clip(rows, 0, m - 1)
    ok_c = np.clip(cols, 0, n - 1)
    vals = full[ok_r, ok_c]
    ref = np.where(inb, vals, padv)
    truly_in = (rows >= 0) & (rows < m) & (cols >= 0) & (cols < n)
    # Compare where the answer is defined: checked-out lanes (padding) and
    # lanes inside the tensor.
    defined = truly_in | ~inb
    assert_close(out[defined], ref[defined], "float32", rtol=0)


def k_block_ptr_advance_store(X, Z, M, N, BM: tl.constexpr, BN: tl.constexpr, STEPS: tl.constexpr):
    src = tl.make_block_ptr(X, (M, N), (N, 1), (0, 0), (BM, BN), (1, 0))
    dst = tl.make_block_ptr(Z, (N, M), (M, 1), (0, 0), (BN, BM), (1, 0))
    for _ in range(STEPS):
        x = tl.load(src, boundary_check=(0, 1), padding_option="zero")
        tl.store(dst, tl.trans(x), boundary_check=(0, 1))
        src = tl.advance(src, (BM, BN))
        dst = dst.advance((BN, BM))


@pytest.mark.parametrize("m,n", [(16, 32), (20, 36), (7, 9)])
def test_block_ptr_advance_and_store(backend, m, n):
    """Diagonal blocks of X transposed into Z; stores past the edges are
    dropped by boundary_check."""
    bm, bn = 8, 16
    steps = max(-(-m // bm), -(-n // bn))
    x = random_values("float32", (m, n), rng(93)).reshape(-1)
    z = np.full(m * n, -1.0, dtype=np.float32)
    _, out = backend.run(k_block_ptr_advance_store, 1, x, z, m, n, BM=bm, BN=bn, STEPS=steps)
    ref = np.full((n, m), -1.0, dtype=np.float32)
    full = x.reshape(m, n)
    for s in range(steps):
        r0, c0 = s * bm, s * bn
        for i in range(r0, min(r0 + bm, m)):
            for j in range(c0, min(c0 + bn, n)):
                ref[j, i] = full[i, j]
    assert_close(out.reshape(n, m), ref)


def k_block_ptr_1d(X, Z, LEN, OFF, B: tl.constexpr):
    p = tl.make_block_ptr(X, shape=(LEN, ), strides=(1, ), offsets=(OFF, ), block_shape=(B, ), order=(0, ))
    tl.store(Z + tl.arange(0, B), tl.load(p, boundary_check=(0, ), padding_option="zero"))


@pytest.mark.parametrize("off", [0, 5, 30])
def test_block_ptr_1d(backend, off):
    x = random_values("int32", 40, rng(94), special=True)
    z = np.full(16, 9, dtype=np.int32)
    _, out = backend.run(k_block_ptr_1d, 1, x, z, 40, off, B=16)
    idx = np.arange(off, off + 16)
    assert_close(out, np.where(idx < 40, x[np.minimum(idx, 39)], 0))


def k_block_ptr_branch(X, Y, Z, PICK, N, B: tl.constexpr):
    # A block pointer chosen at run time, then advanced in a loop: its
    # descriptor reaches the load through phis.
    if PICK == 0:
        p = tl.make_block_ptr(X, (N, ), (1, ), (0, ), (B, ), (0, ))
    else:
        p = tl.make_block_ptr(Y, (N - 1, ), (1, ), (1, ), (B, ), (0, ))
    acc = tl.zeros((B, ), tl.int32)
    for _ in range(2):
        acc += tl.load(p, boundary_check=(0, ), cache_modifier=".cg", eviction_policy="evict_last")
        p = tl.advance(p, (B, ))
    tl.store(Z + tl.arange(0, B), acc)


@pytest.mark.parametrize("pick", [0, 1])
def test_block_ptr_chosen_in_branch(backend, pick):
    x = np.arange(40, dtype=np.int32)
    y = 1000 + np.arange(40, dtype=np.int32)
    z = np.zeros(16, dtype=np.int32)
    n = 24
    _, _, out = backend.run(k_block_ptr_branch, 1, x, y, z, pick, n, B=16)
    src, first, extent = (x, 0, n) if pick == 0 else (y, 1, n - 1)
    idx = first + np.arange(16)
    ref = np.zeros(16, np.int64)
    for step in range(2):
        i = idx + 16 * step
        ref += np.where(i < extent, src[np.minimum(i, 39)], 0)  # offsets count from the base
    assert_close(out, ref.astype(np.int32))


def k_block_ptr_bool_transposed(X, Z, M, N, BM: tl.constexpr, BN: tl.constexpr):
    # X is M x N row-major, viewed column-major as N x M (strides (1, N)).
    p = tl.make_block_ptr(X, (N, M), (1, N), (0, 0), (BN, BM), (0, 1))
    q = tl.make_block_ptr(Z, (N, M), (M, 1), (0, 0), (BN, BM), (1, 0))
    tl.store(q, tl.load(p, boundary_check=(0, 1)) == False, boundary_check=(0, 1))


def test_block_ptr_bool_and_transposed(backend):
    m, n = 6, 10
    x = rng(95).random((m, n)) < 0.5
    z = np.zeros((n, m), dtype=bool)
    _, out = backend.run(k_block_ptr_bool_transposed, 1, x.reshape(-1), z.reshape(-1), m, n, BM=8, BN=16)
    assert (out.reshape(n, m) == ~x.T).all()


def k_block_ptr_err(X, CASE: tl.constexpr):
    p = tl.make_block_ptr(X, (16, 16), (16, 1), (0, 0), (8, 8), (1, 0))
    if CASE == "mask":
        tl.load(p, mask=tl.full((8, 8), 1, tl.int1))
    elif CASE == "bad_dim":
        tl.load(p, boundary_check=(2, ))
    elif CASE == "bad_padding":
        tl.load(p, boundary_check=(0, ), padding_option="one")


@pytest.mark.parametrize("case", ["mask", "bad_dim", "bad_padding"])
def test_block_ptr_errors(backend, case):
    x = np.zeros(256, dtype=np.float32)
    expect_error(backend.run, k_block_ptr_err, 1, x, CASE=case)


_ = (io_name, tlt)


def k_double_in_place(P):
    pid = tl.program_id(0)
    x = tl.load(P + pid)
    tl.store(P + pid, x * 2)


def test_scalar_load_store_same_address(backend):
    """Every thread of a program loads the scalar; only one may store it
    back, or a thread that loads after another's store doubles twice."""
    warps = 16 if "hip" in backend.name else 32  # 1,024 threads of 64 or 32 lanes
    for _ in range(3 if backend.on_gpu else 1):
        (p, ) = backend.run(k_double_in_place, 4096, np.ones(4096, dtype=np.float32), num_warps=warps)
        assert (p == 2).all()
