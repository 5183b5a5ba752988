"""tl.inline_asm_elementwise (pack=1) and tl.extra.cuda.globaltimer/smid:
PTX snippets run once per element. Numbers on the GPU; on CPU the PTX is
checked (and assembled by ptxas when the toolkit is there); the
interpreter refuses them, as Triton's does."""

import numpy as np
import pytest

import tritium
import tritium.language as tl

from .helpers import expect_error, rng


def k_funnel_shift(X, Y, Z, n: tl.constexpr, BLOCK: tl.constexpr):
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.load(Y + tl.arange(0, BLOCK))
    s = tl.full([BLOCK], n, tl.int32)
    z = tl.inline_asm_elementwise("shf.l.wrap.b32 $0, $1, $2, $3;", "=r,r, r, r", [x, y, s], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(Z + tl.arange(0, BLOCK), z)


def k_divmod(A, B, C, D, BLOCK: tl.constexpr):
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    c, d = tl.inline_asm_elementwise("div.u32 $0, $2, $3; rem.u32 $1, $2, $3;", "=r,=r,r,r", [a, b],
                                     dtype=(tl.uint32, tl.uint32), is_pure=True, pack=1)
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


def _cuda_only(backend):
    if backend.name in ("hip", "compile-hip"):
        pytest.skip("PTX snippets")


def test_inline_asm(backend):
    """Triton's test_inline_asm: a funnel shift."""
    _cuda_only(backend)
    rs = rng(17)
    x = rs.randint(0, 2**32, size=128, dtype=np.uint64).astype(np.uint32)
    y = rs.randint(0, 2**32, size=128, dtype=np.uint64).astype(np.uint32)
    z = np.zeros(128, dtype=np.uint32)
    if backend.is_interpreter:
        err = expect_error(backend.run, k_funnel_shift, 1, x, y, z, n=17, BLOCK=128)
        assert "only in compiled kernels" in str(err)
        return
    *_, out = backend.run(k_funnel_shift, 1, x, y, z, n=17, BLOCK=128)
    np.testing.assert_array_equal(out, (y << np.uint32(17)) | (x >> np.uint32(32 - 17)))


def test_inline_asm_multiple_outputs(backend):
    _cuda_only(backend)
    if backend.is_interpreter:
        pytest.skip("compiled kernels only (test_inline_asm checks the interpreter's error)")
    rs = rng(18)
    a = rs.randint(0, 2**32, size=512, dtype=np.uint64).astype(np.uint32)
    b = rs.randint(1, 2**16, size=512).astype(np.uint32)
    c, d = np.zeros(512, np.uint32), np.zeros(512, np.uint32)
    *_, oc, od = backend.run(k_divmod, 1, a, b, c, d, BLOCK=512)
    np.testing.assert_array_equal(oc, a // b)
    np.testing.assert_array_equal(od, a % b)


def k_timer(Out):
    t0 = tl.extra.cuda.globaltimer()
    t1 = tl.extra.cuda.globaltimer()
    tl.store(Out + tl.program_id(0) * 2, t0)
    tl.store(Out + tl.program_id(0) * 2 + 1, t1)


def k_smid(Out):
    tl.store(Out + tl.program_id(0), tl.extra.cuda.smid())


def test_globaltimer_and_smid(monkeypatch):
    """Triton's test_globaltimer and test_smid check the PTX: two reads of
    %globaltimer (not merged: the snippet is not pure), one of %smid."""
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:90")
    ptx = tritium.jit(k_timer).warmup(MockTensor("i64"), grid=(1, )).asm["ptx"]
    assert ptx.count("%globaltimer") == 2
    ptx = tritium.jit(k_smid).warmup(MockTensor("i32"), grid=(1, )).asm["ptx"]
    assert ptx.count("%smid") == 1
    u32 = [MockTensor("u32") for _ in range(4)]
    ptx = tritium.jit(k_funnel_shift).warmup(*u32[:3], n=17, BLOCK=128, grid=(1, )).asm["ptx"]
    assert ptx.count("shf.l.wrap.b32") == 1  # 128 elements, 128 threads
    ptx = tritium.jit(k_divmod).warmup(*u32, BLOCK=512, grid=(1, )).asm["ptx"]
    assert ptx.count("div.u32") == 4 and ptx.count("rem.u32") == 4


def k_packed(X, Z):
    x = tl.load(X + tl.arange(0, 16))
    z = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int8, is_pure=True, pack=4)
    tl.store(Z + tl.arange(0, 16), z)


def k_bad_constraints(X, Z):
    x = tl.load(X + tl.arange(0, 16))
    z = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Z + tl.arange(0, 16), z)


def test_inline_asm_errors(monkeypatch):
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:90")
    err = expect_error(tritium.jit(k_packed).warmup, MockTensor("i8"), MockTensor("i8"), grid=(1, ))
    assert "pack=4" in str(err) and "not supported yet" in str(err)
    err = expect_error(tritium.jit(k_bad_constraints).warmup, MockTensor("i32"), MockTensor("i32"), grid=(1, ))
    assert "constraints" in str(err) and "=r" in str(err)
