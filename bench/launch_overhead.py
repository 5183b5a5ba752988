"""Host cost of a warm launch: kernel[grid](x, y, out, n) of a 4-argument kernel.

    PYTHONPATH=python python3 bench/launch_overhead.py [--rounds R] [--launches N]
                                                       [--clock wall|cpu]

With a GPU (libcuda loads and reports a device, torch is installed): Tritium's
warm launch of a vector add, Triton's warm launch of the same kernel (when
triton is installed) and torch's x.add_(y), in this process, on the same
torch tensors. Each is timed in rounds of N launches started on an idle
device (host time only: the round ends before synchronizing, and N stays
below the driver's queue depth); the best round counts. Printed: us per
launch and each one's ratio to Tritium's.

Without a GPU: the same launches through the fake driver of tests/fakecuda
(built with the tests), so Tritium's native path is timed up to the
cuLaunchKernel call (the fake's cuLaunchKernel counts and returns); tensors
are stand-ins whose data_ptr is a C function, as torch's is. Also timed:
the Python path every Driver without native launches takes (a launcher that
does nothing). Nothing here needs a GPU.
"""

import argparse
import itertools
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
if "tritium" not in sys.modules:
    sys.path.insert(0, os.path.join(REPO, "python"))
sys.path.insert(0, os.path.join(REPO, "tests", "fakecuda"))
os.environ.setdefault("TRITIUM_CACHE_DIR", tempfile.mkdtemp(prefix="tritium-bench-"))

import tritium  # noqa: E402
import tritium.language as tl  # noqa: E402
from tritium.compiler import compiler  # noqa: E402
from tritium.runtime import CudaDriver, driver  # noqa: E402


@tritium.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


class Timer:
    """Times cases round-robin (so that a busy machine slows all of them
    alike) and keeps each one's best round."""

    def __init__(self, rounds, launches, clock, sync=None):
        self.rounds, self.launches, self.sync = rounds, launches, sync
        self.clock = time.process_time if clock == "cpu" else time.perf_counter

    def best_us(self, cases):
        """{name: fn} -> {name: microseconds per call of fn in its best round}."""
        best = dict.fromkeys(cases, float("inf"))
        for fn in cases.values():
            fn()
        for _ in range(self.rounds):
            for name, fn in cases.items():
                if self.sync:
                    self.sync()
                t0 = self.clock()
                for _ in range(self.launches):
                    fn()
                best[name] = min(best[name], (self.clock() - t0) / self.launches)
        if self.sync:
            self.sync()
        return {name: t * 1e6 for name, t in best.items()}


def report(title, results, reference):
    print(title)
    ref = results.get(reference)
    for name, us in results.items():
        ratio = f"  {us / ref:5.2f}x" if ref else ""
        print(f"  {us:7.2f} us{ratio}  {name}")


# -- with a GPU -----------------------------------------------------------------

def triton_add():
    try:
        import triton
        import triton.language as ttl
    except ImportError:
        return None

    @triton.jit
    def triton_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: ttl.constexpr):
        offs = ttl.program_id(0) * BLOCK + ttl.arange(0, BLOCK)
        mask = offs < n
        ttl.store(out_ptr + offs,
                  ttl.load(x_ptr + offs, mask=mask) + ttl.load(y_ptr + offs, mask=mask),
                  mask=mask)
    return triton_add_kernel


def bench_gpu(drv, args):
    import torch
    driver.set_active(drv)
    n = 1024
    x, y = torch.rand(n, device="cuda"), torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    grid = (n // 256,)
    k = None
    try:
        k = add[grid](x, y, out, n, BLOCK=256)
        torch.cuda.synchronize()
        assert torch.equal(out, x + y), "Tritium's vector add is wrong"
    except Exception as e:  # time the launch path with a stub kernel instead
        print(f"(Tritium's compiled add failed: {type(e).__name__}: {e}; timing an empty "
              "kernel with the same parameters)")
        import fakecuda
        compiler.register_backend("cuda", fakecuda.StubBackend())
        add.device_caches.clear()
    timer = Timer(args.rounds, args.launches, args.clock, torch.cuda.synchronize)
    cases = {"Tritium kernel[grid](x, y, out, n)": lambda: add[grid](x, y, out, n, BLOCK=256)}
    tk = triton_add()
    if tk is not None:
        cases["Triton kernel[grid](x, y, out, n)"] = lambda: tk[grid](x, y, out, n, BLOCK=256)
    else:
        print("(triton is not installed: no Triton figure)")
    cases["torch x.add_(y)"] = lambda: x.add_(y)
    # Where Tritium's time goes: its two halves, and the torch calls they make.
    if getattr(add, "_fast_launch", None) is not None and getattr(k, "launcher", None) is not None:
        fast, launcher, a, kw = add._fast_launch, k.launcher, (x, y, out, n), {"BLOCK": 256}
        stream = torch.cuda.current_stream().cuda_stream
        cases["  the dispatcher alone: launch(grid, args, kwargs)"] = lambda: fast(grid, a, kw)
        cases["  the launcher alone: launcher(gx, gy, gz, stream, args)"] = \
            lambda: launcher(grid[0], 1, 1, stream, a)
    cases["  3 x data_ptr()"] = lambda: (x.data_ptr(), y.data_ptr(), out.data_ptr())
    cases["  3 x untyped_storage().nbytes()"] = lambda: (
        x.untyped_storage().nbytes(), y.untyped_storage().nbytes(), out.untyped_storage().nbytes())
    cases["  torch.cuda.current_stream().cuda_stream"] = lambda: torch.cuda.current_stream().cuda_stream
    results = timer.best_us(cases)
    report(f"Warm launch, host time ({torch.cuda.get_device_name()}, best of {args.rounds} "
           f"rounds of {args.launches}):", results, "Tritium kernel[grid](x, y, out, n)")


# -- without a GPU ---------------------------------------------------------------

class CTensor:
    """A stand-in tensor whose data_ptr() is a C function, as torch's is."""
    dtype = "float32"

    def __init__(self, ptr):
        self.data_ptr = itertools.repeat(ptr).__next__


class NoopDriver(driver.Driver):
    """A driver whose launcher is a Python function that does nothing."""

    def is_active(self):
        return True

    def get_current_target(self):
        return compiler.parse_target("cuda:90")

    def get_current_device(self):
        return 0

    def get_current_stream(self, device):
        return 0

    def make_launcher(self, kernel):
        return lambda gx, gy, gz, stream, args: None


def bench_fake(args):
    import fakecuda
    path = fakecuda.find_library()
    if path is None:
        print("no GPU and no fake driver: build the tests (tests/fakecuda needs cuda.h)")
        return
    fake = fakecuda.FakeCuda(path)
    drv = CudaDriver(path)
    driver.set_active(drv)
    compiler.register_backend("cuda", fakecuda.StubBackend())
    x, y, out = CTensor(0x7F0000000000), CTensor(0x7F0000100000), CTensor(0x7F0000200000)
    grid = (4,)
    k = add[grid](x, y, out, 4096, BLOCK=1024)
    fake.set("record", 0)  # count launches, do not log them
    fast, launcher = add._fast_launch, k.launcher
    a, kw = (x, y, out, 4096), {"BLOCK": 1024}
    timer = Timer(args.rounds, args.launches, args.clock)
    results = timer.best_us({
        "kernel[grid](x, y, out, n, BLOCK=1024)":
            lambda: add[grid](x, y, out, 4096, BLOCK=1024),
        "  with a grid callable":
            lambda: add[lambda m: (tritium.cdiv(m["n"], m["BLOCK"]),)](x, y, out, 4096,
                                                                        BLOCK=1024),
        "  with num_warps=4 too": lambda: add[grid](x, y, out, 4096, BLOCK=1024, num_warps=4),
        "kernel.run(...)": lambda: add.run(x, y, out, 4096, grid=grid, warmup=False, BLOCK=1024),
        "the dispatcher alone: launch(grid, args, kwargs)": lambda: fast(grid, a, kw),
        "the launcher alone: launcher(gx, gy, gz, stream, args)":
            lambda: launcher(4, 1, 1, 0, a),
        "baseline: a Python call with 5 arguments":
            lambda: (lambda a, b, c, d, e: None)(x, y, out, 4096, 1024),
    })
    report(f"Warm launch through the fake driver ({os.path.relpath(path, REPO)}), "
           f"up to cuLaunchKernel (best of {args.rounds} rounds of {args.launches}):",
           results, "kernel[grid](x, y, out, n, BLOCK=1024)")

    driver.set_active(NoopDriver())
    add[grid](x, y, out, 4096, BLOCK=1024)
    results = timer.best_us({"kernel[grid](x, y, out, n, BLOCK=1024)":
                             lambda: add[grid](x, y, out, 4096, BLOCK=1024)})
    report("A Python driver whose launcher does nothing:", results, None)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=50)
    p.add_argument("--launches", type=int, default=200)
    p.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                   help="cpu: process time, steadier on a busy machine")
    args = p.parse_args()
    drv = CudaDriver("")
    if drv.is_active():
        try:
            import torch  # noqa: F401
        except ImportError:
            print("a GPU but no torch: timing through the fake driver instead")
        else:
            return bench_gpu(drv, args)
    bench_fake(args)


if __name__ == "__main__":
    main()
