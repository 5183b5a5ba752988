"""enable_fp_fusion on the GPU: off, x * 1.5 + 1.0 is numpy's two float32
roundings bit for bit; on, one fma: the exact value rounded once."""

import numpy as np
import pytest

import tritium
import tritium.language as tl

pytestmark = pytest.mark.gpu


@tritium.jit
def k_mul_add(X, Y, A, B, N: tl.constexpr):
    offs = tl.arange(0, N)
    tl.store(Y + offs, tl.load(X + offs) * tl.load(A + offs) + tl.load(B + offs))


@pytest.mark.parametrize("fusion", [True, False])
def test_rounding_follows_the_option(dev, fusion):
    r = np.random.default_rng(7)
    # From [1, 2): x * a (exact in float64) plus b is exact in float64 too.
    x, a, b = (r.uniform(1, 2, 4096).astype(np.float32) for _ in range(3))
    y = dev.zeros(4096, "fp32")
    k_mul_add[(1,)](dev.put(x, "fp32"), y, dev.put(a, "fp32"), dev.put(b, "fp32"), N=4096,
                    enable_fp_fusion=fusion)
    if fusion:
        want = (x.astype(np.float64) * a + b).astype(np.float32)
    else:
        want = x * a + b
    np.testing.assert_array_equal(dev.get(y), want)
    # The two differ somewhere, so the check above tells them apart.
    assert np.any((x.astype(np.float64) * a + b).astype(np.float32) != x * a + b)
