"""The tutorial matmul's hot loop in SASS, Tritium beside Triton, with no GPU.

    PYTHONPATH=python python3 bench/sass_loops.py [--dtype fp16] [--config 128,256,64,8]
        [--stages 3] [--arch 90a] [--out DIR]

Both packages compile bench/kernels_src.py's matmul_kernel for the same
specialization the benchmarks launch (16-byte aligned pointers and sizes,
unit inner strides) through their AOT entry (ASTSource, compile): Tritium in
this process; Triton in a child process with the interpreter named by
TRITON_PYTHON (default: the first python3 on PATH that imports triton; the
wheel brings its own ptxas and cuobjdump, which the disassembly uses). Prints
each kernel's registers, then the innermost loop of each (the code between a
backward branch and its target that holds an HGMMA, else the longest such
loop) side by side, and counts its instructions by opcode. The cubins, PTX and
SASS are written to --out.

What it is for (issue 39): the pointer loop's remaining gap is in how ptxas
scheduled the same instructions; this shows the two loops without a GPU.
"""

import argparse
import collections
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SIG = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_ak", "stride_bk", "stride_bn",
       "stride_cm", "stride_cn", "BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M"]
ALIGNED = ["a_ptr", "b_ptr", "c_ptr", "M", "N", "K", "stride_am", "stride_bk", "stride_cm"]
UNIT = ["stride_ak", "stride_bn", "stride_cn"]


def signature(dtype, config):
    bm, bn, bk, _ = config
    types = {n: ("*" + dtype if n in ("a_ptr", "b_ptr") else "*fp16" if n == "c_ptr" else "i32") for n in SIG}
    const = dict(zip(["BLOCK_M", "BLOCK_N", "BLOCK_K", "GROUP_M"], [bm, bn, bk, 8]))
    const.update({n: 1 for n in UNIT})
    types.update({n: "constexpr" for n in const})
    return types, const


def load_kernels(package):
    backend = __import__(package)
    sys.modules["triton"], sys.modules["triton.language"] = backend, backend.language
    spec = importlib.util.spec_from_file_location("kernels_src", os.path.join(HERE, "kernels_src.py"))
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def compile_tritium(args, config):
    from tritium.compiler.compiler import ASTSource, compile
    types, const = signature(args.dtype, config)
    attrs = {SIG.index(n): {"divisibility": 16} for n in ALIGNED}
    src = ASTSource(load_kernels("tritium").matmul_kernel, {i: types[n] for i, n in enumerate(SIG)},
                    constexprs=const, attrs=attrs)
    k = compile(src, target="cuda:" + args.arch, options={"num_warps": config[3], "num_stages": args.stages})
    return k.asm["cubin"], k.asm["ptx"]


# Run by the child process (Triton's interpreter): the same kernel, written out.
TRITON_CHILD = r"""
import json, sys
sys.path.insert(0, {here!r})
import sass_loops as S
import triton
from triton.backends.compiler import GPUTarget
from triton.compiler import ASTSource
args = json.loads(sys.argv[1])
types, const = S.signature(args["dtype"], args["config"])
attrs = {{(S.SIG.index(n),): [["tt.divisibility", 16]] for n in S.ALIGNED}}
src = ASTSource(S.load_kernels("triton").matmul_kernel, types, const, attrs)
arch = args["arch"]
k = triton.compile(src, target=GPUTarget("cuda", int(arch.rstrip("a")), 32),
                   options={{"num_warps": args["config"][3], "num_stages": args["stages"]}})
open(args["out"] + "/triton.cubin", "wb").write(k.asm["cubin"])
open(args["out"] + "/triton.ptx", "w").write(k.asm["ptx"])
"""


def triton_python():
    if os.environ.get("TRITON_PYTHON"):
        return os.environ["TRITON_PYTHON"]
    for path in os.environ.get("PATH", "").split(os.pathsep):
        exe = os.path.join(path, "python3")
        if os.path.exists(exe) and subprocess.run([exe, "-c", "import triton"],
                                                  capture_output=True).returncode == 0:
            return exe
    return None


def cuobjdump_for(python):
    """Triton's wheel ships cuobjdump beside its ptxas; else the toolkit's."""
    if python:
        out = subprocess.run([python, "-c", "import triton, os; print(os.path.dirname(triton.__file__))"],
                             capture_output=True, text=True).stdout.strip()
        exe = os.path.join(out, "backends", "nvidia", "bin", "cuobjdump")
        if os.path.exists(exe):
            return exe
    return shutil.which("cuobjdump")


def registers(cuobjdump, cubin_path):
    text = subprocess.run([cuobjdump, "-res-usage", cubin_path], capture_output=True, text=True).stdout
    m = re.search(r"REG:(\d+)", text)
    return int(m.group(1)) if m else None


def sass(cuobjdump, cubin_path):
    text = subprocess.run([cuobjdump, "-sass", cubin_path], capture_output=True, text=True, check=True).stdout
    lines = []
    for line in text.splitlines():
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m:
            lines.append((int(m.group(1), 16), m.group(2)))
    return lines


def hot_loop(lines):
    """The instructions of the loop that holds an HGMMA (else the longest one)."""
    loops = []
    for i, (_, text) in enumerate(lines):
        m = re.search(r"\bBRA\s+(?:`\(\.L_x_\d+\)|0x([0-9a-f]+))", text)
        if m and m.group(1):
            target = int(m.group(1), 16)
            start = next((j for j, (addr, _) in enumerate(lines) if addr == target), None)
            if start is not None and start < i:
                loops.append(lines[start:i + 1])
    with_mma = [loop for loop in loops if any("HGMMA" in t or "HMMA" in t for _, t in loop)]
    return min(with_mma, key=len) if with_mma else max(loops or [[]], key=len)


def opcode(text):
    words = text.split()
    word = words[1] if words and words[0].startswith("@") and len(words) > 1 else words[0]
    return word.split(".")[0]


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--dtype", default="fp16")
    ap.add_argument("--config", default="128,256,64,8", help="BLOCK_M,BLOCK_N,BLOCK_K,num_warps")
    ap.add_argument("--stages", type=int, default=3)
    ap.add_argument("--arch", default="90a")
    ap.add_argument("--out", default="/tmp/sass_loops")
    args = ap.parse_args()
    config = [int(x) for x in args.config.split(",")]
    os.makedirs(args.out, exist_ok=True)

    cubin, ptx = compile_tritium(args, config)
    open(os.path.join(args.out, "tritium.cubin"), "wb").write(cubin)
    open(os.path.join(args.out, "tritium.ptx"), "w").write(ptx)
    kernels = ["tritium"]
    python = triton_python()
    if python:
        child = subprocess.run([python, "-c", TRITON_CHILD.format(here=HERE),
                                json.dumps({"dtype": args.dtype, "config": config, "stages": args.stages,
                                            "arch": args.arch, "out": args.out})],
                               capture_output=True, text=True)
        if child.returncode == 0:
            kernels.append("triton")
        else:
            print("triton failed:", child.stderr.strip().splitlines()[-1:], file=sys.stderr)
    else:
        print("no python3 with triton (TRITON_PYTHON=...): Tritium alone", file=sys.stderr)
    cuobjdump = cuobjdump_for(python)
    if not cuobjdump:
        sys.exit("no cuobjdump (the CUDA toolkit's, or Triton's wheel's)")

    loops = {}
    for name in kernels:
        cubin_path = os.path.join(args.out, name + ".cubin")
        lines = sass(cuobjdump, cubin_path)
        with open(os.path.join(args.out, name + ".sass"), "w") as f:
            f.writelines(f"{addr:06x}  {text}\n" for addr, text in lines)
        loops[name] = [text for _, text in hot_loop(lines)]
        print(f"{name}: {registers(cuobjdump, cubin_path)} registers, hot loop {len(loops[name])} instructions")
    names = list(loops)
    width = 64
    for row in range(max(len(v) for v in loops.values())):
        cells = [(loops[n][row] if row < len(loops[n]) else "")[:width] for n in names]
        print("  ".join(f"{c:{width}s}" for c in cells))
    counts = {n: collections.Counter(opcode(t) for t in loops[n]) for n in names}
    ops = sorted(set().union(*counts.values()), key=lambda op: -sum(c[op] for c in counts.values()))
    print("opcode      " + "".join(f"{n:>10s}" for n in names))
    for op in ops:
        print(f"{op:12s}" + "".join(f"{counts[n][op]:10d}" for n in names))


if __name__ == "__main__":
    main()
