"""The C++ tools given hostile input: tritium-opt and tritium-translate on
garbage, truncated, huge, deeply nested and well-formed-but-odd IR, every
pass on odd (verified) modules, and bad command lines. Each run is a fresh
process with a timeout; it must end by itself with status 0, 1 (an error it
reports as ``error: ...``) or 2 (a bad command line), never by a signal, a
hang, an assertion or an "internal error"; PTX it writes must satisfy ptxas
(when the CUDA toolkit is installed).

The tools come from ``TRITIUM_TOOLS_DIR`` (``make test`` sets it to its
build's bin/), else ``build/bin`` of the checkout.
"""

import os
import re
import shutil

import pytest

from hostile_helpers import REPO, expect_exit, run_command

TOOLS = os.environ.get("TRITIUM_TOOLS_DIR") or os.path.join(REPO, "build", "bin")
OPT = os.path.join(TOOLS, "tritium-opt")
TRANSLATE = os.path.join(TOOLS, "tritium-translate")
PTXAS = os.environ.get("TRITIUM_PTXAS_PATH") or shutil.which("ptxas") or (
    "/usr/local/cuda/bin/ptxas" if os.access("/usr/local/cuda/bin/ptxas", os.X_OK) else None)
pytestmark = pytest.mark.skipif(not (os.access(OPT, os.X_OK) and os.access(TRANSLATE, os.X_OK)),
                                reason=f"tritium-opt and tritium-translate are not built in {TOOLS}")

#: What no run may print: the process broke instead of refusing the input.
BROKEN = ("Assertion", "internal error", "LLVM ERROR", "Stack dump", "terminate called", "Sanitizer",
          "UNREACHABLE")

with open(os.path.join(REPO, "examples", "vector_add.tir")) as f:
    VECTOR_ADD = f.read()


def kernel(body, params="%p: ptr<f32>"):
    return f"kernel @k({params}) {{\nbb0:\n{body}\n  ret\n}}\n"


#: id -> IR text (str) or bytes. Each goes through both tools.
INPUTS = {
    "empty": "",
    "garbage": "garbage",
    "nul-bytes": b"kernel @k() {\x00\nbb0:\n  ret\n}\n",
    "not-utf8": b"kernel @k\xff\xfe() {\nbb0:\n  ret\n}\n",
    "lone-cr": "kernel @k() {\rbb0:\r  ret\r}\r",
    "unterminated-string": kernel('  print {prefix="oops}'),
    "unknown-opcode": kernel("  %b = frobnicate %a : i32", "%a: i32"),
    "huge-integer": kernel("  %c = constant 99999999999999999999999999 : i32"),
    "huge-float": kernel("  %c = constant 1e999999 : f32"),
    "deep-types": "kernel @k(%p: " + "ptr<" * 20000 + "f32" + ">" * 20000 + ") {\nbb0:\n  ret\n}\n",
    "deep-braces": "{" * 100000,
    "long-name": "kernel @" + "k" * 1000000 + "() {\nbb0:\n  ret\n}\n",
    "many-dims": kernel("  %c = constant 0 : <" + "1 x " * 5000 + "i32>"),
    "block-2^21": "func @f(%a: <2048 x 1024 x f32>) {\nbb0:\n  ret\n}\n",
    "block-2^62": "func @f(%a: <4611686018427387904 x f32>) {\nbb0:\n  ret\n}\n",
    "make-range-2^31": kernel("  %r = make_range {start=0, end=2147483648} : <2147483648 x i32>"),
    "make-range-2^31-typed-small": kernel("  %r = make_range {start=0, end=2147483648} : <1024 x i32>"),
    "kernel-block-2^22": kernel("  %c = constant 1.0 : <4194304 x f32>\n  %s = reduce %c {axis=0, kind=fadd} : f32\n"
                                "  store %p, %s"),
    "make-range-negative": kernel("  %r = make_range {start=-4, end=4} : <8 x i32>"),
    "address-space-999": "kernel @k(%p: ptr<f32, 999>) {\nbb0:\n  ret\n}\n",
    "no-kernel": "func @f(%a: i32) -> i32 {\nbb0:\n  ret %a\n}\n",
    "two-kernels": kernel("", "%p: ptr<f32>") + kernel("").replace("@k", "@k2"),
    "undefined-libdevice": kernel("  %v = load %p : f32\n  %w = extern_elementwise %v {symbol=\"__nv_nope\", pure} : f32\n"
                                  "  store %p, %w"),
    "extern-is-the-kernel": kernel("  %v = load %p : f32\n  %w = extern_elementwise %v {symbol=\"k\"} : f32\n"
                                   "  store %p, %w"),
    "llvm-named-function": "func @llvm.trap() {\nbb0:\n  ret\n}\n" + kernel(""),
    "reserved-kernel-name": kernel("  %c = constant 1 : i32\n  print %c").replace("@k", "@vprintf"),
    "void-argument": "kernel @k(%v: void) {\nbb0:\n  ret\n}\n",
    "truncated-truncated": VECTOR_ADD[:len(VECTOR_ADD) // 2],
    "recursion": "func @f(%a: i32) -> i32 {\nbb0:\n  %b = call @f(%a) : i32\n  ret %b\n}\n"
                 + kernel("  %x = constant 1 : i32\n  %y = call @f(%x) : i32", "%p: ptr<i32>"),
    "calls-a-kernel": kernel("") + "kernel @k2() {\nbb0:\n  call @k()\n  ret\n}\n",
    "unreachable-block": "kernel @k(%p: ptr<f32>) {\nbb0:\n  ret\ndead:\n  %r = make_range {start=0, end=64} : <64 x i32>\n  br dead\n}\n",
    "atomic-i8": kernel("  %o = atomic_rmw add %q, %v : i8", "%q: ptr<i8>, %v: i8"),
    "atomic-on-shared": kernel("  %v = load %s : f32\n  %o = atomic_rmw fadd %s, %v : f32", "%s: ptr<f32, 3>"),
    "hint-not-power-of-two": kernel("  %r = make_range {start=0, end=256} : <256 x i32>\n"
                                    "  %c = max_contiguous %r {values=[3]} : <256 x i32>\n"
                                    "  %ps = splat %p : <256 x ptr<f32>>\n"
                                    "  %q = getelementptr %ps, %c : <256 x ptr<f32>>\n"
                                    "  %v = load %q : <256 x f32>\n  store %q, %v"),
    "print-300-operands": kernel("  %c = constant 1 : i32\n  print " + ", ".join(["%c"] * 300)),
    "print-prefix-percent": kernel('  %c = constant 1 : i32\n  print %c {prefix="%s%n%n"}'),
    "scan-16384": kernel("  %r = make_range {start=0, end=16384} : <16384 x i32>\n"
                         "  %s = scan %r {axis=0, kind=add} : <16384 x i32>\n"
                         "  %ps = splat %p : <16384 x ptr<i32>>\n"
                         "  %q = getelementptr %ps, %r : <16384 x ptr<i32>>\n  store %q, %s", "%p: ptr<i32>"),
    "bad-layout": kernel("  %r = make_range {start=0, end=8192} : <8192 x i32>\n"
                         "  %c = convert_layout %r {layout=<register=[], lane=[[1], [2], [4], [8], [16], [32], "
                         "[64]], warp=[[128], [256], [512], [1024], [2048], [4096]], shape=[8192]>} : <8192 x i32>\n"
                         "  %s = reduce %c {axis=0, kind=add} : i32\n  store %p, %s", "%p: ptr<i32>"),
}
for cut in (1, 40, 200, 400, 600, 800, 1000, 1200):
    INPUTS[f"truncated-at-{cut}"] = VECTOR_ADD[:cut]
# The audit's reproducers (inputs/README.md).
_INPUT_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")
for _name in sorted(os.listdir(_INPUT_DIR)):
    if _name.endswith(".tir"):
        with open(os.path.join(_INPUT_DIR, _name)) as f:
            INPUTS["audit-" + _name[:-len(".tir")]] = f.read()

TOOL_RUNS = {
    "opt": lambda f: [OPT, f],
    "opt-default-pipeline": lambda f: [OPT, f, "-p", "inline,canonicalize,cse,licm,peephole,dce", "--verify-each"],
    "translate-ptx": lambda f: [TRANSLATE, f, "--emit", "ptx", "-o", f + ".ptx"],
    "translate-passes-llvm": lambda f: [TRANSLATE, f, "--passes", "--emit", "llvm", "-o", os.devnull],
    "translate-hsaco": lambda f: [TRANSLATE, f, "--target", "hip:gfx90a", "--emit", "hsaco", "-o", os.devnull],
}


def _clean_exit(result, allowed=(0, 1)):
    assert not result.timed_out and result.rc >= 0, f"{result.argv[0]} did not end by itself: {result.describe()}"
    assert result.rc in allowed, f"exit status {result.rc}: {result.describe()}"
    for word in BROKEN:
        assert word not in result.stderr, f"{word!r} in stderr: {result.describe()}"
    if result.rc == 1:
        assert "error" in result.stderr, f"failed without saying why: {result.describe()}"


@pytest.mark.parametrize("run", sorted(TOOL_RUNS))
@pytest.mark.parametrize("name", sorted(INPUTS))
def test_tools_on_hostile_input(name, run, tmp_path):
    text = INPUTS[name]
    path = tmp_path / "input.tir"
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass"))
    r = run_command(TOOL_RUNS[run](str(path)), timeout=120)
    _clean_exit(r)
    ptx = str(path) + ".ptx"
    if r.rc == 0 and PTXAS and os.path.exists(ptx):
        expect_exit(run_command([PTXAS, "--gpu-name=sm_90", ptx, "-o", ptx + ".cubin"], timeout=120), 0)


#: Verified modules that exercise the passes at their edges.
ODD_MODULES = {
    "vector-add": VECTOR_ADD,
    "loop-and-call": """func @sq(%a: i32) -> i32 {
bb0:
  %b = mul %a, %a : i32
  ret %b
}
kernel @k(%p: ptr<i32>, %n: i32) {
entry:
  %z = constant 0 : i32
  br head
head:
  %i = phi [%z, entry], [%j, body] : i32
  %c = icmp slt %i, %n : i1
  cond_br %c, body, exit
body:
  %s = call @sq(%i) : i32
  store %p, %s
  %one = constant 1 : i32
  %j = add %i, %one : i32
  br head
exit:
  ret
}
""",
    "unreachable": "kernel @k(%p: ptr<f32>) {\nbb0:\n  ret\ndead:\n  %r = make_range {start=0, end=64} : <64 x i32>\n"
                   "  br dead\n}\n",
    "one-element-blocks": kernel("  %r = make_range {start=0, end=1} : <1 x i32>\n"
                                 "  %e = expand_dims %r {axis=0} : <1 x 1 x i32>\n"
                                 "  %s = reduce %e {axis=1, kind=add} : <1 x i32>\n"
                                 "  %t = scan %s {axis=0, kind=add} : <1 x i32>\n"
                                 "  %ps = splat %p : <1 x ptr<i32>>\n"
                                 "  %q = getelementptr %ps, %t : <1 x ptr<i32>>\n  store %q, %r", "%p: ptr<i32>"),
    "join-split-cat": kernel("  %a = constant 1.0 : <512 x f32>\n  %j = join %a, %a : <512 x 2 x f32>\n"
                             "  %x, %y = split %j : <512 x f32>, <512 x f32>\n  %c = cat %x, %y : <1024 x f32>\n"
                             "  %s = reduce %c {axis=0, kind=fadd} : f32\n  store %p, %s"),
}


def _passes():
    r = run_command([OPT, "--list-passes"])
    expect_exit(r, 0)
    return [line.split(" - ")[0].strip() for line in r.stdout.splitlines() if " - " in line]


PASSES = _passes() if os.access(OPT, os.X_OK) else []


@pytest.mark.parametrize("module", sorted(ODD_MODULES))
@pytest.mark.parametrize("pass_name", PASSES)
def test_every_pass_on_odd_modules(pass_name, module, tmp_path):
    path = tmp_path / "input.tir"
    path.write_text(ODD_MODULES[module])
    _clean_exit(run_command([OPT, str(path), "-p", pass_name, "--verify-each"], timeout=120))


@pytest.mark.parametrize("argv, message", [
    (["--target", "cuda:12"], r"unsupported CUDA architecture '12'"),
    (["--target", "nvidia-h100"], r"unknown target 'nvidia-h100'"),
    (["--target", "cuda:"], r"unsupported CUDA architecture ''"),
    (["--target", "hip:gfx941"], r"LLVM 16 has no gfx941 or gfx942"),
    (["--target", "hip:gfx90a", "--emit", "ptx"], r"--emit ptx is not a stage of hip:gfx90a"),
    (["--target", "hip:gfx90a", "--maxnreg", "8"], r"maxnreg is for cuda targets"),
    (["--target", "hip:gfx90a", "--waves-per-eu", "11"], r"waves_per_eu must be at most 10"),
    (["--emit", "frobnicate"], r"--emit frobnicate is not a stage of cuda:90"),
    (["--num-warps", "abc"], r"option '--num-warps' expects a number, got 'abc'"),
    (["--num-warps", "99999999999999999999"], r"expects a number"),
    (["--num-warps", "0"], r"num_warps must be a power of 2"),
    (["--maxnreg", "1000"], r"maxnreg must be between 1 and 255"),
    (["--target"], r"option '--target' needs a value"),
    (["--what"], r"unknown option '--what'"),
])
def test_translate_command_lines(argv, message):
    expect_exit(run_command([TRANSLATE, os.path.join(REPO, "examples", "vector_add.tir")] + argv), 2, message)


@pytest.mark.parametrize("argv, message", [
    (["-p"], r"option '-p' needs a value"),
    (["-o"], r"option '-o' needs a value"),
    (["--what"], r"unknown option '--what'"),
    (["-p", "nosuchpass"], r"unknown pass 'nosuchpass'"),
    (["-p", "assign-layouts{num-warps=3}"], r"error"),
    (["-p", "assign-layouts{bogus=1}"], r"error"),
])
def test_opt_command_lines(argv, message):
    r = run_command([OPT, os.path.join(REPO, "examples", "vector_add.tir")] + argv)
    _clean_exit(r, allowed=(1, 2))
    assert re.search(message, r.stderr), r.describe()
