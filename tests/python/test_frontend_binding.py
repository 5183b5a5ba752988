"""tritium._C.frontend: dtypes, operands, the Semantic and its type rules.

The semantics themselves are tested in C++ (tests/unit/Semantic*Test.cpp);
these tests check what the binding adds: argument conversion, handles and
their lifetime, enums and strings, and errors as tritium.CompilationError.
"""

import gc

import pytest

import tritium
from tritium import CompilationError, _C

fe = _C.frontend
DType = fe.DType
f32 = DType.from_name("fp32")
f16 = DType.from_name("fp16")
i32 = DType.from_name("int32")
u32 = DType.from_name("uint32")
i1 = DType.from_name("int1")


def kernel(params, name="k"):
    """A module and a Semantic with the kernel `name(params)` begun."""
    m = _C.ir.Module()
    s = fe.Semantic(m)
    s.set_loc("kern.py", 10, 4)
    s.begin_function(name, [t for _, t in params], [n for n, _ in params], True)
    return m, s


def finish(m, s):
    s.ret([])
    s.end_function()
    return str(m)


# -- DType -------------------------------------------------------------------


def test_dtypes_are_uniqued_and_named_as_in_triton():
    assert DType.from_name("float32") is f32
    assert DType.from_name("fp32") == f32
    assert hash(DType.from_name("fp32")) == hash(f32)
    assert DType.from_name("nope") is None
    assert f32 != i32 and f32 != "fp32"
    assert str(f32) == "fp32" and f32.name == "fp32"
    assert repr(f32) == "triton.language.float32"
    assert repr(DType.from_name("bf16")) == "triton.language.bfloat16"
    assert repr(u32) == "triton.language.uint32"
    p = DType.get_pointer(f16)
    assert p is DType.pointer_type(f16, 1, False)
    assert p.name == "pointer<fp16>" and repr(p) == "pointer<fp16>"
    assert DType.get_pointer(f16, const=True).name == "const_pointer<fp16>"
    assert DType.get_pointer(f16, 3).address_space == 3
    b = DType.block_type(f16, [4, 8])
    assert b is DType.get_block(f16, (4, 8))
    assert b.name == "<4x8xfp16>"


def test_dtype_properties_with_triton_names():
    assert i32.is_int() and i32.is_int_signed() and not i32.is_int_unsigned()
    assert i1.is_bool() and i1.is_int_unsigned() and not i1.is_signed()
    assert f16.is_floating() and f16.is_standard_floating() and not f16.is_fp8()
    assert DType.from_name("fp8e4nv").is_fp8()
    assert f32.primitive_bitwidth == 32 and i1.int_bitwidth == 1
    assert f32.fp_mantissa_width == 23 and f32.mantissa_width == 24
    assert DType.from_name("bf16").fp_mantissa_width == 7
    p = DType.get_pointer(f32)
    assert p.is_ptr() and p.is_pointer() and p.element_ty is f32 and p.pointee is f32
    assert p.primitive_bitwidth == 64
    b = DType.get_block(u32, [2, 16])
    assert b.is_block() and not b.is_scalar()
    assert b.scalar is u32 and b.element_ty is u32
    assert b.shape == [2, 16] and b.numel == 32 and b.num_elements == 32
    assert f32.shape == [] and f32.scalar is f32
    assert b.with_element_ty(f16) is DType.get_block(f16, [2, 16])
    assert DType.get_void().is_void()
    with pytest.raises(AttributeError):
        i32.fp_mantissa_width


def test_dtype_constructor_errors():
    with pytest.raises(ValueError, match="Shape element 0 must be a power of 2"):
        DType.get_block(f32, [3])
    with pytest.raises(TypeError, match="blocks hold scalars"):
        DType.get_block(DType.get_block(f32, [2]), [2])
    with pytest.raises(ValueError, match="numel \\(2097152\\) exceeds triton maximum tensor numel"):
        DType.get_block(f32, [2048, 1024])
    for space in (2, 999, -1):
        with pytest.raises(ValueError, match=f"address space {space} is not one of 0 \\(generic\\)"):
            DType.get_pointer(f32, space)


# -- Operands and handles ----------------------------------------------------


def test_python_literals_become_operands():
    m, s = kernel([])
    assert s.constant(True).type is i1
    assert s.constant(7).type is i32
    assert s.constant(2**31).type is u32
    assert s.constant(2**40).type.name == "int64"
    assert s.constant(-2**63).type.name == "int64"
    assert s.constant(2**63).type.name == "uint64"
    assert s.constant(2**64 - 1).type.name == "uint64"
    assert s.constant(0.5).type is f32
    assert s.constant(1e300).type.name == "fp64"
    assert s.constant(3, f16).type is f16
    with pytest.raises(ValueError, match=r"integer 18446744073709551616 is out of range"):
        s.constant(2**64)
    with pytest.raises(ValueError, match="out of range"):
        s.constant(-2**63 - 1)
    with pytest.raises(TypeError, match="unsupported operand of type str"):
        s.constant("1")
    text = finish(m, s)
    assert "constant -1 : i64" in text  # 2**64 - 1, as the signless bits
    assert "constant 2147483648 : i32" in text


def test_a_kernel_through_the_binding():
    m, s = kernel([("x", f16), ("p", DType.get_pointer(f32)), ("n", i32)])
    x = s.read_var("x")
    assert isinstance(x, fe.TValue) and x.type is f16 and x.dtype is f16
    offs = s.arange(0, 128)
    assert offs.shape == [128]
    mask = s.compare(fe.CmpOp.LT, offs, s.read_var("n"))
    y = s.binary(fe.BinOp.Mul, x, 2.0)
    ptrs = s.binary(fe.BinOp.Add, s.read_var("p"), offs)
    s.store(ptrs, y, mask)
    v = s.load(ptrs, mask=mask, other=0.0, cache=".cg")
    assert v.type.name == "<128xfp32>"
    text = finish(m, s)
    assert text.startswith("kernel @k(%x: f16, %p: ptr<f32>, %n: i32) {")
    assert "%7 = fmul %x, %6 : f16" in text
    # The fp16 scalar is cast to the pointee type, then splat.
    assert "%10 = fpext %7 : f32\n  %11 = splat %10 : <128 x f32>\n  store %9, %11, %5" in text
    assert "{cache=cg}" in text
    m.verify()


def test_enums_and_strings():
    m, s = kernel([("a", DType.get_block(f32, [4, 8])), ("p", DType.get_pointer(i32)),
                   ("q", DType.get_block(f32, [16, 8]))])
    a = s.read_var("a")
    assert s.unary(fe.UnaryOp.Exp, a).type is a.type
    assert s.min_max(True, a, 0.0, propagate_nan=True).type is a.type
    assert s.cast(a, f16, fp_downcast_rounding="rtz").type.name == "<4x8xfp16>"
    assert s.cast(a, i32, bitcast=True).type.name == "<4x8xint32>"
    assert s.hint(fe.Hint.MaxContiguous, s.arange(0, 8), [8]).type.name == "<8xint32>"
    assert s.atomic_rmw("add", s.read_var("p"), 1, sem="relaxed", scope="cta").type is i32
    assert s.atomic_cas(s.read_var("p"), 0, 1).type is i32
    r = s.reduce(a, "sum", None, True)
    assert r.type.name == "<1x1xfp32>"
    assert s.reduce(a, "max", -1).type.name == "<4xfp32>"
    assert s.arg_min_max(a, True, 1).type.name == "<4xint32>"
    assert s.scan(a, "sum", 0, reverse=True).type is a.type
    x, y = s.split(s.join(a, a))
    assert x.type is a.type
    l, r = s.broadcast(s.arange(0, 8), s.expand_dims(s.arange(0, 4), 1))
    assert l.type.name == "<4x8xint32>" and r.type.name == "<4x8xint32>"
    q = s.read_var("q")
    d = s.dot(s.permute(q, [1, 0]), q, input_precision="ieee")
    assert d.type.name == "<8x8xfp32>"
    s.device_print("a", [a], hex=False)
    s.device_assert(s.compare(fe.CmpOp.GE, a, 0.0), "a >= 0", mask=None)
    s.debug_barrier()
    assert s.extern_elementwise("__nv_expf", [a], f32).type is a.type
    text = finish(m, s)
    assert "fptrunc %a {rounding=rtz}" in text
    assert "atomic_rmw add %p, %" in text and "{sem=relaxed, scope=cta}" in text
    assert fe.BinOp.__members__["FloorDiv"] == fe.BinOp.FloorDiv
    with pytest.raises(AttributeError):
        fe.BinOp.Nope


def test_compile_errors_become_compilation_error_with_location():
    m, s = kernel([("p", DType.get_pointer(f32)), ("u", u32), ("a", DType.get_block(f32, [128]))])
    s.set_loc("kern.py", 12, 8)
    assert s.get_loc() == ("kern.py", 12, 8)
    with pytest.raises(CompilationError) as e:
        s.binary(fe.BinOp.Add, s.read_var("p"), s.read_var("p"))
    assert e.value.message == "cannot add pointers together"
    assert (e.value.file, e.value.line, e.value.col) == ("kern.py", 12, 8)
    with pytest.raises(CompilationError, match=r"incompatible shapes \[128\] and \[64\] for \+"):
        s.binary(fe.BinOp.Add, s.read_var("a"), s.full([64], 0, f32))
    with pytest.raises(CompilationError, match="different signedness"):
        s.binary(fe.BinOp.FloorDiv, s.read_var("u"), s.constant(1))
    with pytest.raises(CompilationError, match="Invalid rounding mode: up"):
        s.cast(s.read_var("a"), f16, fp_downcast_rounding="up")
    with pytest.raises(CompilationError, match="cache modifier '.zz'"):
        s.load(s.read_var("p"), cache=".zz")


def test_control_flow_and_phi_dtypes():
    m, s = kernel([("x", u32), ("c", i1)])
    then, els, merge = s.create_block("then"), s.create_block("else"), s.create_block("merge")
    s.cond_br(s.read_var("c"), then, els)
    s.seal(then)
    s.seal(els)
    s.set_insert_block(then)
    assert s.get_insert_block() == then
    s.write_var("y", s.binary(fe.BinOp.Add, s.read_var("x"), 1))
    s.br(merge)
    s.set_insert_block(els)
    s.write_var("y", s.read_var("x"))
    s.br(merge)
    assert s.is_terminated()
    s.seal(merge)
    s.set_insert_block(merge)
    y = s.read_var("y")
    assert y.type is u32 and s.get_dtype(y) is u32
    assert s.read_var("undefined") is None
    text = finish(m, s)
    assert "%y = phi [%3, then], [%x, else] : i32" in text


def test_calls_and_combine_functions():
    m, s = kernel([("a", DType.get_block(f32, [16]))])
    comb = s.begin_function("add", [f32, f32], ["l", "r"], False)
    s.set_result_types([f32])
    s.ret([s.binary(fe.BinOp.Add, s.read_var("l"), s.read_var("r"))])
    s.end_function()
    assert comb.name == "add" and not comb.is_kernel and comb.num_args == 2
    assert not comb.noinline
    comb.set_noinline(True)
    assert comb.noinline
    assert s.get_function().name == "k"
    (r,) = s.reduce([s.read_var("a")], 0, comb)
    assert r.type is f32
    (c,) = s.scan([s.read_var("a")], 0, comb, reverse=False)
    assert c.type.name == "<16xfp32>"
    (v,) = s.call(comb, [r, r])
    assert v.type is f32
    s.set_arg_divisibility(0, 16)
    text = finish(m, s)
    assert "reduce %a {axis=0, combine=@add} : f32" in text
    assert "call @add(" in text
    assert "func noinline @add(%l: f32, %r: f32) -> f32" in str(comb)


def test_handles_keep_the_module_alive():
    def build():
        m, s = kernel([("x", f32)])
        v = s.binary(fe.BinOp.Mul, s.read_var("x"), s.read_var("x"))
        return v, s.get_function(), s.create_block("later")

    v, f, b = build()
    gc.collect()
    assert v.type is f32
    assert b.name == "later"
    assert "fmul %x, %x : f32" in str(f)


def test_values_of_another_semantic_are_rejected():
    _, s1 = kernel([("x", f32)])
    _, s2 = kernel([("x", f32)])
    with pytest.raises(ValueError, match="another Semantic"):
        s2.reshape(s1.read_var("x"), [1])


def test_misuse_of_the_binding_raises_instead_of_aborting():
    # Each of these used to end the process on an assertion.
    with pytest.raises(ValueError, match="integer width must be 1, 8, 16, 32 or 64, got 7"):
        DType.get_int(7)
    with pytest.raises(TypeError, match="with_scalar needs a scalar type, got void"):
        DType.get_block(f32, [4]).with_scalar(DType.get_void())
    s = fe.Semantic(_C.ir.Module())
    with pytest.raises(CompilationError, match="no function is being built"):
        s.get_function()
    with pytest.raises(CompilationError, match="one name per parameter: 2 parameters, 1 names"):
        s.begin_function("k", [f32, f32], ["x"], True)
    m, s = kernel([("x", f32)])
    with pytest.raises(CompilationError, match="cannot cast <16xfp32> to void"):
        s.scan(s.full([16], 1.0, f32), "sum", 0, acc_dtype=DType.get_void())
    finish(m, s)
    with pytest.raises(CompilationError, match="no function is being built"):
        s.end_function()


def test_a_value_removed_by_sealing_is_refused():
    # x read in an unsealed block is a phi; sealing the block (one
    # predecessor) removes it. The handle must not reach the IR.
    m, s = kernel([("x", i32)])
    h = s.create_block("h")
    s.br(h)
    s.set_insert_block(h)
    v = s.read_var("x")
    s.seal(h)
    with pytest.raises(ValueError, match="the value is gone from the IR"):
        s.binary(fe.BinOp.Add, v, 1)
    with pytest.raises(ValueError, match="the value is gone from the IR"):
        s.binary(fe.BinOp.Add, 1, v)
    s.binary(fe.BinOp.Add, s.read_var("x"), 1)
    finish(m, s)
    m.verify()


def test_run_passes_verifies_first():
    # dce on a use that its definition does not dominate used to delete a
    # value still in use (an abort).
    m = _C.parse_module("kernel @k(%p: ptr<i32>) {\nbb0:\n  br exit\ndead:\n"
                        "  %x = constant 1 : i32\n  br exit\nexit:\n  store %p, %x\n  ret\n}\n")
    with pytest.raises(CompilationError, match="operand %x does not dominate this use"):
        m.run_passes("dce")


def test_lowering_checks_the_layouts_it_is_given():
    # %b holds 2 registers per thread, %c (elementwise on it) claims 4: the
    # lowering used to read past %b's registers.
    lay2 = "<register=[[128]], lane=[[1], [2], [4], [8], [16]], warp=[[32], [64]], shape=[256]>"
    lay4 = "<register=[[64], [128]], lane=[[1], [2], [4], [8], [16]], warp=[[32], [0]], shape=[256]>"
    m = _C.parse_module(f"""kernel @k(%p: ptr<f32>) {{
bb0:
  %a = make_range {{start=0, end=256, layout={lay2}}} : <256 x i32>
  %b = sitofp %a {{layout={lay2}}} : <256 x f32>
  %c = fadd %b, %b {{layout={lay4}}} : <256 x f32>
  %s = reduce %c {{axis=0, kind=fadd}} : f32
  store %p, %s
  ret
}}
""")
    with pytest.raises(CompilationError, match="cannot lower '%c = fadd.*operand 0 has the layout"):
        _C.run_stage("llir", m, "cuda:90", {"num_warps": 4})




# -- The interpreter's view of a traced operation ----------------------------


def test_describe_function_numbers_values_in_order():
    s = fe.Semantic(_C.ir.Module())
    blk = DType.get_block(f16, [4, 8])
    f = s.begin_function("f", [blk, DType.get_pointer(i1)], ["a", "p"], False)
    a = s.get_arg(0)
    total = s.binary(fe.BinOp.Add, a, 1.5)
    lo, hi = s.split(s.join(a, a))
    steps, outs = fe.describe_function(f, [total, lo, hi])
    s.end_function()
    assert [st[0] for st in steps] == ["constant", "fadd", "join", "split"]
    assert steps[0][2] == {"value": 1.5} and steps[0][3] == (("f16", (4, 8), 2),)
    assert steps[1][1] == (0, 2)  # a, then the constant (values 0, 1 are the parameters)
    assert steps[3][3] == (("f16", (4, 8), 2),) * 2 and outs == [3, 5, 6]
    g = s.begin_function("g", [DType.get_pointer(f16)], ["p"], False)
    x = s.load(s.get_arg(0))
    steps, outs = fe.describe_function(g, [x])
    s.end_function()
    assert steps == [("load", (0,), {}, (("f16", (), 2),), (("ptr", (), 2),))] and outs == [1]
