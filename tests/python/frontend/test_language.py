"""Every tl function in a kernel: the IR is verified and must contain the
operation with the right types."""

import re

import pytest

import tritium.language as tl
from tir_helpers import count, jit, to_ir, to_module

# --- Creation ---------------------------------------------------------------


@jit
def k_program_geometry(out_ptr):
    tl.store(out_ptr, tl.program_id(axis=1) + tl.num_programs(2))


def test_program_id_num_programs():
    ir = to_ir(k_program_geometry, "*i32")
    assert "get_program_id {axis=1} : i32" in ir
    assert "get_num_programs {axis=2} : i32" in ir


@jit
def k_creation(out_ptr, v, N: tl.constexpr):
    offs = tl.arange(0, N)
    a = tl.zeros((N, ), tl.float16)
    b = tl.full((N, ), 2.5, tl.float32)
    c = tl.zeros_like(offs)
    d = tl.full_like(offs, 7)
    e = tl.full((N, ), v, tl.int64)
    f = tl.full_like(b, 1, dtype=tl.float64)
    tl.store(out_ptr + offs, a.to(tl.float32) + b + c + d + e + f)


def test_arange_zeros_full_like():
    ir = to_ir(k_creation, "*fp64,i32", {"N": 32})
    assert "make_range {start=0, end=32} : <32 x i32>" in ir
    assert "constant 0.0 : <32 x f16>" in ir
    assert "constant 2.5 : <32 x f32>" in ir
    assert "constant 0 : <32 x i32>" in ir and "constant 7 : <32 x i32>" in ir
    assert re.search(r"sext %v : i64", ir) and re.search(r"splat %\S+ : <32 x i64>", ir)
    assert "constant 1.0 : <32 x f64>" in ir


@jit
def k_cdiv(out_ptr, n, B: tl.constexpr):
    tl.store(out_ptr, tl.cdiv(n, B) + tl.cdiv(B, 3))


def test_cdiv():
    ir = to_ir(k_cdiv, "*i32,i32", {"B": 64})
    assert count(ir, r"= sdiv ") == 1
    assert "constant 22 : i32" in ir  # cdiv(64, 3) folded


# --- Memory -------------------------------------------------------------------


@jit
def k_load_store_options(x_ptr, y_ptr, n):
    offs = tl.arange(0, 64)
    m = offs < n
    x = tl.load(x_ptr + offs, mask=m, other=1.5, cache_modifier=".cg", eviction_policy="evict_first")
    s = tl.load(x_ptr, volatile=True)
    tl.store(y_ptr + offs, x + s, mask=m, cache_modifier=".cs", eviction_policy="evict_last")


def test_load_store_modifiers():
    ir = to_ir(k_load_store_options, "*fp32,*fp32,i32")
    assert re.search(r"load %\S+, %\S+, %\S+ \{cache=cg, evict=evict_first\} : <64 x f32>", ir)
    assert "constant 1.5 : <64 x f32>" in ir
    assert re.search(r"load %x_ptr \{volatile\} : f32", ir)
    assert re.search(r"store %\S+, %\S+, %\S+ \{cache=cs, evict=evict_last\}", ir)


@jit
def k_block_ptr(x_ptr, y_ptr, M, N, stride):
    src = tl.make_block_ptr(x_ptr, (M, N), (stride, 1), (0, 0), (16, 32), (1, 0))
    src = tl.advance(src, (16, 0))
    a = tl.load(src, boundary_check=(0, 1), padding_option="nan")
    b = tl.load(src.advance((0, 32)), boundary_check=(1, ), padding_option="zero")
    c = tl.load(src)
    dst = tl.make_block_ptr(base=y_ptr, shape=(M, N), strides=(stride, 1), offsets=(0, 0), block_shape=(16, 32),
                            order=(1, 0))
    tl.store(dst, a + b + c, boundary_check=(0, ))


def test_block_pointers():
    """A block pointer is a descriptor of 64-bit shapes; its loads and
    stores are descriptor accesses that name the dimensions they check."""
    ir = to_ir(k_block_ptr, "*fp32,*fp32,i32,i32,i32")
    assert count(ir, r"make_tensor_descriptor %\S+, %\d+, %\d+, %\d+, %\d+ : tensordesc<16 x 32 x f32>") == 2
    assert re.search(r"sext %M : i64", ir)  # shapes and strides are 64-bit
    loads = [ln for ln in ir.splitlines() if "descriptor_load" in ln]
    assert len(loads) == 3
    assert "{boundary=[0, 1], padding=nan}" in loads[0]
    assert "{boundary=[1]}" in loads[1]  # padding "zero" is the default
    assert "{boundary=[]}" in loads[2]  # no boundary check
    assert re.search(r"descriptor_store %\S+, %\S+, %\S+, %\S+ \{boundary=\[0\]\}$", ir, re.M)


def test_block_pointers_lowered():
    """Lowered, only the checked dimensions are masked, and NaN pads."""
    m = to_module(k_block_ptr, "*fp32,*fp32,i32,i32,i32")
    m.run_passes("lower-tensor-descriptors,canonicalize,cse,dce", verify_each=True)
    ir = str(m)
    loads = [ln for ln in ir.splitlines() if re.search(r"= load ", ln)]
    assert len(loads) == 3
    assert re.search(r"load %\S+, %\S+, %\S+ : <16 x 32 x f32>", loads[0])  # masked, padded
    assert re.search(r"constant nan : <16 x 32 x f32>", ir)
    assert re.search(r"load %\S+ : <16 x 32 x f32>", loads[2])  # no boundary check: no mask
    assert re.search(r"store %\S+, %\S+, %\S+$", ir, re.M)
    # The first load's rows and columns, the second's columns, the store's rows.
    assert count(ir, r"icmp ult .*: <(16|32) x i1>") == 4


@pytest.mark.parametrize("op,kind", [("add", "add"), ("max", "max"), ("min", "min"), ("and", "and"), ("or", "or"),
                                     ("xor", "xor"), ("xchg", "xchg")])
def test_atomics_int(op, kind):
    src = f"""
def k(p, v, n):
    offs = tl.arange(0, 16)
    old = tl.atomic_{op}(p + offs, v, mask=offs < n, sem="acquire", scope="cta")
    tl.store(p + offs, old)
"""
    ir = to_ir(_jit_from_source(src), "*i32,i32,i32")
    assert re.search(rf"atomic_rmw {kind} %\S+, %\S+, %\S+ \{{sem=acquire, scope=cta\}} : <16 x i32>", ir), ir


def test_atomics_float_and_unsigned():
    src = """
def k(pf, pu, v, u):
    a = tl.atomic_add(pf, v)
    b = tl.atomic_max(pu, u, sem="relaxed", scope="gpu")
    tl.store(pf, a)
    tl.store(pu, b)
"""
    ir = to_ir(_jit_from_source(src), "*fp32,*u32,fp32,u32")
    assert re.search(r"atomic_rmw fadd %pf, %v", ir)
    assert re.search(r"atomic_rmw umax %pu, %u \{sem=relaxed, scope=gpu\}", ir)


@jit
def k_atomic_cas(lock, count):
    while tl.atomic_cas(lock, 0, 1, sem="acq_rel", scope="gpu") == 1:
        pass
    c = tl.load(count)
    tl.atomic_xchg(count, c + 1)
    tl.atomic_xchg(lock, 0)


def test_atomic_cas():
    ir = to_ir(k_atomic_cas, "*i32,*i32")
    assert re.search(r"atomic_cas %lock, %\S+, %\S+ \{sem=acq_rel, scope=gpu\} : i32", ir)
    assert count(ir, r"atomic_rmw xchg") == 2


# --- Arithmetic ---------------------------------------------------------------


@jit
def k_arith(x_ptr, i_ptr, u_ptr, out_ptr):
    x = tl.load(x_ptr)
    i = tl.load(i_ptr)
    u = tl.load(u_ptr)
    f = x + 1 - x * 2.0 / (x % 3.0) + (1 - x) + 2 * x + 1.0 / x
    g = i // 3 + i % 5 + (7 // i) + (i << 2) + (i >> 1) + (i & 3) + (i | 4) + (i ^ 5) + (1 << i) + (~i) + (-i) + (+i)
    h = u >> 1
    tl.store(out_ptr, f + g.to(tl.float32) + h.to(tl.float32))


def test_arithmetic_bitwise_and_reflected_operators():
    ir = to_ir(k_arith, "*fp32,*i32,*u32,*fp32")
    for op in ("fadd", "fsub", "fmul", "fdiv", "frem", "sdiv", "srem", "shl", "ashr", "and", "or", "xor", "lshr",
               "neg"):
        assert re.search(rf"= {op} ", ir), op
    assert re.search(r"sitofp %\S+ : f32", ir) and re.search(r"uitofp %\S+ : f32", ir)


@jit
def k_compare(x_ptr, i_ptr, u_ptr, out_ptr):
    x = tl.load(x_ptr)
    i = tl.load(i_ptr)
    u = tl.load(u_ptr)
    c = (x < 1.0) & (x >= i) | (i == 3) ^ (i != 4) | (u > 2) | (u <= 7) | (2 < i)
    tl.store(out_ptr, c.to(tl.int32))


def test_comparisons():
    ir = to_ir(k_compare, "*fp32,*i32,*u32,*i32")
    for pred in ("fcmp olt", "fcmp oge", "icmp eq", "icmp ne", "icmp ugt", "icmp ule", "icmp sgt"):
        assert pred in ir, pred


@jit
def k_minmax(x_ptr, i_ptr, out_ptr):
    x = tl.load(x_ptr)
    i = tl.load(i_ptr)
    a = tl.minimum(x, 1.0) + tl.maximum(x, 0.0, propagate_nan=tl.PropagateNan.ALL)
    b = tl.clamp(x, 0.0, 1.0) + tl.where(i > 0, x, 2.0)
    c = tl.maximum(i, 3) + tl.minimum(i, 4)
    tl.store(out_ptr, a + b + c.to(tl.float32))


def test_where_minimum_maximum_clamp():
    ir = to_ir(k_minmax, "*fp32,*i32,*fp32")
    assert re.search(r"= fmin %\S+, %\S+ : f32", ir)
    assert re.search(r"= fmaximum %\S+, %\S+ : f32", ir)
    assert re.search(r"= select %\S+, %\S+, %\S+ : f32", ir)
    assert "smax" in ir and "smin" in ir


UNARY = ["exp", "exp2", "log", "log2", "sqrt", "sqrt_rn", "rsqrt", "sin", "cos", "abs", "floor", "ceil", "erf"]


@pytest.mark.parametrize("fn", UNARY)
def test_unary_math(fn):
    src = f"""
def k(x_ptr):
    offs = tl.arange(0, 8)
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.{fn}(x) + tl.math.{fn}(x) + x.{fn}())
"""
    ir = to_ir(_jit_from_source(src), "*fp32")
    assert count(ir, rf"= {fn} %\S+ : <8 x f32>") == 3


@jit
def k_fp64_math(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, tl.exp(x) + tl.abs(x))


def test_unary_math_keeps_fp64():
    ir = to_ir(k_fp64_math, "*fp64")
    assert re.search(r"= exp %\S+ : f64", ir) and re.search(r"= abs %\S+ : f64", ir)


@jit
def k_math2(x_ptr, u_ptr, out_ptr):
    x = tl.load(x_ptr)
    u = tl.load(u_ptr)
    a = tl.fma(x, x, 1.0) + tl.div_rn(x, 3.0) + tl.fdiv(x, 2.0) + tl.math.fdiv(x, 2.0, ieee_rounding=True)
    b = tl.umulhi(u, u) + tl.math.umulhi(u, 7)
    tl.store(out_ptr, a + tl.sigmoid(x) + b.to(tl.float32))


def test_fma_umulhi_division_sigmoid():
    ir = to_ir(k_math2, "*fp32,*u32,*fp32")
    assert re.search(r"= fma %\S+, %\S+, %\S+ : f32", ir)
    assert count(ir, r"= umulhi ") == 2
    assert count(ir, r"= fdiv ") >= 4
    assert "exp" in ir and "neg" in ir


@jit
def k_softmax(x_ptr):
    offs = tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(x_ptr + offs, tl.softmax(x, dim=1) + x.softmax())


def test_softmax():
    ir = to_ir(k_softmax, "*fp32")
    assert re.search(r"reduce %\S+ \{axis=1, kind=fmax\} : <16 x f32>", ir)
    assert re.search(r"expand_dims %\S+ \{axis=1\} : <16 x 1 x f32>", ir)
    assert re.search(r"reduce %\S+ \{axis=0, kind=fmax\} : <32 x f32>", ir)  # x.softmax(): dim 0
    assert count(ir, r"= exp ") == 2


@jit
def k_casts(x_ptr, out_ptr):
    x = tl.load(x_ptr)
    a = x.to(tl.float16, fp_downcast_rounding="rtz")
    b = x.to(tl.int32, bitcast=True)
    c = tl.cast(x, tl.bfloat16)
    d = x.to(tl.int8)
    e = x.to(tl.float64)
    p = out_ptr.to(tl.pointer_type(tl.float16))
    tl.store(p, a + c.to(tl.float16) + d.to(tl.float16) + e.to(tl.float16) + b.to(tl.float16))


def test_casts():
    ir = to_ir(k_casts, "*fp32,*fp32")
    assert re.search(r"fptrunc %\S+ \{rounding=rtz\} : f16", ir)
    assert re.search(r"bitcast %\S+ : i32", ir)
    assert re.search(r"fptrunc %\S+ : bf16", ir)
    assert re.search(r"fptosi %\S+ : i8", ir) and re.search(r"fpext %\S+ : f64", ir)
    assert re.search(r"bitcast %out_ptr : ptr<f16>", ir)


# --- Dot ------------------------------------------------------------------------


@jit
def k_dot(a_ptr, b_ptr, c_ptr, PREC: tl.constexpr):
    r = tl.arange(0, 32)
    a = tl.load(a_ptr + r[:, None] * 32 + r[None, :])
    b = tl.load(b_ptr + r[:, None] * 32 + r[None, :])
    acc = tl.zeros((32, 32), tl.float32)
    acc = tl.dot(a, b, acc, input_precision=PREC)
    acc += tl.dot(a, b, allow_tf32=False)
    acc += tl.dot(a, b, max_num_imprecise_acc=0, out_dtype=tl.float32)
    tl.store(c_ptr + r[:, None] * 32 + r[None, :], acc)


def test_dot_options():
    ir = to_ir(k_dot, "*fp32,*fp32,*fp32", {"PREC": "tf32x3"})
    assert re.search(r"dot %\S+, %\S+, %\S+ \{precision=tf32x3\} : <32 x 32 x f32>", ir)
    assert re.search(r"dot %\S+, %\S+, %\S+ \{precision=ieee\} : <32 x 32 x f32>", ir)
    assert count(ir, r"= dot ") == 3


@jit
def k_dot_fp16(a_ptr, c_ptr):
    r = tl.arange(0, 16)
    a = tl.load(a_ptr + r[:, None] * 16 + r[None, :])
    tl.store(c_ptr + r[:, None] * 16 + r[None, :], tl.dot(a, a.T, out_dtype=tl.float16))


def test_dot_fp16_and_transpose():
    ir = to_ir(k_dot_fp16, "*fp16,*fp16")
    assert re.search(r"trans %\S+ \{order=\[1, 0\]\} : <16 x 16 x f16>", ir)
    assert re.search(r"= dot .* : <16 x 16 x f16>", ir)


# --- Shapes ---------------------------------------------------------------------


def _jit_from_source(src, name="k"):
    """A @jit function from source text (a file the tests write)."""
    import importlib.util
    import os
    import tempfile
    d = tempfile.mkdtemp(prefix="tritium_k_")
    path = os.path.join(d, "kmod.py")
    with open(path, "w") as f:
        f.write("import tritium.language as tl\nfrom tir_helpers import jit\n\n@jit" + src)
    spec = importlib.util.spec_from_file_location(f"kmod_{abs(hash(src))}", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return getattr(mod, name)


@jit
def k_reshape_family(x_ptr, out_ptr):
    r = tl.arange(0, 8)
    x = tl.load(x_ptr + r[:, None] * 4 + tl.arange(0, 4)[None, :])
    a = tl.trans(x) + tl.permute(x, (1, 0)) + x.T + tl.trans(x, 1, 0)
    c = tl.reshape(x, (4, 8)) + tl.reshape(x, 4, 8) + tl.view(x, (4, 8)) + x.reshape(4, 8)
    e = tl.ravel(a + c)
    f = tl.expand_dims(e, 0)
    g = tl.broadcast_to(f, (2, 32)) + tl.broadcast_to(1.0, 2, 32)
    p, q = tl.broadcast(r[:, None], tl.arange(0, 4)[None, :])
    pq = tl.reshape(tl.ravel(p + q), (1, 32))
    tl.store(out_ptr + tl.arange(0, 64), tl.ravel(g) + tl.ravel(tl.broadcast_to(pq, (2, 32))))


def test_trans_permute_reshape_view_ravel_expand_broadcast():
    ir = to_ir(k_reshape_family, "*fp32,*fp32")
    assert count(ir, r"trans %\S+ \{order=\[1, 0\]\} : <4 x 8 x f32>") == 4
    assert count(ir, r"reshape %\S+ : <4 x 8 x f32>") == 3
    assert count(ir, r"reshape %\S+ \{allow_reorder\} : <4 x 8 x f32>") == 1
    assert re.search(r"reshape %\S+ : <32 x f32>", ir)
    assert re.search(r"expand_dims %\S+ \{axis=0\} : <1 x 32 x f32>", ir)
    assert re.search(r"broadcast %\S+ : <2 x 32 x f32>", ir)
    assert re.search(r"broadcast %\S+ : <8 x 4 x i32>", ir)


@jit
def k_colons_past_the_rank(out_ptr):
    v = tl.sum(tl.arange(0, 8), axis=0, keep_dims=True)[None, :]
    tl.store(out_ptr[None, None, :], v)  # ':' past the rank changes nothing, as in Triton


def test_colons_past_the_last_dimension_change_nothing():
    ir = to_ir(k_colons_past_the_rank, "*i32")
    assert re.search(r"expand_dims %\S+ \{axis=1\} : <1 x 1 x ptr<i32>>", ir), ir


@jit
def k_join_split_cat(x_ptr, out_ptr):
    r = tl.arange(0, 16)
    a = tl.load(x_ptr + r)
    b = tl.load(x_ptr + 16 + r)
    j = tl.join(a, b)  # 16 x 2
    lo, hi = tl.split(j)
    lo2, hi2 = j.split()
    c = tl.cat(lo + lo2, hi + hi2, can_reorder=True)  # 32
    i = tl.interleave(a, b)  # 32
    tl.store(out_ptr + tl.arange(0, 32), c + i)


def test_join_split_cat_interleave():
    ir = to_ir(k_join_split_cat, "*fp32,*fp32")
    assert count(ir, r"= join %\S+, %\S+ : <16 x 2 x f32>") == 2
    assert count(ir, r"= split %\S+ : <16 x f32>, <16 x f32>") == 2
    assert re.search(r"cat %\S+, %\S+ : <32 x f32>", ir)
    assert re.search(r"reshape %\S+ : <32 x f32>", ir)


@jit
def k_indexing(x_ptr, out_ptr):
    r = tl.arange(0, 8)
    col = r[:, None]
    row = r[None, :]
    full = r[...]
    e = r[None, ..., None]
    tl.store(out_ptr + col * 8 + row + e.shape[0] * 0 + full[:, None] * 0, 1.0)


def test_tensor_indexing_with_none_and_ellipsis():
    ir = to_ir(k_indexing, "*fp32,*fp32")
    assert re.search(r"expand_dims %\S+ \{axis=1\} : <8 x 1 x i32>", ir)
    assert re.search(r"expand_dims %\S+ \{axis=0\} : <1 x 8 x i32>", ir)
    assert re.search(r"expand_dims %\S+ \{axis=2\} : <1 x 8 x 1 x i32>", ir)


@jit
def k_tensor_properties(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 16)[:, None] * 8 + tl.arange(0, 8)[None, :])
    tl.static_assert(x.shape[0] == 16 and x.shape[1] == 8)
    tl.static_assert(x.dtype == tl.float16 and x.type.is_block() and x.numel == 128)
    tl.static_assert(x_ptr.dtype.element_ty == tl.float16 and x_ptr.type.is_ptr())
    tl.static_assert(x.dtype.is_floating() and x.dtype.primitive_bitwidth == 16 and not x.dtype.is_int())
    tl.store(out_ptr + tl.arange(0, x.shape[1]), tl.zeros([x.shape[1]], dtype=out_ptr.dtype.element_ty))


def test_shape_dtype_type_properties():
    ir = to_ir(k_tensor_properties, "*fp16,*i64")
    assert "constant 0 : <8 x i64>" in ir


# --- Reductions and scans -----------------------------------------------------


@jit
def k_reductions(x_ptr, i_ptr, out_ptr, iout_ptr):
    offs = tl.arange(0, 16)[:, None] * 32 + tl.arange(0, 32)[None, :]
    x = tl.load(x_ptr + offs)
    i = tl.load(i_ptr + offs)
    s0 = tl.sum(x, axis=0)  # 32
    s1 = x.sum(1, keep_dims=True)  # 16 x 1
    sa = tl.sum(x)  # scalar
    mx, amx = tl.max(x, axis=1, return_indices=True)
    mn = tl.min(x, 0)
    am = tl.argmax(x, 0) + tl.argmin(x, axis=1, tie_break_left=False).reshape(1, 16).broadcast_to(2, 16).reshape(32)
    xs = tl.xor_sum(i, axis=1)
    ro = tl.reduce_or(i, 0)
    sd = tl.sum(i.to(tl.int8), axis=0, dtype=tl.int64)
    tl.store(out_ptr + tl.arange(0, 32), s0 + mn + sa + tl.ravel(s1).reshape(1, 16).broadcast_to(2, 16).reshape(32) +
             tl.ravel(mx.reshape(1, 16).broadcast_to(2, 16)))
    tl.store(iout_ptr + tl.arange(0, 32), am + ro + sd.to(tl.int32) +
             tl.ravel((xs + amx).reshape(1, 16).broadcast_to(2, 16)))


def test_reductions():
    ir = to_ir(k_reductions, "*fp32,*i32,*fp32,*i32")
    assert re.search(r"reduce %\S+ \{axis=0, kind=fadd\} : <32 x f32>", ir)
    assert re.search(r"reduce %\S+ \{axis=1, kind=fadd\} : <16 x f32>", ir)
    assert re.search(r"expand_dims %\S+ \{axis=1\} : <16 x 1 x f32>", ir)
    assert re.search(r"= reduce %\S+ \{axis=0, kind=fadd\} : f32", ir)  # axis=None
    assert re.search(r"reduce %\S+ \{axis=1, kind=fmax\} : <16 x f32>", ir)
    assert re.search(r"argmax %\S+ \{axis=1, tie_break_left\} : <16 x i32>", ir)
    assert re.search(r"reduce %\S+ \{axis=0, kind=fmin\} : <32 x f32>", ir)
    assert re.search(r"argmax %\S+ \{axis=0, tie_break_left\} : <32 x i32>", ir)
    assert re.search(r"argmin %\S+ \{axis=1\} : <16 x i32>", ir)
    assert re.search(r"reduce %\S+ \{axis=1, kind=xor\} : <16 x i32>", ir)
    assert re.search(r"reduce %\S+ \{axis=0, kind=or\} : <32 x i32>", ir)
    assert re.search(r"reduce %\S+ \{axis=0, kind=add\} : <32 x i64>", ir)


@jit
def combine_add(a, b):
    return a + b


@jit
def combine_argmax(v1, i1, v2, i2):
    keep = v1 >= v2
    return tl.where(keep, v1, v2), tl.where(keep, i1, i2)


@jit
def k_reduce_scan(x_ptr, out_ptr):
    offs = tl.arange(0, 64)
    x = tl.load(x_ptr + offs)
    s = tl.reduce(x, 0, combine_add)
    v, i = tl.reduce((x, offs), 0, combine_argmax)
    c = tl.associative_scan(x, 0, combine_add, reverse=True)
    c2, _ = tl.associative_scan((x, offs), axis=0, combine_fn=combine_argmax)
    cs = tl.cumsum(x, 0) + tl.cumprod(x, axis=0, reverse=True) + x.cumsum()
    tl.store(out_ptr + offs, c + c2 + cs + s + v + i.to(tl.float32) + x.reduce(0, combine_add))


def test_reduce_and_scan_with_combine_functions():
    ir = to_ir(k_reduce_scan, "*fp32,*fp32")
    assert re.search(r"^func @combine_add__combine__fp32\(%a: f32, %b: f32\) -> f32", ir, re.M)
    assert re.search(r"^func @combine_argmax__combine__fp32_int32\(%v1: f32, %i1: i32, %v2: f32, %i2: i32\) -> "
                     r"\(f32, i32\)", ir, re.M)
    assert count(ir, r"reduce %\S+ \{axis=0, combine=@combine_add__combine__fp32\} : f32") == 2
    assert re.search(r"reduce %\S+, %\S+ \{axis=0, combine=@combine_argmax__combine__fp32_int32\} : f32, i32", ir)
    assert re.search(r"scan %\S+ \{axis=0, combine=@combine_add__combine__fp32, reverse\} : <64 x f32>", ir)
    assert re.search(r"scan %\S+ \{axis=0, kind=fadd\} : <64 x f32>", ir)
    assert re.search(r"scan %\S+ \{axis=0, kind=fmul, reverse\} : <64 x f32>", ir)
    assert count(ir, r"^func @combine") == 2  # one function per combine and types


@jit
def k_sort_flip(x_ptr, out_ptr):
    offs = tl.arange(0, 16)
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + offs, tl.sort(x) + tl.sort(x, descending=True) + x.sort() + tl.flip(x) + x.flip(0))


def test_sort_and_flip_are_networks_of_ordinary_ops():
    ir = to_ir(k_sort_flip, "*fp32,*fp32")
    assert count(ir, r"= split ") > 10 and count(ir, r"= select ") > 10
    assert "fcmp ogt" in ir and "fcmp olt" in ir


@jit
def k_topk(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 4)[:, None] * 32 + tl.arange(0, 32)[None, :])
    tl.store(out_ptr + tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :], x.topk(8))


def test_topk_is_a_sort_and_a_max_over_chunks():
    ir = to_ir(k_topk, "*fp32,*fp32")
    assert re.search(r"reshape %\S+ : <4 x 4 x 8 x f32>", ir)
    assert re.search(r"reduce %\S+ \{axis=1, kind=fmax\} : <4 x 8 x f32>", ir)


# --- Random -------------------------------------------------------------------------


@jit
def k_random(out_ptr, seed):
    offs = tl.arange(0, 32)
    a = tl.rand(seed, offs)
    b = tl.randn(seed, offs)
    c = tl.randint(seed, offs)
    d0, d1, d2, d3 = tl.randint4x(seed, offs)
    e0, e1, e2, e3 = tl.philox(seed, offs, offs, offs, offs, n_rounds=7)
    f0, _, _, _ = tl.rand4x(seed, offs)
    g0, _, _, _ = tl.randn4x(seed, offs)
    tl.store(out_ptr + offs, a + b + f0 + g0 + (c ^ d3 ^ e0).to(tl.float32))


def test_random_builds_philox():
    ir = to_ir(k_random, "*fp32,i32")
    # 6 * 10 rounds and one of 7, two umulhi per round.
    assert count(ir, r"= umulhi ") == 2 * (6 * 10 + 7)
    assert "constant 3528531795 : <32 x i32>" in ir  # 0xD2511F53
    assert "constant 3449720151 : <32 x i32>" in ir  # 0xCD9E8D57
    assert "constant 2654435769 : i32" in ir  # 0x9E3779B9
    assert re.search(r"constant 4.6566127342e-10 : <32 x f32>|constant 4\.65661\S* : <32 x f32>", ir)
    assert re.search(r"= log %\S+ : <32 x f32>", ir) and re.search(r"= cos ", ir)


# --- Hints, debugging, extern --------------------------------------------------------


@jit
def k_hints(x_ptr, n):
    offs = tl.multiple_of(tl.arange(0, 64), 16)
    offs = tl.max_contiguous(offs, 64)
    offs = tl.max_constancy(offs, [1])
    n = tl.multiple_of(n, 8)
    tl.debug_barrier()
    tl.assume(n > 0)
    tl.store(x_ptr + offs, n)


def test_hints_and_barrier():
    ir = to_ir(k_hints, "*i32,i32")
    assert re.search(r"multiple_of %\S+ \{values=\[16\]\} : <64 x i32>", ir)
    assert re.search(r"max_contiguous %\S+ \{values=\[64\]\} : <64 x i32>", ir)
    assert re.search(r"max_constancy %\S+ \{values=\[1\]\} : <64 x i32>", ir)
    assert re.search(r"multiple_of %n \{values=\[8\]\} : i32", ir)
    assert re.search(r"^\s*barrier$", ir, re.M)


@jit
def k_hint_statement(x_ptr, y_ptr, ld):
    # Tutorial 08: the hint as a statement, its result unused, on a pointer
    # block whose row stride was loaded (nothing else says it is aligned).
    ptrs = x_ptr + tl.arange(0, 16)[:, None] * ld + tl.arange(0, 64)[None, :]
    tl.multiple_of(ptrs, [16, 16])
    tl.max_contiguous(tl.arange(0, 64), 64)  # not a name: only evaluated
    tl.store(y_ptr + tl.arange(0, 16)[:, None] * 64 + tl.arange(0, 64)[None, :], tl.load(ptrs))


def test_hint_statement_annotates_its_variable():
    """As in Triton, where the hint sets an attribute on its operand's
    definition: `tl.multiple_of(ptrs, ...)` alone makes the later uses of
    `ptrs` see the hint (the name is rebound to the hinted value), so the
    load is vectorized; without the statement it would be scalar."""
    ir = to_ir(k_hint_statement, "*fp16,*fp16,i32")
    hinted = re.search(r"%(\S+) = multiple_of %\S+ \{values=\[16, 16\]\} : <16 x 64 x ptr<f16>>", ir)
    assert hinted, ir
    assert re.search(r"= load %" + re.escape(hinted.group(1)) + r"\b", ir), ir


@jit
def k_debug(x_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.static_print("x has shape", x.shape)
    tl.device_print("x", x)
    tl.device_assert(x > 0, "positive", mask=x == x)


def test_debug_ops(capsys):
    ir = to_ir(k_debug, "*fp32", options={"debug": True})
    assert "x has shape (8,)" in capsys.readouterr().out
    assert re.search(r"^\s*print %\S+ \{prefix=\" x: \"\}$", ir, re.M)
    assert re.search(r"^\s*assert %\S+ \{message=\"positive\"\}$", ir, re.M)


@jit
def k_libdevice(x_ptr, d_ptr, i_ptr):
    x = tl.load(x_ptr)
    d = tl.load(d_ptr)
    i = tl.load(i_ptr)
    ld = tl.extra.libdevice
    a = ld.tanh(x) + ld.pow(x, 2.0) + ld.erf(x) + ld.exp(x) + ld.log1p(x) + ld.expm1(x) + ld.rint(x)
    a += ld.round(x) + ld.trunc(x) + ld.fmod(x, 3.0) + ld.atan2(x, x) + ld.fast_expf(x) + ld.pow_int(x, i)
    b = ld.tanh(d) + ld.sqrt(d)
    c = ld.isnan(x) | ld.isinf(d)
    p = ld.popc(i) + ld.abs(i)
    tl.store(x_ptr, a + b.to(tl.float32) + c.to(tl.float32) + p.to(tl.float32))


def test_libdevice_symbols_by_type():
    ir = to_ir(k_libdevice, "*fp32,*fp64,*i32")
    for sym in ("__nv_tanhf", "__nv_powf", "__nv_erff", "__nv_expf", "__nv_log1pf", "__nv_expm1f", "__nv_rintf",
                "__nv_roundf", "__nv_truncf", "__nv_fmodf", "__nv_atan2f", "__nv_fast_expf", "__nv_powif", "__nv_tanh",
                "__nv_sqrt", "__nv_isnanf", "__nv_isinfd", "__nv_popc", "__nv_abs"):
        assert re.search(rf'extern_elementwise .*symbol="{sym}"', ir), sym
    assert re.search(r'extern_elementwise %\S+ \{symbol="__nv_isnanf", pure\} : i32', ir)


def test_libdevice_under_tritons_module_paths():
    """Triton's libdevice also lives at ``triton.language.extra.cuda.libdevice``
    and ``...extra.hip.libdevice`` (Liger imports the former where the
    first fails): the same module."""
    import importlib
    for path in ("tritium.language.extra.cuda.libdevice", "tritium.language.extra.hip.libdevice"):
        assert importlib.import_module(path) is tl.extra.libdevice
    from tritium.language.extra.cuda.libdevice import rsqrt
    assert rsqrt is tl.extra.libdevice.rsqrt


@jit
def k_cuda_extra(x_ptr):
    tl.extra.cuda.gdc_wait()
    tl.store(x_ptr, tl.extra.cuda.num_warps() + tl.extra.cuda.num_threads())
    tl.extra.cuda.gdc_launch_dependents()


def test_cuda_extras():
    ir = to_ir(k_cuda_extra, "*i32", options={"num_warps": 8})
    assert "constant 264 : i32" in ir or "constant 8 : i32" in ir
    # The grid dependency controls stay where the kernel has them.
    assert ir.index("gdc_wait") < ir.index("store") < ir.index("gdc_launch_dependents")


@jit
def k_extern(x_ptr):
    x = tl.load(x_ptr)
    y = tl.extern_elementwise("", "", [x, 2.0], {(tl.float32, tl.float32): ("__nv_powf", tl.float32)}, is_pure=True)
    tl.store(x_ptr, y)


def test_extern_elementwise_table():
    ir = to_ir(k_extern, "*fp32")
    assert re.search(r'extern_elementwise %\S+, %\S+ \{symbol="__nv_powf", pure\} : f32', ir)


@jit
def k_dtypes(out_ptr):
    tl.static_assert(tl.int1 != tl.int8 and tl.uint8.is_int_unsigned() and tl.int64.is_int_signed())
    tl.static_assert(tl.float8e4nv.is_fp8() and tl.float8e5.primitive_bitwidth == 8 and tl.bfloat16.is_bf16())
    tl.static_assert(tl.pointer_type(tl.float32).element_ty == tl.float32)
    tl.static_assert(tl.block_type(tl.float32, [4, 8]).shape == [4, 8])
    tl.static_assert(isinstance(tl.pi32_t, tl.pointer_type) and tl.void.is_void())
    v = tl.zeros([4], tl.uint16) + tl.zeros([4], tl.int16).to(tl.uint16) + tl.zeros([4], tl.uint64).to(tl.uint16)
    tl.store(out_ptr + tl.arange(0, 4), v.to(tl.float64))


def test_dtypes():
    ir = to_ir(k_dtypes, "*fp64")
    assert "constant 0 : <4 x i16>" in ir and "uitofp" in ir


@jit
def k_range_kinds(x_ptr, n):
    for i in tl.range(n, num_stages=2, loop_unroll_factor=4, disallow_acc_multi_buffer=True, warp_specialize=False):
        tl.store(x_ptr + i, i)
    for j in tl.static_range(2):
        tl.store(x_ptr + j, j)


def test_range_and_static_range():
    ir = to_ir(k_range_kinds, "*i32,i32")
    assert count(ir, r"cond_br ") == 1 and count(ir, r"^\s*store ") == 3


@jit
def k_constexpr_type(out_ptr, LIT: tl.constexpr):
    named: tl.constexpr = LIT
    tl.static_assert(named.type == tl.core.constexpr_type(LIT))
    tl.static_assert(LIT.type == tl.core.constexpr_type(LIT))
    tl.store(out_ptr, LIT)


@pytest.mark.parametrize("lit", [10, 32.5, (5, 6, 7)])
def test_constexpr_values_have_a_constexpr_type(lit):
    """`.type` of a compile-time value is constexpr_type(value), as
    Triton's constexpr has (test_constexpr_assignment)."""
    if isinstance(lit, tuple):
        @jit
        def k(out_ptr, LIT: tl.constexpr):
            tl.static_assert(LIT.type == tl.core.constexpr_type(LIT))
        to_ir(k, "*i32", {"LIT": lit})
    else:
        to_ir(k_constexpr_type, "*fp32", {"LIT": lit})
    @jit
    def wrong(out_ptr, LIT: tl.constexpr):
        tl.static_assert(LIT.type == tl.core.constexpr_type(11))
    with pytest.raises(Exception, match="static_assert|Assertion"):
        to_ir(wrong, "*i32", {"LIT": 10})
