"""tl.gather (Triton's test_gather and more): the IR op `gather`, lowered
through shared memory (every thread stores the source elements it holds,
then reads the ones its indices name), against numpy's take_along_axis on
every backend; Triton's messages for bad arguments on both paths."""

import numpy as np
import pytest

import tritium
import tritium.language as tl

from .helpers import expect_error, rng, tlt


def k_gather_2d(Src, Idx, Out, axis: tl.constexpr, S0: tl.constexpr, S1: tl.constexpr, I0: tl.constexpr,
                I1: tl.constexpr):
    src = tl.load(Src + tl.arange(0, S0)[:, None] * S1 + tl.arange(0, S1)[None, :])
    idx = tl.load(Idx + tl.arange(0, I0)[:, None] * I1 + tl.arange(0, I1)[None, :])
    out = tl.gather(src, idx, axis)
    tl.store(Out + tl.arange(0, I0)[:, None] * I1 + tl.arange(0, I1)[None, :], out)


def k_gather_1d(Src, Idx, Out, S: tl.constexpr, N: tl.constexpr):
    src = tl.load(Src + tl.arange(0, S))
    idx = tl.load(Idx + tl.arange(0, N))
    tl.store(Out + tl.arange(0, N), tl.gather(src, idx, 0))


def k_gather_computed(Src, Out, S: tl.constexpr, N: tl.constexpr):
    # Indices computed in the kernel (a reversal with a stride), and the
    # source computed too: no load feeds either.
    src = tl.load(Src + tl.arange(0, S)) * 2 + 1
    idx = (S - 1 - (tl.arange(0, N) * 3) % S)
    tl.store(Out + tl.arange(0, N), tl.gather(src, idx, -1))


@pytest.mark.parametrize("src_shape,idx_shape,axis", [
    ([4, 4], [8, 4], 0),
    ([128, 64], [256, 64], 0),
    ([128, 64], [128, 128], 1),
    ([32, 16], [32, 4], 1),
    ([16, 32], [16, 32], -1),
])
@pytest.mark.parametrize("dtype,itype", [("float32", "int64"), ("float16", "int32"), ("int8", "int16")])
def test_gather_2d(backend, src_shape, idx_shape, axis, dtype, itype):
    r = rng(11)
    src = (r.standard_normal(src_shape) * 50).astype(dtype)
    idx = r.randint(0, src_shape[axis], size=idx_shape).astype(itype)
    out = np.zeros(idx_shape, dtype=dtype)
    *_, got = backend.run(k_gather_2d, 1, src, idx, out, axis=axis, S0=src_shape[0], S1=src_shape[1],
                          I0=idx_shape[0], I1=idx_shape[1])
    np.testing.assert_array_equal(got, np.take_along_axis(src, idx.astype(np.int64), axis=axis))


@pytest.mark.parametrize("s,n", [(32, 64), (256, 16), (8, 8)])
def test_gather_1d(backend, s, n):
    r = rng(12)
    src = r.standard_normal(s).astype(np.float32)
    idx = r.randint(0, s, size=n).astype(np.int32)
    *_, got = backend.run(k_gather_1d, 1, src, idx, np.zeros(n, np.float32), S=s, N=n)
    np.testing.assert_array_equal(got, src[idx])


def test_gather_computed_operands(backend):
    src = rng(13).standard_normal(64).astype(np.float32)
    *_, got = backend.run(k_gather_computed, 1, src, np.zeros(128, np.float32), S=64, N=128)
    idx = 63 - (np.arange(128) * 3) % 64
    np.testing.assert_array_equal(got, (src * 2 + 1)[idx])


def k_gather_bad(Src, Out, WHICH: tl.constexpr):
    src = tl.load(Src + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    if WHICH == 0:
        out = tl.gather(src, src, 0)  # float indices
    elif WHICH == 1:
        out = tl.gather(src, tl.arange(0, 16), 0)  # rank
    elif WHICH == 2:
        out = tl.gather(src, src.to(tl.int32), 2)  # axis
    else:
        out = tl.gather(src, tl.zeros((8, 8), tl.int32), 0)  # the other dimension
    tl.store(Out + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :], out)


@pytest.mark.parametrize("which,message", [
    (0, "index must be an integer tensor"),
    (1, "source and index tensors must have the same rank"),
    (2, "gather axis 2 must be < source rank (2)"),
    (3, "index dim 1 must match the corresponding source dim"),
])
def test_gather_errors(backend, which, message):
    src = np.zeros(256, np.float32)
    err = expect_error(backend.run, k_gather_bad, 1, src, np.zeros(256, np.float32), WHICH=which)
    assert message in str(err)


def test_gather_ptx(monkeypatch):
    """On NVIDIA: the source stored once, one barrier, one shared load per
    result element a thread holds (128 x 64 gathered from 64 x 64 on 4
    warps: 64 each), assembled by ptxas where it is installed."""
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:90")
    k = tritium.jit(k_gather_2d).warmup(MockTensor("fp32"), MockTensor("i32"), MockTensor("fp32"), axis=0, S0=64,
                                        S1=64, I0=128, I1=64, grid=(1, ))
    ptx = k.asm["ptx"]
    assert ptx.count("ld.shared.") == 64
    assert "bar.sync" in ptx
    from tritium._C import nvptx
    ptxas = nvptx.find_ptxas()
    if ptxas:
        nvptx.assemble_cubin(ptx, "cuda:90", ptxas)
