"""tritium.testing: Triton's benchmarking and checking helpers, with its
names and arguments (docs/runtime.md). ``do_bench`` is the active driver's
(runtime/driver.py), ``perf_report``/``Benchmark``/``Mark`` are
benchmark_report.py's; ``assert_close`` compares on the host with NumPy.
"""

import numpy as np

from .benchmark_report import Benchmark, Mark, perf_report
from .runtime import driver as _driver
from .runtime.driver import _RETURN_MODES, do_bench
from .runtime.native import summarize as _summarize

__all__ = ["do_bench", "do_bench_cudagraph", "assert_close", "Benchmark", "Mark", "perf_report"]

def _torch_for_graphs(fn):
    """torch, when a CUDA graph can be captured; else the error saying why
    (NoBackendError without a GPU, as do_bench raises)."""
    drv = _driver.active.get()
    if isinstance(drv, _driver.NullDriver):
        drv.benchmark(fn)  # raises do_bench's NoBackendError
    try:
        import torch
    except ImportError:
        raise RuntimeError("do_bench_cudagraph needs torch: CUDA graphs are captured with "
                           "torch.cuda.graph (use do_bench without torch)") from None
    if not torch.cuda.is_available():
        raise _driver.NoBackendError("do_bench_cudagraph: torch sees no CUDA device")
    return torch


def _elapsed_ms(torch, run):
    """The GPU time of ``run()`` on the current stream, by CUDA events."""
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    start.record()
    run()
    end.record()
    torch.cuda.synchronize()
    return start.elapsed_time(end)


def do_bench_cudagraph(fn, rep=20, grad_to_none=None, quantiles=None, return_mode="mean"):
    """Runtime of ``fn()`` in milliseconds without launch overhead: ``fn`` is
    captured ``rep / estimate`` times into one CUDA graph (on a side stream,
    as capture needs), the graph is replayed 10 times, and each replay's time
    divided by the captured count is one sample. Returns the ``return_mode``
    statistic of the samples, or their ``quantiles`` (as do_bench)."""
    assert return_mode in _RETURN_MODES
    torch = _torch_for_graphs(fn)

    def clear_grads():
        for x in grad_to_none or ():
            x.grad = None

    def five_runs():
        for _ in range(5):
            fn()

    with torch.cuda.stream(torch.cuda.Stream()):
        fn()  # compiles and loads everything outside the capture
        for x in grad_to_none or ():
            x.detach_()
            x.requires_grad_(True)
            x.grad = None
        # Estimate one run from five plain launches: capturing a graph just
        # to estimate would cost more than the estimate is worth.
        estimate_ms = _elapsed_ms(torch, five_runs) / 5
        n_repeat = 1000 if estimate_ms == 0 else max(1, int(rep / estimate_ms))
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            for _ in range(n_repeat):
                clear_grads()
                fn()
        torch.cuda.synchronize()
        times = [_elapsed_ms(torch, graph.replay) / n_repeat for _ in range(10)]
    return _summarize(times, quantiles, return_mode)


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
