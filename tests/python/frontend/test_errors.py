"""Kernels the frontend must reject: each test checks the message of the
``tritium.CompilationError`` AND where it points.

The line of the error is the one marked ``# ERR`` in the kernel; the
column is where the given anchor text starts on that line. ``str(err)``
must show ``file:line:col: error: message``, the source line and a caret
under the column.
"""

import inspect
import os
import re

import pytest

import tritium
import tritium.language as tl
from tir_helpers import jit, to_module

GLOBAL_INT = 42
GLOBAL_CONST = tl.constexpr(8)


def plain_python_helper(x):
    return x + 1


def expect_error(kernel, signature, constexprs, message, anchor, where=None, **kw):
    """Compiles ``kernel`` and checks the error against the line marked
    ``# ERR`` in ``where`` (the kernel by default)."""
    where = where or kernel
    lines, start = inspect.getsourcelines(where.fn)
    marked = [i for i, ln in enumerate(lines) if "# ERR" in ln]
    assert len(marked) == 1, "mark exactly one line with # ERR"
    line_no = start + marked[0]
    text = lines[marked[0]].rstrip("\n")
    assert anchor in text, f"anchor {anchor!r} not on the marked line {text!r}"
    col = text.index(anchor) + 1

    with pytest.raises(tritium.CompilationError) as info:
        to_module(kernel, signature, constexprs, **kw)
    err = info.value
    assert re.search(message, err.message), f"message {err.message!r} does not match {message!r}"
    assert os.path.samefile(err.file, inspect.getsourcefile(where.fn))
    assert (err.line, err.col) == (line_no, col), f"at {err.line}:{err.col}, expected {line_no}:{col}: {err}"
    report = str(err)
    assert report.startswith(f"{err.file}:{line_no}:{col}: error: ")
    report_lines = report.splitlines()
    assert report_lines[1] == text
    assert report_lines[2] == " " * (col - 1) + "^"
    return err


# --- Unsupported Python ---------------------------------------------------


@jit
def k_break(n):
    for i in tl.static_range(4):
        if n > i:
            break  # ERR


def test_break_in_a_static_loop_on_a_runtime_condition():
    expect_error(k_break, "i32", {}, r"'break' under a run-time condition is not supported in a static loop",
                 "break")


@jit
def k_continue(n):
    for i in (1, 2):
        while n > i:
            n -= 1
        if n > 0:
            continue  # ERR


def test_continue_in_a_static_loop_on_a_runtime_condition():
    expect_error(k_continue, "i32", {}, r"'continue' under a run-time condition is not supported in a static loop",
                 "continue")


@jit
def k_lambda(x_ptr):
    f = lambda v: v + 1  # ERR  # noqa: E731
    tl.store(x_ptr, f(1))


def test_lambda():
    expect_error(k_lambda, "*i32", {}, r"unsupported AST node type: Lambda", "lambda")


@jit
def k_with(x_ptr):
    with open("f"):  # ERR
        pass


def test_with():
    expect_error(k_with, "*i32", {}, r"unsupported AST node type: With", "with")


@jit
def k_try(x_ptr):
    try:  # ERR
        tl.store(x_ptr, 1)
    finally:
        pass


def test_try():
    expect_error(k_try, "*i32", {}, r"unsupported AST node type: Try", "try")


@jit
def k_listcomp(x_ptr):
    xs = [i for i in range(4)]  # ERR
    tl.store(x_ptr, xs[0])


def test_list_comprehension():
    expect_error(k_listcomp, "*i32", {}, r"unsupported AST node type: ListComp", "[i for")


@jit
def k_nested_def(x_ptr):
    def inner(v):  # ERR
        return v
    tl.store(x_ptr, 1)


def test_nested_def():
    expect_error(k_nested_def, "*i32", {}, r"nested function definition is not supported", "def inner")


@jit
def k_while_else(n):
    i = 0
    while i < n:  # ERR
        i += 1
    else:
        i = 0


def test_while_else():
    expect_error(k_while_else, "i32", {}, r"`while \.\.\. else` is not supported", "while")


@jit
def k_global_stmt(x_ptr):
    global GLOBAL_INT  # ERR


def test_global_statement():
    expect_error(k_global_stmt, "*i32", {}, r"unsupported AST node type: Global", "global")


@jit
def k_chained_assign(x_ptr):
    a = b = 1  # ERR
    tl.store(x_ptr, a + b)


def test_chained_assignment():
    expect_error(k_chained_assign, "*i32", {}, r"chained assignment", "a = b")


@jit
def k_setitem(x_ptr):
    x = tl.arange(0, 16)
    x[0] = 1  # ERR
    tl.store(x_ptr + x, x)


def test_item_assignment():
    expect_error(k_setitem, "*i32", {}, r"assignment to an element", "x[0]")


# --- Names and globals -----------------------------------------------------


@jit
def k_global(x_ptr):
    tl.store(x_ptr, GLOBAL_INT)  # ERR


def test_non_constexpr_global():
    expect_error(k_global, "*i32", {}, r"Cannot access global variable GLOBAL_INT from within @jit'ed function",
                 "GLOBAL_INT")


@jit
def k_undefined(x_ptr):
    tl.store(x_ptr, undefined_name)  # ERR  # noqa: F821


def test_undefined_name():
    expect_error(k_undefined, "*i32", {}, r"name 'undefined_name' is not defined", "undefined_name")


@jit
def k_builtin_abs(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, abs(x))  # ERR


def test_unsupported_builtin():
    expect_error(k_builtin_abs, "*i32", {}, r"Python builtin 'abs' is not supported", "abs")


@jit
def k_plain_call(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, plain_python_helper(x))  # ERR


def test_call_non_jit_with_tensor():
    expect_error(k_plain_call, "*i32", {}, r"'plain_python_helper' is not a @jit function", "plain_python_helper")


@jit
def k_one_branch(x_ptr, n):
    if n > 0:
        y = n
    tl.store(x_ptr, y)  # ERR


def test_name_from_one_branch():
    expect_error(k_one_branch, "*i32,i32", {}, r"'y' is not defined here: it is assigned in only one branch",
                 "y)")


@jit
def k_loop_local(x_ptr, n):
    for i in range(n):
        z = i
    tl.store(x_ptr, z)  # ERR


def test_name_from_loop_body():
    expect_error(k_loop_local, "*i32,i32", {}, r"'z' is not defined here: it is assigned only inside a loop", "z)")


@jit
def k_bad_attr(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, x.foo)  # ERR


def test_unknown_attribute():
    expect_error(k_bad_attr, "*i32", {}, r"'tensor' has no attribute 'foo'", "x.foo")


# --- Types across control flow ----------------------------------------------


@jit
def k_loop_type(x_ptr, n):
    acc = 0
    for i in range(n):  # ERR
        acc = acc + 1.5
    tl.store(x_ptr, acc)


def test_loop_carried_type_change():
    expect_error(k_loop_type, "*fp32,i32", {},
                 r"Loop-carried variable acc has initial type int32 but is re-assigned to fp32 in loop", "for")


@jit
def k_while_type(x_ptr, n):
    v = tl.load(x_ptr)
    while n > 0:  # ERR
        v = v.to(tl.float16)
        n -= 1
    tl.store(x_ptr, v)


def test_while_carried_type_change():
    expect_error(k_while_type, "*fp32,i32", {}, r"Loop-carried variable v has initial type fp32 but is re-assigned "
                 r"to fp16", "while")


@jit
def k_branch_type(x_ptr, n):
    if n > 0:  # ERR
        y = 1
    else:
        y = 1.0
    tl.store(x_ptr, y)


def test_branch_type_mismatch():
    expect_error(k_branch_type, "*fp32,i32", {}, r"Mismatched type for y between then block \(int32\) and else block "
                 r"\(fp32\)", "if")


@jit
def k_constexpr_in_loop(x_ptr, n, BLOCK: tl.constexpr):
    for i in range(n):  # ERR
        BLOCK = BLOCK + 1
    tl.store(x_ptr, BLOCK)


def test_reassign_constexpr_in_loop():
    expect_error(k_constexpr_in_loop, "*i32,i32", {"BLOCK": 4}, r"cannot reassign constexpr BLOCK in the loop",
                 "for")


@jit
def k_ternary_types(x_ptr, n):
    y = 1 if n > 0 else 2.0  # ERR
    tl.store(x_ptr, y)


def test_ternary_types():
    expect_error(k_ternary_types, "*fp32,i32", {}, r"Ternary expression with dynamic condition has inconsistent "
                 r"types int32 and fp32", "1 if")


@jit
def k_static_if_type(x_ptr):
    if tl.float32:  # ERR
        tl.store(x_ptr, 1)


def test_static_condition_type():
    expect_error(k_static_if_type, "*i32", {}, r"`if` conditionals can only accept values of type", "if")


# --- Functions and returns ---------------------------------------------------


@jit
def k_kernel_return(x_ptr):
    return 1  # ERR


def test_kernel_returns_value():
    expect_error(k_kernel_return, "*i32", {}, r"a kernel cannot return a value", "return")


@jit
def returns_two_types(n):
    if n > 0:
        return 1
    return 1.0  # ERR


@jit
def k_calls_two_types(x_ptr, n):
    tl.store(x_ptr, returns_two_types(n))


def test_inconsistent_returns():
    expect_error(k_calls_two_types, "*fp32,i32", {}, r"Inconsistent return types", "return",
                 where=returns_two_types)


@jit
def recursive(n):
    return recursive(n - 1)  # ERR


@jit
def k_recursion(x_ptr, n):
    tl.store(x_ptr, recursive(n))


def test_recursion():
    expect_error(k_recursion, "*i32,i32", {}, r"recursive call of recursive is not supported", "recursive(n - 1)",
                 where=recursive)


@jit
def two_args(a, b):
    return a + b


@jit
def k_missing_arg(x_ptr):
    tl.store(x_ptr, two_args(1))  # ERR


def test_missing_argument():
    expect_error(k_missing_arg, "*i32", {}, r"two_args\(\): missing a required argument: 'b'", "two_args")


@jit(noinline=True)
def not_inlined(x):
    return x * 2


@jit
def k_noinline_block(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    tl.store(x_ptr + tl.arange(0, 16), not_inlined(x))  # ERR


def test_noinline_block_argument():
    expect_error(k_noinline_block, "*i32", {}, r"Function not_inlined is marked noinline, but was called with "
                 r"non-scalar argument x", "not_inlined")


@jit
def callee_with_error(x):
    return x + undefined_in_callee  # ERR  # noqa: F821


@jit
def k_error_in_callee(x_ptr):
    tl.store(x_ptr, callee_with_error(1))


def test_error_in_callee_points_at_callee():
    expect_error(k_error_in_callee, "*i32", {}, r"name 'undefined_in_callee' is not defined", "undefined_in_callee",
                 where=callee_with_error)


# --- Values and language functions -------------------------------------------


@jit
def k_arange_dynamic(x_ptr, n):
    tl.store(x_ptr + tl.arange(0, n), 1)  # ERR


def test_arange_needs_constexpr():
    expect_error(k_arange_dynamic, "*i32,i32", {}, r"arange's arguments must be of type tl.constexpr", "tl.arange")


@jit
def k_int_index(x_ptr):
    x = tl.arange(0, 16)
    tl.store(x_ptr, x[0])  # ERR


def test_integer_tensor_index():
    expect_error(k_int_index, "*i32", {}, r"unsupported tensor index: 0", "x[0]")


@jit
def k_static_assert(x_ptr, BLOCK: tl.constexpr):
    tl.static_assert(BLOCK >= 64, "BLOCK too small")  # ERR


def test_static_assert_fails():
    expect_error(k_static_assert, "*i32", {"BLOCK": 16}, r"static_assert failed: BLOCK too small", "tl.static_assert")


@jit
def k_static_assert_tensor(x_ptr):
    tl.static_assert(tl.load(x_ptr) > 0)  # ERR


def test_static_assert_on_tensor():
    expect_error(k_static_assert_tensor, "*i32", {}, r"static_assert's condition must be a constexpr",
                 "tl.static_assert")


@jit
def k_annotated_tensor(x_ptr):
    v: tl.constexpr = tl.load(x_ptr)  # ERR
    tl.store(x_ptr, v)


def test_constexpr_annotation_of_tensor():
    expect_error(k_annotated_tensor, "*i32", {}, r"'v' is annotated tl.constexpr but its value is a tensor", "v:")


@jit
def k_pow(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, x ** 2)  # ERR


def test_pow_on_tensor():
    expect_error(k_pow, "*fp32", {}, r"`\*\*` is not supported on tensors", "x ** 2")


@jit
def k_fstring(x_ptr):
    x = tl.load(x_ptr)
    tl.device_print(f"x={x}")  # ERR


def test_fstring_of_tensor():
    expect_error(k_fstring, "*fp32", {}, r"f-strings can only format compile-time values", 'f"x=')


@jit
def k_boundary_plain(x_ptr):
    tl.load(x_ptr, boundary_check=(0, ))  # ERR


def test_boundary_check_on_plain_pointer():
    expect_error(k_boundary_plain, "*fp32", {}, r"`boundary_check` and `padding_option` can only be used with block "
                 r"pointers", "tl.load")


@jit
def k_block_ptr_lengths(x_ptr, M):
    p = tl.make_block_ptr(x_ptr, (M, M), (M, 1), (0, ), (16, 16), (1, 0))  # ERR
    tl.load(p)


def test_make_block_ptr_lengths():
    expect_error(k_block_ptr_lengths, "*fp32,i32", {}, r"make_block_ptr: shape, strides, offsets, block_shape and "
                 r"order must have the same length", "tl.make_block_ptr")


@jit
def k_block_ptr_mask(x_ptr, M):
    p = tl.make_block_ptr(x_ptr, (M, ), (1, ), (0, ), (16, ), (0, ))
    tl.load(p, mask=M > 0)  # ERR


def test_mask_on_block_pointer():
    expect_error(k_block_ptr_mask, "*fp32,i32", {}, r"`mask` and `other` arguments cannot be specified for loading "
                 r"block pointers", "tl.load")


@jit
def k_full_shape(x_ptr, n):
    tl.store(x_ptr, tl.full((n, ), 0, tl.float32))  # ERR


def test_full_dynamic_shape():
    expect_error(k_full_shape, "*fp32,i32", {}, r"Shape element 0 must have type `constexpr\[int\]`", "tl.full")


@jit
def k_precision(a_ptr):
    a = tl.load(a_ptr + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    tl.dot(a, a, input_precision=3)  # ERR


def test_dot_precision_type():
    expect_error(k_precision, "*fp16", {}, r"input_precision must be a string", "tl.dot")


@jit
def k_expand_dup(x_ptr):
    x = tl.arange(0, 16)
    tl.expand_dims(x, (0, 0))  # ERR


def test_expand_dims_duplicate_axes():
    expect_error(k_expand_dup, "*fp32", {}, r"expand_dims received duplicate axes", "tl.expand_dims")


@jit
def k_expand_axis(x_ptr):
    x = tl.arange(0, 16)
    tl.expand_dims(x, -3)  # ERR


def test_expand_dims_axis_is_checked_before_wrapping():
    # -3 would wrap to a valid axis of the result; it is no axis of it.
    expect_error(k_expand_axis, "*fp32", {}, r"invalid axis -3\. Expected -2 <= axis < 2", "tl.expand_dims")


@jit
def k_bounded_slice(x_ptr):
    x_ptr[10:]  # ERR


def test_a_bounded_slice_is_an_unsupported_index_even_on_a_scalar():
    expect_error(k_bounded_slice, "*fp32", {}, r"unsupported tensor index: slice\(10, None, None\)", "x_ptr[10:]")


@jit
def k_bitwise_float(x_ptr, y):
    x = tl.load(x_ptr)
    tl.store(x_ptr, x ^ y)  # ERR


def test_bitwise_operands_must_be_integers():
    # Triton's wording: its tests match "invalid operands of type".
    expect_error(k_bitwise_float, "*i32,fp32", {}, r"^invalid operands of type int32 and fp32 for bitwise \^$",
                 "x ^ y")


@jit
def k_in_tensor(x_ptr):
    x = tl.load(x_ptr)
    if x in (1, 2):  # ERR
        pass


def test_in_on_tensor():
    expect_error(k_in_tensor, "*fp32", {}, r"`in` is only supported on compile-time values", "x in")


@jit
def k_unpack(x_ptr):
    a, b = 1, 2, 3  # ERR
    tl.store(x_ptr, a + b)


def test_unpack_count():
    expect_error(k_unpack, "*i32", {}, r"cannot unpack 3 values into 2 names", "a, b")


@jit
def k_iterate_int(x_ptr, n):
    for i in n:  # ERR
        pass


def test_iterate_non_range():
    expect_error(k_iterate_int, "*i32,i32", {}, r"Only `range`, `tl.range` and `tl.static_range` iterators", "n:")


@jit
def k_float_bound(x_ptr):
    for i in range(0, 2.5):  # ERR
        pass


def test_float_loop_bound():
    expect_error(k_float_bound, "*i32", {}, r"for loop bounds and step must be integers", "range")


@jit
def k_zero_step(x_ptr, n):
    for i in range(0, n, 0):  # ERR
        pass


def test_zero_step():
    expect_error(k_zero_step, "*i32,i32", {}, r"range\(\) arg 3 must not be zero", "range")


@jit
def k_int_of_tensor(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, int(x))  # ERR


def test_int_of_tensor():
    expect_error(k_int_of_tensor, "*i32", {}, r"int\(\) of a tensor is not supported", "int(x)")


@jit
def k_libdevice_fp16(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, tl.extra.libdevice.tanh(x))  # ERR


def test_libdevice_without_fp16_variant():
    expect_error(k_libdevice_fp16, "*fp16", {}, r"tanh: no overload for argument types \(fp16\)",
                 "tl.extra.libdevice.tanh")


@jit
def k_custom_fp8(x_ptr):
    tl.store(x_ptr, tl.extra.cuda.convert_custom_float8_sm80(tl.arange(0, 16)))  # ERR


def test_cuda_packed_asm_unsupported():
    expect_error(k_custom_fp8, "*i32", {}, r"convert_custom_float8_sm80 needs packed inline assembly",
                 "tl.extra.cuda.convert_custom_float8_sm80")


@jit
def k_gather(x_ptr):
    x = tl.arange(0, 16)
    tl.gather(x, x.to(tl.float32), 0)  # ERR


def test_gather_float_index():
    expect_error(k_gather, "*i32", {}, r"index must be an integer tensor", "tl.gather")


@jit
def k_print_prefix(x_ptr):
    tl.device_print(3, tl.load(x_ptr))  # ERR


def test_device_print_prefix():
    expect_error(k_print_prefix, "*i32", {}, r"device_print's prefix must be a string", "tl.device_print")


@jit
def k_sort_dim(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    tl.sort(x, dim=0)  # ERR


def test_sort_only_last_dim():
    expect_error(k_sort_dim, "*fp32", {}, r"only the last dimension can be sorted", "tl.sort")


@jit
def k_advance_plain(x_ptr):
    tl.advance(x_ptr, (1, ))  # ERR


def test_advance_plain_pointer():
    expect_error(k_advance_plain, "*fp32", {}, r"advance expects a block pointer", "tl.advance")


@jit
def k_padding(x_ptr, M):
    p = tl.make_block_ptr(x_ptr, (M, ), (1, ), (0, ), (16, ), (0, ))
    tl.load(p, boundary_check=(0, ), padding_option="one")  # ERR


def test_bad_padding_option():
    expect_error(k_padding, "*fp32,i32", {}, r"padding_option must be '', 'zero' or 'nan'", "tl.load")


# --- Errors of the semantic layer (C++), located at the kernel's node ---------


@jit
def k_shape_mismatch(x_ptr):
    a = tl.arange(0, 128)
    b = tl.arange(0, 64)
    tl.store(x_ptr + a, a + b)  # ERR


def test_incompatible_shapes():
    expect_error(k_shape_mismatch, "*i32", {}, r"incompatible shapes \[128\] and \[64\]", "a + b")


@jit
def k_bad_axis(x_ptr):
    tl.store(x_ptr, tl.program_id(3))  # ERR


def test_program_id_axis():
    expect_error(k_bad_axis, "*i32", {}, r"program_id axis must be 0, 1, or 2 but got 3", "tl.program_id")


@jit
def k_load_int(x_ptr, n):
    tl.store(x_ptr, tl.load(n))  # ERR


def test_load_from_non_pointer():
    expect_error(k_load_int, "*i32,i32", {}, r"Unsupported ptr type int32 in `tl.load`", "tl.load")


@jit
def k_mixed_sign_div(x_ptr, a, b):
    tl.store(x_ptr, a / b)  # ERR


def test_division_of_mixed_signedness():
    expect_error(k_mixed_sign_div, "*fp32,i32,u32", {}, r"Cannot use /", "a / b")


@jit
def k_block_condition(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16))
    if x > 0:  # ERR
        tl.store(x_ptr, 1)


def test_block_as_condition():
    expect_error(k_block_condition, "*i32", {}, r"Boolean value of Tensor with more than one value is ambiguous",
                 "if")


@jit
def k_store_const(x_ptr):
    tl.store(x_ptr, 1.0)  # ERR


def test_store_through_const_pointer():
    expect_error(k_store_const, "*kfp32", {}, r"Cannot store to a constant pointer", "tl.store")


@jit
def k_dot_shapes(a_ptr):
    a = tl.load(a_ptr + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])
    b = tl.load(a_ptr + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :])
    tl.dot(a, b)  # ERR


def test_dot_inner_dimensions():
    expect_error(k_dot_shapes, "*fp16", {}, r"are not compatible for matmul", "tl.dot")


@jit
def k_arange_not_pow2(x_ptr):
    tl.store(x_ptr + tl.arange(0, 12), 1)  # ERR


def test_arange_power_of_two():
    expect_error(k_arange_not_pow2, "*i32", {}, r"power of 2|power of two", "tl.arange")
