"""The CUDA launch path without a GPU: kernel[grid](...) -> the C++
dispatcher and launcher -> cuLaunchKernel in the fake driver
(tests/fakecuda), which logs every launch with its packed parameter bytes.

Kernels compile through StubBackend: their PTX has the kernel's parameters
and an empty body, which is all the fake driver reads.
"""

import gc
import os
import struct
import sys
import threading
import types
import weakref

import pytest

import tritium
import tritium.language as tl
from tritium import knobs
from tritium.compiler import compiler
from tritium.errors import CudaError, OutOfResources
from tritium.runtime import CudaDriver, driver
from tritium.runtime.jit import cdiv, jit

from runtime_helpers import CudaArray, FakeTensor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "fakecuda"))
import fakecuda  # noqa: E402


class Env:
    def __init__(self, fake, drv, backend):
        self.fake, self.driver, self.backend = fake, drv, backend

    def launches(self):
        return self.fake.launches()

    def last(self):
        return self.fake.launches()[-1]


@pytest.fixture
def cuda(monkeypatch):
    path = fakecuda.find_library()
    if path is None:
        pytest.skip("the fake CUDA driver is not built (tests/fakecuda needs cuda.h)")
    fake = fakecuda.FakeCuda(path)
    fake.reset()
    monkeypatch.setenv("TRITIUM_LIBCUDA_PATH", path)
    drv = CudaDriver()
    assert drv.is_active(), drv.load_error()
    driver.set_active(drv)
    backend = fakecuda.StubBackend()
    monkeypatch.setitem(compiler._backends, "cuda", backend)
    yield Env(fake, drv, backend)
    driver.set_active(None)
    fake.reset()


@jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr = 128):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


@jit
def scalars(p, a, b, c, x, flag):
    pass


@jit
def typed(p, a: tl.int8, b: tl.int16, c: tl.uint8, d: tl.uint16, e: tl.uint32,
          f: tl.float16, g: tl.bfloat16, h: tl.float64, i: tl.int64):
    pass


@pytest.fixture(autouse=True)
def fresh_kernels():
    for k in (add_kernel, scalars, typed):
        k.device_caches.clear()


def u64(b):
    return struct.unpack("<Q", b)[0]


def tensors(n=64, dtype="float32"):
    return FakeTensor(n, dtype), FakeTensor(n, dtype, 64), FakeTensor(n, dtype, 128)


# -- the driver ------------------------------------------------------------------

def test_driver_reports_the_device(cuda, monkeypatch):
    # Compute capability 9.0 compiles for sm_90a (wgmma); the knob picks another.
    monkeypatch.delenv("TRITIUM_CUDA_ARCH", raising=False)
    assert cuda.driver.get_current_target() == compiler.GPUTarget("cuda", 90, 32, "sm_90a")
    assert str(cuda.driver.get_current_target()) == "cuda:90a"
    monkeypatch.setenv("TRITIUM_CUDA_ARCH", "90")
    assert cuda.driver.get_current_target() == compiler.GPUTarget("cuda", 90, 32)
    monkeypatch.setenv("TRITIUM_CUDA_ARCH", "80")
    assert str(cuda.driver.get_current_target()) == "cuda:80"
    monkeypatch.delenv("TRITIUM_CUDA_ARCH")
    assert cuda.driver.get_current_device() == 0
    assert cuda.driver.get_current_stream(0) == 0
    props = cuda.driver.properties()
    assert props["max_shared_mem"] == 232448 and props["multiprocessor_count"] == 132
    assert props["name"] == "Fake CUDA device 0"


def test_compute_capability_from_the_device(cuda):
    cuda.fake.set("cc_major", 8)
    drv = CudaDriver(cuda.fake.path)
    assert drv.get_current_target() == compiler.GPUTarget("cuda", 80, 32)


def test_missing_driver_is_inactive(tmp_path):
    drv = CudaDriver(str(tmp_path / "libcuda.so.1"))
    assert not drv.is_active()
    assert "cannot load the CUDA driver" in drv.load_error()


# -- argument packing ------------------------------------------------------------

def test_pointers_ints_floats_bools(cuda):
    p = FakeTensor(4)
    scalars[(3,)](p, -7, 2**40, 2**63 + 5, 1.5, True)
    rec = cuda.last()
    assert rec["kernel"] == "scalars" and rec["grid"] == [3, 1, 1]
    assert rec["block"] == [128, 1, 1] and rec["shared"] == 0 and rec["stream"] == 0
    ptr, a, b, c, x, flag = rec["params"]
    assert u64(ptr) == p.data_ptr()
    assert struct.unpack("<i", a)[0] == -7                 # i32
    assert struct.unpack("<q", b)[0] == 2**40              # i64
    assert u64(c) == 2**63 + 5                             # u64
    assert struct.unpack("<f", x)[0] == 1.5                # fp32
    assert flag == b"\x01"                                 # i1
    k = scalars.warmup(p, -7, 2**40, 2**63 + 5, 1.5, True, grid=(1,))
    assert k.metadata.signature == {"p": "*fp32", "a": "i32", "b": "i64", "c": "u64",
                                    "x": "fp32", "flag": "i1"}


def test_every_scalar_width(cuda):
    typed[(1,)](FakeTensor(4), -3, -300, 200, 60000, 2**32 - 1, 1.5, 1.5, 2.5, 3)
    _, a, b, c, d, e, f, g, h, i = cuda.last()["params"]
    assert (a, b, c, d) == (b"\xfd", struct.pack("<h", -300), b"\xc8", struct.pack("<H", 60000))
    assert e == struct.pack("<I", 2**32 - 1)
    assert f == struct.pack("<e", 1.5)                      # fp16 bits
    assert g == b"\xc0\x3f"                                 # bf16 1.5
    assert h == struct.pack("<d", 2.5) and i == struct.pack("<q", 3)


def test_fp16_and_bf16_round_to_nearest_even(cuda):
    for value in (0.1, -2.0 / 3, 65519.0, 1e-7, float("inf")):
        typed[(1,)](FakeTensor(4), 0, 0, 0, 0, 0, value, value, 0.0, 0)
        f, g = cuda.last()["params"][6:8]
        assert f == struct.pack("<e", value)
        bits = struct.unpack("<I", struct.pack("<f", value))[0]
        rounded = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16
        assert struct.unpack("<H", g)[0] == rounded


def test_pointer_sources(cuda):
    out = FakeTensor(4, offset_bytes=32)
    add_kernel[(1,)](CudaArray(0x7F0000001000, "<f4"), FakeTensor(4, offset_bytes=16), out, 4)
    x, y, o, n = cuda.last()["params"]
    assert u64(x) == 0x7F0000001000 and u64(y) == 0x7F0000000010 and u64(o) == out.data_ptr()
    # A compiled kernel's launcher also takes int addresses and None (null).
    k = add_kernel.warmup(*tensors(), 4, grid=(1,))
    k.run(2, 1, 1, 0, None, 0x1230, FakeTensor(4), 5)
    x, y, _, n = cuda.last()["params"]
    assert u64(x) == 0 and u64(y) == 0x1230 and struct.unpack("<i", n)[0] == 5


def test_none_is_a_constexpr_not_a_parameter(cuda):
    @jit
    def k(p, q, n):
        pass
    k[(1,)](FakeTensor(4), None, 3)
    assert len(cuda.last()["params"]) == 2  # q is specialized away


def test_values_that_do_not_fit_name_the_parameter(cuda):
    with pytest.raises(OverflowError, match=r"typed\(\): argument 'a' \(parameter 1\): "
                                            r"300 does not fit in i8"):
        typed[(1,)](FakeTensor(4), 300, 0, 0, 0, 0, 1.0, 1.0, 1.0, 0)
    with pytest.raises(OverflowError, match="argument 'c'.*-1 does not fit in u8"):
        typed[(1,)](FakeTensor(4), 0, 0, -1, 0, 0, 1.0, 1.0, 1.0, 0)
    k = scalars.warmup(FakeTensor(4), 1, 2, 3, 1.0, True, grid=(1,))
    with pytest.raises(TypeError, match=r"argument 'p' \(parameter 0\): expected a tensor"):
        k.run(1, 1, 1, 0, "oops", 1, 2, 3, 1.0, True)
    with pytest.raises(TypeError, match=r"argument 'x' \(parameter 4\): expected a float"):
        k.run(1, 1, 1, 0, FakeTensor(4), 1, 2, 3, "x", True)
    with pytest.raises(TypeError, match="takes 6 kernel arguments, got 2"):
        k.run(1, 1, 1, 0, FakeTensor(4), 1)


# -- the warm path -----------------------------------------------------------------

def test_warm_launches_never_reach_python(cuda, frontend, monkeypatch):
    x, y, out = tensors()
    add_kernel[(4,)](x, y, out, 64)
    assert len(add_kernel._dispatcher) == 1
    monkeypatch.setattr(add_kernel, "_run", lambda *a: pytest.fail("took the Python path"))
    for n in (64, 128, 4096):  # all divisible by 16: one specialization
        add_kernel[(4,)](x, y, out, n)
    assert cuda.fake.launch_count() == 4 and frontend.count == 1
    assert [struct.unpack("<i", r["params"][3])[0] for r in cuda.launches()] == [64, 64, 128, 4096]


def test_specialization_keys_reach_the_map(cuda, frontend):
    x, y, out = tensors()
    for n in (64, 65, 1, 80, 2**33, 2**33 + 1, 2**64 - 16):
        add_kernel[(1,)](x, y, out, n)
    # i32 %16, i32, i32 ==1, (80: a hit), i64 %16, i64, u64 %16
    assert frontend.count == 6 and len(add_kernel._dispatcher) == 6
    assert cuda.fake.calls("cuModuleLoadDataEx") == 6
    add_kernel[(1,)](x, FakeTensor(64, offset_bytes=4), out, 64)  # unaligned pointer
    add_kernel[(1,)](x, y, out, 64, BLOCK=256)                     # a constexpr
    add_kernel[(1,)](x, y, out, 64, num_warps=8)                   # a launch option
    add_kernel[(1,)](*tensors(dtype="float16"), 64)                # a dtype
    assert frontend.count == 10 and len(add_kernel._dispatcher) == 10
    assert cuda.last()["block"] == [128, 1, 1]
    add_kernel[(1,)](x, y, out, 64, num_warps=8)
    assert cuda.last()["block"] == [256, 1, 1] and frontend.count == 10


def test_one_specialization_for_both_paths(cuda, frontend, monkeypatch):
    """Issue 12: the warm path's key and the Python path's entry are made by
    one C++ function, so what the Python path specializes is keyed alike
    warm: an IntEnum as its int (the warm path used to leave it to Python),
    one relaunch picking the kernel of its entry, a plain int of that entry
    the same kernel."""
    import enum
    from tritium.runtime.jit import _specialize

    class Size(enum.IntEnum):
        SIXTY_FOUR = 64
        ONE = 1

    assert _specialize(Size.SIXTY_FOUR) == ("i32", "D") and _specialize(Size.ONE) == ("i32", "1")
    x, y, out = tensors()
    k64 = add_kernel[(1,)](x, y, out, Size.SIXTY_FOUR)
    k1 = add_kernel[(1,)](x, y, out, Size.ONE)
    assert frontend.count == 2 and len(add_kernel._dispatcher) == 2
    monkeypatch.setattr(add_kernel, "_run", lambda *a: pytest.fail("took the Python path"))
    assert add_kernel[(1,)](x, y, out, Size.ONE) is k1
    assert add_kernel[(1,)](x, y, out, Size.SIXTY_FOUR) is k64
    assert add_kernel[(1,)](x, y, out, 32) is k64
    assert [struct.unpack("<i", r["params"][3])[0] for r in cuda.launches()] == [64, 1, 1, 64, 32]


class SizedTensor(FakeTensor):
    """A FakeTensor that says it has ``shape`` and ``strides`` (torch's
    stride()), with four elements behind it: nothing reads them here."""

    def __init__(self, shape, strides, offset_bytes=0):
        super().__init__(4, "float32", offset_bytes)
        self.shape, self._strides = tuple(shape), tuple(strides)

    def stride(self):
        return self._strides

    def element_size(self):
        return 4


class StoredTensor(SizedTensor):
    """A SizedTensor whose untyped_storage() says how many bytes it holds."""

    def __init__(self, shape, strides, storage_bytes):
        super().__init__(shape, strides)
        self.storage = types.SimpleNamespace(nbytes=lambda: storage_bytes)

    def untyped_storage(self):
        return self.storage


def test_tensors_of_2_to_the_31_elements_get_64_bit_offsets(cuda, frontend, monkeypatch):
    """Issue 16: a tensor whose elements reach 2^31 from its first one
    (contiguous, or a strided view) is one more specialization, compiled
    with its offset arithmetic in i64; on the warm path too."""
    x, y, out = tensors()
    big = SizedTensor([1 << 31], [1])
    view = SizedTensor([2, 1024], [1 << 30, 1])   # two rows 2^30 apart: reaches 2^30 + 1024
    far = SizedTensor([3, 1024], [1 << 30, 1])    # three: 2^31 + 1024
    empty = SizedTensor([0, 1 << 40], [1 << 40, 1])
    small = add_kernel[(1,)](x, y, out, 64)
    large = add_kernel[(1,)](x, big, out, 64)
    assert frontend.count == 2 and len(add_kernel._dispatcher) == 2
    assert small.metadata.int64_offsets is False and large.metadata.int64_offsets is True
    assert "getelementptr" in large.asm["tir"] and " x i64>" in large.asm["tir"]
    assert " x i64>" not in small.asm["tir"]
    monkeypatch.setattr(add_kernel, "_run", lambda *a: pytest.fail("took the Python path"))
    assert add_kernel[(1,)](x, y, out, 64) is small
    assert add_kernel[(1,)](x, far, out, 64) is large  # the fact is the argument's, as alignment
    assert add_kernel[(1,)](view, y, out, 64) is small
    assert add_kernel[(1,)](x, y, empty, 64) is small
    assert frontend.count == 2
    # A storage of fewer than 2^31 bytes answers before shape and stride()
    # (torch's untyped_storage().nbytes(): two calls instead of two and a sum).
    stored = StoredTensor([1 << 31], [1], storage_bytes=1 << 20)
    assert add_kernel[(1,)](x, stored, out, 64) is small
    assert add_kernel[(1,)](x, StoredTensor([1 << 31], [1], storage_bytes=1 << 33), out, 64) is large
    monkeypatch.undo()
    from tritium.runtime.jit import _specialize  # the entry the Python path keys: "L" after "D"
    assert [_specialize(t)[1] for t in (x, big, view, far, empty, stored)] == ["D", "DL", "D", "DL",
                                                                           "D", "D"]


def test_bounds_check_passes_extents_and_raises_the_report(cuda, frontend, monkeypatch):
    """Issue 16's bounds-checking mode on the launch side: the hidden
    parameters (each pointer's extent in bytes, then the report) follow the
    kernel's own, each launch reads the report (never the warm path), and a
    report names the kernel, the line, the argument, the offset and the
    extent. (The fake driver runs nothing: the report is planted.)"""
    import re
    from tritium.runtime.bounds import BoundsChecking
    x, y = SizedTensor([64], [1]), SizedTensor([64], [1], 64)
    out = SizedTensor([8, 8], [16, 1], 128)  # rows 16 apart: (1 + 7 * 16 + 7) * 4 = 480 bytes
    k = add_kernel[(1,)](x, y, out, 64, bounds_check=True)
    params = cuda.last()["params"]
    assert [u64(p) for p in params[4:7]] == [256, 256, 480] and u64(params[7]) != 0
    assert list(k.metadata.signature)[-4:] == ["x_ptr.extent", "y_ptr.extent", "out_ptr.extent",
                                               "bounds.report"]
    add_kernel[(1,)](x, y, out, 64, bounds_check=True)
    assert frontend.count == 1 and cuda.fake.launch_count() == 2
    # The sites check-bounds encoded: 1 | kind << 1 | other file << 3 | arg << 4 | col << 16 | line << 28.
    sites = [int(v) for v in re.findall(r"constant (\d+) : i64", k.asm["tir"])
             if int(v) & 1 and 0 < int(v) >> 28 < 1 << 20]
    line = add_kernel.fn.__code__.co_firstlineno + 4  # the tl.store
    store = [s for s in sites if s >> 1 & 3 == 1]
    assert len(sites) == 3 and len(store) == 1 and store[0] >> 4 & 0xFFF == 2 and store[0] >> 28 == line
    monkeypatch.setattr(BoundsChecking, "_read_report", lambda self: (store[0], 1024, 3, 0, 0))
    with pytest.raises(tritium.BoundsError) as info:
        add_kernel[(1,)](x, y, out, 64, bounds_check=True)
    e = info.value
    assert (e.kernel, e.kind, e.argument, e.line, e.offset, e.extent, e.program) == (
        "add_kernel", "store", "out_ptr", line, 1024, 480, (3, 0, 0))
    assert f"{__file__}:{line}:" in str(e)
    assert "byte offset 1024 (element 256) outside its tensor of 480 bytes (120 elements of fp32)" in str(e)


def test_do_not_specialize_keys(cuda, frontend):
    @jit(do_not_specialize=["n"], do_not_specialize_on_alignment=["p"])
    def k(p, n):
        pass
    k[(1,)](FakeTensor(4), 64)
    k[(1,)](FakeTensor(4, offset_bytes=4), 1)
    k[(1,)](FakeTensor(4), 7)
    assert frontend.count == 1 and len(k._dispatcher) == 1


def test_kwargs_defaults_and_debug_knob(cuda, frontend, monkeypatch):
    x, y, out = tensors()
    add_kernel[(1,)](x_ptr=x, y_ptr=y, out_ptr=out, n=16)
    add_kernel[(1,)](x, y, out, n=16, BLOCK=128)
    add_kernel[(1,)](x, y, out, 16, 128)
    assert frontend.count == 1 and cuda.fake.launch_count() == 3
    monkeypatch.setenv("TRITIUM_DEBUG", "1")
    add_kernel[(1,)](x, y, out, 16)
    assert frontend.count == 2
    monkeypatch.delenv("TRITIUM_DEBUG")
    add_kernel[(1,)](x, y, out, 16)
    assert frontend.count == 2 and cuda.fake.launch_count() == 5


def test_grid_callable_gets_the_bound_arguments(cuda):
    x, y, out = tensors()
    seen = []

    def grid(meta):
        seen.append(dict(meta))
        return (cdiv(meta["n"], meta["BLOCK"]), 2)
    for _ in range(3):  # a compile, then warm launches
        add_kernel[grid](x, y, out, 1000, BLOCK=256)
    assert seen == [{"x_ptr": x, "y_ptr": y, "out_ptr": out, "n": 1000, "BLOCK": 256}] * 3
    assert [r["grid"] for r in cuda.launches()] == [[4, 2, 1]] * 3


def test_bad_grids(cuda):
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)  # warm
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        add_kernel[(1, 1, 1, 1)](x, y, out, 16)
    with pytest.raises(ValueError, match="grid dimension 1 is 70000; CUDA allows 0 to 65535"):
        add_kernel[(1, 70000)](x, y, out, 16)
    with pytest.raises(TypeError, match="grid dimension 0 must be an int"):
        add_kernel[(1.5,)](x, y, out, 16)
    with pytest.raises(ZeroDivisionError):
        add_kernel[lambda meta: (1 // 0,)](x, y, out, 16)
    assert cuda.fake.launch_count() == 1


def test_empty_grid_launches_nothing(cuda):
    x, y, out = tensors()
    for grid in ((0,), (4, 0), (2, 3, 0), lambda meta: (0,)):
        add_kernel[grid](x, y, out, 16)
    assert cuda.fake.launch_count() == 0 and cuda.fake.calls("cuLaunchKernel") == 0


def test_binding_errors_name_the_parameter_when_warm(cuda):
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'n'"):
        add_kernel[(1,)](x, y, out)
    with pytest.raises(TypeError, match="multiple values for argument 'n'"):
        add_kernel[(1,)](x, y, out, 3, n=4)
    with pytest.raises(TypeError, match=r"argument 'y_ptr' \(parameter 1\).*type str"):
        add_kernel[(1,)](x, "oops", out, 3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'BLOK'"):
        add_kernel[(1,)](x, y, out, 3, BLOK=3)
    assert cuda.fake.launch_count() == 1


# -- launch options: cuLaunchKernelEx -------------------------------------------------

def test_plain_launches_use_cuLaunchKernel(cuda):
    add_kernel[(2,)](*tensors(), 64)
    add_kernel[(2,)](*tensors(), 64, launch_pdl=False, launch_cooperative_grid=False)
    assert [r["api"] for r in cuda.launches()] == ["cuLaunchKernel"] * 2
    assert cuda.fake.calls("cuLaunchKernelEx") == 0 and cuda.last()["attributes"] == {}


@pytest.mark.parametrize("options, attributes", [
    ({"launch_pdl": True}, {"programmatic_stream_serialization": 1}),
    ({"launch_cooperative_grid": True}, {"cooperative": 1}),
    ({"launch_pdl": True, "launch_cooperative_grid": True},
     {"programmatic_stream_serialization": 1, "cooperative": 1}),
])
def test_launch_options_go_through_cuLaunchKernelEx(cuda, options, attributes):
    x, y, out = tensors()
    add_kernel[(3, 2)](x, y, out, 64, **options)
    ex = cuda.last()
    assert ex["api"] == "cuLaunchKernelEx" and ex["attributes"] == attributes
    # The same grid, block, shared memory, stream and parameters as a plain launch.
    add_kernel[(3, 2)](x, y, out, 64)
    plain = cuda.last()
    for key in ("kernel", "grid", "block", "shared", "stream", "device", "params"):
        assert ex[key] == plain[key], key
    assert ex["grid"] == [3, 2, 1] and cuda.fake.calls("cuLaunchKernelEx") == 1


def test_launch_options_select_the_kernel_on_the_warm_path(cuda, frontend, monkeypatch):
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 64, launch_pdl=True)
    add_kernel[(1,)](x, y, out, 64, launch_pdl=False)
    assert frontend.count == 2 and len(add_kernel._dispatcher) == 2
    k = add_kernel.warmup(x, y, out, 64, launch_pdl=True, grid=(1,))
    assert k.metadata.launch_pdl is True and k.metadata.launch_cooperative_grid is False
    monkeypatch.setattr(add_kernel, "_run", lambda *a: pytest.fail("took the Python path"))
    for pdl in (True, False, False, True):
        add_kernel[(1,)](x, y, out, 64, launch_pdl=pdl)
    ex, plain = "cuLaunchKernelEx", "cuLaunchKernel"
    assert [r["api"] for r in cuda.launches()[2:]] == [ex, plain, plain, ex]


def test_cooperative_grid_too_large_is_a_cuda_error(cuda):
    cuda.fake.set("sm_count", 4)
    x, y, out = tensors()
    add_kernel[(4,)](x, y, out, 64, launch_cooperative_grid=True)  # one program per SM fits
    with pytest.raises(CudaError) as info:
        add_kernel[(5,)](x, y, out, 64, launch_cooperative_grid=True)
    assert info.value.name == "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE"
    assert "launching kernel 'add_kernel' on grid (5, 1, 1)" in info.value.action
    assert "cooperative" in info.value.action
    add_kernel[(5,)](x, y, out, 64)  # a plain launch of that grid is fine
    assert cuda.fake.launch_count() == 2


def test_launch_option_errors_name_the_option(cuda):
    cuda.fake.inject("cuLaunchKernelEx", 1)
    with pytest.raises(CudaError, match="CUDA_ERROR_INVALID_VALUE.*programmatic dependent launch"):
        add_kernel[(1,)](*tensors(), 64, launch_pdl=True)


# -- errors from the driver -----------------------------------------------------------

def test_launch_errors_carry_the_cuda_name(cuda):
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)
    cuda.fake.inject("cuLaunchKernel", 700)
    with pytest.raises(CudaError) as info:
        add_kernel[(1,)](x, y, out, 16)
    e = info.value
    assert e.name == "CUDA_ERROR_ILLEGAL_ADDRESS" and e.code == 700
    assert e.description == "an illegal memory access was encountered"
    assert "launching kernel 'add_kernel' on grid (1, 1, 1)" in e.action
    assert str(e).startswith("CUDA_ERROR_ILLEGAL_ADDRESS: an illegal memory access")
    add_kernel[(1,)](x, y, out, 16)  # the next launch works again
    assert cuda.fake.launch_count() == 2


def test_load_errors_carry_the_jit_log(cuda):
    cuda.fake.inject("cuModuleLoadDataEx", 218)
    with pytest.raises(CudaError, match="CUDA_ERROR_INVALID_PTX.*loading kernel 'add_kernel'"
                                        ".*fakecuda was told to fail") as info:
        add_kernel[(1,)](*tensors(), 16)
    assert info.value.name == "CUDA_ERROR_INVALID_PTX"
    add_kernel[(1,)](*tensors(), 16)  # not cached as broken
    assert cuda.fake.launch_count() == 1


def test_unknown_error_codes_and_missing_functions(cuda):
    gc.collect()  # kernels of earlier tests may live on in cycles
    loaded = cuda.fake.loaded_modules()
    cuda.fake.inject("cuModuleGetFunction", 500)
    with pytest.raises(CudaError, match="CUDA_ERROR_NOT_FOUND.*finding kernel 'add_kernel'"):
        add_kernel[(1,)](*tensors(), 16)
    assert cuda.fake.loaded_modules() == loaded  # unloaded again
    cuda.fake.inject("cuLaunchKernel", 999)
    with pytest.raises(CudaError, match="CUDA error 999") as info:
        add_kernel[(1,)](*tensors(), 16)
    assert info.value.name is None and info.value.code == 999


# -- resources ---------------------------------------------------------------------------

def test_more_than_48kb_of_shared_memory_opts_in(cuda):
    cuda.backend.shared = 100 * 1024
    add_kernel[(2,)](*tensors(), 16)
    assert cuda.last()["shared"] == 100 * 1024
    assert cuda.fake.function_attribute(
        "add_kernel", fakecuda.MAX_DYNAMIC_SHARED_SIZE_BYTES) == 100 * 1024
    assert cuda.fake.calls("cuFuncSetAttribute") == 1


def test_48kb_or_less_needs_no_attribute(cuda):
    cuda.backend.shared = 48 * 1024
    add_kernel[(2,)](*tensors(), 16)
    assert cuda.last()["shared"] == 48 * 1024 and cuda.fake.calls("cuFuncSetAttribute") == 0


def test_static_shared_memory_counts_towards_the_limit(cuda):
    cuda.backend.shared = 40 * 1024
    cuda.backend.attributes = {"static_shared": 16 * 1024}
    add_kernel[(1,)](*tensors(), 16)
    assert cuda.fake.function_attribute(
        "add_kernel", fakecuda.MAX_DYNAMIC_SHARED_SIZE_BYTES) == 40 * 1024


def test_too_much_shared_memory_is_out_of_resources(cuda):
    cuda.fake.set("shared_optin", 101376)  # an sm_86 GPU
    cuda.backend.shared = 160 * 1024
    gc.collect()
    loaded = cuda.fake.loaded_modules()
    with pytest.raises(OutOfResources) as info:
        add_kernel[(1,)](*tensors(), 16)
    e = info.value
    assert (e.name, e.required, e.limit) == ("shared memory", 163840, 101376)
    assert "Required: 163840, Hardware limit: 101376" in str(e) and "add_kernel" in str(e)
    assert cuda.fake.launch_count() == 0 and cuda.fake.loaded_modules() == loaded


def test_too_much_shared_memory_compiles_again_with_fewer_stages(cuda, recwarn):
    """48 KiB a stage: 3 stages (the default) need 144 KiB where the device
    gives 99 KiB; 2 fit. The launch warns once, runs the 2-stage kernel, and
    later launches take it without compiling or warning again."""
    cuda.fake.set("shared_optin", 101376)
    cuda.backend.shared = lambda opts: 48 * 1024 * opts["num_stages"]
    with pytest.warns(UserWarning, match=r"add_kernel: 147456 bytes of shared memory with num_stages=3 "
                                         r"exceed the 101376 a block may use; compiled with num_stages=2 "
                                         r"\(98304 bytes\)"):
        k = add_kernel[(1,)](*tensors(), 16)
    assert k.metadata.num_stages == 2 and k.metadata.shared == 98304 and cuda.fake.launch_count() == 1
    recwarn.clear()
    assert add_kernel[(1,)](*tensors(), 16) is k and cuda.fake.launch_count() == 2 and not recwarn.list
    # Fewer stages fitting nowhere: the kernel asked for fails to load, as before.
    cuda.backend.shared = lambda opts: 120 * 1024
    with pytest.raises(OutOfResources, match="Required: 122880, Hardware limit: 101376"):
        add_kernel[(1,)](*tensors(), 16, BLOCK=64)


def test_too_many_threads_is_out_of_resources(cuda):
    cuda.backend.attributes = {"max_threads": 256}
    with pytest.raises(OutOfResources, match="threads, Required: 512, Hardware limit: 256"):
        add_kernel[(1,)](*tensors(), 16, num_warps=16)


def test_too_many_registers_is_out_of_resources(cuda):
    """The driver lowers a kernel's thread limit when registers x threads
    exceed the block's 64K: that is named as registers."""
    cuda.backend.attributes = {"regs": 255, "max_threads": 256}
    with pytest.raises(OutOfResources) as info:
        add_kernel[(1,)](*tensors(), 16, num_warps=16)
    e = info.value
    assert (e.name, e.required, e.limit) == ("registers", 255 * 512, 65536)
    assert "add_kernel" in str(e)


def test_registers_and_spills(cuda):
    cuda.backend.attributes = {"regs": 40, "local": 16}
    k = add_kernel[(1,)](*tensors(), 16)
    assert (k.n_regs, k.n_spills, k.n_max_threads) == (40, 4, 1024)


def test_debug_checks_pointers(cuda, monkeypatch):
    monkeypatch.setenv("TRITIUM_DEBUG", "1")
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)

    class HostTensor(FakeTensor):
        def data_ptr(self):
            return 0x1000  # below the fake's device addresses
    with pytest.raises(ValueError, match=r"argument 'y_ptr' \(parameter 1\): the device "
                                         r"cannot access address 0x1000"):
        add_kernel[(1,)](x, HostTensor(4), out, 16)


def test_host_tensors_are_refused_and_pointers_checked_once(cuda):
    """As Triton's launcher, every launch refuses a tensor the device cannot
    reach (test_pointer_arguments[cpu]); the driver is asked about a
    parameter's pointer only when it changes, so repeated launches on the
    same tensors cost no driver call."""
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)
    asked = cuda.fake.calls("cuPointerGetAttribute")
    for _ in range(5):
        add_kernel[(1,)](x, y, out, 16)
    assert cuda.fake.calls("cuPointerGetAttribute") == asked
    add_kernel[(1,)](x, FakeTensor(64, offset_bytes=256), out, 16)  # another y
    assert cuda.fake.calls("cuPointerGetAttribute") == asked + 1

    class HostTensor(FakeTensor):
        def data_ptr(self):
            return 0x1000  # below the fake's device addresses
    for _ in range(2):  # a refused pointer is asked about again
        with pytest.raises(ValueError, match=r"argument 'y_ptr' \(parameter 1\): the device "
                                             r"cannot access address 0x1000 \(a CPU tensor\?\)"):
            add_kernel[(1,)](x, HostTensor(4), out, 16)
    add_kernel[(1,)](x, y, out, 16)


# -- streams, devices, threads ----------------------------------------------------------------

def test_torch_current_stream_and_device(cuda, monkeypatch):
    calls = []
    fake_torch = types.ModuleType("torch")
    fake_torch._C = types.SimpleNamespace(
        _cuda_getDevice=lambda: 0,
        _cuda_getCurrentRawStream=lambda device: calls.append(device) or 0xABC0)
    monkeypatch.setitem(sys.modules, "torch", fake_torch)
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)
    add_kernel[(1,)](x, y, out, 16)
    assert [r["stream"] for r in cuda.launches()] == [0xABC0, 0xABC0]
    assert calls == [0, 0] and cuda.driver.get_current_stream(0) == 0xABC0
    monkeypatch.delitem(sys.modules, "torch")
    add_kernel[(1,)](x, y, out, 16)
    assert cuda.last()["stream"] == 0


def _torch_on_device(monkeypatch, current_device):
    """A stand-in torch whose current device is current_device() (asked at
    every launch, as Tritium asks torch) and whose current stream is 0."""
    fake_torch = types.ModuleType("torch")
    fake_torch._C = types.SimpleNamespace(_cuda_getDevice=current_device,
                                          _cuda_getCurrentRawStream=lambda device: 0)
    monkeypatch.setitem(sys.modules, "torch", fake_torch)


def test_launches_follow_the_current_device(cuda, monkeypatch, frontend):
    """Several GPUs (issue 18): each launch runs on torch's current device,
    the kernel compiled once and loaded once per device, the warm path of
    one device never launching the other's module."""
    cuda.fake.set("devices", 2)
    current = [0]
    _torch_on_device(monkeypatch, lambda: current[0])
    x, y, out = tensors()
    for device in (0, 1, 0, 1, 1, 0):
        current[0] = device
        add_kernel[(1,)](x, y, out, 16)
    assert [r["device"] for r in cuda.launches()] == [0, 1, 0, 1, 1, 0]
    assert frontend.count == 1 and cuda.fake.calls("cuModuleLoadDataEx") == 2


def test_two_threads_each_drive_one_device(cuda, monkeypatch):
    """A thread per GPU, as a process driving two devices does: each
    thread's launches go to its device."""
    cuda.fake.set("devices", 2)
    mine = threading.local()
    _torch_on_device(monkeypatch, lambda: mine.device)
    x, y, out = tensors()
    errors, barrier = [], threading.Barrier(2)

    def work(device):
        mine.device = device
        try:
            barrier.wait()
            for _ in range(20):
                add_kernel[(device + 1,)](x, y, out, 16)
        except Exception as e:  # pragma: no cover
            errors.append(e)
    threads = [threading.Thread(target=work, args=(d,)) for d in (0, 1)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    by_device = {(r["device"], r["grid"][0]) for r in cuda.launches()}
    assert by_device == {(0, 1), (1, 2)}


class TensorOn(FakeTensor):
    """A tensor of the given GPU (torch's get_device()); -1 is the CPU."""

    def __init__(self, device, offset_bytes):
        super().__init__(64, offset_bytes=offset_bytes)
        self.device = device

    def get_device(self):
        return self.device


def test_tensors_of_one_launch_on_two_devices_are_refused(cuda):
    """Tensors of one launch on different GPUs: a ValueError naming both,
    asked only when a pointer is new (the warm path stays free); a refused
    pointer is asked about again."""
    cuda.fake.set("devices", 2)
    x, out = TensorOn(0, 0), TensorOn(0, 512)
    add_kernel[(1,)](x, TensorOn(0, 256), out, 16)
    for _ in range(2):
        with pytest.raises(ValueError, match=r"argument 'y_ptr' \(parameter 1\): a tensor on cuda:1, "
                                             r"but argument 'x_ptr' is on cuda:0: the tensors of "
                                             r"one launch must be on one device"):
            add_kernel[(1,)](x, TensorOn(1, 1024), out, 16)
    assert cuda.fake.launch_count() == 1
    add_kernel[(1,)](x, TensorOn(0, 1024), out, 16)  # the same address, now on cuda:0
    empty = TensorOn(1, 0)
    empty._ptr = 0                                    # an empty tensor: no address to compare
    add_kernel[(1,)](x, empty, out, 16)
    add_kernel[(1,)](TensorOn(1, 2048), TensorOn(-1, 4096), TensorOn(1, 8192), 16)  # CPU: not a GPU
    assert cuda.fake.launch_count() == 4


def test_stream_argument(cuda):
    """stream= picks the launch's stream: a CUstream int, a torch stream
    (cuda_stream) or a cupy one (ptr); without it, the current stream."""
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16, stream=0xBEEF0)
    assert cuda.last()["stream"] == 0xBEEF0
    add_kernel[(1,)](x, y, out, 16, stream=types.SimpleNamespace(cuda_stream=0xCAFE0))
    assert cuda.last()["stream"] == 0xCAFE0
    add_kernel[(1,)](x, y, out, 16, stream=types.SimpleNamespace(ptr=0xD00D0))
    assert cuda.last()["stream"] == 0xD00D0
    add_kernel[(1,)](x, y, out, 16)
    add_kernel[(1,)](x, y, out, 16)  # the dispatcher's warm path
    assert [r["stream"] for r in cuda.launches()[-2:]] == [0, 0]
    with pytest.raises(TypeError, match="stream= takes a CUstream handle"):
        add_kernel[(1,)](x, y, out, 16, stream="default")


def test_launch_from_another_thread(cuda):
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)
    errors = []

    def work():
        try:
            add_kernel[(5,)](x, y, out, 16)  # no current context on this thread yet
        except Exception as e:  # pragma: no cover
            errors.append(e)
    t = threading.Thread(target=work)
    t.start()
    t.join()
    assert not errors and cuda.last()["grid"] == [5, 1, 1]


def test_hooks_and_changed_drivers_take_the_python_path(cuda, monkeypatch):
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)
    seen = []
    monkeypatch.setattr(knobs.runtime, "launch_enter_hook", lambda info: seen.append(info["grid"]))
    add_kernel[(3,)](x, y, out, 16)
    assert seen == [(3, 1, 1)] and cuda.fake.launch_count() == 2
    monkeypatch.setattr(knobs.runtime, "launch_enter_hook", None)
    other = CudaDriver(cuda.fake.path)
    driver.set_active(other)
    add_kernel[(1,)](x, y, out, 16)
    assert add_kernel._dispatcher.driver is other and cuda.fake.launch_count() == 3


def test_clearing_the_caches_forgets_warm_launches(cuda, frontend):
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)
    add_kernel.device_caches[0][0].clear()
    assert len(add_kernel._dispatcher) == 0
    add_kernel[(1,)](x, y, out, 16)
    assert frontend.count == 1  # the disk cache, not the frontend, served it
    assert cuda.fake.calls("cuModuleLoadDataEx") == 2


def test_kernels_of_collected_functions_are_unloaded(cuda):
    gc.collect()
    loaded = cuda.fake.loaded_modules()
    refs = []
    for _ in range(3):
        @jit
        def k(p, n):
            pass
        k[(1,)](FakeTensor(4), 16)
        k[(1,)](FakeTensor(4), 16)  # warm: its dispatcher holds the kernel
        refs.append(weakref.ref(k))
        del k
    gc.collect()  # kernel -> source -> function -> dispatcher -> kernel
    assert [r() for r in refs] == [None] * 3
    assert cuda.fake.loaded_modules() == loaded


# -- benchmarking ---------------------------------------------------------------------------------

def test_do_bench_times_with_events_and_flushes(cuda):
    cuda.fake.set("launch_ns", 500_000)  # each launch "takes" 0.5 ms
    cuda.fake.set("record", 0)
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)
    ms = tritium.testing.do_bench(lambda: add_kernel[(1,)](x, y, out, 16), warmup=5, rep=20)
    assert ms == pytest.approx(0.5)
    q = tritium.testing.do_bench(lambda: add_kernel[(1,)](x, y, out, 16), warmup=1, rep=5,
                                 quantiles=[0.2, 0.5, 0.8])
    assert q == pytest.approx([0.5, 0.5, 0.5])
    # 5 estimate runs + 40 timed runs (rep 20 ms / 0.5 ms), each after a flush
    flushes = cuda.fake.calls("cuMemsetD8Async")
    assert flushes == (5 + 40) + (5 + 10)
    assert cuda.fake.calls("cuMemAlloc") <= 1  # one 256 MB buffer per process, reused


def test_tritium_interpret_set_at_launch_leaves_the_warm_path(cuda, monkeypatch):
    from tritium.runtime import interpreter
    x, y, out = tensors()
    add_kernel[(1,)](x, y, out, 16)
    interpreted = []
    monkeypatch.setattr(interpreter, "launch",
                        lambda fn, args, kwargs, grid, warmup: interpreted.append(grid))
    monkeypatch.setenv("TRITIUM_INTERPRET", "1")
    add_kernel[(2,)](x, y, out, 16)
    assert interpreted == [(2,)] and cuda.fake.launch_count() == 1
    monkeypatch.delenv("TRITIUM_INTERPRET")
    add_kernel[(3,)](x, y, out, 16)
    assert cuda.fake.launch_count() == 2


@jit
def desc_kernel(a_desc, n, z_desc):
    z_desc.store([0, 0], a_desc.load([n, 0]))


@jit
def copy_desc(src_desc):
    src_desc.load([0, 0])


@pytest.fixture(autouse=True)
def fresh_descriptor_kernels():
    for k in (desc_kernel, copy_desc):
        k.device_caches.clear()


def test_host_tensor_descriptors_expand_into_parameters(cuda):
    """A TensorDescriptor argument is the base, the shape and the strides
    but the last (1) as parameters, then its tensor map (its block of 16 x
    32 fp32 suits TMA); warm launches with other descriptors pass their own
    values (a descriptor is not keyed by the fast path)."""
    from tritium.tools.tensor_descriptor import TensorDescriptor
    a, z = FakeTensor(64 * 40), FakeTensor(16 * 32, offset_bytes=64)
    for rows in (64, 48):
        ad = TensorDescriptor(a, [rows, 40], [40, 1], [16, 32])
        zd = TensorDescriptor(z, [16, 32], [32, 1], [16, 32])
        desc_kernel[(2,)](ad, 3, zd)
        base, m, n, stride, amap, off, zbase, zm, zn, zstride, zmap = cuda.last()["params"]
        assert u64(base) == a.data_ptr() and u64(zbase) == z.data_ptr()
        assert struct.unpack("<iii", m + n + off) == (rows, 40, 3)
        assert struct.unpack("<q", stride)[0] == 40 and struct.unpack("<q", zstride)[0] == 32
        assert struct.unpack("<ii", zm + zn) == (16, 32)
        maps = {(e["address"], e["dims"][1]): e["map"] for e in cuda.fake.encodes()}
        assert amap == maps[a.data_ptr(), rows] and zmap == maps[z.data_ptr(), 16]
    # z's tensor map was encoded once: its inputs did not change.
    assert [e["address"] for e in cuda.fake.encodes()] == [a.data_ptr(), z.data_ptr(), a.data_ptr()]
    k = desc_kernel.warmup(ad, 3, zd, grid=(1,))
    assert k.metadata.signature == {"a_desc": "tensordesc<fp32[16, 32]>", "n": "i32",
                                    "z_desc": "tensordesc<fp32[16, 32]>"}
    with pytest.raises(ValueError, match="Last dimension must be contiguous"):
        TensorDescriptor(a, [64, 40], [1, 64], [16, 32])


# -- tensor maps ----------------------------------------------------------------------------------

def fp16_desc(rows=100, cols=96, stride=None, offset_bytes=0, block=(128, 64)):
    from tritium.tools.tensor_descriptor import TensorDescriptor
    stride = cols if stride is None else stride
    t = FakeTensor(rows * stride, "float16", offset_bytes)
    return t, TensorDescriptor(t, [rows, cols], [stride, 1], list(block))


def test_tensor_map_is_encoded_from_the_descriptor(cuda):
    """The tensormap parameter holds the 128 bytes cuTensorMapEncodeTiled
    wrote, for the descriptor's base, its dims and byte strides innermost
    first, and a 128-byte wide box of the block's rows."""
    t, d = fp16_desc()
    copy_desc[(1,)](d)
    base, rows, cols, stride, tmap = cuda.last()["params"]
    (e,) = cuda.fake.encodes()
    assert e == {"data_type": 6, "rank": 2, "address": t.data_ptr(), "dims": [96, 100],
                 "strides": [192], "box": [64, 128], "element_strides": [1, 1], "interleave": 0,
                 "swizzle": 3, "l2_promotion": 3, "oob_fill": 0, "map": e["map"]}
    assert len(tmap) == 128 and tmap == e["map"] and tmap[:8] == b"FAKETMAP"
    assert u64(base) == t.data_ptr() and struct.unpack("<iiq", rows + cols + stride) == (100, 96, 96)


def test_tensor_map_element_types(cuda):
    """1-byte types are UINT8 and 4-byte ones FLOAT32 or INT32; the box is
    128 bytes of them."""
    from tritium.tools.tensor_descriptor import TensorDescriptor
    for dtype, code, inner in (("uint8", 0, 128), ("float32", 7, 32), ("int32", 3, 32),
                               ("int16", 1, 64)):
        t = FakeTensor(64 * 256, dtype)
        copy_desc[(1,)](TensorDescriptor(t, [64, 256], [256, 1], [64, 128]))
        e = cuda.fake.encodes()[-1]
        assert (e["data_type"], e["box"]) == (code, [inner, 64]), dtype
        assert e["strides"] == [256 * t.dtype.itemsize]


def test_repeated_launches_do_not_encode_again(cuda):
    _, d = fp16_desc()
    for _ in range(3):
        copy_desc[(1,)](d)
    assert cuda.fake.calls("cuTensorMapEncodeTiled") == 1
    maps = [r["params"][4] for r in cuda.launches()]
    assert maps == [cuda.fake.encodes()[0]["map"]] * 3
    t2, d2 = fp16_desc(rows=200)  # other inputs: encoded again
    copy_desc[(1,)](d2)
    assert cuda.fake.calls("cuTensorMapEncodeTiled") == 2
    assert cuda.fake.encodes()[-1]["dims"] == [96, 200]
    assert cuda.last()["params"][4] == cuda.fake.encodes()[-1]["map"]


def test_tensor_maps_that_cannot_be_encoded_are_zeros(cuda):
    """A stride of 200 bytes (not a multiple of 16), a base not 16-byte
    aligned, an injected driver error, an empty shape: 128 zero bytes."""
    zeros = bytes(128)
    for kwargs in ({"stride": 100}, {"offset_bytes": 8}):
        _, d = fp16_desc(**kwargs)
        copy_desc[(1,)](d)
        assert cuda.last()["params"][4] == zeros, kwargs
    assert cuda.fake.calls("cuTensorMapEncodeTiled") == 2 and cuda.fake.encodes() == []
    _, d = fp16_desc()
    cuda.fake.inject("cuTensorMapEncodeTiled", 1)
    copy_desc[(1,)](d)
    assert cuda.last()["params"][4] == zeros
    _, d = fp16_desc(rows=0)
    copy_desc[(1,)](d)
    assert cuda.last()["params"][4] == zeros and cuda.fake.calls("cuTensorMapEncodeTiled") == 3


def test_no_tensor_maps_below_compute_capability_9(cuda):
    cuda.fake.set("cc_major", 8)
    _, d = fp16_desc()
    copy_desc[(1,)](d)
    assert len(cuda.last()["params"]) == 5  # the parameter is there, on every target
    assert cuda.last()["params"][4] == bytes(128)
    assert cuda.fake.calls("cuTensorMapEncodeTiled") == 0


def test_launcher_takes_tensormap_parameters(cuda):
    """A compiled kernel's launcher ignores the object passed for a
    tensormap; one that does not follow a descriptor's parameters, or of an
    element type TMA does not copy, is refused when loading."""
    types = ["*fp16", "i32", "i32", "i64", "tensormap<fp16[64, 64]>", "i32"]
    names = ["d_base", "d_shape0", "d_shape1", "d_stride0", "d_tma", "n"]
    lib = cuda.driver.native_driver

    def load(types, names):
        return lib.load_kernel(fakecuda.stub_ptx("k", types), "k", types, names,
                               [0] * len(types), 4, 0, 0, "k", False, 32)
    launcher = load(types, names)
    launcher(1, 1, 1, None, (0x7F0000000100, 32, 64, 64, "ignored", 7))
    params = cuda.last()["params"]
    assert params[4] == cuda.fake.encodes()[-1]["map"] and struct.unpack("<i", params[5])[0] == 7
    assert cuda.fake.encodes()[-1]["dims"] == [64, 32] and cuda.fake.encodes()[-1]["box"] == [64, 64]
    with pytest.raises(TypeError, match=r"argument 'd_tma' \(parameter 0\): a tensormap of rank 2 "
                                        r"must follow a pointer, 2 i32 shapes and 1 i64 strides"):
        load(types[1:], names[1:])
    with pytest.raises(TypeError, match="has type 'tensormap<fp64.8, 8.>', which a launch cannot"):
        load(["*fp64", "i32", "i32", "i64", "tensormap<fp64[8, 8]>"], names[:5])
