"""The ``backend`` fixture of the language conformance suite: every test
that takes it runs once per backend (helpers.py says which and how)."""

import pytest

import tritium._C

from .helpers import Backend, CompileOnly, backend_names, backend_params, interpreter_available

collect_ignore_glob = [] if hasattr(tritium._C, "frontend") else ["test_*.py"]

_BACKENDS = {}


@pytest.fixture(params=backend_params())
def backend(request):
    name = request.param
    if name == "interpreter" and not interpreter_available():
        pytest.skip("tritium.runtime.interpreter has not landed yet")
    if name == "cuda":
        try:
            import torch
        except ImportError:
            pytest.skip("the cuda backend's tests move arrays with torch, which is not installed")
        if not torch.cuda.is_available():
            pytest.skip("torch sees no CUDA device")
        if torch.version.hip:
            pytest.skip("torch is ROCm's: the hip backend runs these")
    if name == "hip":
        try:
            import torch
        except ImportError:
            pytest.skip("the hip backend's tests move arrays with torch, which is not installed")
        if not (torch.version.hip and torch.cuda.is_available()):
            pytest.skip("torch (ROCm) sees no AMD device")
    b = _BACKENDS.get(name)
    if b is None:
        b = _BACKENDS[name] = Backend(name)
    return b


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    """The compile-only backend ends each test after its first kernel
    compiled: reported as a skip, not a pass."""
    outcome = yield
    exc = outcome.excinfo
    if exc is not None and issubclass(exc[0], CompileOnly):
        params = getattr(getattr(item, "callspec", None), "params", {})
        target = "hip" if params.get("backend") == "compile-hip" else "cuda"
        outcome.force_exception(pytest.skip.Exception(f"compiled for {target} (compile-only backend)"))


__all__ = ["backend_names"]
