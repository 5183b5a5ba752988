"""Atomics compiled by the NVIDIA backend, on a GPU: add/max/min/xchg/cas on
i32/i64/f32/f64/f16 (and bf16 add), block and scalar forms, with masks,
with every program of a large grid on the same addresses and with every
thread on one address (heavy contention), a CAS-loop increment, and a spin
lock that guards plain loads and stores.

Besides the final values, the old values the atomics return are checked:
for an add, the olds and the final value are the partial sums of some
order of the updates, so {olds} + {final} == {init} + {old + value} as
multisets; for an exchange {olds} + {final} == {init} + {values}. Values
are small integers, exact in every dtype, so float sums do not depend on
the order.
"""

import numpy as np
import pytest

import tritium
import tritium.language as tl
from gpu_helpers import skip_unless_dtype

pytestmark = pytest.mark.gpu

NP = {"i32": np.int32, "i64": np.int64, "fp32": np.float32, "fp64": np.float64, "fp16": np.float16}


@tritium.jit
def k_block(P, V, OLD, N: tl.constexpr, OP: tl.constexpr, MASKED: tl.constexpr):
    """Program i applies V[i, :] to P[0:N): every address is updated by
    every program."""
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
    else:
        old = tl.atomic_xchg(P + offs, v, mask=mask)
    tl.store(OLD + pid * N + offs, old, mask=mask)


def _accepts(op, dtype):
    return dtype != "fp16" or op == "add"  # Triton: atomic_<op> does not support fp16


@pytest.mark.parametrize("op", ["add", "max", "min", "xchg"])
@pytest.mark.parametrize("dtype", ["i32", "i64", "fp32", "fp64", "fp16"])
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("programs,n,num_warps", [(1, 128, 4), (64, 256, 4), (1000, 32, 4), (333, 64, 8)])
def test_block_atomics(dev, op, dtype, masked, programs, n, num_warps):
    if not _accepts(op, dtype):
        pytest.skip(f"atomic_{op} does not take {dtype}")
    r = np.random.default_rng([programs, n])
    if op == "add":  # partial sums stay exact (fp16: below 2048)
        v = r.integers(0, 3 if dtype == "fp16" else 100, (programs, n))
    else:  # both signs, so float max/min take both of their paths
        v = r.integers(-1000, 1000, (programs, n)) * (1 if dtype[0] == "i" else 0.25)
    v = v.astype(NP[dtype])
    init = (r.integers(-50, 50, n) * (1 if op != "add" or dtype != "fp16" else 0)).astype(NP[dtype])
    P, V = dev.put(init, dtype), dev.put(v, dtype)
    OLD = dev.full((programs, n), 7, dtype)
    k_block[(programs,)](P, V, OLD, N=n, OP=op, MASKED=masked, num_warps=num_warps)
    final, olds = dev.get(P), dev.get(OLD)
    cols = np.arange(n)[(np.arange(n) % 3) != 1] if masked else np.arange(n)
    untouched = np.setdiff1d(np.arange(n), cols)
    assert (final[untouched] == init[untouched]).all(), "a masked-off address changed"
    assert (olds[:, untouched] == 7).all(), "a masked-off old value was stored"
    f64 = np.float64
    for c in cols:
        o, x = olds[:, c].astype(f64), v[:, c].astype(f64)
        if op == "add":
            assert final[c] == init[c] + x.sum(), f"address {c}: {final[c]} != {init[c] + x.sum()}"
            assert sorted(np.append(o, final[c])) == sorted(np.append(o + x, init[c])), f"address {c}"
        elif op in ("max", "min"):
            pick = np.max if op == "max" else np.min
            assert final[c] == pick(np.append(x, init[c])), f"address {c}"
            assert (o <= final[c]).all() if op == "max" else (o >= final[c]).all()
            assert init[c] in o or programs == 0
        else:
            assert sorted(np.append(o, final[c])) == sorted(np.append(x, init[c])), f"address {c}"


@tritium.jit
def k_one_address(P, OLD, N: tl.constexpr):
    """Every element of every program adds 1 to P[0]."""
    pid = tl.program_id(0)
    offs = tl.arange(0, N)
    old = tl.atomic_add(P + offs * 0, 1)
    tl.store(OLD + pid * N + offs, old)


@pytest.mark.parametrize("dtype", ["i32", "i64", "fp32", "fp64", "fp16"])
@pytest.mark.parametrize("programs,n,num_warps", [(1, 32, 4), (64, 32, 4), (1000, 32, 4), (60, 1024, 8),
                                               (4096, 256, 4)])
def test_one_address(dev, dtype, programs, n, num_warps):
    """Heavy contention: all threads of the grid on one address. A block of
    32 on 4 warps is held by every warp (copies): each element must still be
    added once. The olds are exactly 0 .. total-1."""
    total = programs * n
    if dtype == "fp16" and total > 2048:
        pytest.skip("fp16 counts exactly up to 2048")
    P = dev.zeros((1,), dtype)
    OLD = dev.zeros((programs, n), dtype)
    k_one_address[(programs,)](P, OLD, N=n, num_warps=num_warps)
    assert dev.get(P)[0] == total
    assert (np.sort(dev.get(OLD).astype(np.float64).ravel()) == np.arange(total)).all()


@tritium.jit
def k_scalar(C, OLD, OP: tl.constexpr):
    """One scalar atomic per program (run by one thread, its old value
    shared with the whole program)."""
    pid = tl.program_id(0)
    if OP == "add":
        old = tl.atomic_add(C, 1)
    elif OP == "max":
        old = tl.atomic_max(C, pid)
    else:
        old = tl.atomic_xchg(C, pid + 1)
    # Every thread stores what it was told: a thread that saw another value
    # than thread 0 leaves a mismatch in the second column.
    offs = tl.arange(0, 128)
    tl.store(OLD + pid * 128 + offs, tl.full([128], 0, OLD.dtype.element_ty) + old)


@pytest.mark.parametrize("op", ["add", "max", "xchg"])
@pytest.mark.parametrize("dtype", ["i32", "i64", "fp32", "fp64"])
@pytest.mark.parametrize("programs", [1, 5000])
def test_scalar_atomics(dev, op, dtype, programs):
    C = dev.zeros((1,), dtype)
    OLD = dev.full((programs, 128), -5, dtype)
    k_scalar[(programs,)](C, OLD, OP=op)
    final, olds = dev.get(C)[0], dev.get(OLD).astype(np.float64)
    assert (olds == olds[:, :1]).all(), "the threads of a program disagree on the old value"
    o = olds[:, 0]
    if op == "add":
        assert final == programs and (np.sort(o) == np.arange(programs)).all()
    elif op == "max":
        assert final == programs - 1 and (o <= final).all()
    else:
        assert sorted(np.append(o, final)) == list(range(programs + 1))


@tritium.jit
def k_cas_increment(P, ITERS: tl.constexpr):
    """P[0] += 1, ITERS times per program, by compare-and-swap loops."""
    for _ in range(ITERS):
        expected = tl.atomic_add(P, 0)
        seen = tl.atomic_cas(P, expected, expected + 1)
        while seen != expected:
            expected = seen
            seen = tl.atomic_cas(P, expected, expected + 1)


@pytest.mark.parametrize("dtype", ["i32", "i64", "fp32", "fp64", "fp16"])
@pytest.mark.parametrize("programs,iters", [(1, 10), (500, 4)])
def test_cas_increment(dev, dtype, programs, iters):
    P = dev.zeros((1,), dtype)
    k_cas_increment[(programs,)](P, ITERS=iters)
    assert dev.get(P)[0] == programs * iters


@tritium.jit
def k_locked_increment(Lock, X, N: tl.constexpr, SLOTS: tl.constexpr):
    """X[slot, :] += 1 with plain loads and stores, under the slot's spin
    lock; the barrier makes every warp's store happen before the release
    (as in Triton's layer norm tutorial)."""
    slot = tl.program_id(0) % SLOTS
    offs = tl.arange(0, N)
    while tl.atomic_cas(Lock + slot, 0, 1) == 1:
        pass
    x = tl.load(X + slot * N + offs)
    tl.store(X + slot * N + offs, x + 1)
    tl.debug_barrier()
    tl.atomic_xchg(Lock + slot, 0)


@pytest.mark.parametrize("programs,n,slots,num_warps", [(2000, 1024, 4, 4), (3000, 256, 1, 8), (500, 32, 2, 4)])
def test_spin_lock(dev, programs, n, slots, num_warps):
    lock = dev.zeros((slots,), "i32")
    X = dev.zeros((slots, n), "i32")
    k_locked_increment[(programs,)](lock, X, N=n, SLOTS=slots, num_warps=num_warps)
    counts = np.bincount(np.arange(programs) % slots, minlength=slots)
    assert (dev.get(lock) == 0).all()
    assert (dev.get(X) == counts[:, None]).all(), "an increment was lost: the lock did not exclude"


@tritium.jit
def k_bf16_add(P, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.atomic_add(P + offs % 4, tl.full([N], 1.0, tl.bfloat16))


@pytest.mark.parametrize("arch", [None, 80], ids=["native", "sm80-ptx"])
def test_bf16_atomic_add(dev, monkeypatch, arch):
    """bf16 add: atom.add.noftz.bf16 from sm_90, a 16-bit atom.cas loop
    before. arch=80 compiles for sm_80 without ptxas, so the driver JITs that
    PTX for this GPU and the loop runs here too."""
    skip_unless_dtype(dev, "bf16")
    opts = {}
    if arch:
        monkeypatch.setenv("TRITIUM_PTXAS_PATH", "/nonexistent/ptxas")
        opts["arch"] = arch
    P = dev.zeros((4,), "bf16")
    k_bf16_add[(16,)](P, N=64, **opts)  # 256 adds per address: exact in bf16
    assert (dev.get(P) == 256).all()
