"""Atomics: atomic_add/max/min/and/or/xor/xchg/cas on int32, int64,
uint32, uint64, float32, float64 and float16, block and scalar forms, with
and without contention (many programs on one address), with masks, and
the old values they return."""

import numpy as np
import pytest

import tritium.language as tl

from .helpers import assert_close, expect_error, random_values, rng, tlt

N = 32
OPS = ["add", "max", "min", "and", "or", "xor", "xchg"]
DTYPES = ["int32", "int64", "uint32", "uint64", "float32", "float64", "float16"]


def _accepts(op, dtype):
    if op in ("and", "or", "xor"):
        return dtype.startswith(("int", "uint"))
    if dtype == "float16":
        return op == "add"  # Triton: "atomic_<op> does not support fp16"
    return True


def k_atomic_block(P, V, OLD, N: tl.constexpr, OP: tl.constexpr, MASKED: tl.constexpr):
    """Program i updates P[0..N) with V[i, 0..N): every address is updated
    by every program (contention across programs)."""
    pid = tl.program_id(0)
    offs = tl.arange(0, N)
    v = tl.load(V + pid * N + offs)
    mask = (offs % 3) != 1 if MASKED else None
    if OP == "add":
        old = tl.atomic_add(P + offs, v, mask=mask)
    elif OP == "max":
        old = tl.atomic_max(P + offs, v, mask=mask)
    elif OP == "min":
        old = tl.atomic_min(P + offs, v, mask=mask)
    elif OP == "and":
        old = tl.atomic_and(P + offs, v, mask=mask)
    elif OP == "or":
        old = tl.atomic_or(P + offs, v, mask=mask)
    elif OP == "xor":
        old = tl.atomic_xor(P + offs, v, mask=mask)
    elif OP == "xchg":
        old = tl.atomic_xchg(P + offs, v, mask=mask)
    tl.static_assert(old.dtype == P.dtype.element_ty)
    if MASKED:
        tl.store(OLD + pid * N + offs, old, mask=mask)
    else:
        tl.store(OLD + pid * N + offs, old)


def _values(op, dtype, shape, rs):
    if op in ("and", "or", "xor"):
        return random_values(dtype, shape, rs)
    if dtype.startswith(("int", "uint")):
        return random_values(dtype, shape, rs, low=0 if dtype[0] == "u" else -1000, high=1000)
    # Small integers as floats: sums are exact in any order.
    return random_values(dtype, shape, rs, low=-8, high=8).round().astype(dtype)


def _np_op(op):
    return {"add": np.add, "max": np.maximum, "min": np.minimum, "and": np.bitwise_and, "or": np.bitwise_or,
            "xor": np.bitwise_xor}[op]


CASES = [(op, d) for op in OPS for d in DTYPES]


@pytest.mark.parametrize("masked", [False, True], ids=["", "masked"])
@pytest.mark.parametrize("programs", [1, 4], ids=["1prog", "4progs"])
@pytest.mark.parametrize("op,dtype", CASES, ids=[f"{o}-{d}" for o, d in CASES])
def test_atomic_rmw(backend, op, dtype, programs, masked):
    rs = rng(70)
    init = _values(op, dtype, (N, ), rs)
    vals = _values(op, dtype, (programs, N), rs)
    old = np.zeros((programs, N), dtype=dtype)
    if not _accepts(op, dtype):
        expect_error(backend.run, k_atomic_block, programs, init, vals, old, N=N, OP=op, MASKED=masked)
        return
    p, _, o = backend.run(k_atomic_block, programs, init, vals, old, N=N, OP=op, MASKED=masked)
    mask = (np.arange(N) % 3) != 1 if masked else np.ones(N, bool)
    # Per address, some order of the programs' updates must explain both
    # the old value each program got and the final value.
    f = (lambda cur, v: v) if op == "xchg" else _np_op(op)
    assert_close(p[~mask], init[~mask], dtype, rtol=0)
    for j in np.where(mask)[0]:
        assert _consistent(init[j], vals[:, j], o[:, j], p[j], f), \
            f"address {j}: init {init[j]}, values {vals[:, j]}, olds {o[:, j]}, final {p[j]}"


def _consistent(init, vals, olds, final, f):
    """Whether some order of applying ``vals`` to ``init`` with ``f`` gives
    the old values ``olds`` (each program's) and ends at ``final``."""
    n = len(vals)

    def search(cur, left):
        if not left:
            return cur == final
        for i in left:
            if olds[i] == cur:
                with np.errstate(over="ignore"):
                    nxt = np.asarray(f(np.asarray([cur]), np.asarray([vals[i]]))).astype(vals.dtype)[0]
                if search(nxt, left - {i}):
                    return True
        return False

    return search(init, frozenset(range(n)))


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "float32", "float64"])
def test_atomic_add_contention_counter(backend, dtype):
    """Many programs add 1 at one address: the old values are 0..n-1, each
    once, and the final value is n."""
    progs = 64
    p = np.zeros(1, dtype=dtype)
    old = np.zeros(progs, dtype=dtype)
    p, o = backend.run(k_counter, progs, p, old)
    assert p[0] == progs
    assert sorted(o.tolist()) == list(range(progs))


def k_counter(P, OLD):
    pid = tl.program_id(0)
    o = tl.atomic_add(P, 1)
    tl.store(OLD + pid, o)


def k_atomic_scalar(P, OP: tl.constexpr, V: tl.constexpr):
    if OP == "add":
        tl.atomic_add(P, V)
    elif OP == "max":
        tl.atomic_max(P, V)
    elif OP == "min":
        tl.atomic_min(P, V)
    elif OP == "xchg":
        tl.atomic_xchg(P + 1, V)


@pytest.mark.parametrize("op,v", [("add", 5), ("max", 100), ("min", -3), ("xchg", 9)])
def test_atomic_scalar_literal(backend, op, v):
    p = np.array([10, 20], dtype=np.int32)
    (p, ) = backend.run(k_atomic_scalar, 3, p, OP=op, V=v)
    exp = {"add": [25, 20], "max": [100, 20], "min": [-3, 20], "xchg": [10, 9]}[op]
    assert p.tolist() == exp


def k_atomic_float_minmax(P, V, N: tl.constexpr, IS_MAX: tl.constexpr):
    offs = tl.arange(0, N)
    v = tl.load(V + tl.program_id(0) * N + offs)
    if IS_MAX:
        tl.atomic_max(P + offs, v)
    else:
        tl.atomic_min(P + offs, v)


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("is_max", [True, False], ids=["max", "min"])
def test_atomic_float_minmax_signs(backend, dtype, is_max):
    """Float atomic max/min order negative values, zeros and positives."""
    init = np.array([-5.0, 0.0, 3.0, -0.5] * (N // 4), dtype=dtype)
    vals = np.array([[-1.0, -2.0, 4.0, -0.25] * (N // 4), [-7.0, 1.5, -3.0, -0.75] * (N // 4)], dtype=dtype)
    p, _ = backend.run(k_atomic_float_minmax, 2, init, vals, N=N, IS_MAX=is_max)
    ref = (np.maximum if is_max else np.minimum)(init, np.maximum(vals[0], vals[1]) if is_max else
                                                 np.minimum(vals[0], vals[1]))
    assert_close(p, ref, dtype, rtol=0)


# ---------------------------------------------------------------------------
# atomic_cas
# ---------------------------------------------------------------------------


def k_cas_winner(P, OLD):
    """Every program tries to swap 0 for its id + 1: exactly one wins."""
    pid = tl.program_id(0)
    old = tl.atomic_cas(P, 0, pid + 1)
    tl.store(OLD + pid, old)


@pytest.mark.parametrize("dtype", ["int32", "int64"])
def test_atomic_cas_one_winner(backend, dtype):
    progs = 16
    p = np.zeros(1, dtype=dtype)
    old = np.full(progs, -1, dtype=dtype)
    p, o = backend.run(k_cas_winner, progs, p, old)
    winners = np.where(o == 0)[0]
    assert len(winners) == 1
    assert p[0] == winners[0] + 1
    assert (o[o != 0] == p[0]).all()


def k_cas_block(P, CMP, V, OLD, N: tl.constexpr, T: tl.constexpr):
    offs = tl.arange(0, N)
    old = tl.atomic_cas(P + offs, tl.load(CMP + offs).to(T), tl.load(V + offs).to(T))
    tl.store(OLD + offs, old)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint32", "float32", "float64", "float16"])
def test_atomic_cas_block(backend, dtype):
    rs = rng(71)
    init = _values("add", dtype, (N, ), rs)
    cmp = init.copy()
    cmp[::2] = (cmp[::2] + 1).astype(dtype)  # odd positions match
    v = _values("add", dtype, (N, ), rs)
    old = np.zeros(N, dtype=dtype)
    p, _, _, o = backend.run(k_cas_block, 1, init, cmp, v, old, N=N, T=tlt(dtype))
    assert_close(o, init, dtype, rtol=0)
    assert_close(p, np.where(cmp == init, v, init), dtype, rtol=0)


def k_spin_lock(LOCK, COUNT, ITERS: tl.constexpr):
    """A spin lock around a non-atomic read-modify-write (tutorial 5)."""
    for _ in range(ITERS):
        while tl.atomic_cas(LOCK, 0, 1) == 1:
            pass
        c = tl.load(COUNT)
        tl.store(COUNT, c + 1)
        tl.atomic_xchg(LOCK, 0)


def test_spin_lock(backend):
    lock = np.zeros(1, dtype=np.int32)
    count = np.zeros(1, dtype=np.int32)
    lock, count = backend.run(k_spin_lock, 8, lock, count, ITERS=4)
    assert count[0] == 32
    assert lock[0] == 0


def k_atomic_sem(P, SEM: tl.constexpr, SCOPE: tl.constexpr):
    tl.atomic_add(P + tl.arange(0, 4), 1, sem=SEM, scope=SCOPE)


@pytest.mark.parametrize("sem,scope", [("relaxed", "gpu"), ("acquire", "cta"), ("release", "sys"),
                                       ("acq_rel", "gpu")])
def test_atomic_sem_scope_accepted(backend, sem, scope):
    p = np.zeros(4, dtype=np.int32)
    (p, ) = backend.run(k_atomic_sem, 3, p, SEM=sem, SCOPE=scope)
    assert p.tolist() == [3, 3, 3, 3]


def k_atomic_result_broadcast(P, OUT, N: tl.constexpr, CAS: tl.constexpr):
    """The old values of an [N, 1] atomic (which many lanes and warps hold
    copies of) index a row of an [N, N] store: every copy must read them."""
    rows = tl.arange(0, N)[:, None]
    if CAS:
        old = tl.atomic_cas(P + rows, tl.zeros((N, 1), dtype=P.dtype.element_ty), rows.to(P.dtype.element_ty))
    else:
        old = tl.atomic_add(P + rows, rows, sem="relaxed")
    tl.store(OUT + old.to(tl.int32) * N + tl.arange(0, N)[None, :], 5)


@pytest.mark.parametrize("cas", [False, True], ids=["add", "cas"])
@pytest.mark.parametrize("n", [1, 4, 16])
def test_atomic_result_read_by_copies(backend, n, cas):
    p = np.zeros(n, dtype=np.int32) if cas else np.arange(n, dtype=np.int32)
    out = np.zeros((n, n), dtype=np.int32)
    _, out = backend.run(k_atomic_result_broadcast, 1, p, out, N=n, CAS=cas, num_warps=4)
    # add: old = i, cas on zeros: old = 0 (every row writes row 0).
    expected = np.zeros((n, n), dtype=np.int32)
    expected[np.arange(n) if not cas else 0] = 5
    assert (out == expected).all()


def k_reduced_atomic(Z, X, OLD, M: tl.constexpr, N: tl.constexpr):
    """A row sum (a slice layout, held by several threads) added to Z; the
    old values stored."""
    x = tl.load(X + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :])
    old = tl.atomic_add(Z + tl.arange(0, M), tl.sum(x, axis=1))
    tl.store(OLD + tl.arange(0, M), old)


@pytest.mark.parametrize("dtype", ["int64", "uint64", "float32"])
@pytest.mark.parametrize("m,n", [(2, 8), (8, 8), (64, 64)])
def test_atomic_of_reduction_returns_old(backend, m, n, dtype):
    rs = rng(72)
    x = _values("add", dtype, (m, n), rs)
    z = _values("add", dtype, (m, ), rs)
    old = np.zeros(m, dtype=dtype)
    z2, _, old = backend.run(k_reduced_atomic, 1, z.copy(), x, old, M=m, N=n)
    assert_close(old, z, dtype, rtol=0)
    assert_close(z2, (z + x.sum(axis=1, dtype=dtype)).astype(dtype), dtype, rtol=0)
