"""tritium.testing: do_bench and assert_close (Triton's names and arguments).

``do_bench`` times on the GPU through the active driver's ``benchmark``
(runtime/driver.py); without a GPU backend it raises NoBackendError.
``assert_close`` compares on the host with NumPy; tensors are moved there
through ``.cpu().numpy()`` (torch) or ``numpy.asarray``.
"""

import numpy as np

from .runtime import driver as _driver

__all__ = ["do_bench", "assert_close"]


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Runtime of ``fn()`` in milliseconds: one value (``return_mode``:
    "min", "max", "mean", "median", "all") or the given ``quantiles``."""
    assert return_mode in ("min", "max", "mean", "median", "all")
    if grad_to_none is not None:
        inner = fn

        def fn():
            for x in grad_to_none:
                x.grad = None
            return inner()
    return _driver.active.get().benchmark(fn, quantiles=quantiles, warmup=warmup, rep=rep,
                                          return_mode=return_mode)


def _to_numpy(x):
    if hasattr(x, "detach"):
        x = x.detach()
    if hasattr(x, "cpu") and not isinstance(x, np.ndarray):
        x = x.cpu()
    if hasattr(x, "numpy") and not isinstance(x, np.ndarray):
        x = x.numpy()
    return np.asarray(x)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """Asserts ``|x - y| <= atol + rtol * |y|`` elementwise (defaults: 1e-2
    both, as in Triton); raises AssertionError with the worst element."""
    atol = 1e-2 if atol is None else atol
    rtol = 1e-2 if rtol is None else rtol
    a = _to_numpy(x)
    b = _to_numpy(y)
    if a.dtype == np.bool_ or b.dtype == np.bool_:
        if not np.array_equal(a, b):
            raise AssertionError(f"{err_msg} boolean arrays differ")
        return
    a = a.astype(np.float64)
    b = b.astype(np.float64)
    if a.shape != b.shape:
        a, b = np.broadcast_arrays(a, b)
    err = np.abs(a - b)
    bad = ~(err <= atol + rtol * np.abs(b)) & ~(np.isnan(a) & np.isnan(b))
    if bad.any():
        i = np.unravel_index(np.argmax(np.where(bad, err, -1)), a.shape)
        raise AssertionError(
            f"{err_msg} {int(bad.sum())} of {a.size} elements differ beyond atol={atol}, "
            f"rtol={rtol}; worst at index {tuple(int(j) for j in i)}: {a[i]} vs {b[i]}".strip())
