"""Bad kernels, compiled (to PTX, no GPU needed) and interpreted: each must
be a CompilationError (on the interpreter, InterpreterError, one) with a
clear message, or run, never a crash, a hang or an internal error.

Each case is a kernel body; ``compiled`` compiles it with tritium.compile
for cuda:90, ``interpreted`` launches it under TRITIUM_INTERPRET=1 on numpy
arrays (X and Y: 64 floats; N = 16; BLOCK = 16).
"""

import pytest

from hostile_helpers import expect_error, expect_ok, run_snippet

KERNEL = '''
import tritium
import tritium.language as tl


def plain_python(x):
    return x


@tritium.jit
def helper(x):
    return helper(x)


@tritium.jit
def k(X, Y, N, BLOCK: tl.constexpr):
{body}
'''

COMPILE = '''
import tritium
from tritium.compiler.compiler import ASTSource
m = load_source({src!r})
tritium.compile(ASTSource(m.k, {{"X": "*fp32", "Y": "*fp32", "N": "i32"}}, {{"BLOCK": 16}}), target="cuda:90")
'''

INTERPRET = '''
import numpy as np
m = load_source({src!r})
m.k[(2,)](np.zeros(64, np.float32), np.zeros(64, np.float32), 16, BLOCK=16)
'''

CE = "CompilationError"

#: id -> (kernel body, the error's message as a regex, None if it runs, or
#: {mode: either} where the interpreter runs Python compiled kernels reject)
CASES = {
    "undefined-name": ("x = not_defined_anywhere + 1", r"name 'not_defined_anywhere' is not defined"),
    "arange-not-power-of-2": ("tl.arange(0, 3)", r"power of 2"),
    "arange-too-big": ("tl.arange(0, 2**21)", r"numel \(2097152\) exceeds triton maximum tensor numel \(1048576\)"),
    "arange-2-31": ("tl.arange(0, 2**31)", r"numel \(2147483648\) exceeds triton maximum tensor numel"),
    "arange-reversed": ("tl.arange(16, 0)", r"arange's end argument must be greater than the start argument, got \[16, 0\)"),
    "arange-float": ("tl.arange(0.5, 16)", r"arange's arguments must be of type tl.constexpr"),
    "arange-tensor-bounds": ("tl.arange(0, N)", r"arange's arguments must be of type tl.constexpr"),
    "load-from-int": ("tl.load(N)", r"Unsupported ptr type int32 in `tl.load`"),
    "load-from-float-literal": ("tl.load(1.5)", r"Unsupported ptr type fp32 in `tl.load`"),
    "store-to-int": ("tl.store(N, 1)", r"Unsupported ptr type int32 in `tl.store`"),
    "store-pointers-into-floats": ("r = tl.arange(0, 4)\n    tl.store(X + r, X + r)", r"cannot cast pointer<fp32> to fp32"),
    "store-grows-the-shape": ("tl.store(X, tl.arange(0, 16))", r"Value argument cannot be block type if pointer "
                                                                r"argument is not a block"),
    "store-grows-a-block": ("tl.store(X + tl.arange(0, 4)[None, :], tl.zeros((4, 4), tl.float32))",
                            r"cannot store a value .*of shape \[4, 4\] through pointers of shape \[1, 4\]"),
    "shapes-mismatch": ("a = tl.arange(0, 4)\n    b = tl.arange(0, 8)\n    c = a + b", r"incompatible shapes \[4\] and \[8\]"),
    "add-a-string": ("x = tl.load(X) + 'abc'", r"unsupported operand of type str"),
    "mask-a-float": ("tl.load(X + tl.arange(0, 4), mask=tl.arange(0, 4) * 1.5)", r"Mask must have boolean"),
    "other-without-mask": ("tl.load(X, other=1.0)", r"`other` cannot be provided without `mask`"),
    "dot-8x8": ("r = tl.arange(0, 8)\n    a = tl.load(X + r[:, None] * 8 + r[None, :])\n    tl.dot(a, a)",
                r"Input shapes should have M >= 1, N >= 1 and K >= 16"),
    "dot-1d": ("a = tl.load(X + tl.arange(0, 16))\n    tl.dot(a, a)", r"Both inputs must be either 2D or 3D"),
    "dot-mismatched-k": ("a = tl.zeros((16, 32), tl.float32)\n    tl.dot(a, a)", r"not compatible for matmul"),
    "reshape-wrong-count": ("tl.reshape(tl.arange(0, 16), (2, 4))", r"cannot reshape"),
    "reshape-not-power-of-2": ("tl.reshape(tl.arange(0, 16), (3, 5))", r"Shape element 0 must be a power of 2"),
    "permute-not-a-permutation": ("tl.permute(tl.arange(0, 16).reshape(4, 4), (0, 0))", r"permute dims must be a permutation of 0, 1, ..., n-1, but were \[0, 0\]"),
    "trans-of-1d": ("tl.trans(tl.arange(0, 16))", r"tl.trans invoked with a 0- or 1-dimensional tensor"),
    "sum-axis-out-of-range": ("tl.sum(tl.arange(0, 16), axis=3)", r"axis 3 is out of range for a tensor of rank 1"),
    "program-id-axis-3": ("tl.program_id(3)", r"program_id axis must be 0, 1, or 2 but got 3"),
    "static-assert": ("tl.static_assert(BLOCK == 3, 'BLOCK must be 3')", r"static_assert failed: BLOCK must be 3"),
    "static-assert-no-message": ("tl.static_assert(False)", r"static_assert failed"),
    "constexpr-division-by-zero": ("x = BLOCK // 0", r"integer division or modulo by zero"),
    "huge-full": ("tl.full((2**40,), 0, tl.float32)", r"numel \(1099511627776\) exceeds triton maximum tensor numel"),
    "zero-size-block": ("tl.zeros((0,), tl.float32)", r"Shape element 0 must be a power of 2"),
    "negative-shape": ("tl.zeros((-4,), tl.float32)", r"Shape element 0 must be a power of 2"),
    "full-shape-not-constexpr": ("tl.zeros((N,), tl.float32)", r"Shape element 0 must have type `constexpr\[int\]`"),
    "unknown-tl-function": ("tl.no_such_builtin(X)", r"has no attribute 'no_such_builtin'"),
    "tl-load-no-args": ("tl.load()", r"load\(\) missing 1 required positional argument: 'pointer'"),
    "call-plain-python-with-tensor": ("plain_python(tl.load(X))", {"compiled": r"not a @jit function",
                                                                   "interpreted": None}),
    "recursion": ("helper(tl.load(X))", r"recursive call of helper is not supported"),
    "break-static-runtime": ("for i in tl.static_range(4):\n        if tl.load(X) > i:\n            break",
                             {"compiled": r"'break' under a run-time condition is not supported in a static loop",
                              "interpreted": None}),
    "lambda": ("f = lambda v: v\n    f(1)", {"compiled": r"Lambda", "interpreted": None}),
    "try-except": ("try:\n        pass\n    except Exception:\n        pass", {"compiled": r"unsupported AST node type: Try",
                                                                        "interpreted": None}),
    "with-statement": ("with open('/nonexistent/x') as f:\n        pass", {"compiled": r"unsupported AST node type: With",
                                                                       "interpreted": r"No such file"}),
    "yield": ("yield 1", {"compiled": r"Yield", "interpreted": r"a kernel cannot return a value"}),
    "block-condition": ("if tl.arange(0, 4) > 2:\n        pass", r"block.*<4xint1>"),
    "while-block-condition": ("while tl.arange(0, 4) > 2:\n        pass", r"block.*<4xint1>"),
    "atomic-on-int8": ("tl.atomic_add(X.to(tl.pointer_type(tl.int8)), 1)", r"atomic_add does not support int8"),
    "bad-cast-target": ("tl.load(X).to('float32')", r"dtype must be a tl.dtype, got 'float32'"),
    "cast-pointer-to-float": ("tl.cast(X, tl.float32)", r"cannot cast pointer<fp32> to fp32"),
    "bitcast-of-other-width": ("tl.load(X).to(tl.int16, bitcast=True)", r"cannot bitcast fp32 \(32 bits\) to int16 \(16 bits\): the sizes differ"),
    "where-on-a-string": ("tl.where('abc', 1, 2)", r"unsupported operand of type str"),
    "cache-modifier": ("tl.load(X, cache_modifier='.zz')", r"cache modifier '.zz' is not supported"),
    "eviction-policy": ("tl.store(X, 1.0, eviction_policy='never')", r"eviction policy"),
    "atomic-sem": ("tl.atomic_add(X, 1.0, sem='sometimes')", r"memory semantic"),
    "return-from-kernel": ("return tl.load(X)", r"a kernel cannot return a value"),
    "weak-literal-out-of-range": ("x = tl.load(X.to(tl.pointer_type(tl.int8))) + 300", r"Scalar 300 is out of range for type int8"),
    "long-sum": ("x = tl.load(X)\n    tl.store(Y, " + " + ".join(["x"] * 2000) + ")", None),
    # Python's own code on the interpreter: runs there.
    "deep-unary": ("x = tl.load(X)\n    tl.store(Y, " + "- " * 2000 + "x)",
                   {"compiled": r"Python's recursion limit \(\d+\) was reached", "interpreted": None}),
}


@pytest.mark.parametrize("mode", ["compiled", "interpreted"])
@pytest.mark.parametrize("case", list(CASES))
def test_bad_kernel(case, mode):
    body, match = CASES[case]
    if isinstance(match, dict):  # the interpreter runs some Python that compiled kernels may not use
        match = match[mode]
    src = KERNEL.format(body="    " + body)
    interpret = mode == "interpreted"
    r = run_snippet((INTERPRET if interpret else COMPILE).format(src=src), interpret=interpret)
    if match is None:
        expect_ok(r)
    else:
        expect_error(r, CE, match)
