"""Host-side cost of a warm launch: kernel[grid](...) with a driver whose
launcher does nothing, so only Tritium's Python path is timed.

    PYTHONPATH=python python3 bench/launch_overhead.py

Prints microseconds per launch (best of 5 rounds) for a few argument mixes.
The kernel is compiled once, before timing; nothing here needs a GPU.
"""

import os
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
os.environ.setdefault("TRITIUM_CACHE_DIR", tempfile.mkdtemp(prefix="tritium-bench-"))

import tritium  # noqa: E402
import tritium.language as tl  # noqa: E402
from tritium.runtime import driver  # noqa: E402


class NoopDriver(driver.Driver):
    def is_active(self):
        return True

    def get_current_target(self):
        return tritium.compiler.parse_target("cuda:90")

    def get_current_device(self):
        return 0

    def get_current_stream(self, device):
        return 0

    def make_launcher(self, kernel):
        return lambda gx, gy, gz, stream, args: None


class Tensor:
    dtype = "float32"

    def data_ptr(self):
        return 0x10000


@tritium.jit
def add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


def best_us(fn, n=20000, rounds=5):
    best = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        best = min(best, (time.perf_counter() - t0) / n)
    return best * 1e6


def main():
    driver.set_active(NoopDriver())
    x, y, out = Tensor(), Tensor(), Tensor()
    grid = (1024,)
    add[grid](x, y, out, 4096, BLOCK=1024)  # compile
    cases = {
        "tuple grid, constexpr by keyword": lambda: add[grid](x, y, out, 4096, BLOCK=1024),
        "tuple grid, plus num_warps": lambda: add[grid](x, y, out, 4096, BLOCK=1024,
                                                        num_warps=4),
        "callable grid": lambda: add[lambda m: (tritium.cdiv(m["n"], m["BLOCK"]),)](
            x, y, out, 4096, BLOCK=1024),
        "baseline: a Python call with 5 args": lambda: (lambda a, b, c, d, e: None)(
            x, y, out, 4096, 1024),
    }
    for name, fn in cases.items():
        print(f"{best_us(fn):7.2f} us  {name}")


if __name__ == "__main__":
    main()
