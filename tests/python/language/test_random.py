"""Random numbers: randint/randint4x/rand/rand4x/randn/randn4x against a
numpy Philox 4x32-10 written here from its definition (Triton's constants,
key schedule and float conversion), so every backend must produce the same
numbers for a seed and an offset; determinism; and statistics (mean and
variance on 2^16 samples)."""

import numpy as np
import pytest

import tritium.language as tl

from .helpers import assert_close

M32 = np.uint64(0xFFFFFFFF)
ROUND_A, ROUND_B = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
KEY_A, KEY_B = 0x9E3779B9, 0xBB67AE85


def philox_ref(seed, c0, c1, c2, c3, n_rounds=10):
    """Philox 4x32 of uint32 counters keyed by a 64-bit seed (numpy)."""
    c = [np.asarray(v, dtype=np.uint64) & M32 for v in (c0, c1, c2, c3)]
    k0, k1 = seed & 0xFFFFFFFF, (seed >> 32) & 0xFFFFFFFF
    for _ in range(n_rounds):
        p0, p2 = c[0], c[2]
        prod_b = ROUND_B * p2
        prod_a = ROUND_A * p0
        c = [((prod_b >> np.uint64(32)) ^ c[1] ^ np.uint64(k0)) & M32, prod_b & M32,
             ((prod_a >> np.uint64(32)) ^ c[3] ^ np.uint64(k1)) & M32, prod_a & M32]
        k0 = (k0 + KEY_A) & 0xFFFFFFFF
        k1 = (k1 + KEY_B) & 0xFFFFFFFF
    return [v.astype(np.uint32) for v in c]


def randint4x_ref(seed, offsets, n_rounds=10):
    offsets = np.asarray(offsets)
    lo = (offsets.astype(np.int64).astype(np.uint64) & M32)
    hi = (offsets.astype(np.int64).astype(np.uint64) >> np.uint64(32)) if offsets.dtype.itemsize == 8 else \
        np.zeros_like(lo)
    z = np.zeros_like(lo)
    return philox_ref(seed, lo, hi, z, z, n_rounds)


def uniform_ref(u32):
    x = u32.view(np.int32)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


def normal_ref(i1, i2):
    u1 = np.maximum(np.float32(1.0e-7), uniform_ref(i1)).astype(np.float64)
    u2 = uniform_ref(i2).astype(np.float64)
    return np.sqrt(-2.0 * np.log(u1)) * np.cos(6.283185307179586 * u2)


def k_random(Z, SEED, OFF, N: tl.constexpr, WHAT: tl.constexpr, WIDE: tl.constexpr, ROUNDS: tl.constexpr):
    offs = tl.program_id(0) * N + tl.arange(0, N)
    if WIDE:
        offs = offs.to(tl.int64) + OFF
    else:
        offs = offs + OFF
    out = Z + (tl.program_id(0) * N + tl.arange(0, N)) * 4
    if WHAT == "randint":
        tl.store(out, tl.randint(SEED, offs, ROUNDS).to(tl.uint32, bitcast=True))
    elif WHAT == "randint4x":
        a, b, c, d = tl.randint4x(SEED, offs, ROUNDS)
        tl.store(out, a.to(tl.uint32, bitcast=True))
        tl.store(out + 1, b.to(tl.uint32, bitcast=True))
        tl.store(out + 2, c.to(tl.uint32, bitcast=True))
        tl.store(out + 3, d.to(tl.uint32, bitcast=True))
    elif WHAT == "rand":
        r = tl.rand(SEED, offs, ROUNDS)
        tl.static_assert(r.dtype == tl.float32)
        tl.store(out, r.to(tl.uint32, bitcast=True))
    elif WHAT == "randn":
        r = tl.randn(SEED, offs, ROUNDS)
        tl.static_assert(r.dtype == tl.float32)
        tl.store(out, r.to(tl.uint32, bitcast=True))
    elif WHAT == "rand4x":
        a, b, c, d = tl.rand4x(SEED, offs, ROUNDS)
        tl.store(out, a.to(tl.uint32, bitcast=True))
        tl.store(out + 1, b.to(tl.uint32, bitcast=True))
        tl.store(out + 2, c.to(tl.uint32, bitcast=True))
        tl.store(out + 3, d.to(tl.uint32, bitcast=True))
    elif WHAT == "randn4x":
        a, b, c, d = tl.randn4x(SEED, offs, ROUNDS)
        tl.store(out, a.to(tl.uint32, bitcast=True))
        tl.store(out + 1, b.to(tl.uint32, bitcast=True))
        tl.store(out + 2, c.to(tl.uint32, bitcast=True))
        tl.store(out + 3, d.to(tl.uint32, bitcast=True))


def run_random(backend, what, seed, n_total, off=0, wide=False, rounds=10, block=1024):
    block = min(block, n_total)
    z = np.zeros(n_total * 4, dtype=np.uint32)
    (out, ) = backend.run(k_random, n_total // block, z, seed, off, N=block, WHAT=what, WIDE=wide, ROUNDS=rounds)
    return out.reshape(n_total, 4)


SEEDS = [0, 42, 2**40 + 7]


@pytest.mark.parametrize("wide", [False, True], ids=["i32-offsets", "i64-offsets"])
@pytest.mark.parametrize("seed", SEEDS)
def test_randint_matches_philox(backend, seed, wide):
    off = 2**33 + 5 if wide else 17
    out = run_random(backend, "randint", seed, 256, off=off, wide=wide)
    offsets = np.arange(256, dtype=np.int64 if wide else np.int32) + off
    assert_close(out[:, 0], randint4x_ref(seed, offsets)[0])


@pytest.mark.parametrize("seed", SEEDS)
def test_randint4x_matches_philox(backend, seed):
    out = run_random(backend, "randint4x", seed, 256)
    ref = randint4x_ref(seed, np.arange(256, dtype=np.int32))
    for i in range(4):
        assert_close(out[:, i], ref[i])


@pytest.mark.parametrize("rounds", [7, 10])
@pytest.mark.parametrize("seed", SEEDS)
def test_rand_matches_philox(backend, seed, rounds):
    out = run_random(backend, "rand", seed, 512, rounds=rounds).view(np.float32)[:, 0]
    ref = uniform_ref(randint4x_ref(seed, np.arange(512, dtype=np.int32), rounds)[0])
    assert_close(out, ref, "float32", rtol=0)
    assert (out >= 0).all() and (out < 1).all()


@pytest.mark.parametrize("seed", SEEDS)
def test_randn_matches_philox(backend, seed):
    out = run_random(backend, "randn", seed, 512).view(np.float32)[:, 0]
    i = randint4x_ref(seed, np.arange(512, dtype=np.int32))
    ref = normal_ref(i[0], i[1])
    assert_close(out, ref.astype(np.float32), "float32", rtol=1e-5, atol=2e-5)


def test_rand4x_randn4x(backend):
    out = run_random(backend, "rand4x", 5, 256).view(np.float32)
    i = randint4x_ref(5, np.arange(256, dtype=np.int32))
    for k in range(4):
        assert_close(out[:, k], uniform_ref(i[k]), "float32", rtol=0)
    outn = run_random(backend, "randn4x", 5, 256).view(np.float32)
    assert_close(outn[:, 0], normal_ref(i[0], i[1]).astype(np.float32), "float32", rtol=1e-5, atol=2e-5)
    assert_close(outn[:, 2], normal_ref(i[2], i[3]).astype(np.float32), "float32", rtol=1e-5, atol=2e-5)


@pytest.mark.parametrize("what", ["randint", "rand", "randn"])
def test_determinism(backend, what):
    a = run_random(backend, what, 1234, 1024)
    b = run_random(backend, what, 1234, 1024)
    c = run_random(backend, what, 1235, 1024)
    d = run_random(backend, what, 1234, 1024, off=1)
    assert (a == b).all(), "same seed and offsets must give the same numbers"
    assert (a[:, 0] != c[:, 0]).mean() > 0.99, "another seed gives other numbers"
    assert (a[1:, 0] == d[:-1, 0]).all(), "the numbers depend on the offset only"


STAT_N = 2**16


def test_rand_statistics(backend):
    u = run_random(backend, "rand", 2024, STAT_N).view(np.float32)[:, 0].astype(np.float64)
    assert abs(u.mean() - 0.5) < 0.006
    assert abs(u.var() - 1 / 12) < 0.002
    hist, _ = np.histogram(u, bins=16, range=(0, 1))
    assert (np.abs(hist - STAT_N / 16) < 5 * np.sqrt(STAT_N / 16)).all()


def test_randn_statistics(backend):
    x = run_random(backend, "randn", 77, STAT_N).view(np.float32)[:, 0].astype(np.float64)
    assert abs(x.mean()) < 0.02
    assert abs(x.var() - 1) < 0.03
    assert abs(np.mean(np.abs(x) < 1) - 0.6827) < 0.01


def test_randint_bit_statistics(backend):
    r = run_random(backend, "randint4x", 99, STAT_N)
    for k in range(4):
        bits = (r[:, k][:, None] >> np.arange(32, dtype=np.uint32)) & 1
        assert (np.abs(bits.mean(axis=0) - 0.5) < 0.01).all()
    # The four streams are not correlated.
    u = r.astype(np.float64)
    cc = np.corrcoef(u.T)
    assert (np.abs(cc - np.eye(4)) < 0.02).all()
