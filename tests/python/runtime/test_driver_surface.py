"""The host surface of Triton's drivers on driver.active: device properties
under Triton's keys, the current target, device and stream, setting the
device, torch's device and interface, the benchmarker; and the NullDriver's
clear errors where a GPU is needed."""

import sys
import types

import pytest

from tritium.compiler.compiler import GPUTarget
from tritium.runtime import driver
from tritium.runtime.driver import NoBackendError, NullDriver

from test_launch_fake import cuda  # noqa: F401  (the fake drivers' fixtures)
from test_launch_fake_hip import hip  # noqa: F401


def test_device_properties_under_tritons_keys(cuda):  # noqa: F811
    props = driver.active.utils.get_device_properties(0)
    # The fake answers an H100 SXM's numbers (tests/fakecuda/FakeCuda.cpp).
    assert {k: props[k] for k in ("max_shared_mem", "max_num_regs", "multiprocessor_count",
                                  "warpSize", "sm_clock_rate", "mem_clock_rate", "mem_bus_width")} == {
        "max_shared_mem": 232448, "max_num_regs": 65536, "multiprocessor_count": 132, "warpSize": 32,
        "sm_clock_rate": 1980000, "mem_clock_rate": 2619000, "mem_bus_width": 5120}
    cuda.fake.set("sm_count", 78)
    cuda.fake.set("devices", 2)
    assert driver.active.utils.get_device_properties(types.SimpleNamespace(index=1))[
        "multiprocessor_count"] == 78


def test_device_properties_of_an_amd_gpu(hip):  # noqa: F811
    props = driver.active.utils.get_device_properties(0)
    # The fake answers an MI210's numbers (tests/fakehip/FakeHip.cpp).
    assert (props["warpSize"], props["max_num_regs"], props["sm_clock_rate"],
            props["mem_clock_rate"], props["mem_bus_width"]) == (64, 65536, 1700000, 1600000, 4096)
    assert driver.active.get_current_target() == GPUTarget("hip", "gfx90a", 64)


def test_current_target_device_and_stream(cuda):  # noqa: F811
    active = driver.active
    assert active.get_current_target() == GPUTarget("cuda", 90, 32, "sm_90a")
    assert active.get_current_device() == 0 and active.get_current_stream() == 0
    cuda.fake.set("devices", 2)
    active.set_current_device(1)
    try:
        assert active.get_current_device() == 1 and active.get_current_stream(1) == 0
    finally:
        active.set_current_device(0)
    from tritium.testing import do_bench
    assert active.get_benchmarker() is do_bench


def test_torch_device_and_interface(cuda, monkeypatch):  # noqa: F811
    fake_cuda = types.SimpleNamespace(set_device=lambda i: None)
    fake_torch = types.SimpleNamespace(device=lambda kind, index: f"{kind}:{index}", cuda=fake_cuda)
    monkeypatch.setattr(cuda.driver, "get_current_device", lambda: 1)
    monkeypatch.setitem(sys.modules, "torch", fake_torch)
    assert cuda.driver.get_active_torch_device() == "cuda:1"
    assert cuda.driver.get_device_interface() is fake_cuda


@pytest.mark.parametrize("call", [
    lambda d: d.get_active_torch_device(),
    lambda d: d.utils.get_device_properties(0),
    lambda d: d.set_current_device(0),
    lambda d: d.get_device_interface(),
])
def test_null_driver_says_a_gpu_is_needed(call):
    null = NullDriver()
    with pytest.raises(NoBackendError, match="needs a GPU and its driver"):
        call(null)
    assert null.get_current_target().backend == "cuda"  # compiling still works
