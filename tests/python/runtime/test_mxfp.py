"""tritium.tools.mxfp (Triton's triton.tools.mxfp): E2M1 and E8M0 codes.

The conversions run on numpy arrays and torch tensors alike; the numpy tests
check them against references written here (the OCP MX table, a brute-force
nearest-value search); the torch tests check that torch gives the same codes
and that the classes work as tutorial 10 uses them.
"""

import math

import numpy as np
import pytest

from tritium.tools import mxfp
from tritium.tools.mxfp import MXFP4Tensor, MXScaleTensor

# The OCP MX v1.0 E2M1 table, codes 0 to 15.
E2M1_TABLE = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0,
              -0.0, -0.5, -1.0, -1.5, -2.0, -3.0, -4.0, -6.0]


def nearest_e2m1(x):
    """The reference rounding: the code of the nearest magnitude, a tie to
    the code whose mantissa bit is 0, past 6 (and Inf, NaN) to 6; the sign
    bit is x's."""
    sign = 8 if math.copysign(1.0, x) < 0 else 0
    if math.isnan(x) or abs(x) > 6:
        return sign | 7
    mags = E2M1_TABLE[:8]
    dist = [abs(abs(x) - m) for m in mags]
    best = min(dist)
    ties = [k for k, d in enumerate(dist) if d == best]
    return sign | (ties[0] if len(ties) == 1 else next(k for k in ties if k % 2 == 0))


def test_e2m1_decode_is_the_ocp_table():
    codes = np.arange(16, dtype=np.uint8)
    values = mxfp.e2m1_decode(codes)
    assert values.dtype == np.float32
    assert values.tolist() == E2M1_TABLE
    assert np.signbit(values[8])  # code 8 is -0.0
    # Only the low nibble is a code.
    assert mxfp.e2m1_decode(np.array([0x35], dtype=np.uint8)).tolist() == [3.0]


def test_e2m1_encode_round_trips_every_code():
    codes = np.arange(16, dtype=np.uint8)
    assert mxfp.e2m1_encode(mxfp.e2m1_decode(codes)).tolist() == codes.tolist()


def test_e2m1_rounds_to_nearest_ties_to_even():
    mags = E2M1_TABLE[:8]
    mids = [(a + b) / 2 for a, b in zip(mags, mags[1:])]
    special = [0.0, -0.0, 1e-30, 0.2499, 0.25, 0.2501, 6.0, 6.5, 7.0, 1e30,
               float("inf"), float("-inf"), float("nan"), -float("nan")]
    near = [np.nextafter(np.float32(m), np.float32(d)) for m in mids for d in (0, 10)]
    rng = np.random.default_rng(0)
    values = np.array(special + mids + [-m for m in mids] + near +
                      list(rng.uniform(-8, 8, 2000)), dtype=np.float32)
    got = mxfp.e2m1_encode(values)
    assert got.dtype == np.uint8
    want = [nearest_e2m1(float(v)) for v in values]
    assert got.tolist() == want
    # The ties, spelled out: 0.25 -> 0, 0.75 -> 1.0, 1.75 -> 2.0, 2.5 -> 2.0, 5 -> 4.
    ties = mxfp.e2m1_decode(mxfp.e2m1_encode(np.array([0.25, 0.75, 1.25, 1.75, 2.5, 3.5, 5.0],
                                                      dtype=np.float32)))
    assert ties.tolist() == [0.0, 1.0, 1.0, 2.0, 2.0, 4.0, 4.0]


def test_pack_two_codes_a_byte_low_nibble_first():
    codes = np.array([[1, 2, 3, 4, 5], [15, 14, 13, 12, 11]], dtype=np.uint8)
    packed = mxfp.pack_nibbles(codes, dim=1)
    assert packed.tolist() == [[0x21, 0x43, 0x05], [0xEF, 0xCD, 0x0B]]  # odd: zero high nibble
    assert mxfp.pack_nibbles(codes[:, :4], dim=0).tolist() == [[0xF1, 0xE2, 0xD3, 0xC4]]
    assert codes.tolist() == [[1, 2, 3, 4, 5], [15, 14, 13, 12, 11]]  # the input is untouched


@pytest.mark.parametrize("shape", [(6, 4, 8), (5, 3, 7), (1, 1, 1)])
def test_unpack_inverts_pack_along_every_dimension(shape):
    codes = np.random.default_rng(1).integers(0, 16, shape).astype(np.uint8)
    for dim in range(len(shape)):
        packed = mxfp.pack_nibbles(codes, dim)
        want = list(shape)
        want[dim] = (shape[dim] + 1) // 2
        assert list(packed.shape) == want
        assert np.array_equal(mxfp.unpack_nibbles(packed, dim, shape[dim]), codes)
    with pytest.raises(ValueError, match="not a dimension"):
        mxfp.pack_nibbles(codes, len(shape))


def test_e8m0_is_the_power_of_two_at_or_below():
    values = np.array([1.0, 1.5, 1.9999999, 2.0, 0.75, 0.5, 2.0 ** -126, 3e38, 6e-39,
                       1e-45, 0.0, -1.0, float("inf"), float("nan")], dtype=np.float32)
    codes = mxfp.e8m0_encode(values)
    assert codes.dtype == np.uint8
    assert codes.tolist() == [127, 127, 127, 128, 126, 126, 1, 254, 0, 0, 255, 255, 255, 255]
    # Exact at powers of two, where log2 in floating point could round.
    powers = np.float32(2.0) ** np.arange(-127, 128, dtype=np.float32)
    assert mxfp.e8m0_encode(powers).tolist() == list(range(0, 255))
    below = np.nextafter(powers[1:], np.float32(0))
    assert mxfp.e8m0_encode(below).tolist() == list(range(0, 254))


def test_e8m0_decode():
    got = mxfp.e8m0_decode(np.array([127, 128, 0, 254, 255], dtype=np.uint8))
    assert got.dtype == np.float32
    assert got[:4].tolist() == [1.0, 2.0, 2.0 ** -127, 2.0 ** 127]
    assert math.isnan(got[4])


def test_classes_on_numpy_data():
    t = MXFP4Tensor(np.array([[0.3, -2.6], [7.0, 0.75]], dtype=np.float32))
    assert t.data.tolist() == [[1, 13], [7, 2]] and t.size == (2, 2)
    assert t.to(np.float32).tolist() == [[0.5, -3.0], [6.0, 1.0]]
    assert t.to_packed_tensor(dim=1).tolist() == [[0xD1], [0x27]]
    assert t.unpack_packed_tensor(t.to_packed_tensor(0), 0, (2, 2)).tolist() == t.data.tolist()
    with pytest.raises(AssertionError, match="float32 only"):
        t.to(np.float16)
    s = MXScaleTensor(np.array([0.3, 4.0, -1.0], dtype=np.float32))
    assert s.data.tolist() == [125, 129, 255]
    assert s.to(np.float32)[:2].tolist() == [0.25, 4.0]
    for cls in (MXFP4Tensor, MXScaleTensor):
        with pytest.raises(ValueError, match="data or size"):
            cls()
        assert cls(size=5).size == (5, ) and cls(size=[2, 3]).size == (2, 3)


# -- torch -------------------------------------------------------------------------

def test_torch_gives_numpy_codes_and_values():
    torch = pytest.importorskip("torch")
    values = np.random.default_rng(2).uniform(-8, 8, (64, 33)).astype(np.float32)
    values[0, :4] = [0.25, 1.75, float("nan"), -0.0]
    t = MXFP4Tensor(torch.from_numpy(values))
    assert t.data.dtype == torch.uint8
    assert np.array_equal(t.data.numpy(), mxfp.e2m1_encode(values))
    assert np.array_equal(t.to(torch.float32).numpy(), mxfp.e2m1_decode(t.data.numpy()))
    packed = t.to_packed_tensor(dim=1)
    assert np.array_equal(packed.numpy(), mxfp.pack_nibbles(t.data.numpy(), 1))
    assert torch.equal(t.unpack_packed_tensor(packed, 1, values.shape), t.data)
    s = MXScaleTensor(torch.from_numpy(np.abs(values) - 1))
    assert np.array_equal(s.data.numpy(), mxfp.e8m0_encode(np.abs(values) - 1))
    assert np.array_equal(s.to(torch.float32).numpy(), mxfp.e8m0_decode(s.data.numpy()),
                          equal_nan=True)


def test_torch_random_codes():
    torch = pytest.importorskip("torch")
    torch.manual_seed(0)
    t = MXFP4Tensor(size=(64, 64), device="cpu").random()
    assert t.data.dtype == torch.uint8 and tuple(t.data.shape) == (64, 64)
    assert set(t.data.unique().tolist()) == set(range(16))
    s = MXScaleTensor(size=(4096, )).random(low=0.3, high=10.0)
    # log2 truncated toward zero, as Triton: 0.3 -> -1, 10 -> 3.
    assert s.data.min().item() == 126 and s.data.max().item() == 130
    assert MXScaleTensor(size=(4096, )).random().data.max().item() <= 254
