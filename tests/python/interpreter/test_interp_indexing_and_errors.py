"""Indexing, expand_dims, dtype comparisons and operand errors on the
interpreter, with the rules and messages of compiled code (the frontend
tests check the same on the compiled path)."""

import numpy as np
import pytest

import tritium
import tritium.language as tl
from tritium.runtime.interpreter import InterpreterError

jit = tritium.jit(interpret=True)


@jit
def _scalar_pointer_rows(out_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    value = tl.sum(offs, axis=0, keep_dims=True)[None, :]  # [1, 1]
    # ':' past the last dimension changes nothing (Triton accepts it): a
    # scalar pointer indexed [None, None, :] is a [1, 1] block of pointers.
    tl.store(out_ptr[None, None, :], value)


def test_colons_past_the_last_dimension_change_nothing():
    out = np.zeros(1, np.int32)
    _scalar_pointer_rows[(1,)](out, BLOCK=8)
    assert out[0] == 28


@jit
def _sliced(x_ptr):
    x_ptr[10:]


def test_a_slice_with_bounds_is_an_unsupported_index():
    with pytest.raises(InterpreterError, match=r"unsupported tensor index: slice\(10, None, None\)"):
        _sliced[(1,)](np.zeros(16, np.float32))


@jit
def _expand(x_ptr, AXIS: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, 4))
    tl.expand_dims(x, AXIS)


@pytest.mark.parametrize("axis, message", [
    (-3, r"invalid axis -3\. Expected -2 <= axis < 2"),
    (2, r"invalid axis 2\. Expected -2 <= axis < 2"),
    ((0, -3), r"duplicate axes, normalized axes = \[0, 0\]"),
])
def test_expand_dims_checks_each_axis_before_wrapping_it(axis, message):
    with pytest.raises(InterpreterError, match=message) as info:
        _expand[(1,)](np.zeros(4, np.float32), AXIS=axis)
    assert isinstance(info.value.__cause__, ValueError)


@jit
def _dtype_checks(x_ptr):
    element: tl.constexpr = x_ptr.dtype.element_ty
    tl.static_assert(element == tl.constexpr(tl.int32))
    tl.static_assert(element != tl.constexpr(tl.int8))


def test_a_dtype_equals_a_constexpr_holding_it():
    _dtype_checks[(1,)](np.zeros(1, np.int32))
    assert tl.int32 == tl.constexpr(tl.int32) and not (tl.int32 != tl.constexpr(tl.int32))
    assert tl.int8 != tl.constexpr(tl.int32)


@jit
def _bitwise(x_ptr, y_ptr, out_ptr, OP: tl.constexpr):
    x = tl.load(x_ptr)
    y = tl.load(y_ptr)
    if OP == "&":
        tl.store(out_ptr, x & y)
    else:
        tl.store(out_ptr, x << y)


@pytest.mark.parametrize("op", ["&", "<<"])
def test_bitwise_operators_on_floats_are_invalid_operands(op):
    # Triton's wording (its tests match "invalid operands of type").
    with pytest.raises(InterpreterError, match=f"invalid operands of type int32 and fp32 for bitwise {op}"):
        _bitwise[(1,)](np.zeros(1, np.int32), np.zeros(1, np.float32), np.zeros(1, np.int32), OP=op)
