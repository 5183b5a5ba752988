"""tl.map_elementwise (Triton's three tests and more): a @jit scalar
function, with control flow, run on each element or each `pack` elements;
the IR op map_elementwise names the function, which the lowering calls per
element group and LLVM inlines. Against numpy on every backend."""

import numpy as np
import pytest

import tritium
import tritium.language as tl

from .helpers import expect_error, rng


@tritium.jit
def compare(x, y):
    if x < y:
        return -1
    elif x == y:
        return 0
    else:
        return 1


@tritium.jit
def divmod_(a, b):
    return a // b, a % b


@tritium.jit
def divmod_pack2(a0, a1, b0, b1):
    return a0 // b0, a1 // b1, a0 % b0, a1 % b1


@tritium.jit
def clamp_or_scale(x, lo):
    # A loop and a float result from an int and a float argument.
    y = x * 1.0
    while y > 100.0:
        y = y / 2.0
    if y < lo:
        y = lo
    return y


def k_compare(X, Y, Z, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    tl.store(Z + tl.arange(0, BLOCK), tl.map_elementwise(compare, x, y))


def k_divmod(A, B, C, D, BLOCK: tl.constexpr, PACK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    if PACK == 1:
        c, d = tl.map_elementwise(divmod_, a, b)
    else:
        c, d = tl.map_elementwise(divmod_pack2, a, b, pack=2)
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


def k_scalar_arg(X, Z, lo, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    tl.store(Z + tl.arange(0, BLOCK), tl.map_elementwise(clamp_or_scale, x, lo))


def test_map_elementwise_compare(backend):
    r = rng(17)
    x = r.randint(-5, 5, size=128).astype(np.int32)
    y = r.randint(-5, 5, size=128).astype(np.int32)
    *_, z = backend.run(k_compare, 1, x, y, np.zeros(128, np.int32), BLOCK=128)
    np.testing.assert_array_equal(z, (x > y).astype(np.int32) - (y > x).astype(np.int32))


@pytest.mark.parametrize("pack", [1, 2])
def test_map_elementwise_multiple_outputs(backend, pack):
    r = rng(18)
    a = r.randint(0, 2**31, size=512).astype(np.uint32)
    b = r.randint(1, 2**16, size=512).astype(np.uint32)
    *_, c, d = backend.run(k_divmod, 1, a, b, np.zeros(512, np.uint32), np.zeros(512, np.uint32), BLOCK=512,
                           PACK=pack)
    np.testing.assert_array_equal(c, a // b)
    np.testing.assert_array_equal(d, a % b)


def test_map_elementwise_scalar_argument_and_loop(backend):
    x = rng(19).randint(-50, 1000, size=256).astype(np.int32)
    *_, z = backend.run(k_scalar_arg, 1, x, np.zeros(256, np.float32), 3.5, BLOCK=256)
    want = x.astype(np.float32)
    while (want > 100).any():
        want = np.where(want > 100, want / 2, want)
    np.testing.assert_array_equal(z, np.maximum(want, np.float32(3.5)))


def k_bad(X, Z, WHICH: tl.constexpr):
    x = tl.load(X + tl.arange(0, 16))
    if WHICH == 0:
        y = tl.map_elementwise(compare, x)  # one argument for two parameters
    else:
        y, _ = tl.map_elementwise(divmod_, x, x, pack=2)  # divmod_ takes 2, pack=2 gives 4
    tl.store(Z + tl.arange(0, 16), y)


@pytest.mark.parametrize("which,message", [(0, "compare"), (1, "divmod_")])
def test_map_elementwise_errors(backend, which, message):
    err = expect_error(backend.run, k_bad, 1, np.zeros(16, np.int32), np.zeros(16, np.int32), WHICH=which)
    assert message in str(err)


def test_map_elementwise_ptx(monkeypatch):
    """The function is inlined: no call in the PTX; pack=2 over 4 elements a
    thread divides 4 times."""
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:90")
    u32 = [MockTensor("u32") for _ in range(4)]
    k = tritium.jit(k_divmod).warmup(*u32, BLOCK=512, PACK=2, grid=(1, ))
    assert "map_elementwise" in k.asm["tir"] and "pack=2" in k.asm["tir"]
    assert "call" not in k.asm["ptx"].split(".entry")[1] and k.asm["ptx"].count("div.u32") == 4
