"""Helpers of the GPU tests of the NVIDIA backend: the device interface
(``dev``, see conftest.py) on torch and on numpy, and assert_close."""

import numpy as np

_TORCH = {"fp32": "float32", "fp16": "float16", "bf16": "bfloat16", "fp64": "float64", "i8": "int8",
          "i16": "int16", "i32": "int32", "i64": "int64", "u8": "uint8", "i1": "bool"}
_NUMPY = {"fp32": np.float32, "fp16": np.float16, "fp64": np.float64, "i8": np.int8, "i16": np.int16,
          "i32": np.int32, "i64": np.int64, "u8": np.uint8, "i1": np.bool_}


class TorchDevice:
    """Arrays as torch tensors on the current CUDA device."""

    name = "cuda"
    has_bf16 = True

    def __init__(self, torch):
        self.torch = torch

    def _dtype(self, dtype):
        return getattr(self.torch, _TORCH[dtype])

    def put(self, a, dtype=None):
        a = np.ascontiguousarray(a)
        if dtype == "bf16":
            a = a.astype(np.float32)
        t = self.torch.from_numpy(a).to("cuda")
        return t.to(self._dtype(dtype)) if dtype else t

    def zeros(self, shape, dtype):
        return self.torch.zeros(shape, dtype=self._dtype(dtype), device="cuda")

    def full(self, shape, value, dtype):
        return self.torch.full(shape, value, dtype=self._dtype(dtype), device="cuda")

    def get(self, t):
        self.sync()
        if t.dtype == self.torch.bfloat16:
            t = t.float()
        return t.detach().cpu().numpy()

    def strides(self, t):
        return list(t.stride())

    def sync(self):
        self.torch.cuda.synchronize()


class NumpyDevice:
    """Arrays as numpy arrays, for running these tests on the interpreter
    (TRITIUM_INTERPRET=1) to check the tests themselves; no bf16."""

    name = "interpreter"
    has_bf16 = False

    def put(self, a, dtype=None):
        a = np.array(a, copy=True)
        return a.astype(_NUMPY[dtype]) if dtype else a

    def zeros(self, shape, dtype):
        return np.zeros(shape, _NUMPY[dtype])

    def full(self, shape, value, dtype):
        return np.full(shape, value, _NUMPY[dtype])

    def get(self, a):
        return np.array(a, copy=True)

    def strides(self, a):
        return [s // a.itemsize for s in a.strides]

    def sync(self):
        pass


def assert_close(actual, expected, rtol=None, atol=None, msg=None):
    """torch.testing.assert_close on numpy arrays (numpy's own check
    without torch); dtypes may differ (references are often float64)."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    try:
        import torch
    except ImportError:
        torch = None
    if torch is not None:
        kw = {} if rtol is None else {"rtol": rtol, "atol": atol}
        torch.testing.assert_close(torch.from_numpy(np.ascontiguousarray(actual)),
                                   torch.from_numpy(np.ascontiguousarray(expected)),
                                   check_dtype=False, equal_nan=True, msg=msg, **kw)
    else:
        np.testing.assert_allclose(actual.astype(np.float64) if actual.dtype.kind == "f" else actual,
                                   expected, rtol=rtol or 0, atol=atol or 0, equal_nan=True,
                                   err_msg=msg or "")


def bf16_round(a):
    """float32 values rounded to bfloat16 (to nearest even), as float32."""
    a = np.ascontiguousarray(a, dtype=np.float32)
    bits = a.view(np.uint32).astype(np.uint64)
    bits = (bits + 0x7FFF + ((bits >> 16) & 1)) >> 16 << 16
    out = bits.astype(np.uint32).view(np.float32)
    return np.where(np.isnan(a), a, out)


def representable(a, dtype):
    """\\p a rounded to what \\p dtype holds (as float32 for fp16/bf16), so
    that references compute on exactly the values the kernel reads."""
    a = np.asarray(a, dtype=np.float32)
    if dtype == "fp16":
        return a.astype(np.float16).astype(np.float32)
    if dtype == "bf16":
        return bf16_round(a)
    if dtype == "fp64":
        return a.astype(np.float64)
    return a


def skip_unless_dtype(dev, dtype):
    import pytest
    if dtype == "bf16" and not dev.has_bf16:
        pytest.skip(f"{dev.name} arrays have no bf16")
