"""Triton's host-side names of dtypes: tl.dtype(name), the name lists, the
float layout (exponent_bias), integer limits, str_to_ty(name, c) and
constexpr_type, and repr() in Triton's spelling."""

import numpy as np
import pytest

import tritium.language as tl
from tritium.language.core import constexpr_type

ALL = tl.dtype.SINT_TYPES + tl.dtype.UINT_TYPES + tl.dtype.FP_TYPES + tl.dtype.OTHER_TYPES


def test_dtype_of_a_name_is_the_uniqued_dtype():
    assert tl.dtype("int8") is tl.int8 and tl.dtype("bf16") is tl.bfloat16
    assert tl.dtype(tl.constexpr("fp32")) is tl.float32
    assert [tl.dtype(n).name for n in ALL] == ALL
    assert isinstance(tl.dtype("uint16"), tl.dtype)
    with pytest.raises(ValueError, match="fp8e4b8"):
        tl.dtype("fp8e4b8")  # a Triton type Tritium lacks: not in its lists
    assert tl.dtype("fp8e4b15") is tl.float8e4b15
    assert set(tl.dtype.STANDARD_FP_TYPES) <= set(tl.dtype.FP_TYPES)
    assert tl.dtype.is_dtype("uint32") and not tl.dtype.is_dtype("int128")


@pytest.mark.parametrize("name, np_name", [("fp16", "float16"), ("fp32", "float32"), ("fp64", "float64")])
def test_exponent_bias_matches_ieee(name, np_name):
    info = np.finfo(np_name)
    t = tl.dtype(name)
    assert t.exponent_bias == info.maxexp - 1
    assert t.fp_mantissa_width == info.nmant and t.itemsize == info.bits // 8


def test_exponent_bias_of_the_small_floats():
    # bf16 shares fp32's exponent; e4m3 (finite, NaN-only) and e5m2 follow the OCP spec.
    assert (tl.bfloat16.exponent_bias, tl.float8e4nv.exponent_bias, tl.float8e5.exponent_bias) == (127, 7, 15)
    # Triton's e4b15: e4m3's layout, bias 15 (the largest finite value is 1.75).
    t = tl.float8e4b15
    assert (t.exponent_bias, t.fp_mantissa_width, t.primitive_bitwidth) == (15, 3, 8)
    assert t.is_fp8() and t.is_fp8e4b15() and not t.is_standard_floating() and not tl.float8e4nv.is_fp8e4b15()
    with pytest.raises(AttributeError):
        tl.int32.exponent_bias


@pytest.mark.parametrize("name", tl.dtype.SINT_TYPES + tl.dtype.UINT_TYPES[1:])
def test_integer_limits_match_numpy(name):
    info = np.iinfo(name)
    t = tl.dtype(name)
    assert (t.get_int_min_value(), t.get_int_max_value()) == (info.min, info.max)


def test_str_to_ty_takes_tritons_arguments():
    assert tl.str_to_ty("*fp16", None) == tl.pointer_type(tl.float16)
    assert tl.str_to_ty("*kfp16", None).is_const()
    assert tl.str_to_ty("u64", None) is tl.uint64 and tl.str_to_ty("i1", None) is tl.int1
    assert tl.str_to_ty("constexpr", 16) == constexpr_type(16) != constexpr_type(8)
    assert repr(constexpr_type(16)) == "constexpr_type[16]"
    assert tl.constexpr(16).type == constexpr_type(16)


def test_repr_is_tritons_spelling():
    assert repr(tl.int8) == "triton.language.int8"
    assert repr(tl.float8e4nv) == "triton.language.float8e4nv"
