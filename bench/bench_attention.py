"""Tutorial-06 attention forward (bench/kernels_src.py) on Tritium, Triton and torch.

    PYTHONPATH=python python3 bench/bench_attention.py [--shapes 4,32,4096,64;4,32,4096,128]
        [--causal 0,1] [--stages 3] [--json OUT]

Runs Tritium and torch's SDPA in this process and Triton 3.6 in two child
processes: its default path and its Ampere path (DISABLE_MMA_V3=1, mma.sync
like Tritium's), with the same num_stages. Each package's output is checked
against SDPA before it is timed; each gets the best of the same
configurations (BLOCK_M, BLOCK_N, num_warps). Prints TFLOP/s and Tritium's
ratios.
"""

import argparse
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "python"))

from bench_gpu import bench, load_kernels, time_checked, triton_children  # noqa: E402

CONFIGS = [(128, 64, 4), (128, 64, 8), (64, 64, 4), (128, 128, 8)]
# At D=128, 128x64 with 4 warps needs more than a thread's 255 registers:
# its 128x128 fp32 accumulator and 128x64 scores alone take 192, its two
# pointer tensors 32 more. Both compilers spill there (docs/performance.md,
# 2026-12-04); --all-configs times it anyway.
OVER_REGISTERS = {(128, (128, 64, 4))}


def run_package(package, shapes, causals, stages, all_configs=False):
    import torch
    if package == "tritium":
        import tritium as backend
    else:
        import triton as backend
    mod = load_kernels(package + "_attention", backend)
    out = {}
    for shape in shapes:
        Z, H, S, D = shape
        torch.manual_seed(0)
        q, k, v = (torch.randn(Z, H, S, D, device="cuda", dtype=torch.float16) * 0.5
                   for _ in range(3))
        sm_scale = D ** -0.5
        for causal in causals:
            ref = torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=bool(causal),
                                                                   scale=sm_scale)
            flops = 4 * Z * H * S * S * D * (0.5 if causal else 1.0)
            name = f"{Z}x{H}x{S}x{D}_causal{causal}"
            best = 0.0
            for bm, bn, nw in CONFIGS:
                if bn > D or (not all_configs and (D, (bm, bn, nw)) in OVER_REGISTERS):
                    continue
                o = torch.empty_like(q)
                m = torch.empty(Z * H, S, device="cuda", dtype=torch.float32)

                def fn(bm=bm, bn=bn, nw=nw, o=o, m=m):
                    return mod.attn_fwd[(S // bm, Z * H)](q, k, v, sm_scale, m, o, *q.stride(),
                                                          *k.stride(), *v.stride(), *o.stride(),
                                                          H, S, HEAD_DIM=D, BLOCK_M=bm,
                                                          BLOCK_N=bn, STAGE=3 if causal else 1,
                                                          num_warps=nw, num_stages=stages)
                label = f"{package} {name} {bm}x{bn}/{nw}"
                ms = time_checked(label, fn,
                                  lambda o=o: (o.float() - ref.float()).abs().max().item(), 2e-2)
                if ms is None:
                    continue
                tflops = flops / ms * 1e-9
                kernel = fn()  # compiled already: its registers and spills
                print(f"  {label}: {tflops:.1f} TFLOP/s ({kernel.n_regs} registers, "
                      f"{kernel.n_spills} spilled)", file=sys.stderr, flush=True)
                best = max(best, tflops)
            out[name] = best
            if package == "tritium":
                ms = bench(lambda: torch.nn.functional.scaled_dot_product_attention(
                    q, k, v, is_causal=bool(causal), scale=sm_scale), rep=20)
                out["sdpa_" + name] = flops / ms * 1e-9
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shapes", default="4,32,4096,64;4,32,4096,128")
    ap.add_argument("--causal", default="0,1")
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--all-configs", action="store_true",
                    help="also the configurations that exceed the register file")
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    shapes = [tuple(int(x) for x in s.split(",")) for s in args.shapes.split(";")]
    causals = [int(c) for c in args.causal.split(",")]
    if args.child:
        print(json.dumps(run_package(args.child, shapes, causals, args.stages, args.all_configs)))
        return
    results = {"tritium": run_package("tritium", shapes, causals, args.stages, args.all_configs)}
    results.update(triton_children(__file__, ["--shapes", args.shapes, "--causal", args.causal,
                                              "--stages", str(args.stages)]
                                   + (["--all-configs"] if args.all_configs else [])))
    print(f"attention forward TFLOP/s, num_stages={args.stages} (best of the configs in "
          f"CONFIGS{'' if args.all_configs else ' that fit the register file'})")
    print(f"{'case':32} {'tritium':>8} {'triton':>8} {'mma_v2':>8} {'sdpa':>8} "
          f"{'/triton':>8} {'/mma_v2':>8}")
    t = results["tritium"]
    for name in (k for k in t if not k.startswith("sdpa_")):
        tri = results["triton"].get(name, 0.0)
        v2 = results["triton_mma_v2"].get(name, 0.0)
        print(f"{name:32} {t[name]:8.1f} {tri:8.1f} {v2:8.1f} {t['sdpa_' + name]:8.1f} "
              f"{t[name] / tri if tri else 0:8.3f} {t[name] / v2 if v2 else 0:8.3f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"stages": args.stages, **results}, f, indent=2)


if __name__ == "__main__":
    main()
