"""Bad IR text for the Python API: ``tritium.parse_module`` and
``tritium.compile`` (to PTX) must answer garbage, truncations, unknown
operations, huge numbers, deep nesting, NUL bytes, bad Unicode and IR the
backend cannot take with a CompilationError or ValueError naming the
problem (at its line and column), never a crash, a hang or pybind11's
"incompatible function arguments".
"""

import os

import pytest

from hostile_helpers import REPO, expect_error, expect_ok, run_snippet

with open(os.path.join(REPO, "examples", "vector_add.tir")) as f:
    VECTOR_ADD = f.read()

PARSE = '''
import tritium
tritium.parse_module({text})
'''

COMPILE = '''
import tritium
tritium.compile({text}, target="cuda:90")
'''

CE = "CompilationError"


def kernel(body, params="%x: ptr<f32>, %n: i32"):
    return f"kernel @k({params}) {{\nentry:\n{body}\n  ret\n}}\n"


#: id -> (Python expression of the text, expected (class, regex) or None if it parses)
PARSE_CASES = {
    "empty": ('""', None),
    "only-comments": ('"; nothing here\\n;\\n"', None),
    "vector-add": (repr(VECTOR_ADD), None),
    "garbage": ('"garbage"', (CE, r"<input>:1:1: error: expected 'kernel' or 'func'")),
    "binary-junk": ('"\\x01\\x02\\x03\\xff\\xfe"', (CE, r"<input>:1:1: error: unexpected byte 0x01")),
    "nul-in-the-middle": (repr(VECTOR_ADD[:200] + "\0" + VECTOR_ADD[200:]), (CE, r"error: unexpected byte 0x00")),
    "nul-only": ('"\\0" * 1000', (CE, r"<input>:1:1: error: unexpected byte 0x00")),
    "lone-surrogate": ('"kernel @k\\ud800() {\\nentry:\\n  ret\\n}\\n"', ("ValueError", r"the IR text is not valid UTF-8 \(it holds a lone surrogate\)")),
    "unknown-opcode": (repr(kernel("  %a = bogus_op : i32")), (CE, r"<input>:3:8: error: unknown opcode 'bogus_op'")),
    "unknown-type": (repr(kernel("  %a = constant 1 : q77")), (CE, r"expected a type, got 'q77'")),
    "huge-constant": (repr(kernel("  %a = constant 99999999999999999999999999 : i32")), (CE, r"integer 99999999999999999999999999 does not fit in 64 bits")),
    "huge-shape": (repr(kernel("  %a = make_range {start=0, end=99999999999999} : <99999999999999 x i32>")),
                   (CE, r"block dimension 99999999999999 is not a power of two")),
    "shape-2-21": (repr(kernel("  %a = make_range {start=0, end=2097152} : <2097152 x i32>")),
                   (CE, r"a block holds at most 2\^20 elements")),
    "negative-shape": (repr(kernel("  %a = make_range {start=0, end=4} : <-4 x i32>")), (CE, r"block dimension -4 is not a power of two")),
    "zero-shape": (repr(kernel("  %a = make_range {start=0, end=0} : <0 x i32>")), (CE, r"block dimension 0 is not a power of two")),
    "int-width-0": (repr(kernel("  %a = constant 1 : i0")), (CE, r"expected a type, got 'i0'")),
    "int-width-huge": (repr(kernel("  %a = constant 1 : i99999999999")), (CE, r"expected a type, got 'i99999999999'")),
    "address-space-999": (repr(kernel("", params="%x: ptr<f32, 999>")),
                          (CE, r"address space 999 is not one of 0 \(generic\), 1 \(global\) and 3 \(shared\)")),
    "address-space-huge": (repr(kernel("", params="%x: ptr<f32, 99999999999999999999>")), (CE, r"expected an address space from 0 to 4294967295")),
    "deep-pointer-nesting": ('"kernel @k(%x: " + "ptr<" * 100000 + "f32" + ">" * 100000 + ") {\\nentry:\\n  ret\\n}\\n"',
                             (CE, r"expected a type nested at most 16 deep")),
    "deep-shape-nesting": ('"kernel @k(%x: " + "<2 x " * 100000 + "f32" + ">" * 100000 + ") {\\nentry:\\n  ret\\n}\\n"',
                           (CE, r"expected a type nested at most 16 deep")),
    "long-identifier": ('"kernel @" + "k" * 1000000 + "() {\\nentry:\\n  ret\\n}\\n"', None),
    "many-blocks": ('"kernel @k() {\\nentry:\\n  br b0\\n" + "".join(f"b{i}:\\n  br b{i + 1}\\n" for i in range(20000))'
                    ' + "b20000:\\n  ret\\n}\\n"', None),
    "undefined-value": (repr(kernel("  %a = add %nope, %n : i32")), (CE, r"<input>:3:12: error: use of undefined value %nope")),
    "redefined-value": (repr(kernel("  %a = add %n, %n : i32\n  %a = add %n, %n : i32")), (CE, r"<input>:4:3: error: redefinition of value %a")),
    "type-mismatch": (repr(kernel("  %a = fadd %n, %n : f32")), (CE, r"'fadd' expects float operands, got i32")),
    "branch-to-nowhere": (repr(kernel("  br nowhere")), (CE, r"use of undefined block 'nowhere'")),
    "program-id-axis-9": (repr(kernel("  %p = get_program_id {axis=9} : i32")), (CE, r"'get_program_id' axis must be 0, 1 or 2, got 9")),
    "unterminated-attributes": (repr(kernel("  %p = get_program_id {axis=0 : i32")), (CE, r"expected ',' or '}' after an attribute")),
    "duplicate-kernel": (repr(VECTOR_ADD + VECTOR_ADD), (CE, r"redefinition of function @vector_add")),
}

# Cut the vector add at 12 places: every prefix must be an error (or, inside
# the leading comments, an empty module), never a crash.
for i in range(1, 13):
    cut = len(VECTOR_ADD) * i // 13
    prefix = VECTOR_ADD[:cut]
    PARSE_CASES[f"truncated-{i}-of-13"] = (repr(prefix), (CE, r"<input>:\d+:\d+: error: ") if "kernel" in prefix else None)


@pytest.mark.parametrize("case", list(PARSE_CASES))
def test_parse_module(case):
    text, expected = PARSE_CASES[case]
    r = run_snippet(PARSE.format(text=text))
    if expected is None:
        expect_ok(r)
    else:
        expect_error(r, *expected)


#: IR that parses but that compile() must refuse (or compile).
COMPILE_CASES = {
    "vector-add": (repr(VECTOR_ADD), None),
    "make-range-2-31": (repr(kernel("  %a = make_range {start=0, end=2147483648} : <2147483648 x i32>")),
                        (CE, r"a block holds at most 2\^20 elements")),
    "no-kernel": ('"func @f() {\\nbb0:\\n  ret\\n}\\n"', (CE, r"the module has no kernel to compile")),
    "empty-module": ('""', (CE, r"the module has no kernel to compile")),
    "address-space-999": (repr(kernel("", params="%x: ptr<f32, 999>")), (CE, r"address space 999 is not one of")),
    "call-to-nothing": (repr(kernel("  call @nothing_defines_me(%n)")), (CE, r"callee @nothing_defines_me is not a function of the module")),
    "recursive-function": ('"func @f(%a: i32) {\\nbb0:\\n  call @f(%a)\\n  ret\\n}\\n" + ' + repr(kernel("  call @f(%n)")),
                           None),  # PTX has calls; it compiles (and would recurse at run time)
    "no-terminator": ('"kernel @k() {\\nentry:\\n  %a = constant 1 : i32\\n}\\n"',
                      (CE, r"in @k, entry: block does not end with a terminator")),
    "garbage": ('"garbage"', (CE, r"expected 'kernel' or 'func'")),
    "a-path-that-is-not-there": ('"/nonexistent/kernel.tir"', ("FileNotFoundError", r"/nonexistent/kernel.tir")),
}


@pytest.mark.parametrize("case", list(COMPILE_CASES))
def test_compile_ir_text(case):
    text, expected = COMPILE_CASES[case]
    r = run_snippet(COMPILE.format(text=text))
    if expected is None:
        expect_ok(r)
    else:
        expect_error(r, *expected)
