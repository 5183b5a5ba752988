"""Differential fuzzing: random small kernels run on two backends (the
interpreter and the cpu target by default; the interpreter and cuda on a GPU)
and their results compared: exactly for integers and exact float operations,
within a tolerance where a kernel computes something inexact (transcendental
functions, division, float sums whose order may differ). A kernel both
backends reject is fine; one that only one rejects, or a difference, is a
finding. This found, in its first session: the cpu target's float-to-int
conversions (x86's INT_MIN for NaN), its integer division by zero (SIGFPE),
and the interpreter's loops accepting type changes the compiler rejects.

    python3 tests/fuzz/differential.py SEED COUNT OUTDIR [--big] [--backends interpreter,cuda]
        [--gpu-targets cuda:90a,cuda:80,hip:gfx90a]

Each kernel is written to OUTDIR (kSEEDnnnnn.py) and a finding's inputs beside
it (.npz). --gpu-targets also compiles each agreeing kernel for those targets
(ptxas checking NVIDIA's PTX). tests/python/runtime/test_differential.py runs
a fixed seed in the test suite."""
import argparse
import importlib.util
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.join(HERE, "..", "python"))
import numpy as np  # noqa: E402
from language.helpers import Backend  # noqa: E402

#: Functions the kernels call (tl.reduce's and tl.associative_scan's combines, a
#: helper, one returning a tuple).
COMBINE = """@tritium.jit
def comb_add(a, b):
    return a + b


@tritium.jit
def helper(x, y):
    return x * 2 + y


@tritium.jit
def pair(x, y):
    return x + y, x - y


@tritium.jit
def comb_max(a, b):
    return tl.where(a > b, a, b)


"""
INTS = ["int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64"]
FLOATS = ["float16", "bfloat16", "float32", "float64"]
#: Element types of the inputs, and their names in tl.
TL = {"int8": "tl.int8", "int16": "tl.int16", "int32": "tl.int32", "int64": "tl.int64",
      "uint8": "tl.uint8", "uint16": "tl.uint16", "uint32": "tl.uint32", "uint64": "tl.uint64",
      "float16": "tl.float16", "bfloat16": "tl.bfloat16", "float32": "tl.float32", "float64": "tl.float64"}


class Gen:
    """The lines of one kernel's body, each value a fresh name."""

    def __init__(self, rng):
        self.lines = []
        self.n = 0
        self.inexact = False

    def fresh(self):
        self.n += 1
        return f"v{self.n}"

    def emit(self, expr):
        v = self.fresh()
        self.lines.append(f"    {v} = {expr}")
        return v


def is_float(dt):
    return dt in FLOATS


def gen_kernel(rng, idx, big=False):
    """The source of kernel ``k<idx>`` and how to run it: (source, input
    dtypes, shape, output dtype, inexact, M, N, programs)."""
    g = Gen(rng)
    M = rng.choice([1, 2, 4, 8, 16] + ([32, 64] if big else []))
    N = rng.choice([2, 4, 8, 16, 32, 64] if not big else [64, 128, 256, 512])
    two_d = rng.random() < 0.7
    nin = rng.choice([1, 2, 3])
    dts = [rng.choice(INTS + FLOATS) for _ in range(nin)]
    if two_d:
        offs = "tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :]"
        shape = (M, N)
    else:
        offs = "tl.arange(0, N)"
        shape = (N,)
    G = rng.choice([1, 1, 2, 3])
    g.G = G
    g.lines.append(f"    offs = {offs}")
    if G > 1:
        g.lines.append(f"    offs = offs + tl.program_id(0) * {M * N if two_d else N}")
    vals = []  # (name, dtype-as-known or None, shape)
    for i in range(nin):
        if rng.random() < 0.3:
            v = g.emit(f"tl.load(in{i} + offs, mask=offs < n_valid, other={rng.choice(['0', '1', '3'])})")
        else:
            v = g.emit(f"tl.load(in{i} + offs)")
        vals.append(v)
    # Each value's dtype is unknown to us exactly after promotion; keep track roughly by "kind".
    kinds = {v: ("f" if is_float(d) else "i") for v, d in zip(vals, dts)}
    cur = list(vals)
    steps = rng.randint(2, 7)
    for _ in range(steps):
        a = rng.choice(cur)
        b = rng.choice(cur)
        ka, kb = kinds[a], kinds[b]
        op = rng.random()
        if two_d and rng.random() < 0.35:
            op = 0.915
        if op < 0.35:
            if ka == "i" and kb == "i":
                o = rng.choice(["+", "-", "*", "&", "|", "^", "//", "%", "<<", ">>", "min", "max"])
            else:
                o = rng.choice(["+", "-", "*", "/", "min", "max"])
            if o in ("//", "%"):
                # avoid division by zero (and INT_MIN // -1)
                den = g.emit(f"tl.where({b} == 0, 1, {b})")
                den = g.emit(f"tl.where({den} == -1, 1, {den})")
                v = g.emit(f"{a} {o} {den}")
            elif o in ("<<", ">>"):
                amt = g.emit(f"({b} & 7)")
                v = g.emit(f"{a} {o} {amt}")
            elif o == "/":
                den = g.emit(f"tl.where({b} == 0, 1, {b})")
                v = g.emit(f"{a} / {den}")
                g.inexact = True
            elif o in ("min", "max"):
                v = g.emit(f"tl.{'minimum' if o == 'min' else 'maximum'}({a}, {b})")
            else:
                v = g.emit(f"{a} {o} {b}")
            kinds[v] = "f" if "f" in (ka, kb) or o == "/" else "i"
        elif op < 0.45:
            c = g.emit(f"{a} {rng.choice(['<', '<=', '==', '!=', '>', '>='])} {b}")
            x = rng.choice(cur)
            y = rng.choice(cur)
            v = g.emit(f"tl.where({c}, {x}, {y})")
            kinds[v] = "f" if "f" in (kinds[x], kinds[y]) else "i"
        elif op < 0.55:
            dt = rng.choice(INTS + FLOATS)
            if ka == "f" and dt in INTS:
                # keep float->int in range: clamp to a small range first
                cl = g.emit(f"tl.clamp({a}, -100.0, 100.0)")
                if dt.startswith("uint"):
                    cl = g.emit(f"tl.abs({cl})")
                v = g.emit(f"{cl}.to({TL[dt]})")
            else:
                v = g.emit(f"{a}.to({TL[dt]})")
            kinds[v] = "f" if is_float(dt) else "i"
        elif op < 0.65:
            if ka == "f":
                f = rng.choice(["tl.exp", "tl.log", "tl.sqrt", "tl.abs", "-", "tl.sin", "tl.floor", "tl.ceil", "tl.exp2", "tl.sigmoid", "tl.erf"])
                if f in ("tl.log", "tl.sqrt"):
                    inner = g.emit(f"tl.abs({a}) + 1")
                    v = g.emit(f"{f}({inner})")
                elif f == "-":
                    v = g.emit(f"-{a}")
                elif f in ("tl.exp", "tl.exp2", "tl.sin"):
                    inner = g.emit(f"tl.clamp({a}, -10.0, 10.0)")
                    v = g.emit(f"{f}({inner})")
                else:
                    v = g.emit(f"{f}({a})")
                if f not in ("tl.abs", "-", "tl.floor", "tl.ceil"):
                    g.inexact = True
            else:
                f = rng.choice(["-", "~", "tl.abs"])
                v = g.emit(f"{f}({a})" if f != "-" else f"-{a}")
            kinds[v] = ka
        elif op < 0.8 and two_d:
            red = rng.choice(["tl.sum", "tl.max", "tl.min", "tl.cumsum", "tl.argmax", "tl.argmin", "tl.xor_sum" if ka == "i" else "tl.sum"])
            axis = rng.choice([0, 1])
            r = g.emit(f"{red}({a}, axis={axis})")
            if ka == "f" and red in ("tl.sum", "tl.cumsum"):
                g.inexact = True
            if red == "tl.cumsum":
                v = r
            else:
                v = g.emit(f"{r}[{':, None' if axis == 1 else 'None, :'}] + tl.zeros_like({a})")
            kinds[v] = "i" if red in ("tl.argmax", "tl.argmin") else ka
        elif op < 0.9 and two_d and M == N and op < 0.91:
            v = g.emit(f"tl.trans({a})")
            kinds[v] = ka
        elif op < 0.93 and two_d:
            kind = rng.choice(["func", "pair", "while", "break", "perm3d", "gather", "interleave", "scalarcond", "i64mul", "amax", "static", "creduce", "cscan", "flip", "cumprod", "sort", "reshape", "joinsplit", "umulhi", "fma", "loop", "if", "bitcast", "fp8", "dot"])
            if kind == "func":
                v = g.emit(f"helper({a}, {b})")
                kinds[v] = "f" if "f" in (ka, kb) else "i"
            elif kind == "pair":
                x0, x1 = g.fresh(), g.fresh()
                g.lines.append(f"    {x0}, {x1} = pair({a}, {b})")
                v = g.emit(f"{x0} * {x1}")
                kinds[v] = "f" if "f" in (ka, kb) else "i"
            elif kind == "while":
                acc = g.emit(f"{a} + 0")
                cnt = g.fresh()
                g.lines.append(f"    {cnt} = 0")
                g.lines.append(f"    while {cnt} < n_valid % 3:")
                g.lines.append(f"        {acc} = ({acc} + {b}).to({acc}.dtype)")
                g.lines.append(f"        {cnt} += 1")
                v = acc
            elif kind == "break":
                acc = g.emit(f"{a} + 0")
                g.lines.append("    for it in range(0, 5):")
                g.lines.append("        if it == n_valid % 4:")
                g.lines.append("            break")
                g.lines.append(f"        {acc} = ({acc} * 2 + it).to({acc}.dtype)")
                v = acc
            elif kind == "perm3d" and N % 2 == 0:
                r = g.emit(f"tl.reshape({a}, (M, 2, N // 2))")
                t = g.emit(f"tl.permute({r}, (1, 0, 2))")
                t2 = g.emit(f"{t} + 1")
                u = g.emit(f"tl.permute({t2}, (1, 0, 2))")
                v = g.emit(f"tl.reshape({u}, (M, N))")
            elif kind == "gather":
                gidx = g.emit("(tl.arange(0, N)[None, :] * 7 + tl.arange(0, M)[:, None]) % N")
                v = g.emit(f"tl.gather({a}, {gidx}, 1)")
            elif kind == "interleave":
                j = g.emit(f"tl.interleave({a}, {a} * 3)")
                r = g.emit(f"tl.reshape({j}, (M, N, 2))")
                x0, x1 = g.fresh(), g.fresh()
                g.lines.append(f"    {x0}, {x1} = tl.split({r})")
                v = g.emit(f"{x1} - {x0}")
            elif kind == "scalarcond":
                v = g.emit(f"tl.where(n_valid > {rng.choice([0, 5, 40])}, {a}, {b})")
                kinds[v] = "f" if "f" in (ka, kb) else "i"
            elif kind == "i64mul" and ka == "i":
                v = g.emit(f"{a}.to(tl.int64) * 3037000500 + {b}.to(tl.int64)")
                kinds[v] = "i"
            elif kind == "amax" and ka == "i":
                v = g.emit(f"{a} % 1000")
            elif kind == "static":
                acc = g.emit(f"{a} + 0")
                g.lines.append("    for it in tl.static_range(3):")
                g.lines.append(f"        {acc} = ({acc} + it * {b}).to({acc}.dtype)")
                v = acc
            elif kind == "creduce":
                axis = rng.choice([0, 1])
                r = g.emit(f"tl.reduce({a}, {axis}, comb_{rng.choice(['add', 'max'])})")
                v = g.emit(f"{r}[{':, None' if axis == 1 else 'None, :'}] + tl.zeros_like({a})")
                if ka == "f":
                    g.inexact = True
            elif kind == "cscan":
                v = g.emit(f"tl.associative_scan({a}, {rng.choice([0, 1])}, comb_{rng.choice(['add', 'max'])}, reverse={rng.choice([False, True])})")
                if ka == "f":
                    g.inexact = True
            elif kind == "flip":
                v = g.emit(f"tl.flip({a}, {rng.choice([0, 1])})")
            elif kind == "cumprod":
                v = g.emit(f"tl.cumprod({a}, axis={rng.choice([0, 1])}, reverse={rng.choice([False, True])})")
                if ka == "f":
                    g.inexact = True
            elif kind == "sort":
                v = g.emit(f"tl.sort({a}, dim={rng.choice([0, 1])}, descending={rng.choice([False, True])})") if (M & (M - 1)) == 0 else g.emit(f"{a} + 0")
            elif kind == "reshape":
                r = g.emit(f"tl.reshape({a}, (N, M))")
                v = g.emit(f"tl.reshape({r}, (M, N))")
            elif kind == "joinsplit":
                j = g.emit(f"tl.join({a}, {a} + 1)")
                x0, x1 = g.fresh(), g.fresh()
                g.lines.append(f"    {x0}, {x1} = tl.split({j})")
                v = g.emit(f"{x1} - {x0}" if ka == "i" else f"{x1} * {x0}")
            elif kind == "umulhi" and ka == "i":
                c = g.emit(f"{a}.to(tl.uint32)")
                d = g.emit(f"{b}.to(tl.uint32)")
                v = g.emit(f"tl.umulhi({c}, {d})")
            elif kind == "fma" and ka == "f":
                c = g.emit(f"{a}.to(tl.float32)")
                v = g.emit(f"tl.fma({c}, {c}, {c})")
            elif kind == "loop":
                acc = g.emit(f"{a} * 0")
                g.lines.append("    for it in range(0, n_valid % 4 + 1):")
                g.lines.append(f"        {acc} = ({acc} + {b} * it).to({acc}.dtype)")
                v = acc
                kinds[v] = "f" if "f" in (ka, kb) else "i"
            elif kind == "if":
                s_ = g.emit(f"tl.sum({a}.to(tl.int32) % 7)")
                v = g.emit(f"{a} + 0")
                g.lines.append(f"    if {s_} > 3:")
                g.lines.append(f"        {v} = {v} + 1")
                g.lines.append("    else:")
                g.lines.append(f"        {v} = {v} - 1")
            elif kind == "bitcast" and ka == "f":
                c = g.emit(f"{a}.to(tl.float32)")
                v = g.emit(f"{c}.to(tl.int32, bitcast=True)")
                kinds[v] = "i"
            elif kind == "fp8" and ka == "f":
                c = g.emit(f"tl.clamp({a}.to(tl.float32), -200.0, 200.0)")
                d = g.emit(f"{c}.to({rng.choice(['tl.float8e5', 'tl.float8e4nv'])})")
                v = g.emit(f"{d}.to(tl.float32)")
                kinds[v] = "f"
            elif kind == "dot" and M >= 16 and N >= 16 and M == N:
                c = g.emit(f"{a}.to(tl.float16)" if ka == "f" else f"{a}.to(tl.int8)")
                d = g.emit(f"{b}.to(tl.float16)" if ka == "f" else f"{b}.to(tl.int8)")
                v = g.emit(f"tl.dot({c}, {d})")
                if ka == "f":
                    g.inexact = True
            else:
                v = g.emit(f"{a} + {a}")
            kinds.setdefault(v, ka)
        else:
            v = g.emit(f"tl.where(offs % {rng.choice([2, 3, 5])} == 0, {a}, {b})")
            kinds[v] = "f" if "f" in (ka, kb) else "i"
        cur.append(v)
    out = cur[-1]
    if kinds[out] == "i" and rng.random() < 0.25:
        g.lines.append(f"    tl.atomic_add(out + offs % {rng.choice([1, 3, 7, 64])}, {out}.to(out.dtype.element_ty))")
    else:
        g.lines.append(f"    tl.store(out + offs, {out}.to(out.dtype.element_ty))")
    odt = "float64" if kinds[out] == "f" else "int64"
    params = ", ".join([f"in{i}" for i in range(nin)] + ["out", "n_valid", "M: tl.constexpr", "N: tl.constexpr"])
    src = "import tritium\nimport tritium.language as tl\n\n\n" + COMBINE + "@tritium.jit\n" + \
        f"def k{idx}({params}):\n" + "\n".join(g.lines) + "\n"
    if G > 1:
        shape = (G * shape[0],) + shape[1:]
    return src, dts, shape, odt, g.inexact, M, N, G


NPTY = {"int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8", "uint16": "u16",
        "uint32": "u32", "uint64": "u64", "float16": "fp16", "float32": "fp32", "float64": "fp64"}


def compile_gpu(fn, ins, odt, M, N, targets):
    """The errors of compiling ``fn`` for each of ``targets`` (empty: none)."""
    from tritium.compiler.compiler import ASTSource, compile as tcompile
    sig = {i: "*" + NPTY[str(a.dtype)] for i, a in enumerate(ins)}
    sig[len(ins)] = "*" + NPTY[odt]
    sig[len(ins) + 1] = "i32"
    sig[len(ins) + 2] = "constexpr"
    sig[len(ins) + 3] = "constexpr"
    errors = []
    for t in targets:
        try:
            k = tcompile(ASTSource(fn, sig, constexprs={"M": M, "N": N}), target=t, options={"num_warps": 4})
            if t.startswith("cuda"):
                k.asm["cubin"]  # ptxas checks the PTX
        except Exception as e:  # noqa: BLE001
            errors.append(f"{t}: {type(e).__name__}: {str(e)[:400]}")
    return errors


def make_input(rng_np, dt, shape):
    """Random values of ``dt``: small or over the whole range for integers,
    normal at three scales for floats."""
    if dt in INTS:
        info = np.iinfo(dt)
        choice = rng_np.random()
        if choice < 0.5:
            a = rng_np.integers(-20 if info.min < 0 else 0, 20, size=shape)
        else:
            a = rng_np.integers(info.min, info.max, size=shape, dtype=dt, endpoint=True)
        return np.asarray(a).astype(dt)
    if dt == "bfloat16":
        return None
    a = (rng_np.standard_normal(shape) * rng_np.choice([1, 4, 100])).astype(dt)
    return a


def _close(x, y, inexact, fp16):
    if np.array_equal(x, y, equal_nan=True):
        return True
    if not inexact:
        return False
    # fp16 sums and scans in another order differ by a few ulps of the
    # largest partial sum, which cancellation leaves beside small results.
    finite = np.abs(y[np.isfinite(y)]) if fp16 else None
    atol = 1e-2 * float(finite.max()) if fp16 and finite.size else 1e-5
    return np.allclose(x, y, rtol=1e-2 if fp16 else 2e-3, atol=max(atol, 1e-5), equal_nan=True)


def run(seed, count, outdir, big=False, backends=("interpreter", "cpu"), gpu_targets=(), log=print):
    """Runs ``count`` kernels of ``seed``; returns the counts per outcome and
    the findings (one text each: the kernel, what differed)."""
    os.makedirs(outdir, exist_ok=True)
    os.environ.setdefault("TRITIUM_DEFAULT_FP_FUSION", "0")  # the interpreter fuses no fma
    rng = random.Random(seed)
    first, second = Backend(backends[0]), Backend(backends[1])
    stats = {"same": 0, "diff": 0, "err_both": 0, "err_one": 0, "gpu_err": 0}
    findings = []
    for i in range(count):
        idx = seed * 100000 + i
        src, dts, shape, odt, inexact, M, N, G = gen_kernel(rng, idx, big)
        dts = ["float16" if d == "bfloat16" else d for d in dts]  # numpy has no bf16: loads of fp16
        path = os.path.join(outdir, f"k{idx}.py")
        with open(path, "w") as f:
            f.write(src)
        spec = importlib.util.spec_from_file_location(f"k{idx}", path)
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        fn = getattr(mod, f"k{idx}")
        rng_np = np.random.default_rng(idx)
        ins = [make_input(rng_np, d, shape) for d in dts]
        n_valid = int(rng_np.integers(0, np.prod(shape) + 1)) if rng.random() < 0.5 else int(np.prod(shape))
        nw = rng.choice([1, 2, 4, 8])
        res = []
        for be in (first, second):
            try:
                arrays = be.run(fn, G, *ins, np.zeros(shape, dtype=odt), n_valid, M=M, N=N, num_warps=nw)
                res.append(("ok", arrays[len(ins)]))
            except Exception as e:  # noqa: BLE001
                res.append(("err", f"{type(e).__name__}: {str(e)[:300]}"))
        (a, x), (b, y) = res
        if a == b == "err":
            stats["err_both"] += 1
            continue
        if a != b:
            stats["err_one"] += 1
            what = f"{first.name}: {x}" if a == "err" else f"{second.name}: {y}"
            finding = f"k{idx}: only {what}"
        elif _close(x, y, inexact, "float16" in src or "float16" in dts):
            stats["same"] += 1
            errors = compile_gpu(fn, ins, odt, M, N, gpu_targets) if gpu_targets else []
            stats["gpu_err"] += len(errors)
            if not errors:
                continue
            finding = f"k{idx}: " + "; ".join(errors)
        else:
            stats["diff"] += 1
            bad = np.argwhere(~np.isclose(x, y, equal_nan=True, rtol=0, atol=0))
            j = tuple(int(v) for v in bad[0])
            finding = (f"k{idx}: num_warps={nw} inputs {dts} n_valid={n_valid}: at {j} {first.name} {x[j]!r}, "
                       f"{second.name} {y[j]!r} ({len(bad)} differ)")
        np.savez(os.path.join(outdir, f"k{idx}.npz"), *ins, n_valid=n_valid, M=M, N=N, programs=G)
        findings.append(finding + "\n" + src)
        log("== " + findings[-1])
    log(f"seed {seed}: {stats}")
    return stats, findings


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("seed", type=int)
    ap.add_argument("count", type=int)
    ap.add_argument("outdir")
    ap.add_argument("--big", action="store_true", help="rows of 64 to 512 elements, up to 64 rows")
    ap.add_argument("--backends", default="interpreter,cpu")
    ap.add_argument("--gpu-targets", default="", help="also compile each agreeing kernel for these")
    args = ap.parse_args()
    run(args.seed, args.count, args.outdir, args.big, tuple(args.backends.split(",")),
        tuple(t for t in args.gpu_targets.split(",") if t), log=lambda m: print(m, flush=True))


if __name__ == "__main__":
    main()
