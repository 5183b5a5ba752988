"""What code written for Triton (torch._inductor first) reads of the
compiler's backends: triton.backends.compiler, triton.backends.backends,
make_backend, triton_key and the driver object."""

import inspect
import os
import sys

import pytest

import tritium
from tritium import backends
from tritium.backends import compiler as backend_compiler
from tritium.compiler import compiler
from tritium.runtime import CudaDriver, HipDriver, cache, driver

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                                "fakecuda"))
import fakecuda  # noqa: E402


def test_gpu_target_takes_tritons_arguments():
    t = backend_compiler.GPUTarget("cuda", arch=89, warp_size=32)
    assert (t.backend, t.arch, t.warp_size) == ("cuda", 89, 32)
    assert t == compiler.parse_target("cuda:89")


def test_attrs_descriptor_is_absent_as_in_triton_3_6():
    # torch._inductor picks how to pass specialization attributes by these
    # hasattr checks; Tritium takes the plain dict of Triton >= 3.3.
    assert not hasattr(backend_compiler, "AttrsDescriptor")
    assert not hasattr(compiler, "AttrsDescriptor")


def test_backends_table_names_the_compilers_and_drivers():
    table = backends.backends
    assert set(table) == {"nvidia", "amd"}
    assert table["nvidia"].compiler is type(compiler.get_backend(compiler.parse_target("cuda")))
    assert table["nvidia"].driver is CudaDriver and table["amd"].driver is HipDriver
    for entry in table.values():
        assert issubclass(entry.compiler, backend_compiler.BaseBackend)


def test_driver_class_answers_is_active(monkeypatch, tmp_path):
    monkeypatch.setenv("TRITIUM_LIBCUDA_PATH", str(tmp_path / "no-libcuda.so"))
    assert backends.backends["nvidia"].driver.is_active() is False
    path = fakecuda.find_library()
    if path is None:
        pytest.skip("the fake CUDA driver is not built")
    monkeypatch.setenv("TRITIUM_LIBCUDA_PATH", path)
    assert backends.backends["nvidia"].driver.is_active() is True


def test_make_backend_hash_and_options():
    b90, b80 = compiler.make_backend("cuda:90"), compiler.make_backend("cuda:80")
    assert b90.target == compiler.parse_target("cuda:90")
    assert b90.hash() != b80.hash() and b90.hash() == compiler.make_backend("cuda:90").hash()
    opts = b90.parse_options({"num_warps": 8})
    assert vars(opts)["num_warps"] == 8 and opts.num_stages == 3
    assert vars(compiler.make_backend("hip:gfx90a").parse_options({}))["num_stages"] == 2
    with pytest.raises(ValueError, match="num_warps"):
        b90.parse_options({"num_warps": 3})
    with pytest.raises(RuntimeError, match="0 compatible backends"):
        compiler.make_backend(compiler.GPUTarget("spyre", "x", 1))


def test_triton_key_names_tritiums_own_version():
    key = cache.triton_key()
    assert key == cache.triton_key() and tritium.tritium_version in key
    assert tritium.__version__ not in key.split("-")[1]


def test_names_torch_imports_from_triton_modules():
    from tritium.runtime.autotuner import OutOfResources
    from tritium.runtime.driver import driver as driver_object
    from tritium.runtime.jit import JITFunction, KernelInterface  # noqa: F401
    from tritium.language.extra import libdevice  # noqa: F401
    import tritium.language as tl
    assert OutOfResources is tritium.OutOfResources
    assert driver_object.active is driver.active and driver_object.set_active is driver.set_active
    # torch asks whether builtins take a `_semantic` argument: the signature must be readable.
    assert "_semantic" not in inspect.signature(tl.core.view).parameters
