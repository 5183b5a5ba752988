"""Fixtures of the GPU tests of the NVIDIA backend (marker ``gpu``: skipped
without a GPU, see tests/python/conftest.py).

The tests make their inputs and references with numpy and move arrays
through ``dev``, a small device interface: ``put`` (numpy -> device, in a
dtype named as in signatures: fp32, fp16, bf16, fp64, i8, i16, i32, i64),
``zeros``/``full``, ``get`` (device -> numpy; bf16 comes back as float32),
``strides`` (in elements). On a GPU it is torch on ``cuda``; the test code
never touches torch itself, so the same tests can be checked on the
interpreter with numpy arrays (a ``dev`` with this interface and
TRITIUM_INTERPRET=1).
"""

import os

import pytest

from gpu_helpers import TorchDevice


@pytest.fixture(scope="session")
def _torch_device():
    torch = pytest.importorskip("torch", reason="the GPU tests move arrays with torch")
    if not torch.cuda.is_available():
        pytest.skip("torch sees no CUDA device")
    return TorchDevice(torch)


@pytest.fixture
def dev(_torch_device, monkeypatch, tmp_path_factory):
    """The device, with kernels compiled (never interpreted) into a cache of
    this session."""
    monkeypatch.delenv("TRITIUM_INTERPRET", raising=False)
    if "TRITIUM_CACHE_DIR" not in os.environ:
        monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path_factory.getbasetemp() / "tritium-cache"))
    return _torch_device
