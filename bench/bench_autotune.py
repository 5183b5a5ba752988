"""Autotuning time: the tutorial matmul tuned over 8 configs, Tritium beside
Triton, each in a fresh process with empty caches (issue 17's bar: less
than a third of Triton's wall time, a choice within 3 % of Triton's).

    PYTHONPATH=python python3 bench/bench_autotune.py [--size 4096] [--reps 3] [--json OUT]

For each package, the wall time of the first launch (compile the 8 configs,
time them, launch the winner), the config it chose, and that config's
TFLOP/s; then Tritium's kernel with Triton's choice, the speed Tritium's
choice is compared with. Medians over --reps fresh processes.
"""

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

# (BLOCK_M, BLOCK_N, BLOCK_K, num_stages, num_warps): the spread a matmul
# tuner usually offers on this card.
CONFIGS = [(128, 256, 64, 3, 8), (64, 256, 32, 4, 4), (128, 128, 32, 4, 4), (128, 64, 32, 4, 4),
           (64, 128, 32, 4, 4), (128, 32, 32, 4, 4), (64, 32, 32, 5, 2), (32, 64, 32, 5, 2)]

CHILD = r"""
import json, sys, time
sys.path.insert(0, {here!r})
import torch
from bench_gpu import bench, load_kernels
import {pkg} as pkg
mod = load_kernels("tune_kernels", pkg)
size, forced = {size}, {forced!r}
configs = [pkg.Config({{"BLOCK_M": m, "BLOCK_N": n, "BLOCK_K": k, "GROUP_M": 8}}, num_stages=s, num_warps=w)
           for m, n, k, s, w in ([forced] if forced else {configs!r})]
tuned = pkg.autotune(configs=configs, key=["M", "N", "K"])(mod.matmul_kernel)
a = torch.randn(size, size, device="cuda", dtype=torch.float16)
b = torch.randn(size, size, device="cuda", dtype=torch.float16)
c = torch.empty(size, size, device="cuda", dtype=torch.float16)
grid = lambda m: (pkg.cdiv(size, m["BLOCK_M"]) * pkg.cdiv(size, m["BLOCK_N"]),)
run = lambda: tuned[grid](a, b, c, size, size, size, a.stride(0), a.stride(1), b.stride(0), b.stride(1),
                          c.stride(0), c.stride(1))
torch.cuda.synchronize()
t0 = time.perf_counter()
run()
torch.cuda.synchronize()
wall = time.perf_counter() - t0
torch.testing.assert_close(c.float(), a.float() @ b.float(), rtol=2e-2, atol=2e-1)
best = tuned.best_config
chosen = [best.kwargs[k] for k in ("BLOCK_M", "BLOCK_N", "BLOCK_K")] + [best.num_stages, best.num_warps]
print(json.dumps({{"wall_s": wall, "config": chosen, "tflops": 2 * size ** 3 / bench(run) * 1e-9}}))
"""


def child(pkg, size, forced=None):
    env = dict(os.environ, TRITIUM_CACHE_DIR=tempfile.mkdtemp(prefix="tune-tritium-"),
               TRITON_CACHE_DIR=tempfile.mkdtemp(prefix="tune-triton-"))
    code = CHILD.format(here=HERE, pkg=pkg, size=size, forced=forced, configs=CONFIGS)
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{pkg} failed:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args()
    runs = {pkg: [child(pkg, args.size) for _ in range(args.reps)] for pkg in ("tritium", "triton")}
    for pkg, rs in runs.items():
        walls = ", ".join(f"{r['wall_s']:.2f}" for r in rs)
        print(f"{pkg}: tuning wall {statistics.median(r['wall_s'] for r in rs):.2f} s "
              f"(runs {walls}), chose "
              f"{[r['config'] for r in rs]}, {statistics.median(r['tflops'] for r in rs):.0f} TFLOP/s", flush=True)
    ratio = statistics.median(r["wall_s"] for r in runs["tritium"]) / statistics.median(
        r["wall_s"] for r in runs["triton"])
    theirs = runs["triton"][0]["config"]
    ours_with_theirs = child("tritium", args.size, tuple(theirs))["tflops"]
    ours = statistics.median(r["tflops"] for r in runs["tritium"])
    print(f"tuning wall Tritium / Triton {ratio:.2f}; Tritium's choice {ours:.0f} TFLOP/s vs Triton's "
          f"choice {theirs} on Tritium {ours_with_theirs:.0f} ({ours / ours_with_theirs:.3f}x)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"runs": runs, "tritium_with_triton_choice_tflops": ours_with_theirs}, f, indent=2)


if __name__ == "__main__":
    main()
