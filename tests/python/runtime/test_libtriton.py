"""tritium._C.libtriton: the nvidia.cublas.CublasLt stand-in of tutorial 09.

Its import path is the point of the module: `from triton._C.libtriton import
nvidia` must work where triton resolves to tritium (the harness's alias), so
one test installs such an alias itself. The numerics need torch (and fp8 a
GPU).
"""

import importlib
import importlib.abc
import importlib.util
import sys
import types

import pytest

import tritium


def test_registered_as_a_submodule_of_the_extension():
    mod = importlib.import_module("tritium._C.libtriton")
    assert mod is tritium._C.libtriton is sys.modules["tritium._libtriton"]
    assert mod.nvidia.cublas.CublasLt is tritium._libtriton.CublasLt
    from tritium._C.libtriton import nvidia
    assert nvidia is mod.nvidia


class _Alias(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    """`aliased` and `aliased.X` are tritium's modules (as the harness's
    triton -> tritium alias)."""

    def find_spec(self, name, path=None, target=None):
        if name == "aliased" or name.startswith("aliased."):
            return importlib.util.spec_from_loader(name, self)
        return None

    def create_module(self, spec):
        return importlib.import_module("tritium" + spec.name[len("aliased"):])

    def exec_module(self, module):
        pass


def test_importable_under_an_alias_of_the_package():
    finder = _Alias()
    sys.meta_path.insert(0, finder)
    try:
        ns = {}
        exec("from aliased._C.libtriton import nvidia", ns)
        assert ns["nvidia"] is tritium._C.libtriton.nvidia
    finally:
        sys.meta_path.remove(finder)
        for name in [n for n in sys.modules if n == "aliased" or n.startswith("aliased.")]:
            del sys.modules[name]


def _arg(dtype, shape):
    """What CublasLt reads of a tensor before any math."""
    return types.SimpleNamespace(dtype=dtype, shape=shape, dim=lambda: len(shape))


def test_constraints_are_triton_s():
    cublas = tritium._libtriton.CublasLt(workspace=None)
    f16 = "torch.float16"
    with pytest.raises(RuntimeError, match="one dtype"):
        cublas.matmul(_arg(f16, (4, 8)), _arg("torch.float32", (2, 8)), _arg(f16, (4, 2)))
    with pytest.raises(RuntimeError, match="unsupported dtype torch.int8"):
        cublas.matmul(*[_arg("torch.int8", s) for s in ((4, 8), (2, 8), (4, 2))])
    with pytest.raises(RuntimeError, match="2-d"):
        cublas.matmul(_arg(f16, (4, 8, 1)), _arg(f16, (2, 8)), _arg(f16, (4, 2)))
    # b is (N, K): the second operand transposed.
    with pytest.raises(RuntimeError, match=r"b is \(N, K\), transposed"):
        cublas.matmul(_arg(f16, (4, 8)), _arg(f16, (8, 2)), _arg(f16, (4, 2)))
    with pytest.raises(RuntimeError, match="c must be float16"):
        cublas.gemm(_arg(f16, (4, 8)), _arg(f16, (2, 8)), _arg("torch.float32", (4, 2)),
                    _arg(f16, (4, 2)), 1.0, 0.0)


@pytest.mark.parametrize("dtype", ["float16", "float32", "bfloat16"])
def test_matmul_and_gemm_on_the_cpu(dtype):
    torch = pytest.importorskip("torch")
    dt = getattr(torch, dtype)
    torch.manual_seed(0)
    a, b = torch.randn(32, 64).to(dt), torch.randn(48, 64).to(dt)
    want = a.float() @ b.float().T
    cublas = tritium._libtriton.CublasLt(torch.empty(1024, dtype=torch.uint8))
    c = torch.empty(32, 48, dtype=dt)
    cublas.matmul(a, b, c)
    tol = 1e-4 if dtype == "float32" else 5e-2
    torch.testing.assert_close(c.float(), want, atol=tol * 64, rtol=tol)
    c16, d = torch.randn(32, 48).half(), torch.empty(32, 48, dtype=dt)
    cublas.gemm(a, b, c16, d, 0.5, 2.0)
    torch.testing.assert_close(d.float(), 0.5 * want + 2.0 * c16.float(), atol=tol * 64, rtol=tol)


@pytest.mark.gpu
def test_fp8_matmul_on_the_gpu():
    torch = pytest.importorskip("torch")
    if not torch.cuda.is_available() or torch.cuda.get_device_capability()[0] < 9:
        pytest.skip("fp8 matmuls need compute capability 9.0")
    torch.manual_seed(0)
    a = torch.randn(64, 128, device="cuda").to(torch.float8_e4m3fn)
    b = torch.randn(32, 128, device="cuda").to(torch.float8_e4m3fn)
    c = torch.empty(64, 32, device="cuda", dtype=torch.float8_e4m3fn)
    cublas = tritium._libtriton.CublasLt(torch.empty(1 << 20, device="cuda", dtype=torch.uint8))
    cublas.matmul(a, b, c)
    want = (a.float() @ b.float().T).to(torch.float8_e4m3fn).float()
    torch.testing.assert_close(c.float(), want, atol=1.0, rtol=0.13)
    c16, d = torch.randn(64, 32, device="cuda").half(), torch.empty_like(c)
    cublas.gemm(a, b, c16, d, 1.0, 1.0)
    want = (a.float() @ b.float().T + c16.float()).to(torch.float8_e4m3fn).float()
    torch.testing.assert_close(d.float(), want, atol=1.0, rtol=0.13)
