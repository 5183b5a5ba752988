"""The cpu target against numpy, torch (CPU) and Tritium's interpreter, on
this machine (issue 41's figures): the vector add (fp32, 2^24), the row
softmax (fp32, 4096 x 1024) and the matmul (fp32, 1024^3), each as a ratio
to numpy or torch (above 1: Tritium is faster), with the cold compile of
the vector add.

    python3 bench/bench_cpu.py [--quick] [--json OUT]

Times are medians of do_bench (the cpu driver times with the host clock);
numpy and torch are timed with the same loop. The interpreter runs a
smaller size, scaled up (it is linear in the elements)."""

import argparse
import json
import os
import statistics
import sys
import tempfile
import time

os.environ["TRITIUM_DEFAULT_BACKEND"] = "cpu"
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))

import numpy as np  # noqa: E402

import tritium  # noqa: E402
import tritium.language as tl  # noqa: E402


@tritium.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


@tritium.jit
def softmax_kernel(out_ptr, in_ptr, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * stride + cols, mask=mask, other=-float("inf"))
    e = tl.exp(x - tl.max(x, axis=0))
    tl.store(out_ptr + row * stride + cols, e / tl.sum(e, axis=0), mask=mask)


@tritium.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn, scm, scn,
                  BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * sam + rk[None, :] * sak
    b = b_ptr + rk[:, None] * sbk + rn[None, :] * sbn
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        acc += tl.dot(tl.load(a, mask=rk[None, :] < K - k * BK, other=0.0),
                      tl.load(b, mask=rk[:, None] < K - k * BK, other=0.0))
        a += BK * sak
        b += BK * sbk
    tl.store(c_ptr + rm[:, None] * scm + rn[None, :] * scn, acc,
             mask=(rm[:, None] < M) & (rn[None, :] < N))


def host_ms(fn, reps):
    fn()
    times = []
    for _ in range(reps):
        t = time.perf_counter()
        fn()
        times.append((time.perf_counter() - t) * 1e3)
    return statistics.median(times)


def interpreted(kernel):
    return tritium.jit(kernel.fn, interpret=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="smaller sizes, fewer repetitions")
    ap.add_argument("--json", help="write the figures here")
    args = ap.parse_args()
    reps = 5 if args.quick else 20
    try:
        import torch
    except ImportError:
        torch = None
    rows = []
    rng = np.random.default_rng(0)

    # Cold compile of the vector add: a fresh cache, the first launch.
    with tempfile.TemporaryDirectory() as cache:
        os.environ["TRITIUM_CACHE_DIR"] = cache
        fresh = tritium.jit(add_kernel.fn)
        x = np.ones(1024, np.float32)
        t = time.perf_counter()
        fresh[(1,)](x, x, x.copy(), 1024, BLOCK=1024)
        rows.append({"name": "add cold compile", "ms": (time.perf_counter() - t) * 1e3})

    n = 1 << (20 if args.quick else 24)
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    out = np.empty_like(x)
    grid = (tritium.cdiv(n, 1024),)
    t_ours = host_ms(lambda: add_kernel[grid](x, y, out, n, BLOCK=1024), reps)
    assert np.array_equal(out, x + y)
    t_np = host_ms(lambda: np.add(x, y, out=out), reps)
    small = 1 << 16
    t_int = host_ms(lambda: interpreted(add_kernel)[(small // 1024,)](x, y, out, small, BLOCK=1024),
                    2) * n / small
    rows.append({"name": f"add fp32 {n}", "ms": t_ours, "numpy_ms": t_np, "interpreter_ms": t_int})

    r, c = (1024, 1024) if args.quick else (4096, 1024)
    a = rng.standard_normal((r, c)).astype(np.float32)
    o = np.empty_like(a)
    t_ours = host_ms(lambda: softmax_kernel[(r,)](o, a, c, c, BLOCK=1024), reps)
    e = np.exp(a - a.max(axis=1, keepdims=True))
    assert np.allclose(o, e / e.sum(axis=1, keepdims=True), rtol=1e-4, atol=1e-6)
    row = {"name": f"softmax fp32 {r}x{c}", "ms": t_ours,
           "numpy_ms": host_ms(lambda: np.exp(a - a.max(axis=1, keepdims=True)) /
                               np.exp(a - a.max(axis=1, keepdims=True)).sum(axis=1, keepdims=True), reps)}
    if torch is not None:
        ta = torch.from_numpy(a)
        row["torch_ms"] = host_ms(lambda: torch.softmax(ta, dim=1), reps)
    # The interpreter on 64 rows, scaled to all of them.
    row["interpreter_ms"] = host_ms(lambda: interpreted(softmax_kernel)[(64,)](o, a, c, c, BLOCK=1024),
                                    2) * r / 64
    rows.append(row)

    s = 512 if args.quick else 1024
    a = rng.random((s, s), dtype=np.float32)
    b = rng.random((s, s), dtype=np.float32)
    cm = np.empty((s, s), np.float32)
    mm = lambda: matmul_kernel[(s // 64, s // 64)](a, b, cm, s, s, s, s, 1, s, 1, s, 1,  # noqa: E731
                                                   BM=64, BN=64, BK=32)
    t_ours = host_ms(mm, max(2, reps // 4))
    assert np.allclose(cm, a @ b, rtol=1e-3, atol=1e-2)
    # The interpreter on 4 of the (s/64)^2 output tiles, scaled to all of them.
    t_int = host_ms(lambda: interpreted(matmul_kernel)[(2, 2)](a, b, cm, s, s, s, s, 1, s, 1, s, 1,
                                                               BM=64, BN=64, BK=32), 1)
    rows.append({"name": f"matmul fp32 {s}^3", "ms": t_ours, "gflops": 2 * s**3 / t_ours / 1e6,
                 "numpy_ms": host_ms(lambda: np.matmul(a, b, out=cm), reps),
                 "interpreter_ms": t_int * (s // 64) ** 2 / 4})

    for row in rows:
        ratios = "  ".join(f"{k[:-3]} {row[k] / row['ms']:.2f}x" for k in row if k.endswith("_ms"))
        print(f"{row['name']:24s} {row['ms']:10.3f} ms  {ratios}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"threads": tritium.runtime.driver.active.properties()["num_threads"],
                       "rows": rows}, f, indent=1)


if __name__ == "__main__":
    main()
