"""The numbers of the tl functions written in the language itself, run on a
numpy semantic (numpy_semantic.py): Philox against the Random123
known-answer vectors (Triton's tl.philox is Philox4x32-10), rand/randn
against a reference of Triton's float conversion, sort, flip, interleave,
cdiv and swizzle2d against numpy."""

import numpy as np
import pytest

import tritium.language as tl
from tritium.language import core
from numpy_semantic import NumpySemantic, tensor


@pytest.fixture(autouse=True)
def numpy_semantic():
    with core.use_semantic(NumpySemantic()):
        yield


def u32(*xs):
    return tensor(np.array(xs, dtype=np.uint32), tl.uint32)


# Random123 known-answer tests for philox4x32-10: (counter, key) -> output.
KAT = [
    ((0, 0, 0, 0), (0, 0), (0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8)),
    ((0xffffffff, ) * 4, (0xffffffff, ) * 2, (0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd)),
    ((0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344), (0xa4093822, 0x299f31d0),
     (0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1)),
]


@pytest.mark.parametrize("ctr,key,expected", KAT)
def test_philox_impl_matches_random123(ctr, key, expected):
    out = tl.philox_impl(*[u32(c) for c in ctr], u32(key[0]), u32(key[1]))
    assert [int(o.handle.arr[0]) for o in out] == list(expected)


@pytest.mark.parametrize("ctr,key,expected", KAT)
def test_philox_splits_the_64_bit_seed(ctr, key, expected):
    seed = tensor(np.array(key[0] | key[1] << 32, dtype=np.uint64), tl.uint64)
    out = tl.philox(seed, *[u32(c) for c in ctr])
    assert [int(o.handle.arr[0]) for o in out] == list(expected)


def _reference_philox(seed, offsets):
    """Philox4x32-10 of counter (offset, 0, 0, 0) and key (seed lo, hi)."""
    mask = 0xffffffff
    outs = []
    for off in offsets:
        c = [off & mask, 0, 0, 0]
        k = [seed & mask, (seed >> 32) & mask]
        for _ in range(10):
            p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
            c = [((p1 >> 32) ^ c[1] ^ k[0]) & mask, p1 & mask, ((p0 >> 32) ^ c[3] ^ k[1]) & mask, p0 & mask]
            k = [(k[0] + 0x9E3779B9) & mask, (k[1] + 0xBB67AE85) & mask]
        outs.append(c)
    return np.array(outs, dtype=np.uint64).T


def _uniform(x):
    x = x.astype(np.uint32).view(np.int32)
    x = np.where(x < 0, -x - 1, x)
    return x.astype(np.float32) * np.float32(4.6566127342e-10)


OFFSETS = np.array([0, 1, 2, 3, 1000, 65535, 2**31 - 1, 12345], dtype=np.int32)


def test_randint4x_and_rand_match_the_reference():
    seed = tensor(np.array(1234567, dtype=np.int32), tl.int32)
    offs = tensor(OFFSETS, tl.int32)
    ref = _reference_philox(1234567, [int(o) for o in OFFSETS])
    got = tl.randint4x(seed, offs)
    for i in range(4):
        assert got[i].dtype == tl.uint32
        np.testing.assert_array_equal(got[i].handle.arr.astype(np.uint64), ref[i])
    np.testing.assert_array_equal(tl.randint(seed, offs).handle.arr.astype(np.uint64), ref[0])
    r = tl.rand(seed, offs)
    assert r.dtype == tl.float32
    np.testing.assert_array_equal(r.handle.arr, _uniform(ref[0]))
    assert np.all((r.handle.arr >= 0) & (r.handle.arr < 1))
    for got_u, ref_i in zip(tl.rand4x(seed, offs), ref):
        np.testing.assert_array_equal(got_u.handle.arr, _uniform(ref_i))


def test_randn_is_box_muller_of_the_first_two_streams():
    seed = tensor(np.array(42, dtype=np.int32), tl.int32)
    offs = tensor(OFFSETS, tl.int32)
    ref = _reference_philox(42, [int(o) for o in OFFSETS])
    u1 = np.maximum(np.float32(1.0e-7), _uniform(ref[0]))
    u2 = _uniform(ref[1])
    expected = np.sqrt(np.float32(-2.0) * np.log(u1)) * np.cos(np.float32(6.283185307179586) * u2)
    np.testing.assert_allclose(tl.randn(seed, offs).handle.arr, expected, rtol=1e-6)
    assert len(tl.randn4x(seed, offs)) == 4


def test_64_bit_offsets_feed_the_second_counter_word():
    seed = tensor(np.array(7, dtype=np.int32), tl.int32)
    offs = tensor(np.array([5 + (3 << 32)], dtype=np.int64), tl.int64)
    ctr = (5, 3, 0, 0)
    expected = tl.philox_impl(*[u32(c) for c in ctr], u32(7), u32(0))
    got = tl.randint4x(seed, offs)
    assert [int(g.handle.arr[0]) for g in got] == [int(e.handle.arr[0]) for e in expected]


@pytest.mark.parametrize("n", [1, 2, 8, 32])
@pytest.mark.parametrize("descending", [False, True])
def test_sort(n, descending):
    rng = np.random.RandomState(n)
    x = rng.randn(4, n).astype(np.float32)
    got = tl.sort(tensor(x, tl.float32), descending=descending).handle.arr
    ref = np.sort(x, axis=-1)
    np.testing.assert_array_equal(got, ref[:, ::-1] if descending else ref)


def test_sort_integers():
    x = np.random.RandomState(0).randint(-100, 100, size=64).astype(np.int32)
    np.testing.assert_array_equal(tl.sort(tensor(x, tl.int32)).handle.arr, np.sort(x))


@pytest.mark.parametrize("dim", [0, 1, None])
def test_flip(dim):
    x = np.arange(32, dtype=np.int32).reshape(4, 8)
    got = tl.flip(tensor(x, tl.int32), dim=dim).handle.arr
    np.testing.assert_array_equal(got, np.flip(x, axis=1 if dim is None else dim))


def test_interleave():
    a = np.arange(8, dtype=np.int32).reshape(2, 4)
    b = a + 100
    got = tl.interleave(tensor(a, tl.int32), tensor(b, tl.int32)).handle.arr
    ref = np.empty((2, 8), np.int32)
    ref[:, 0::2], ref[:, 1::2] = a, b
    np.testing.assert_array_equal(got, ref)


def test_cdiv_folds_constexprs_and_computes_tensors():
    assert tl.cdiv(tl.constexpr(10), 4).value == 3
    got = tl.cdiv(tensor(np.array([0, 1, 4, 5], np.int32), tl.int32), 4).handle.arr
    np.testing.assert_array_equal(got, [0, 1, 1, 2])


def test_swizzle2d_groups_rows():
    size_i, size_j, size_g = 4, 4, 2
    i = tensor(np.repeat(np.arange(size_i), size_j).astype(np.int32), tl.int32)
    j = tensor(np.tile(np.arange(size_j), size_i).astype(np.int32), tl.int32)
    ni, nj = tl.swizzle2d(i, j, size_i, size_j, size_g)
    # Row-major ids walk each group of size_g rows column by column.
    pairs = list(zip(ni.handle.arr.tolist(), nj.handle.arr.tolist()))
    assert pairs[:8] == [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)]
    assert sorted(pairs) == [(a, b) for a in range(size_i) for b in range(size_j)]


def test_sigmoid():
    x = np.linspace(-4, 4, 8).astype(np.float32)
    got = tl.sigmoid(tensor(x, tl.float32)).handle.arr
    np.testing.assert_allclose(got, 1 / (1 + np.exp(-x)), rtol=1e-6)
