"""Tutorial matmul (bench/kernels_src.py) on tensor cores: Tritium, Triton, torch.

    PYTHONPATH=python python3 bench/bench_matmul.py [--stages 1] [--sizes 4096,8192]
        [--dtypes float16,bfloat16,float32,float8_e4m3fn] [--descriptors] [--json OUT]

Runs Tritium and torch in this process and Triton 3.6 in two child
processes: its default path and its Ampere path (DISABLE_MMA_V3=1, mma.sync
like Tritium's), each with the same num_stages. Every kernel's output is
checked against torch before it is timed; each package gets the best of
the same block configurations (float32, on tf32, with half the BLOCK_K;
fp8, with B K-major as Triton's fp8 tutorial passes it, twice the BLOCK_K;
no torch figure for fp8). Prints TFLOP/s and Tritium's ratios.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "python"))

from bench_gpu import bench, load_kernels, time_checked, triton_children  # noqa: E402

# (BLOCK_M, BLOCK_N, BLOCK_K, num_warps)
CONFIGS = [(128, 128, 64, 4), (128, 256, 64, 8), (128, 128, 32, 4), (64, 128, 64, 4),
           (128, 64, 64, 4), (256, 128, 64, 8)]


def run_package(package, sizes, dtypes, stages, configs, descriptors=False, kernel_name="matmul_kernel"):
    import torch
    if package == "tritium":
        import tritium as backend
        from tritium.tools.tensor_descriptor import TensorDescriptor
    else:
        import triton as backend
        from triton.tools.tensor_descriptor import TensorDescriptor
    mod = load_kernels(package + "_matmul", backend)
    out = {}
    # float32 runs on tf32 (tl.dot's default precision; torch told the same).
    torch.backends.cuda.matmul.allow_tf32 = True
    for dtype in dtypes:
        dt = getattr(torch, dtype)
        fp8 = dtype.startswith("float8")
        for n in sizes:
            torch.manual_seed(0)
            if fp8:
                a = torch.randn(n, n, device="cuda").to(dt)
                b = torch.randn(n, n, device="cuda").to(dt)
                # K-major B, as Triton's fp8 tutorial passes it: wgmma has
                # no transpose for 8-bit inputs.
                b = b.t().contiguous().t()
            else:
                a = torch.randn(n, n, device="cuda", dtype=dt)
                b = torch.randn(n, n, device="cuda", dtype=dt)
            ref = (a.float() @ b.float()).half()
            best = 0.0
            for bm, bn, bk, nw in configs:
                if dtype == "float32":
                    bk //= 2  # the same shared memory and fragment bytes per K tile
                if fp8:
                    bk *= 2
                c = torch.empty(n, n, device="cuda", dtype=torch.float16)
                grid = (triton_cdiv(n, bm) * triton_cdiv(n, bn),)

                def fn(bm=bm, bn=bn, bk=bk, nw=nw, c=c):
                    return getattr(mod, kernel_name)[grid](a, b, c, n, n, n, a.stride(0), a.stride(1),
                                                   b.stride(0), b.stride(1), c.stride(0),
                                                   c.stride(1), BLOCK_M=bm, BLOCK_N=bn,
                                                   BLOCK_K=bk, GROUP_M=8, num_warps=nw,
                                                   num_stages=stages)
                if descriptors:
                    def fn(bm=bm, bn=bn, bk=bk, nw=nw, c=c):
                        return mod.matmul_desc_kernel[grid](
                            TensorDescriptor.from_tensor(a, [bm, bk]), TensorDescriptor.from_tensor(b, [bk, bn]),
                            TensorDescriptor.from_tensor(c, [bm, bn]), n, n, n, BLOCK_M=bm, BLOCK_N=bn,
                            BLOCK_K=bk, GROUP_M=8, num_warps=nw, num_stages=stages)
                label = f"{package} {dtype} {n} {bm}x{bn}x{bk}/{nw}" + (" desc" if descriptors else "")
                ms = time_checked(label, fn,
                                  lambda c=c: (c.float() - ref.float()).abs().max().item(),
                                  0.5 + 0.02 * ref.float().abs().max().item())
                if ms is None:
                    continue
                tflops = 2 * n ** 3 / ms * 1e-9
                kernel = fn()  # compiled already: its registers and spills
                print(f"  {label}: {tflops:.1f} TFLOP/s ({kernel.n_regs} registers, "
                      f"{kernel.n_spills} spilled)", file=sys.stderr, flush=True)
                best = max(best, tflops)
            out[f"{dtype}_{n}"] = best
            if package == "tritium" and not fp8 and not descriptors:  # torch.matmul has no fp8
                ms = bench(lambda: torch.matmul(a, b), rep=20)
                out[f"torch_{dtype}_{n}"] = 2 * n ** 3 / ms * 1e-9
    return out


def triton_cdiv(a, b):
    return (a + b - 1) // b


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--stages", type=int, default=1)
    ap.add_argument("--sizes", default="4096,8192")
    ap.add_argument("--dtypes", default="float16,bfloat16")
    ap.add_argument("--configs", type=int, default=len(CONFIGS), help="how many of CONFIGS")
    ap.add_argument("--descriptors", action="store_true",
                    help="the kernel through host-side tensor descriptors (Triton: TMA)")
    ap.add_argument("--kernel", default="matmul_kernel",
                    help="the pointer kernel of kernels_src.py (matmul_peeled_kernel: K tail peeled)")
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    dtypes = args.dtypes.split(",")
    configs = CONFIGS[:args.configs]
    if args.child:
        print(json.dumps(run_package(args.child, sizes, dtypes, args.stages, configs, args.descriptors,
                                     args.kernel)))
        return
    results = {"tritium": run_package("tritium", sizes, dtypes, args.stages, configs, args.descriptors,
                                      args.kernel)}
    results.update(triton_children(__file__, ["--stages", str(args.stages), "--sizes", args.sizes,
                                              "--dtypes", args.dtypes, "--configs", str(args.configs),
                                               "--kernel", args.kernel]
                                   + (["--descriptors"] if args.descriptors else [])))
    print(f"{args.kernel} TFLOP/s, num_stages={args.stages} (best of {len(configs)} configs)"
          + (", host tensor descriptors" if args.descriptors else ""))
    print(f"{'case':<16}{'tritium':>9}{'triton':>9}{'tr.mma2':>9}{'torch':>9}"
          f"{'/triton':>9}{'/mma2':>8}{'/torch':>8}")
    for key, t in results["tritium"].items():
        if key.startswith("torch_"):
            continue
        tr = results["triton"].get(key, 0.0)
        t2 = results["triton_mma_v2"].get(key, 0.0)
        to = results["tritium"].get("torch_" + key, 0.0)
        ratio = lambda x: f"{t / x:.2f}" if x else "-"  # noqa: E731
        print(f"{key:<16}{t:9.1f}{tr:9.1f}{t2:9.1f}{to:9.1f}{ratio(tr):>9}{ratio(t2):>8}"
              f"{ratio(to):>8}")
    print("JSON " + json.dumps(results))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"stages": args.stages, "descriptors": args.descriptors, **results}, f, indent=2)


if __name__ == "__main__":
    main()
