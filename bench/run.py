"""The whole benchmark suite on the GPU, one command: Tritium beside Triton
and torch, in the same run (issue 17).

    PYTHONPATH=python python3 bench/run.py [--quick] [--out DIR] [--docs]
    python3 bench/run.py --report DIR [--docs]     (tables and plots again)

Runs bench_gpu.py (vector add, softmax, layer norm, launch overhead, cold
compile with Tritium's stage breakdown), bench_matmul.py (fp16, bf16, fp8;
3 stages), bench_attention.py and bench_autotune.py, each in its own
process writing JSON under DIR (default bench/results/<date>-<time>), with
a progress line per measurement (the scripts' own, passed through). Then
it writes DIR/*.csv, DIR/tables.md (Tritium's ratios to Triton and torch)
and DIR/*.png (bar charts, where matplotlib is installed); --docs puts the
tables into docs/performance.md as a dated section under its introduction.
"""

import argparse
import csv
import datetime
import json
import os
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DOCS = os.path.join(HERE, "..", "docs", "performance.md")

#: (name, script, arguments; "quick" arguments)
STEPS = [
    ("gpu", "bench_gpu.py", [], ["--quick", "--cold-reps", "2"]),
    ("matmul", "bench_matmul.py", ["--stages", "3", "--dtypes", "float16,bfloat16,float8_e4m3fn"],
     ["--stages", "3", "--sizes", "4096", "--configs", "2"]),
    ("attention", "bench_attention.py", ["--stages", "3"], ["--stages", "3", "--shapes", "4,32,4096,64"]),
    ("autotune", "bench_autotune.py", ["--reps", "2"], ["--reps", "1"]),
]


def run_steps(out, quick):
    for i, (name, script, full, short) in enumerate(STEPS, 1):
        argv = [sys.executable, os.path.join(HERE, script), *(short if quick else full),
                "--json", os.path.join(out, name + ".json")]
        print(f"[{i}/{len(STEPS)}] {name}: {' '.join(argv[1:])}", flush=True)
        t0 = time.perf_counter()
        code = subprocess.call(argv)  # its progress lines go straight through
        print(f"[{i}/{len(STEPS)}] {name}: {'done' if code == 0 else f'FAILED ({code})'} in "
              f"{time.perf_counter() - t0:.0f} s", flush=True)


def ratio(a, b):
    return f"{a / b:.2f}" if a and b else "-"


def tables(out):
    """{table name: (header, rows)} from the JSON files in ``out``."""
    def load(name):
        path = os.path.join(out, name + ".json")
        return json.load(open(path)) if os.path.exists(path) else None
    t = {}
    gpu = load("gpu")
    if gpu:
        t["bandwidth"] = (["kernel", "Tritium GB/s", "Triton GB/s", "torch GB/s", "/Triton", "/torch"],
                          [[r["name"], f"{r['tritium_gbs']:.0f}", f"{r['triton_gbs']:.0f}",
                            f"{r['torch_gbs']:.0f}", ratio(r["tritium_gbs"], r["triton_gbs"]),
                            ratio(r["tritium_gbs"], r["torch_gbs"])] for r in gpu["rows"]])
        us = gpu["launch_us"]
        t["launch"] = (["host launch overhead", "Tritium µs", "Triton µs", "torch µs"],
                       [["4-argument kernel, best round of 200", f"{us['tritium']:.2f}",
                         f"{us['triton']:.2f}", f"{us['torch']:.2f}"]])
        cold, stages = gpu["cold_compile_ms"], gpu.get("cold_compile_stages_ms", {})
        kernels = [k[len("tritium_"):-len("_ms")] for k in cold if k.startswith("tritium_")]
        t["cold_compile"] = (["kernel", "Tritium ms", "Triton ms", "/Triton", "Tritium's stages (ms)"],
                             [[k, f"{cold['tritium_' + k + '_ms']:.1f}",
                               f"{cold.get('triton_' + k + '_ms', 0):.1f}",
                               ratio(cold["tritium_" + k + "_ms"], cold.get("triton_" + k + "_ms")),
                               ", ".join(f"{s} {v:.1f}" for s, v in stages.get(k, {}).items())]
                              for k in kernels])
    for name, other in (("matmul", "torch_"), ("attention", "sdpa_")):
        res = load(name)
        if not res:
            continue
        ours = res["tritium"]
        t[name] = (["case", "Tritium TFLOP/s", "Triton", "Triton mma.sync", "torch", "/Triton", "/torch"],
                   [[case, f"{v:.1f}", f"{res['triton'].get(case, 0):.1f}",
                     f"{res.get('triton_mma_v2', {}).get(case, 0):.1f}", f"{ours.get(other + case, 0):.1f}",
                     ratio(v, res["triton"].get(case)), ratio(v, ours.get(other + case))]
                    for case, v in ours.items() if not case.startswith(other)])
    tune = load("autotune")
    if tune:
        runs = tune["runs"]
        rows = []
        for pkg in ("tritium", "triton"):
            walls = sorted(r["wall_s"] for r in runs[pkg])
            rows.append([pkg, f"{walls[len(walls) // 2]:.2f}", str(runs[pkg][0]["config"]),
                         f"{runs[pkg][0]['tflops']:.0f}"])
        t["autotune"] = (["autotuning 8 configs", "wall s (median)", "chosen config", "TFLOP/s"], rows)
    return t, (gpu or {}).get("device", "?")


def markdown(t):
    out = []
    for name, (header, rows) in t.items():
        out.append(f"**{name.replace('_', ' ')}**\n")
        out.append("| " + " | ".join(header) + " |")
        out.append("|" + " --- |" * len(header))
        out.extend("| " + " | ".join(r) + " |" for r in rows)
        out.append("")
    return "\n".join(out)


def plot(t, out):
    """One bar chart per table: its numeric columns side by side per row."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        print("matplotlib is not installed: no plots", file=sys.stderr)
        return []
    written = []
    for name, (header, rows) in t.items():
        cols = [i for i in range(1, len(header)) if not header[i].startswith("/")
                and all(_number(r[i]) is not None for r in rows)]
        if not rows or not cols:
            continue
        fig, ax = plt.subplots(figsize=(max(6, 1.6 * len(rows)), 4))
        width = 0.8 / len(cols)
        for j, i in enumerate(cols):
            ax.bar([k + j * width for k in range(len(rows))], [_number(r[i]) for r in rows], width,
                   label=header[i])
        ax.set_xticks([k + 0.4 - width / 2 for k in range(len(rows))], [r[0] for r in rows], rotation=20,
                      ha="right", fontsize=8)
        ax.set_title(name.replace("_", " "))
        ax.legend(fontsize=8)
        fig.tight_layout()
        path = os.path.join(out, name + ".png")
        fig.savefig(path, dpi=100)
        plt.close(fig)
        written.append(path)
    return written


def _number(text):
    try:
        return float(text)
    except ValueError:
        return None


def report(out, docs=None, command="bench/run.py"):
    t, device = tables(out)
    for name, (header, rows) in t.items():
        with open(os.path.join(out, name + ".csv"), "w", newline="") as f:
            csv.writer(f).writerows([header, *rows])
    text = markdown(t)
    with open(os.path.join(out, "tables.md"), "w") as f:
        f.write(text)
    plot(t, out)
    if docs:
        section = (f"## {datetime.date.today()} — `{command}` (results in `{os.path.relpath(out, os.path.dirname(docs))}`)\n\n"
                   f"Machine: {device}, one call; ratios are Tritium's.\n\n{text}\n")
        body = open(docs).read()
        at = body.find("\n## ")
        body = body + "\n" + section if at < 0 else body[:at + 1] + section + "\n" + body[at + 1:]
        with open(docs, "w") as f:
            f.write(body)
    print(text)
    return t


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--quick", action="store_true", help="smaller sizes and fewer repetitions")
    ap.add_argument("--out", help="where the JSON, CSV, tables and plots go")
    ap.add_argument("--report", metavar="DIR", help="only the tables and plots of an earlier run")
    ap.add_argument("--docs", action="store_true", help="add the tables to docs/performance.md")
    args = ap.parse_args()
    out = args.report or args.out or os.path.join(
        HERE, "results", datetime.datetime.now().strftime("%Y-%m-%d-%H%M"))
    os.makedirs(out, exist_ok=True)
    if not args.report:
        run_steps(out, args.quick)
    report(out, DOCS if args.docs else None, "bench/run.py" + (" --quick" if args.quick else ""))


if __name__ == "__main__":
    main()
