"""tl.inline_asm_elementwise and tl.extra.cuda.globaltimer/smid: PTX
snippets run once per element, or per `pack` elements packed into 32-bit
registers, with pointer operands too (Triton's tests). Numbers on the GPU;
on CPU the PTX is checked (and assembled by ptxas when the toolkit is
there); the interpreter refuses them, as Triton's does."""

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
    if backend.name == "cpu":
        pytest.skip("PTX snippets (the cpu target refuses inline assembly: test_cpu_target)")


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


def k_packed_shift(X, Y, BLOCK: tl.constexpr):
    # Triton's test_inline_asm_packed: four bytes shifted by one snippet.
    x = tl.load(X + tl.arange(0, BLOCK))
    y = tl.inline_asm_elementwise("and.b32 $0, $1, 0x1F1F1F1F; shl.b32 $0, $0, 3;", "=r,r", [x], dtype=tl.int8,
                                  is_pure=True, pack=4)
    tl.store(Y + tl.arange(0, BLOCK), y)


def k_asm_pointers(X, Y, BLOCK: tl.constexpr):
    # Triton's test_inline_asm_with_pointers: the snippet loads and stores
    # through its pointer operands; its result is unused (not pure: kept).
    x_ptrs = X + tl.arange(0, BLOCK)
    y_ptrs = Y + tl.arange(0, BLOCK)
    tl.inline_asm_elementwise("ld.global.b8 $0, [$1]; shl.b32 $0, $0, 3; st.global.b8 [$2], $0;", "=r,l,l",
                              [x_ptrs, y_ptrs], dtype=tl.int8, is_pure=False, pack=1)


def k_packed_two_outputs(A, B, C, D, BLOCK: tl.constexpr):
    # Triton's test_inline_asm_packed_multiple_outputs: a's four bytes in
    # one register ($8), b's four floats in four ($9-$12); eight outputs.
    a = tl.load(A + tl.arange(0, BLOCK))
    b = tl.load(B + tl.arange(0, BLOCK))
    c, d = tl.inline_asm_elementwise(
        "{ .reg .b8 t<4>; mov.b32 {t0, t1, t2, t3}, $8; cvt.u32.u8 $0, t0; cvt.u32.u8 $1, t1; "
        "cvt.u32.u8 $2, t2; cvt.u32.u8 $3, t3; } "
        "cvt.rn.f32.s32 $4, $0; cvt.rn.f32.s32 $5, $1; cvt.rn.f32.s32 $6, $2; cvt.rn.f32.s32 $7, $3; "
        "max.f32 $4, $4, $9; max.f32 $5, $5, $10; max.f32 $6, $6, $11; max.f32 $7, $7, $12;",
        "=r,=r,=r,=r,=r,=r,=r,=r,r,r,r,r,r", [a, b], dtype=(tl.int32, tl.float32), is_pure=True, pack=4)
    tl.store(C + tl.arange(0, BLOCK), c)
    tl.store(D + tl.arange(0, BLOCK), d)


@pytest.mark.parametrize("kernel", [k_packed_shift, k_asm_pointers], ids=["packed", "with_pointers"])
def test_inline_asm_shift_bytes(backend, kernel):
    """Triton's test_inline_asm_packed and test_inline_asm_with_pointers."""
    _cuda_only(backend)
    if backend.is_interpreter:
        pytest.skip("compiled kernels only (test_inline_asm checks the interpreter's error)")
    x = rng(17).randint(0, 256, size=512).astype(np.uint8)
    *_, y = backend.run(kernel, 1, x, np.zeros(512, np.uint8), BLOCK=512)
    np.testing.assert_array_equal(y, x << np.uint8(3))


def test_inline_asm_packed_multiple_outputs(backend):
    _cuda_only(backend)
    if backend.is_interpreter:
        pytest.skip("compiled kernels only (test_inline_asm checks the interpreter's error)")
    rs = rng(20)
    a = rs.randint(0, 256, size=512).astype(np.uint8)
    b = (rs.standard_normal(512) * 200).astype(np.float32)
    c, d = np.zeros(512, np.int32), np.zeros(512, np.float32)
    *_, oc, od = backend.run(k_packed_two_outputs, 1, a, b, c, d, BLOCK=512)
    np.testing.assert_array_equal(oc, a.astype(np.int32))
    np.testing.assert_array_equal(od, np.maximum(a.astype(np.float32), b))


def test_packed_inline_asm_ptx(monkeypatch):
    """pack=4 of bytes: one snippet per four elements, taking them as the
    one 32-bit register they were loaded in; with pack=4 of 32-bit values,
    one snippet per four elements too, a register each."""
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:90")
    ptx = tritium.jit(k_packed_shift).warmup(MockTensor("u8"), MockTensor("u8"), BLOCK=512, grid=(1, )).asm["ptx"]
    assert ptx.count("0x1F1F1F1F") == 1  # 512 bytes, 128 threads: four each, one snippet
    assert "ld.global.b32" in ptx  # loaded as one word and given to the snippet as it is
    ptx = tritium.jit(k_packed_two_outputs).warmup(MockTensor("u8"), MockTensor("fp32"), MockTensor("i32"),
                                                   MockTensor("fp32"), BLOCK=512, grid=(1, )).asm["ptx"]
    assert ptx.count("mov.b32 {t0, t1, t2, t3}") == 1 and ptx.count("max.f32") == 4
    ptx = tritium.jit(k_asm_pointers).warmup(MockTensor("u8"), MockTensor("u8"), BLOCK=512, grid=(1, )).asm["ptx"]
    assert ptx.count("st.global.b8 [") == 4  # the unused result's snippet is kept
    from tritium._C import nvptx
    ptxas = nvptx.find_ptxas()
    if ptxas:
        for fn, args in ((k_packed_shift, ("u8", "u8")), (k_packed_two_outputs, ("u8", "fp32", "i32", "fp32"))):
            ptx = tritium.jit(fn).warmup(*map(MockTensor, args), BLOCK=512, grid=(1, )).asm["ptx"]
            nvptx.assemble_cubin(ptx, "cuda:90", ptxas)


def k_packed_too_few(X, Z):
    x = tl.load(X + tl.arange(0, 16))
    z = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int8, is_pure=True, pack=4)
    tl.store(Z + tl.arange(0, 16), z)


def k_bad_pack(X, Z):
    x = tl.load(X + tl.arange(0, 16))
    z = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int8, is_pure=True, pack=3)
    tl.store(Z + tl.arange(0, 16), z)


def k_bad_constraints(X, Z):
    x = tl.load(X + tl.arange(0, 16))
    z = tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r", [x], dtype=tl.int32, is_pure=True, pack=1)
    tl.store(Z + tl.arange(0, 16), z)


def test_inline_asm_errors(monkeypatch):
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:90")
    # 16 elements over 128 threads: one (replicated) a thread, not four.
    err = expect_error(tritium.jit(k_packed_too_few).warmup, MockTensor("i8"), MockTensor("i8"), grid=(1, ))
    assert "pack=4 needs a multiple of 4 elements in each thread" in str(err)
    err = expect_error(tritium.jit(k_bad_pack).warmup, MockTensor("i8"), MockTensor("i8"), grid=(1, ))
    assert "pack must be a power of two, got 3" in str(err)
    err = expect_error(tritium.jit(k_bad_constraints).warmup, MockTensor("i32"), MockTensor("i32"), grid=(1, ))
    assert "constraints" in str(err) and "=r" in str(err)
