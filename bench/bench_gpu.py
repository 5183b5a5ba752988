"""Tritium side by side with Triton and torch on one GPU, in one process.

    PYTHONPATH=python python3 bench/bench_gpu.py [--quick] [--json OUT]

Prints a table of GB/s (and ratios to Triton and torch) for vector add,
row softmax and layer norm forward; host launch overhead of a 4-argument
kernel; and cold compile times (empty caches, process started) with the
per-stage breakdown of Tritium. Every kernel's output is checked against
torch before it is timed.
"""

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time

# Cold compiles must compile: the CUDA driver's JIT cache (~/.nv/ComputeCache)
# would otherwise serve the PTX that Tritium leaves to the driver for small
# kernels (TRITIUM_DRIVER_JIT_BYTES) from the second repetition on. Read
# when the driver initializes, so set before torch or Tritium touch it.
os.environ.setdefault("CUDA_CACHE_DISABLE", "1")

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "python"))


def load_kernels(name, backend):
    """kernels_src.py compiled by ``backend`` (triton or tritium)."""
    saved = {k: sys.modules.get(k) for k in ("triton", "triton.language")}
    sys.modules["triton"] = backend
    sys.modules["triton.language"] = backend.language
    try:
        spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, "kernels_src.py"))
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
    finally:
        for k, v in saved.items():
            if v is None:
                sys.modules.pop(k, None)
            else:
                sys.modules[k] = v
    return mod


def bench(fn, rep=200):
    """Median time in ms with CUDA events (L2 flushed between runs)."""
    import torch
    cache = torch.empty(256 * 1024 * 1024 // 4, dtype=torch.int32, device="cuda")
    for _ in range(10):
        fn()
    torch.cuda.synchronize()
    starts = [torch.cuda.Event(enable_timing=True) for _ in range(rep)]
    ends = [torch.cuda.Event(enable_timing=True) for _ in range(rep)]
    for s, e in zip(starts, ends):
        cache.zero_()
        s.record()
        fn()
        e.record()
    torch.cuda.synchronize()
    times = sorted(s.elapsed_time(e) for s, e in zip(starts, ends))
    return times[len(times) // 2]


def time_checked(label, fn, error, tolerance, rep=20):
    """Median ms of ``fn`` (bench) after one run whose ``error()`` is at
    most ``tolerance``; None, said on stderr, when that run raises (a config
    the package cannot take) or is wrong."""
    import torch
    try:
        fn()
        torch.cuda.synchronize()
    except Exception as e:
        print(f"  {label}: {type(e).__name__}", file=sys.stderr)
        return None
    err = error()
    if err > tolerance:
        print(f"  {label}: WRONG (max err {err})", file=sys.stderr)
        return None
    return bench(fn, rep=rep)


def triton_children(script, args):
    """Runs ``script --child triton ARGS`` for Triton's default path and for
    its Ampere path (DISABLE_MMA_V3=1, a separate process); each one's JSON
    result by label ("triton", "triton_mma_v2"; {} for a child that failed)."""
    results = {}
    for label, env in [("triton", {}), ("triton_mma_v2", {"DISABLE_MMA_V3": "1"})]:
        r = subprocess.run([sys.executable, script, "--child", "triton", *args],
                           env=dict(os.environ, **env), capture_output=True, text=True)
        sys.stderr.write(r.stderr)
        results[label] = json.loads(r.stdout.strip().splitlines()[-1]) if r.returncode == 0 else {}
    return results


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--json")
    ap.add_argument("--cold-reps", type=int, default=5, help="cold compiles of each kernel (median)")
    args = ap.parse_args()
    import torch
    import triton
    import tritium
    rows = []
    results = {"device": torch.cuda.get_device_name(), "torch": torch.__version__,
               "triton": triton.__version__, "tritium": tritium.__version__, "rows": rows}

    os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-cache-")
    os.environ["TRITIUM_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritium-cache-")
    tk = load_kernels("bench_triton", triton)
    mk = load_kernels("bench_tritium", tritium)
    dev = "cuda"

    def record(name, gbytes, fns, check):
        res = {"name": name}
        outs = {}
        for label, fn in fns.items():
            out = fn()
            torch.cuda.synchronize()
            outs[label] = out
        for label, out in outs.items():
            check(label, out)
        for label, fn in fns.items():
            ms = bench(fn, rep=50 if args.quick else 200)
            res[label + "_ms"] = ms
            res[label + "_gbs"] = gbytes / (ms * 1e-3)
        res["vs_triton"] = res["tritium_gbs"] / res["triton_gbs"]
        res["vs_torch"] = res["tritium_gbs"] / res["torch_gbs"]
        rows.append(res)
        print(f"{name:34s} tritium {res['tritium_gbs']:8.0f} GB/s  triton {res['triton_gbs']:8.0f}"
              f"  torch {res['torch_gbs']:8.0f}  ratio/triton {res['vs_triton']:.3f}"
              f"  ratio/torch {res['vs_torch']:.3f}", flush=True)

    # Vector add fp32, 2^28 elements.
    n = 1 << (24 if args.quick else 28)
    x = torch.rand(n, device=dev)
    y = torch.rand(n, device=dev)
    ref = x + y
    outs = {k: torch.empty_like(x) for k in ("tritium", "triton")}
    grid = (triton.cdiv(n, 1024),)

    def chk(ref):
        def check(label, out):
            torch.testing.assert_close(out, ref, rtol=1e-5, atol=1e-5, msg=lambda m: f"{label}: {m}")
        return check
    record(f"vector add fp32 2^{n.bit_length() - 1}", 3 * n * 4 / 1e9, {
        "tritium": lambda: (mk.add_kernel[grid](x, y, outs["tritium"], n, BLOCK=1024), outs["tritium"])[1],
        "triton": lambda: (tk.add_kernel[grid](x, y, outs["triton"], n, BLOCK=1024), outs["triton"])[1],
        "torch": lambda: torch.add(x, y),
    }, chk(ref))

    # Row softmax fp32.
    for M, N in ([(4096, 1024), (1024, 8192)] if args.quick else [(32768, 1024), (8192, 8192)]):
        a = torch.randn(M, N, device=dev)
        ref = torch.softmax(a, dim=1)
        o = {k: torch.empty_like(a) for k in ("tritium", "triton")}
        block = triton.next_power_of_2(N)
        nw = 4 if block <= 1024 else (8 if block <= 4096 else 16)

        def run(mod, out, nw=nw, block=block, a=a, M=M, N=N):
            mod.softmax_kernel[(M,)](out, a, a.stride(0), out.stride(0), M, N, BLOCK=block, num_warps=nw)
            return out

        def check(label, out, ref=ref):
            torch.testing.assert_close(out, ref, rtol=1e-4, atol=1e-6, msg=lambda m: f"{label}: {m}")
        record(f"softmax fp32 {M}x{N}", 2 * M * N * 4 / 1e9, {
            "tritium": lambda run=run, o=o: run(mk, o["tritium"]),
            "triton": lambda run=run, o=o: run(tk, o["triton"]),
            "torch": lambda a=a: torch.softmax(a, dim=1),
        }, check)

    # Layer norm forward fp16.
    for M, N in ([(1024, 4096)] if args.quick else [(4096, 4096), (4096, 8192)]):
        xx = torch.randn(M, N, device=dev, dtype=torch.float16)
        w = torch.rand(N, device=dev, dtype=torch.float16)
        b = torch.rand(N, device=dev, dtype=torch.float16)
        ref = torch.nn.functional.layer_norm(xx, (N,), w, b, 1e-5)
        bufs = {k: (torch.empty_like(xx), torch.empty(M, device=dev), torch.empty(M, device=dev))
                for k in ("tritium", "triton")}
        block = min(65536 // xx.element_size(), triton.next_power_of_2(N))
        nw = min(max(block // 256, 1), 8)

        def run(mod, bufs, xx=xx, w=w, b=b, M=M, N=N, block=block, nw=nw):
            y, mean, rstd = bufs
            mod.layer_norm_fwd[(M,)](xx, y, w, b, mean, rstd, xx.stride(0), N, 1e-5, BLOCK=block, num_warps=nw)
            return y

        def check(label, out, ref=ref):
            torch.testing.assert_close(out, ref, rtol=1e-2, atol=1e-2, msg=lambda m: f"{label}: {m}")
        record(f"layer norm fwd fp16 {M}x{N}", 2 * M * N * 2 / 1e9, {
            "tritium": lambda run=run, bufs=bufs: run(mk, bufs["tritium"]),
            "triton": lambda run=run, bufs=bufs: run(tk, bufs["triton"]),
            "torch": lambda xx=xx, w=w, b=b, N=N: torch.nn.functional.layer_norm(xx, (N,), w, b, 1e-5),
        }, check)

    # Host launch overhead: a tiny 4-argument kernel, launches back to back.
    a1 = torch.ones(1, device=dev)
    b1 = torch.ones(1, device=dev)
    c1 = torch.empty(1, device=dev)
    # Rounds of 200 launches (below the driver's queue depth, so the host
    # never waits for the GPU), round-robin over the three so that a busy
    # moment slows them alike; the best round counts.
    launches = {"tritium": lambda: mk.tiny_kernel[(1,)](a1, b1, c1, 3),
                "triton": lambda: tk.tiny_kernel[(1,)](a1, b1, c1, 3),
                "torch": lambda: a1.add_(1)}
    for launch in launches.values():
        for _ in range(100):
            launch()
    torch.cuda.synchronize()
    overhead = dict.fromkeys(launches, float("inf"))
    for _ in range(30):
        for label, launch in launches.items():
            t0 = time.perf_counter()
            for _ in range(200):
                launch()
            overhead[label] = min(overhead[label], (time.perf_counter() - t0) / 200 * 1e6)
            torch.cuda.synchronize()
    results["launch_us"] = overhead
    print("launch overhead (us, host time per launch): " +
          ", ".join(f"{k} {v:.2f}" for k, v in overhead.items()), flush=True)

    # Cold compile: the first launch of a freshly loaded kernel with empty
    # cache directories, process already started. Repeated (a new copy of
    # the kernels and new cache dirs each time, both compilers alternating)
    # and the median kept: one compile swings by 1.5x on this machine.
    os.environ["TRITIUM_PRINT_STAGE_TIMES"] = "1"
    a = torch.randn(128, 1024, device=dev)
    o = torch.empty_like(a)
    A = torch.randn(512, 512, device=dev, dtype=torch.float16)
    Bm = torch.randn(512, 512, device=dev, dtype=torch.float16)
    C = torch.empty(512, 512, device=dev, dtype=torch.float16)
    samples, stages = {}, {}

    def breakdown(label, kernel, name):
        # Tritium's stage times of the first cold compile (compile_times, s).
        if label == "tritium" and name not in stages:
            stages[name] = {k: v * 1e3 for k, v in getattr(kernel, "compile_times", {}).items()}
    for rep in range(args.cold_reps):
        os.environ["TRITIUM_CACHE_DIR"] = tempfile.mkdtemp(prefix="tritium-cold-")
        os.environ["TRITON_CACHE_DIR"] = tempfile.mkdtemp(prefix="triton-cold-")
        mods = (("tritium", load_kernels(f"bench_tritium_cold{rep}", tritium)),
                ("triton", load_kernels(f"bench_triton_cold{rep}", triton)))
        for label, mod in mods:
            t0 = time.perf_counter()
            k = mod.add_kernel[(1,)](a1, b1, c1, 1, BLOCK=1024)
            torch.cuda.synchronize()
            samples.setdefault(label + "_add_ms", []).append((time.perf_counter() - t0) * 1e3)
            breakdown(label, k, "add")
        for label, mod in mods:
            t0 = time.perf_counter()
            k = mod.softmax_kernel[(128,)](o, a, a.stride(0), o.stride(0), 128, 1024, BLOCK=1024)
            torch.cuda.synchronize()
            samples.setdefault(label + "_softmax_ms", []).append((time.perf_counter() - t0) * 1e3)
            breakdown(label, k, "softmax")
        for label, mod in mods:
            t0 = time.perf_counter()
            k = mod.matmul_kernel[(64,)](A, Bm, C, 512, 512, 512, A.stride(0), A.stride(1), Bm.stride(0),
                                         Bm.stride(1), C.stride(0), C.stride(1), BLOCK_M=64, BLOCK_N=64,
                                         BLOCK_K=32, GROUP_M=8)
            torch.cuda.synchronize()
            samples.setdefault(label + "_matmul_ms", []).append((time.perf_counter() - t0) * 1e3)
            breakdown(label, k, "matmul")
            torch.testing.assert_close(C.float(), (A.float() @ Bm.float()), rtol=2e-2, atol=2e-1)
        # The tile bench_matmul.py benchmarks (mma.sync, 8 warps): issue 9's
        # compile-time bar.
        for label, mod in mods:
            t0 = time.perf_counter()
            k = mod.matmul_kernel[(8,)](A, Bm, C, 512, 512, 512, A.stride(0), A.stride(1), Bm.stride(0),
                                        Bm.stride(1), C.stride(0), C.stride(1), BLOCK_M=128, BLOCK_N=256,
                                        BLOCK_K=64, GROUP_M=8, num_warps=8)
            torch.cuda.synchronize()
            samples.setdefault(label + "_matmul_128x256x64_ms", []).append((time.perf_counter() - t0) * 1e3)
            breakdown(label, k, "matmul_128x256x64")
            torch.testing.assert_close(C.float(), (A.float() @ Bm.float()), rtol=2e-2, atol=2e-1)
        os.environ["TRITIUM_PRINT_STAGE_TIMES"] = "0"  # the first repetition's breakdown is enough
    cold = {k: sorted(v)[len(v) // 2] for k, v in samples.items()}
    results["cold_compile_samples_ms"] = samples
    results["cold_compile_ms"] = cold
    results["cold_compile_stages_ms"] = stages
    print(f"cold compile (ms, first launch incl. compile, median of {args.cold_reps}): " +
          ", ".join(f"{k} {v:.1f}" for k, v in cold.items()), flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=2)


if __name__ == "__main__":
    main()
