"""Tensor descriptors (tl.make_tensor_descriptor, desc.load/desc.store and
tl.load_tensor_descriptor/tl.store_tensor_descriptor) against numpy, on
every backend: blocks inside, across and outside the tensor's edges (zeros
read there, nothing written), 1-d to 3-d, strided rows, a K loop that reads
two descriptors, and Triton's errors."""

import contextlib

import numpy as np
import pytest

import tritium
import tritium.language as tl

from .helpers import assert_close, expect_error, random_values, rng, tlt


def k_desc_load(X, Z, M, N, SM, OM, ON, BM: tl.constexpr, BN: tl.constexpr):
    d = tl.make_tensor_descriptor(X, shape=[M, N], strides=[SM, 1], block_shape=[BM, BN])
    x = d.load([OM, ON])
    tl.store(Z + tl.arange(0, BM)[:, None] * BN + tl.arange(0, BN)[None, :], x)


def _window(full, om, on, bm, bn):
    m, n = full.shape
    rows = np.arange(om, om + bm)[:, None]
    cols = np.arange(on, on + bn)[None, :]
    inside = (rows >= 0) & (rows < m) & (cols >= 0) & (cols < n)
    return np.where(inside, full[np.clip(rows, 0, m - 1), np.clip(cols, 0, n - 1)], 0), inside


@pytest.mark.parametrize("om,on", [(0, 0), (4, 8), (12, 28), (-4, 0), (0, -8), (18, 30), (40, 0)])
@pytest.mark.parametrize("dtype", ["float32", "float16", "int8"])
def test_descriptor_load(backend, om, on, dtype):
    m, n, bm, bn = 20, 36, 8, 16
    # A row stride past the row (a slice of a wider array): the stride is not
    # the shape's.
    sm = 40
    x = random_values(dtype, (m, sm), rng(311))
    z = np.zeros((bm, bn), dtype=x.dtype)
    _, out = backend.run(k_desc_load, 1, x.reshape(-1), z, m, n, sm, om, on, BM=bm, BN=bn)
    ref, _ = _window(x[:, :n], om, on, bm, bn)
    assert_close(out, ref.astype(x.dtype), dtype, rtol=0)


def k_desc_store(X, Z, M, N, OM, ON, BM: tl.constexpr, BN: tl.constexpr):
    src = tl.make_tensor_descriptor(X, [BM, BN], [BN, 1], [BM, BN])
    dst = tl.make_tensor_descriptor(Z, [M, N], [N, 1], [BM, BN])
    tl.store_tensor_descriptor(dst, [OM, ON], tl.load_tensor_descriptor(src, [0, 0]) + 1)


@pytest.mark.parametrize("om,on", [(0, 0), (8, 16), (14, 30), (-3, -5), (20, 0)])
def test_descriptor_store(backend, om, on):
    """Elements that fall outside Z are not written."""
    m, n, bm, bn = 20, 36, 8, 16
    x = random_values("float32", (bm, bn), rng(312))
    z = np.full((m, n), -7.0, dtype=np.float32)
    _, out = backend.run(k_desc_store, 1, x.reshape(-1), z.reshape(-1), m, n, om, on, BM=bm, BN=bn)
    ref = z.copy()
    for i in range(bm):
        for j in range(bn):
            r, c = om + i, on + j
            if 0 <= r < m and 0 <= c < n:
                ref[r, c] = x[i, j] + 1
    assert_close(out.reshape(m, n), ref, "float32", rtol=0)


def k_desc_1d_3d(X, Z, Y, W, L, OFF, D0, D1, D2, B: tl.constexpr):
    d1 = tl.make_tensor_descriptor(X, [L], [1], [B])
    tl.store(Z + tl.arange(0, B), d1.load([OFF]))
    d3 = tl.make_tensor_descriptor(Y, [D0, D1, D2], [D1 * D2, D2, 1], [2, 4, 8])
    v = d3.load([1, 2, 4])
    i = tl.arange(0, 2)[:, None, None] * 32 + tl.arange(0, 4)[None, :, None] * 8 + tl.arange(0, 8)[None, None, :]
    tl.store(W + i, v)


def test_descriptor_1d_and_3d(backend):
    x = random_values("int32", 40, rng(313))
    y = random_values("float32", (3, 5, 10), rng(314))
    z = np.full(16, 9, dtype=np.int32)
    w = np.zeros((2, 4, 8), dtype=np.float32)
    _, out_z, _, out_w = backend.run(k_desc_1d_3d, 1, x, z, y.reshape(-1), w, 40, 30, 3, 5, 10, B=16)
    idx = np.arange(30, 46)
    assert_close(out_z, np.where(idx < 40, x[np.minimum(idx, 39)], 0))
    ref = np.zeros((2, 4, 8), np.float32)
    for a in range(2):
        for b in range(4):
            for c in range(8):
                i, j, k = 1 + a, 2 + b, 4 + c
                if i < 3 and j < 5 and k < 10:
                    ref[a, b, c] = y[i, j, k]
    assert_close(out_w, ref, "float32", rtol=0)


def k_desc_matmul(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(A, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(B, [K, N], [N, 1], [BK, BN])
    c_desc = tl.make_tensor_descriptor(C, [M, N], [N, 1], [BM, BN])
    pm, pn = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(a_desc.load([pm * BM, k * BK]), b_desc.load([k * BK, pn * BN]))
    c_desc.store([pm * BM, pn * BN], acc)


def test_descriptor_matmul(backend):
    """The K loop reads both operands through descriptors; K, M and N are
    not multiples of the blocks (the zeros past the edges add nothing)."""
    m, n, k = 40, 24, 50
    a = random_values("float16", (m, k), rng(315))
    b = random_values("float16", (k, n), rng(316))
    c = np.zeros((m, n), dtype=np.float32)
    _, _, out = backend.run(k_desc_matmul, (3, 2), a.reshape(-1), b.reshape(-1), c.reshape(-1), m, n, k,
                            BM=16, BN=16, BK=16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    assert_close(out.reshape(m, n), ref, "float32", rtol=1e-2, atol=1e-2)


def k_desc_err(X, N, CASE: tl.constexpr):
    if CASE == "last_stride":
        d = tl.make_tensor_descriptor(X, [16, 16], [1, 16], [8, 8])
    elif CASE == "runtime_stride":
        d = tl.make_tensor_descriptor(X, [16, 16], [16, N], [8, 8])
    elif CASE == "small_block":
        d = tl.make_tensor_descriptor(X, [16, 16], [16, 1], [8, 2])
    elif CASE == "lengths":
        d = tl.make_tensor_descriptor(X, [16, 16], [16, 1], [8])
    elif CASE == "not_pointer":
        d = tl.make_tensor_descriptor(N, [16], [1], [8])
    elif CASE == "block_pow2":
        d = tl.make_tensor_descriptor(X, [16, 16], [16, 1], [6, 8])
    else:
        d = tl.make_tensor_descriptor(X, [16, 16], [16, 1], [8, 8])
    if CASE == "offsets":
        d.load([0])
    elif CASE == "store_shape":
        d.store([0, 0], tl.zeros((8, 4), tl.float32))
    elif CASE == "store_scalar":
        d.store([0, 0], 1.0)
    elif CASE == "float_offset":
        d.load([0.5, 0])
    else:
        d.load([0, 0])


ERRORS = {
    "last_stride": "last dim must be 1",
    "runtime_stride": "last dim must be 1 but got a runtime value",
    "small_block": "at least 16 bytes in the last dimension",
    "lengths": "of one length",
    "not_pointer": "Expected base to be a pointer",
    "block_pow2": "power of two",
    "offsets": "expected 2 offsets, got 1",
    "store_shape": "Descriptor block shape [8, 8] and value shape [8, 4] mismatch",
    "store_scalar": "value shape [] mismatch",
    "float_offset": "descriptor offsets must be integers",
}


@pytest.mark.parametrize("case", sorted(ERRORS))
def test_descriptor_errors(backend, case):
    x = np.zeros(256, dtype=np.float32)
    e = expect_error(backend.run, k_desc_err, 1, x, 3, CASE=case)
    assert ERRORS[case] in str(e), str(e)


# ---------------------------------------------------------------------------
# Host-side descriptors (tritium.tools.tensor_descriptor.TensorDescriptor)
# ---------------------------------------------------------------------------


def k_host_matmul(a_desc, b_desc, c_desc, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pm, pn = tl.program_id(0), tl.program_id(1)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(a_desc.load([pm * BM, k * BK]), b_desc.load([k * BK, pn * BN]))
    c_desc.store([pm * BM, pn * BN], acc.to(tl.float16))


def _run_host(backend, fn, grid, arrays, make_args, **kwargs):
    """Launches ``fn`` with descriptors of ``arrays`` moved to the backend
    (``make_args(device_arrays)`` -> the arguments); returns the arrays."""
    if backend.name in ("compile", "compile-hip"):
        pytest.skip("a compile-only backend launches nothing")
    dev = [backend.to_device(a) for a in arrays]
    backend.launch(backend.jit(fn), grid, make_args(dev), kwargs)
    backend.synchronize()
    return [backend.to_numpy(d) for d in dev]


@pytest.mark.parametrize("m,n,k,bm,bn,bk", [(64, 32, 48, 16, 16, 16), (40, 24, 50, 16, 16, 16),
                                            (200, 144, 112, 128, 128, 64), (64, 400, 256, 64, 256, 64)])
def test_host_descriptor_matmul(backend, m, n, k, bm, bn, bk):
    """Tutorial 09's descriptors: TensorDescriptor.from_tensor on the host,
    desc.load/desc.store in the kernel; edges not multiples of the blocks.
    The larger blocks on an H100/H200 are TMA copies (rows of 16-byte
    multiples), the last with B's 256 columns as four boxes."""
    from tritium.tools.tensor_descriptor import TensorDescriptor
    a = random_values("float16", (m, k), rng(317))
    b = random_values("float16", (k, n), rng(318))
    c = np.zeros((m, n), dtype=np.float16)

    def args(dev):
        da, db, dc = dev
        return (TensorDescriptor.from_tensor(da, [bm, bk]), TensorDescriptor.from_tensor(db, [bk, bn]),
                TensorDescriptor.from_tensor(dc, [bm, bn]), k)
    _, _, out = _run_host(backend, k_host_matmul, (-(-m // bm), -(-n // bn)), [a, b, c], args, BM=bm, BN=bn,
                          BK=bk)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    assert_close(out.astype(np.float32), ref, "float32", rtol=1e-2, atol=2e-2)


def k_persistent_subtile(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr,
                         NUM_PROGS: tl.constexpr, SUBTILE: tl.constexpr, DESC_STORE: tl.constexpr):
    # Tutorial 09's descriptor-persistent kernel: programs loop over output
    # tiles; the epilogue may split the accumulator into two halves along N
    # (reshape, permute, split) and store each through a descriptor.
    a_desc = tl.make_tensor_descriptor(A, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(B, [N, K], [K, 1], [BN, BK])
    c_desc = tl.make_tensor_descriptor(C, [M, N], [N, 1], [BM, BN // 2 if SUBTILE else BN])
    num_n = tl.cdiv(N, BN)
    for tile in tl.range(tl.program_id(0), tl.cdiv(M, BM) * num_n, NUM_PROGS, flatten=True):
        om = (tile // num_n) * BM
        on = (tile % num_n) * BN
        acc = tl.zeros((BM, BN), dtype=tl.float32)
        for k in range(tl.cdiv(K, BK)):
            acc = tl.dot(a_desc.load([om, k * BK]), b_desc.load([on, k * BK]).T, acc)
        rm = om + tl.arange(0, BM)
        if SUBTILE:
            acc0, acc1 = tl.split(tl.permute(tl.reshape(acc, (BM, 2, BN // 2)), (0, 2, 1)))
            if DESC_STORE:
                c_desc.store([om, on], acc0.to(tl.float16))
                c_desc.store([om, on + BN // 2], acc1.to(tl.float16))
            else:
                rn = on + tl.arange(0, BN // 2)
                tl.store(C + rm[:, None] * N + rn[None, :], acc0.to(tl.float16))
                tl.store(C + rm[:, None] * N + rn[None, :] + BN // 2, acc1.to(tl.float16))
        elif DESC_STORE:
            c_desc.store([om, on], acc.to(tl.float16))
        else:
            rn = on + tl.arange(0, BN)
            tl.store(C + rm[:, None] * N + rn[None, :], acc.to(tl.float16))


@pytest.mark.parametrize("bn,warps", [(128, 4), (256, 8)])
@pytest.mark.parametrize("subtile", [True, False])
@pytest.mark.parametrize("desc_store", [True, False])
@pytest.mark.parametrize("progs", [1, 3])
def test_persistent_matmul_epilogue_subtile(backend, bn, warps, subtile, desc_store, progs):
    """Tutorial 09 found a wrong result in this kernel on the H100 (its
    EPILOGUE_SUBTILE configs); each program computes several tiles."""
    m, n, k = 256, 512, 192
    a = random_values("float16", (m, k), rng(330))
    b = random_values("float16", (n, k), rng(331))
    c = np.zeros((m, n), dtype=np.float16)
    _, _, out = backend.run(k_persistent_subtile, progs, a.reshape(-1), b.reshape(-1), c.reshape(-1), m, n, k,
                            BM=128, BN=bn, BK=64, NUM_PROGS=progs, SUBTILE=subtile, DESC_STORE=desc_store,
                            num_warps=warps, num_stages=3)
    ref = a.astype(np.float32) @ b.astype(np.float32).T
    assert_close(out.reshape(m, n).astype(np.float32), ref, "float32", rtol=1e-2, atol=2e-2)


def k_attention_desc(Q, K, V, O, N, BM: tl.constexpr, BN: tl.constexpr, D: tl.constexpr):
    # Tutorial 06's forward loop: K through a descriptor and transposed in
    # registers, V staged; online softmax in base 2.
    q_desc = tl.make_tensor_descriptor(Q, [BM, D], [D, 1], [BM, D])
    k_desc = tl.make_tensor_descriptor(K, [N, D], [D, 1], [BN, D])
    v_desc = tl.make_tensor_descriptor(V, [N, D], [D, 1], [BN, D])
    q = q_desc.load([0, 0])
    m_i = tl.zeros([BM], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BM], dtype=tl.float32) + 1.0
    acc = tl.zeros([BM, D], dtype=tl.float32)
    for start_n in range(0, N, BN):
        qk = tl.dot(q, k_desc.load([start_n, 0]).T)
        m_ij = tl.maximum(m_i, tl.max(qk, 1) * 0.125)
        p = tl.math.exp2(qk * 0.125 - m_ij[:, None])
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + tl.sum(p, 1)
        acc = tl.dot(p.to(tl.float16), v_desc.load([start_n, 0]), acc * alpha[:, None])
        m_i = m_ij
    acc = acc / l_i[:, None]
    tl.store(O + tl.arange(0, BM)[:, None] * D + tl.arange(0, D)[None, :], acc)


@pytest.mark.parametrize("stages,warps", [(2, 4), (3, 8)])
def test_attention_with_descriptors(backend, stages, warps):
    """Tutorial 06's loop crashed the sm_90a compiler: K transposed in
    registers is not staged, V is, and the copies of V were placed after
    the first dot, before the slot they write was computed."""
    m, n, d = 128, 256, 64
    q = random_values("float16", (m, d), rng(340))
    k = random_values("float16", (n, d), rng(341))
    v = random_values("float16", (n, d), rng(342))
    o = np.zeros((m, d), dtype=np.float32)
    *_, out = backend.run(k_attention_desc, 1, q.reshape(-1), k.reshape(-1), v.reshape(-1), o.reshape(-1), n,
                          BM=m, BN=64, D=d, num_stages=stages, num_warps=warps)
    s = (q.astype(np.float32) @ k.astype(np.float32).T) * 0.125
    p = np.exp2(s - s.max(1, keepdims=True))
    l = p.sum(1, keepdims=True)
    ref = (p / l) @ v.astype(np.float32)
    assert_close(out.reshape(m, d), ref, "float32", rtol=2e-2, atol=2e-2)


def k_desc_dot_bt(A, B, C, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, IN: tl.constexpr):
    # Liger's fused SwiGLU MLP (inference): x @ W^T with W's tile loaded
    # through a descriptor as [BN, BK] and transposed in registers; fp32
    # operands use Triton's default tf32.
    a_desc = tl.make_tensor_descriptor(A, [M, K], [K, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(B, [N, K], [K, 1], [BN, BK])
    om, on = tl.program_id(0) * BM, tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([om, k]), tl.trans(b_desc.load([on, k])), acc=acc)
    rm, rn = om + tl.arange(0, BM), on + tl.arange(0, BN)
    tl.store(C + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("bm,bk,warps,stages", [(32, 64, 4, 2), (32, 128, 8, 3), (64, 64, 4, 3), (64, 128, 8, 2)])
def test_descriptor_dot_with_transposed_b(backend, dtype, bm, bk, warps, stages):
    """Liger's MLP inference pattern (its configs have BM 32 and 64, BN 128),
    checked against numpy. fp32 operands are multiplied as tf32 (10 mantissa
    bits), so each element is held to 2^-10 of sum |a||b| (a wrong tile is
    off by the whole sum); an absolute tolerance failed on the H100 with
    inputs of magnitude 40 although the kernel was right."""
    m, n, k = 96, 256, 256
    a = random_values(dtype, (m, k), rng(350))
    b = random_values(dtype, (n, k), rng(351))
    c = np.zeros((m, n), dtype=np.float32)
    # Both tiles are staged in shared memory, one ring slot per stage (as
    # Triton stages them): 3 stages of fp32 [32 + 128, 128] tiles need
    # 240 KiB, more than the H100's 227 (Triton's OutOfResources): the
    # kernel is compiled again with fewer stages, with a warning naming the
    # bytes (issue 16), never silently.
    need = stages * (bm + 128) * bk * a.itemsize
    too_much = backend.name == "cuda" and need > 232448
    warned = pytest.warns(UserWarning, match=f"{need} bytes of shared memory with num_stages={stages} "
                                             f"exceed the 232448") if too_much else contextlib.nullcontext()
    try:
        with warned:
            _, _, out = backend.run(k_desc_dot_bt, (-(-m // bm), n // 128), a.reshape(-1), b.reshape(-1),
                                    c.reshape(-1), m, n, k, BM=bm, BN=128, BK=bk, IN=tlt(dtype),
                                    num_warps=warps, num_stages=stages)
    except tritium.OutOfResources:
        if backend.name != "compile-hip":
            raise
        pytest.skip("the fp32 tiles need more than gfx90a's 64 KiB of LDS (the H100 has 227 KiB)")
    a64, b64 = a.astype(np.float64), b.astype(np.float64)
    err = np.abs(out.reshape(m, n) - a64 @ b64.T)
    bound = (2.0**-10 if dtype == "float32" else 1e-3) * (np.abs(a64) @ np.abs(b64).T) + 1e-6
    assert (err <= bound).all(), f"{(err > bound).sum()} elements off; max error {err.max()}"


def k_host_copy(src_desc, dst_desc, OM, ON):
    dst_desc.store([OM, ON], src_desc.load([OM, ON]) * 2)


def test_host_descriptor_of_a_strided_view(backend):
    """A descriptor of columns 8..39 of a wider array (row stride 48), and
    blocks that hang over every edge of it."""
    from tritium.tools.tensor_descriptor import TensorDescriptor
    x = random_values("float32", (20, 48), rng(319))
    z = np.zeros((20, 32), dtype=np.float32)
    for om, on in [(0, 0), (16, 24), (-4, -8)]:
        def args(dev):
            dx, dz = dev
            src = TensorDescriptor(dx[:, 8:40] if backend.on_gpu else dx[:, 8:40], [20, 32], [48, 1], [8, 16])
            return src, TensorDescriptor.from_tensor(dz, [8, 16]), om, on
        _, z = _run_host(backend, k_host_copy, (1, ), [x, z], args)
    ref = np.zeros((20, 32), dtype=np.float32)
    for om, on in [(0, 0), (16, 24), (-4, -8)]:
        r0, r1, c0, c1 = max(om, 0), min(om + 8, 20), max(on, 0), min(on + 16, 32)
        ref[r0:r1, c0:c1] = x[r0:r1, 8 + c0:8 + c1] * 2
    assert_close(z, ref, "float32", rtol=0)


def k_host_copy_block(a_desc, z_desc):
    z_desc.store([0, 0], a_desc.load([0, 0]))


@pytest.mark.parametrize("aligned", [True, False])
def test_host_descriptor_specializes_like_pointers(monkeypatch, aligned):
    """A host descriptor's parameters get Triton's divisibility facts (base
    16-byte aligned, shapes and strides divisible by 16), so that its block
    loads are 16-byte vectors as a pointer kernel's are; without them the
    loads stay scalar. Compile only (cuda:90)."""
    import tritium
    from tritium.runtime.jit import MockTensor
    from tritium.tools.tensor_descriptor import TensorDescriptor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:90")
    n = 4096 if aligned else 4095
    d = TensorDescriptor(MockTensor("fp16"), [n, n], [n, 1], [64, 64])
    k = tritium.jit(k_host_copy_block).warmup(d, d, grid=(1, ))
    params = k.asm["tir"].split("\n")[0]
    assert params.count("divisibility=16") == (8 if aligned else 2), params
    ptx = k.asm["ptx"]
    assert ("ld.global.v4" in ptx) == aligned


def k_host_dot_bt(a_desc, b_desc, C, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    om, on = tl.program_id(0) * BM, tl.program_id(1) * BN
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([om, k]), b_desc.load([on, k]).T, acc)
    rm, rn = om + tl.arange(0, BM), on + tl.arange(0, BN)
    tl.store(C + rm[:, None] * 4096 + rn[None, :], acc)


@pytest.mark.parametrize("tma", [False, True])
def test_transposed_descriptor_operand_is_staged(monkeypatch, tma):
    """Tutorial 09's b.T (and Liger's x @ W^T): B's [BN, BK] tile is staged
    by the pipeliner as loaded (TMA copies with TRITIUM_TMA=1, else
    cp.async) and wgmma reads the slot through memdesc_trans, its group in
    flight across iterations (wait_group 1), as a plain matmul's. Before,
    the tile was transposed in registers and stored to shared memory each
    iteration. Compile only (cuda:90a)."""
    import tritium
    from tritium.runtime.jit import MockTensor
    from tritium.tools.tensor_descriptor import TensorDescriptor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:90a")
    monkeypatch.setenv("TRITIUM_TMA", "1" if tma else "0")
    n = 4096
    a = TensorDescriptor(MockTensor("fp16"), [n, n], [n, 1], [128, 64])
    b = TensorDescriptor(MockTensor("fp16"), [n, n], [n, 1], [128, 64])
    k = tritium.jit(k_host_dot_bt).warmup(a, b, MockTensor("fp32"), n, BM=128, BN=128, BK=64, num_warps=8,
                                          num_stages=3, grid=(1, ))
    tgir, ptx = k.asm["tgir"], k.asm["ptx"]
    assert "memdesc_trans" in tgir and " = trans " not in tgir
    copies = tgir.count("async_tma_copy") if tma else tgir.count("async_copy ")
    assert copies == 6, tgir  # A and B, two stages ahead and one per iteration
    assert "wgmma.wait_group.sync.aligned 1" in ptx


@pytest.mark.parametrize("ty, box", [
    ("tensordesc<fp16[128, 64]>", [128, 64]),
    ("tensordesc<fp16[64, 256]>", [64, 64]),      # wider: several boxes side by side
    ("tensordesc<bf16[256, 64]>", [256, 64]),
    ("tensordesc<fp8e4nv[64, 128]>", [64, 128]),
    ("tensordesc<u8[8, 256]>", [8, 128]),
    ("tensordesc<fp32[16, 32]>", [16, 32]),
    ("tensordesc<i32[8, 32]>", [8, 32]),
    ("tensordesc<fp16[128]>", None),              # rank 1
    ("tensordesc<fp16[8, 8, 64]>", None),         # rank 3
    ("tensordesc<fp16[4, 64]>", None),            # rows not a multiple of 8
    ("tensordesc<fp16[64, 16]>", None),           # rows of 32 bytes
    ("tensordesc<fp16[512, 64]>", None),          # more than 256 rows
    ("tensordesc<fp64[64, 64]>", None),           # 8-byte elements
    ("tensordesc<i1[64, 128]>", None),
])
def test_tma_box(ty, box):
    from tritium.compiler.descriptors import tma_box
    assert tma_box(ty) == box


def test_descriptor_parameters_end_with_the_tensor_map():
    """parameters() and expand() agree: one value per parameter, the tensor
    map's (None: the launcher encodes it) last, only for a TMA block."""
    from tritium.runtime.jit import MockTensor
    from tritium.compiler.descriptors import parameters
    from tritium.tools.tensor_descriptor import TensorDescriptor
    assert parameters("tensordesc<fp16[128, 128]>") == [
        ("_base", "*fp16"), ("_shape0", "i32"), ("_shape1", "i32"), ("_stride0", "i64"),
        ("_tma", "tensormap<fp16[128, 64]>")]
    assert parameters("tensordesc<fp16[128, 16]>")[-1] == ("_stride0", "i64")
    assert parameters("tensordesc<fp16[8, 8, 64]>")[-1] == ("_stride1", "i64")
    base = MockTensor("fp16")
    d = TensorDescriptor(base, [100, 200], [256, 1], [128, 128])
    assert d.expand() == (base, 100, 200, 256, None)
    assert TensorDescriptor(base, [100, 200], [256, 1], [128, 16]).expand() == (base, 100, 200, 256)
    d.block_shape = [4, 128]  # eligibility follows the block, not the object
    assert d.expand() == (base, 100, 200, 256)
    d3 = TensorDescriptor(MockTensor("float32"), [64, 64, 64], [4096, 64, 1], [8, 8, 32])
    assert len(d3.expand()) == len(parameters("tensordesc<fp32[8, 8, 32]>")) == 6


@pytest.mark.parametrize("aligned", [True, False])
def test_host_descriptor_matmul_loads_with_tma(monkeypatch, aligned, sass):
    """cuda:90a: a K loop's descriptor loads feeding wgmma are TMA copies
    (cp.async.bulk.tensor into the NVMMA ring, completing on mbarriers that
    the body waits on), the tensor maps 128-byte parameters; where the
    facts do not promise TMA's alignment (a 4095-element row) they read
    pointers. The store goes through an NVMMA buffer to a TMA store (or
    pointers). Compile only."""
    import tritium
    from tritium.runtime.jit import MockTensor
    from tritium.tools.tensor_descriptor import TensorDescriptor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:90a")
    monkeypatch.setenv("TRITIUM_TMA", "1")
    n = 4096 if aligned else 4095
    a, b, c = (TensorDescriptor(MockTensor("fp16"), [n, n], [n, 1], s)
               for s in ([128, 64], [64, 128], [128, 128]))
    k = tritium.jit(k_host_matmul).warmup(a, b, c, n, BM=128, BN=128, BK=64, grid=(1, 1),
                                          num_warps=4, num_stages=3)
    ptx = k.asm["ptx"]
    assert ptx.count(".param .align 64 .b8") == 3
    assert "__local_depot" not in ptx  # the tensor maps are read where they are, not copied
    assert ("cp.async.bulk.tensor.2d" in ptx) == aligned
    assert ("mbarrier.try_wait.parity" in ptx) == aligned
    assert not aligned or "cp.async.cg.shared.global" not in ptx
    assert "wgmma.mma_async" in ptx
    assert ("cp.async.bulk.tensor.2d.global.shared::cta" in ptx) == aligned
    assert ("st.global" in ptx) != aligned
    from tritium._C import nvptx
    ptxas = nvptx.find_ptxas()
    if aligned and ptxas:
        log = nvptx.assemble_cubin(ptx, "cuda:90a", ptxas)["log"]
        assert "C7510" not in log and "serializ" not in log, log
        # Where the toolkit has cuobjdump (not in CI): TMA's copies
        # (UTMALDG, UTMASTG) and mbarrier waits (SYNCS) in the SASS.
        text = sass(k.asm["cubin"])
        if text is not None:
            assert "UTMALDG.2D" in text and "UTMASTG.2D" in text
            assert "SYNCS.PHASECHK" in text and "HGMMA" in text

