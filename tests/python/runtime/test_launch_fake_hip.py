"""The AMD launch path without ROCm: kernel[grid](...) compiles for the
device's gfx target (real code objects), then the C++ dispatcher and
launcher call hipModuleLaunchKernel in the fake runtime (tests/fakehip),
which reads the code object's metadata as HIP would and logs every launch
with each argument's bytes. No AMD GPU has run these kernels.
"""

import os
import struct
import sys

import pytest

import tritium
import tritium.language as tl
from tritium._C import amdgpu
from tritium.compiler import compiler
from tritium.errors import CudaError, HipError, OutOfResources
from tritium.runtime import HipDriver, driver
from tritium.runtime.jit import cdiv, jit

from runtime_helpers import FakeTensor

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "fakehip"))
import fakehip  # noqa: E402

pytestmark = pytest.mark.skipif(not amdgpu.find_device_libs(),
                                reason="the ROCm device libraries are not installed")


class Env:
    def __init__(self, fake, drv):
        self.fake, self.driver = fake, drv

    def last(self):
        return self.fake.launches()[-1]


@pytest.fixture
def hip(monkeypatch, tmp_path):
    path = fakehip.find_library()
    if path is None:
        pytest.skip("the fake HIP runtime is not built (tests/fakehip)")
    fake = fakehip.FakeHip(path)
    fake.reset()
    monkeypatch.setenv("TRITIUM_LIBHIP_PATH", path)
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path / "cache"))
    drv = HipDriver()
    assert drv.is_active(), drv.load_error()
    driver.set_active(drv)
    yield Env(fake, drv)
    driver.set_active(None)
    fake.reset()


@jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr = 256):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


@jit
def row_sum(x_ptr, out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(out_ptr + tl.program_id(0), tl.sum(tl.load(x_ptr + tl.program_id(0) * BLOCK + offs)))


@pytest.fixture(autouse=True)
def fresh_kernels():
    for k in (add_kernel, row_sum):
        k.device_caches.clear()


def u64(b):
    return struct.unpack("<Q", b)[0]


def test_driver_reports_the_device(hip):
    assert hip.driver.get_current_target() == compiler.GPUTarget("hip", "gfx90a", 64)
    props = hip.driver.properties()
    assert props["arch"] == "gfx90a" and props["warpSize"] == 64
    assert props["max_shared_mem"] == 65536 and props["name"] == "Fake AMD Instinct 0"
    assert hip.driver.get_current_device() == 0 and hip.driver.get_current_stream(0) == 0


def test_the_architecture_comes_from_the_device(hip):
    hip.fake.set_arch("gfx940:sramecc+:xnack-")
    assert HipDriver(hip.fake.path).get_current_target() == compiler.GPUTarget("hip", "gfx940", 64)
    hip.fake.set_arch("gfx942:sramecc+:xnack-")
    with pytest.raises(ValueError, match="LLVM 16 has no gfx941 or gfx942"):
        HipDriver(hip.fake.path).get_current_target()


def test_a_launch_reaches_hipModuleLaunchKernel(hip):
    x, y, out = FakeTensor(1000), FakeTensor(1000, offset_bytes=4096), FakeTensor(1000, offset_bytes=8192)
    add_kernel[(cdiv(1000, 256),)](x, y, out, 1000)
    rec = hip.last()
    assert rec["kernel"] == "add_kernel"
    assert rec["grid"] == [4, 1, 1] and rec["block"] == [256, 1, 1]  # 4 wavefronts of 64
    assert rec["shared"] == 0  # LDS is static on AMD
    assert [u64(p) for p in rec["params"][:3]] == [x.data_ptr(), y.data_ptr(), out.data_ptr()]
    assert struct.unpack("<i", rec["params"][3]) == (1000,)
    assert hip.fake.calls("hipModuleLoadData") == 1
    # A second launch is warm: no new load.
    add_kernel[(2,)](x, y, out, 500)
    assert hip.fake.calls("hipModuleLoadData") == 1
    assert hip.last()["grid"] == [2, 1, 1]


def test_cooperative_grids_use_hipModuleLaunchCooperativeKernel(hip):
    x, y, out = FakeTensor(1000), FakeTensor(1000, offset_bytes=4096), FakeTensor(1000, offset_bytes=8192)
    add_kernel[(4,)](x, y, out, 1000, launch_cooperative_grid=True)
    coop = hip.last()
    add_kernel[(4,)](x, y, out, 1000)
    plain = hip.last()
    assert coop["cooperative"] and not plain["cooperative"]
    assert hip.fake.calls("hipModuleLaunchCooperativeKernel") == 1
    assert {k: v for k, v in coop.items() if k != "cooperative"} == \
        {k: v for k, v in plain.items() if k != "cooperative"}


def test_programmatic_dependent_launch_is_cuda_s(hip):
    with pytest.raises(HipError, match="launch_pdl=True asks for programmatic dependent launch, "
                                       "which CUDA has .* and HIP has not") as info:
        add_kernel[(1,)](FakeTensor(256), FakeTensor(256), FakeTensor(256), 256, launch_pdl=True)
    assert info.value.action == "loading kernel 'add_kernel'"
    assert hip.fake.calls("hipModuleLoadData") == 0


def test_a_kernel_with_lds_loads_with_it_in_its_code_object(hip):
    x, out = FakeTensor(4 * 1024), FakeTensor(4)
    row_sum[(4,)](x, out, BLOCK=1024)
    rec = hip.last()
    assert rec["kernel"] == "row_sum" and rec["shared"] == 0 and rec["grid"] == [4, 1, 1]
    compiled = row_sum.warmup(x, out, BLOCK=1024, grid=(4,))
    assert compiled.metadata.shared > 0  # the cross-wavefront partials


def test_too_little_lds_on_the_device_is_out_of_resources(hip):
    hip.fake.set("lds", 8)
    x, out = FakeTensor(4 * 1024), FakeTensor(4)
    with pytest.raises(OutOfResources, match="shared memory"):
        row_sum[(4,)](x, out, BLOCK=1024)


def test_driver_errors_are_named_by_hip(hip):
    hip.fake.inject("hipModuleLaunchKernel", 719)
    x, y, out = FakeTensor(256), FakeTensor(256), FakeTensor(256)
    with pytest.raises(HipError) as e:
        add_kernel[(1,)](x, y, out, 256)
    assert e.value.name == "hipErrorLaunchFailure" and e.value.code == 719
    assert "launching kernel 'add_kernel'" in str(e.value)
    assert isinstance(e.value, CudaError)  # one family of driver errors
    hip.fake.inject("hipModuleLoadData", 200)
    add_kernel.device_caches.clear()
    with pytest.raises(HipError, match="hipErrorInvalidImage.*loading kernel 'add_kernel'"):
        add_kernel[(1,)](x, y, out, 256)


def test_benchmark_times_with_hip_events(hip):
    hip.fake.set("launch_ns", 2_000_000)  # 2 ms per launch
    x, y, out = FakeTensor(256), FakeTensor(256), FakeTensor(256)
    ms = tritium.testing.do_bench(lambda: add_kernel[(1,)](x, y, out, 256), warmup=10, rep=20)
    assert ms == pytest.approx(2.0)


def test_without_a_runtime_it_says_which(tmp_path):
    drv = HipDriver(str(tmp_path / "libamdhip64.so"))
    assert not drv.is_active()
    assert "cannot load the HIP runtime" in drv.load_error()
    assert "libamdhip64.so" in drv.load_error()


def test_find_arch_name_reads_the_properties_by_text():
    from tritium import _C
    blob = b"AMD Instinct MI210".ljust(1200, b"\0") + b"gfx90a:sramecc+:xnack-\0"
    assert _C.runtime.find_arch_name(blob) == "gfx90a"
    assert _C.runtime.find_arch_name(b"\0" * 64) == ""
    assert _C.runtime.find_arch_name(b"gfxq gfx1030\0") == "gfx1030"


@jit
def copy_desc(src_desc, out_ptr):
    tl.store(out_ptr + tl.arange(0, 64), tl.sum(src_desc.load([0, 0]), axis=0))


def test_host_descriptors_pass_a_zero_tensor_map(hip):
    """HIP encodes no tensor maps: the parameter a 128-byte fp16 block gets
    (on every target, tensor_descriptor.parameters) is zeros."""
    from tritium.tools.tensor_descriptor import TensorDescriptor
    t, out = FakeTensor(64 * 64, "float16"), FakeTensor(64, "float16")
    copy_desc[(1,)](TensorDescriptor(t, [64, 64], [64, 1], [16, 64]), out)
    base, rows, cols, stride, tmap, out_ptr = hip.last()["params"]
    assert u64(base) == t.data_ptr() and u64(out_ptr) == out.data_ptr()
    assert struct.unpack("<iiq", rows + cols + stride) == (64, 64, 64)
    assert tmap == bytes(len(tmap))
