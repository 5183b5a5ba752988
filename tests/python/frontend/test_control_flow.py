"""The shapes of control flow the code generator builds: phis where paths
join, loops, early returns, calls, unrolling and compile-time branches. Each
kernel's IR is verified (module.verify()) and its text checked."""

import re

import pytest

import tritium
import tritium.language as tl
from tir_helpers import count, function, jit, to_ir

import other_module

SCALE = tl.constexpr(4)


def lines_with(ir, pattern):
    return [ln for ln in ir.splitlines() if re.search(pattern, ln)]


# --- if / else --------------------------------------------------------------


@jit
def if_else_phi(x_ptr, n):
    v = 1.0
    if n > 0:
        v = 2.0
    else:
        v = 3.0
    tl.store(x_ptr, v)


def test_if_else_merges_with_a_phi():
    ir = to_ir(if_else_phi, "*fp32,i32")
    assert count(ir, r"cond_br ") == 1
    assert re.search(r"^if\.then:", ir, re.M) and re.search(r"^if\.else:", ir, re.M)
    phis = lines_with(ir, r"= phi ")
    assert len(phis) == 1 and phis[0].rstrip().endswith(": f32")
    assert count(phis[0], r"\[") == 2
    assert count(ir, r"^\s*store ") == 1


@jit
def if_without_else(x_ptr, n):
    v = tl.load(x_ptr)
    if n > 0:
        v = v * 2
    tl.store(x_ptr, v)


def test_if_without_else_merges_entry_value():
    ir = to_ir(if_without_else, "*i32,i32")
    assert re.search(r"cond_br %\S+, if\.then, if\.end", ir)
    phis = lines_with(ir, r"= phi ")
    assert len(phis) == 1 and ": i32" in phis[0]


@jit
def elif_chain(x_ptr, n):
    if n == 0:
        r = 10
    elif n == 1:
        r = 20
    else:
        r = 30
    tl.store(x_ptr, r)


def test_elif_chain():
    ir = to_ir(elif_chain, "*i32,i32")
    assert count(ir, r"cond_br ") == 2
    assert count(ir, r"= phi ") == 2


@jit
def static_if(x_ptr, FLAG: tl.constexpr):
    x = tl.load(x_ptr)
    if FLAG:
        y = tl.exp(x)
    else:
        y = tl.log(x)
    tl.store(x_ptr, y)


def test_constexpr_if_visits_only_the_taken_branch():
    on = to_ir(static_if, "*fp32", {"FLAG": True})
    off = to_ir(static_if, "*fp32", {"FLAG": False})
    assert " exp " in on and " log " not in on
    assert " log " in off and " exp " not in off
    assert "cond_br" not in on and "phi" not in on


@jit
def static_if_dead_branch_is_not_checked(x_ptr, FLAG: tl.constexpr):
    if FLAG:
        tl.store(x_ptr, 1)
    else:
        tl.store(x_ptr, this_name_does_not_exist)  # noqa: F821


def test_untaken_constexpr_branch_is_never_visited():
    ir = to_ir(static_if_dead_branch_is_not_checked, "*i32", {"FLAG": True})
    assert count(ir, r"^\s*store ") == 1


@jit
def ternary(x_ptr, n):
    tl.store(x_ptr, 1.0 if n > 0 else 2.0)


def test_dynamic_ternary_is_a_branch_and_a_phi():
    ir = to_ir(ternary, "*fp32,i32")
    assert count(ir, r"cond_br ") == 1
    assert re.search(r"= phi .*: f32", ir)


@jit
def static_ternary(x_ptr, N: tl.constexpr):
    tl.store(x_ptr, 1.0 if N > 2 else 2)


def test_constexpr_ternary_folds():
    ir = to_ir(static_ternary, "*fp32", {"N": 4})
    assert "cond_br" not in ir


# --- Boolean operators and comparisons --------------------------------------


@jit
def chained_compare(x_ptr, a, b, c):
    tl.store(x_ptr, (a < b < c).to(tl.int32))


def test_chained_comparison_is_a_conjunction():
    ir = to_ir(chained_compare, "*i32,i32,i32,i32")
    assert count(ir, r"icmp slt") == 2
    assert re.search(r"= and %\S+, %\S+ : i1", ir)


@jit
def bool_ops(x_ptr, a, b):
    t = (a > 0 and b > 0) or not (a == b)
    tl.store(x_ptr, t.to(tl.int32))


def test_and_or_not_on_scalars():
    ir = to_ir(bool_ops, "*i32,i32,i32")
    assert re.search(r"= and .*: i1", ir)
    assert re.search(r"= or .*: i1", ir)


@jit
def const_bool_ops(x_ptr, A: tl.constexpr, B: tl.constexpr):
    if A and not B or A < B < 10:
        tl.store(x_ptr, 1)


def test_and_or_not_on_constexprs_fold():
    taken = to_ir(const_bool_ops, "*i32", {"A": 1, "B": 0})
    not_taken = to_ir(const_bool_ops, "*i32", {"A": 0, "B": 0})
    assert count(taken, r"^\s*store ") == 1
    assert count(not_taken, r"^\s*store ") == 0
    assert "cond_br" not in taken + not_taken


# --- Loops --------------------------------------------------------------------


@jit
def for_loop(x_ptr, n):
    acc = 0.0
    for i in range(n):
        acc += tl.load(x_ptr + i)
    tl.store(x_ptr, acc)


def test_for_loop_header_phis():
    ir = to_ir(for_loop, "*fp32,i32")
    assert re.search(r"^for\.header:", ir, re.M)
    phis = lines_with(ir, r"= phi ")
    assert sorted(p.rstrip().rsplit(": ", 1)[1] for p in phis) == ["f32", "i32"]
    assert count(ir, r"icmp slt") == 1
    assert count(ir, r"cond_br ") == 1


@jit
def for_negative_step(x_ptr, n):
    for i in range(n, 0, -2):
        tl.store(x_ptr + i, i)


def test_for_loop_negative_constant_step():
    ir = to_ir(for_negative_step, "*i32,i32")
    assert count(ir, r"icmp sgt") == 1 and "icmp slt" not in ir
    assert re.search(r"constant -2 : i32", ir)


@jit
def for_dynamic_step(x_ptr, lo, hi, step):
    for i in range(lo, hi, step):
        tl.store(x_ptr + i, i)


def test_for_loop_dynamic_step_checks_the_sign():
    ir = to_ir(for_dynamic_step, "*i32,i32,i32,i32")
    assert "icmp slt" in ir and "icmp sgt" in ir


@jit
def for_mixed_bounds(x_ptr, n):
    for i in range(0, n, 2):
        tl.store(x_ptr + i, i)


def test_for_loop_int64_bound_promotes_the_induction_variable():
    ir = to_ir(for_mixed_bounds, "*i64,i64")
    assert re.search(r"= phi .*: i64", ir)


@jit
def tl_range_loop(x_ptr, n, STAGES: tl.constexpr):
    for i in tl.range(0, n, 1, num_stages=STAGES, loop_unroll_factor=2, flatten=True):
        tl.store(x_ptr + i, i)


def test_tl_range_accepts_options():
    """num_stages goes on the loop's branch, for the pipeliner (and the
    loop analysis) to read; the other options are accepted."""
    ir = to_ir(tl_range_loop, "*i32,i32", {"STAGES": 3})
    assert count(ir, r"cond_br ") == 1
    assert count(ir, r"cond_br .*\{num_stages=3\}") == 1


@jit
def plain_range_loop(x_ptr, n):
    for i in range(n):
        tl.store(x_ptr + i, i)


def test_range_without_num_stages_leaves_the_branch_bare():
    assert "num_stages" not in to_ir(plain_range_loop, "*i32,i32")


@pytest.mark.parametrize("stages, message", [(17, "num_stages must be from 0 to 16, got 17"),
                                             (-1, "num_stages must be from 0 to 16, got -1"),
                                             (2.5, "num_stages must be an int, got 2.5")])
def test_tl_range_num_stages_is_checked(stages, message):
    with pytest.raises(tritium.CompilationError, match=re.escape(message)):
        to_ir(tl_range_loop, "*i32,i32", {"STAGES": stages})


@jit
def static_unroll(x_ptr):
    acc = tl.load(x_ptr)
    for i in tl.static_range(4):
        acc = acc * (i + 2)
    tl.store(x_ptr, acc)


def test_static_range_unrolls():
    ir = to_ir(static_unroll, "*i32")
    assert "cond_br" not in ir and "phi" not in ir
    assert count(ir, r"= mul ") == 4
    for k in (2, 3, 4, 5):
        assert re.search(rf"constant {k} : i32", ir)


@jit
def static_range_args(x_ptr, START: tl.constexpr, END: tl.constexpr):
    for i in tl.static_range(START, END, 2):
        tl.store(x_ptr + i, i)


def test_static_range_bounds_and_step():
    ir = to_ir(static_range_args, "*i32", {"START": 1, "END": 8})
    assert count(ir, r"^\s*store ") == 4


@jit
def tuple_loop(x_ptr):
    for k in (1, 5, 9):
        tl.store(x_ptr + k, k)


def test_loop_over_a_tuple_unrolls():
    ir = to_ir(tuple_loop, "*i32")
    assert count(ir, r"^\s*store ") == 3


@jit
def while_loop(x_ptr, n):
    i = 0
    total = 0
    while i < n:
        total += i
        i += 1
    tl.store(x_ptr, total)


def test_while_loop():
    ir = to_ir(while_loop, "*i32,i32")
    assert re.search(r"^while\.header:", ir, re.M)
    assert count(ir, r"= phi ") == 2
    assert count(ir, r"cond_br ") == 1


@jit
def swap_in_loop(x_ptr, n):
    a = 1
    b = 2
    for i in range(n):
        a, b = b, a + b
    tl.store(x_ptr, a)


def test_tuple_assignment_in_loop():
    ir = to_ir(swap_in_loop, "*i32,i32")
    assert count(ir, r"= phi ") == 3


@jit
def nested_loops(x_ptr, n, m):
    acc = 0
    for i in range(n):
        for j in range(m):
            acc += i * j
    tl.store(x_ptr, acc)


def test_nested_loops():
    ir = to_ir(nested_loops, "*i32,i32,i32")
    assert count(ir, r"cond_br ") == 2
    assert count(ir, r"^for\.header") + count(ir, r"^bb\d+:") >= 2


@jit
def lock_loop(lock_ptr):
    while tl.atomic_cas(lock_ptr, 0, 1) == 1:
        pass
    tl.atomic_xchg(lock_ptr, 0)


def test_spin_lock_loop():
    ir = to_ir(lock_loop, "*i32")
    header = ir[ir.index("while.header:"):]
    assert "atomic_cas" in header.split("\n\n")[0]


# --- Returns and calls -----------------------------------------------------------


@jit
def early_exit(x_ptr, n):
    pid = tl.program_id(0)
    if pid >= n:
        return
    tl.store(x_ptr + pid, pid)


def test_early_return_in_kernel():
    ir = to_ir(early_exit, "*i32,i32")
    assert count(ir, r"^\s*ret$") == 2


@jit
def relu_scalar(x):
    if x < 0:
        return 0
    return x


@jit
def calls_relu(x_ptr):
    tl.store(x_ptr, relu_scalar(tl.load(x_ptr)))


def test_early_return_in_device_function():
    ir = to_ir(calls_relu, "*i32")
    callee = function(ir, "relu_scalar__int32")
    assert count(callee, r"^\s*ret %") == 2
    assert re.search(r"func @relu_scalar__int32\(%x: i32\) -> i32", callee)
    assert re.search(r"call @relu_scalar__int32\(%\S+\) : i32", ir)


@jit
def find_first(n):
    for i in range(n):
        if i * i > n:
            return i
    return -1


@jit
def calls_find_first(x_ptr, n):
    tl.store(x_ptr, find_first(n))


def test_return_inside_a_loop():
    ir = to_ir(calls_find_first, "*i32,i32")
    callee = function(ir, "find_first__int32")
    assert count(callee, r"^\s*ret %") == 2


@jit
def falls_off(x):
    if x > 0:
        return x


@jit
def calls_falls_off(x_ptr):
    tl.store(x_ptr, falls_off(tl.load(x_ptr)))


def test_path_without_return_returns_zero():
    callee = function(to_ir(calls_falls_off, "*i32"), "falls_off__int32")
    assert count(callee, r"^\s*ret %") == 2


@jit
def add_mul(a, b, k: tl.constexpr = 2):
    return a + b, a * b * k


@jit
def inner_most(x):
    return x + 1


@jit
def middle(x):
    return inner_most(x) * 2


@jit
def calls_nested(x_ptr, y_ptr):
    x = tl.load(x_ptr)
    s, p = add_mul(x, 3)
    s2, p2 = add_mul(b=x, a=x, k=5)
    tl.store(y_ptr, s + p + s2 + p2 + middle(x))


def test_nested_calls_keyword_and_default_arguments():
    ir = to_ir(calls_nested, "*i32,*i32")
    funcs = re.findall(r"^(?:kernel|func)(?: noinline)? @(\S+)\(", ir, re.M)
    assert funcs[-1] == "calls_nested" or "calls_nested" in funcs
    add_muls = [f for f in funcs if f.startswith("add_mul")]
    assert len(add_muls) == 2, funcs  # k=2 (default) and k=5
    assert any(f.startswith("middle") for f in funcs) and any(f.startswith("inner_most") for f in funcs)
    assert re.search(r"-> \(i32, i32\)", ir)
    assert count(ir, r"call @add_mul") == 2


@jit
def same_twice(x_ptr):
    a = inner_most(tl.load(x_ptr))
    b = inner_most(a)
    tl.store(x_ptr, b)


def test_one_function_per_specialization():
    ir = to_ir(same_twice, "*i32")
    assert count(ir, r"^func @inner_most") == 1
    assert count(ir, r"call @inner_most") == 2


@jit(noinline=True)
def kept_call(x):
    return x * 3


@jit
def calls_noinline(x_ptr):
    tl.store(x_ptr, kept_call(tl.load(x_ptr)))


def test_noinline_function_flag():
    ir = to_ir(calls_noinline, "*i32")
    assert re.search(r"^func noinline @kept_call", ir, re.M)


@jit
def calls_other_module(x_ptr):
    tl.store(x_ptr, other_module.scale(tl.load(x_ptr)))


def test_callee_globals_come_from_its_module():
    ir = to_ir(calls_other_module, "*i32")
    assert re.search(r"^func @scale", ir, re.M) and re.search(r"^func @_twice", ir, re.M)
    assert re.search(r"constant 3 : i32", function(ir, "scale__int32"))


@jit
def void_helper(p, v):
    tl.store(p, v)


@jit
def calls_void(x_ptr):
    void_helper(x_ptr, 7)


def test_void_call():
    ir = to_ir(calls_void, "*i32")
    assert re.search(r"^\s*call @void_helper__pointer_int32___c7\(%\S+\)$", ir, re.M) or \
        re.search(r"^\s*call @void_helper\S*\(%\S+\)$", ir, re.M)


# --- Constexprs, globals, builtins --------------------------------------------------


@jit
def uses_global(x_ptr):
    tl.store(x_ptr + tl.arange(0, SCALE * 4), SCALE)


def test_constexpr_global():
    ir = to_ir(uses_global, "*i32")
    assert "make_range {start=0, end=16}" in ir


@jit
def builtins_on_constexprs(x_ptr, N: tl.constexpr, SHAPE: tl.constexpr):
    M: tl.constexpr = max(N, 8) + min(N, 2) + len(SHAPE) + int(2.7) + getattr(SHAPE, "__len__")()
    if isinstance(N, int) and float(N) == 4.0:
        tl.store(x_ptr + tl.arange(0, M), 1)


def test_builtins_on_constexprs():
    ir = to_ir(builtins_on_constexprs, "*i32", {"N": 4, "SHAPE": (2, 2)})
    assert "make_range {start=0, end=16}" in ir


@jit
def minmax_tensors(x_ptr, a, b):
    tl.store(x_ptr, max(a, b) + min(a, b, 3))


def test_min_max_builtins_on_tensors():
    ir = to_ir(minmax_tensors, "*i32,i32,i32")
    assert count(ir, r"= smax ") == 1 and count(ir, r"= smin ") == 2


@jit
def annotated_constexpr(x_ptr, N: tl.constexpr):
    HALF: tl.constexpr = N // 2
    tl.store(x_ptr + tl.arange(0, HALF), 0)


def test_constexpr_annotation_keeps_values_static():
    assert "end=8" in to_ir(annotated_constexpr, "*i32", {"N": 16})


@jit
def shape_from_tensor(x_ptr):
    x = tl.zeros((16, 8), tl.float32)
    y = tl.zeros((x.shape[1], x.shape[0]), x.dtype)
    tl.store(x_ptr + tl.arange(0, 8)[:, None] * 16 + tl.arange(0, 16)[None, :], y)


def test_shapes_and_dtypes_are_constexprs():
    ir = to_ir(shape_from_tensor, "*fp32")
    assert "<8 x 16 x f32>" in ir


@jit
def default_kernel_arg(x_ptr, N: tl.constexpr = 32):
    tl.store(x_ptr + tl.arange(0, N), 0)


def test_kernel_default_argument():
    ir = to_ir(default_kernel_arg, {"x_ptr": "*i32"})
    assert "end=32" in ir


@jit
def specialized(x_ptr, stride, n):
    tl.store(x_ptr + stride * n, n)


def test_equal_to_1_and_divisibility():
    ir = to_ir(specialized, "*i32,i32,i32", attrs={0: {"divisibility": 16}, 1: {"equal_to_1": True}})
    head = ir.splitlines()[0]
    assert "divisibility=16" in head and "equal_to_1" in head
    assert re.search(r"constant 1 : i32", ir)


@jit
def debug_assert(x_ptr):
    x = tl.load(x_ptr)
    tl.device_assert(x > 0, "x must be positive")
    assert x < 100, "too big"


def test_device_assert_only_with_debug():
    assert count(to_ir(debug_assert, "*i32"), r"^\s*assert ") == 0
    ir = to_ir(debug_assert, "*i32", options={"debug": True})
    assert count(ir, r"^\s*assert ") == 2
    assert 'message="x must be positive"' in ir


@jit
def prints(x_ptr):
    x = tl.load(x_ptr)
    print("x is", x)
    tl.device_print("x=", x, hex=True)
    tl.static_print("compile time")


def test_print_maps_to_device_print():
    ir = to_ir(prints, "*i32")
    assert count(ir, r"^\s*print ") == 2
    assert 'prefix=" x is: "' in ir and 'prefix=" x=: ", hex' in ir


@jit
def sum_pair(t):
    return t[0] + t[1]


@jit
def load_block(p):
    return tl.load(p, boundary_check=(0, ), padding_option="zero")


@jit
def aggregates_as_arguments(x_ptr, n):
    a = tl.load(x_ptr)
    pair = (a, a * 2)
    bp = tl.make_block_ptr(x_ptr, (n, ), (1, ), (0, ), (16, ), (0, ))
    tl.store(x_ptr + tl.arange(0, 16), load_block(bp) + sum_pair(pair))


def test_tuples_and_block_pointers_as_call_arguments():
    ir = to_ir(aggregates_as_arguments, "*i32,i32")
    assert re.search(r"^func @sum_pair__T\w+\(%t_0: i32, %t_1: i32\) -> i32", ir, re.M)
    loader = [ln for ln in ir.splitlines() if ln.startswith("func @load_block")]
    # A block pointer travels as its descriptor and its offsets.
    assert len(loader) == 1 and "(%p_0: tensordesc<16 x i32>, %p_1: i32)" in loader[0]


@jit
def tuple_in_loop(x_ptr, n):
    state = (tl.load(x_ptr), 0.0)
    for i in range(n):
        state = (state[0] + 1, state[1] + 0.5)
    tl.store(x_ptr, state[0] + state[1].to(tl.int32))


def test_tuple_carried_through_a_loop():
    ir = to_ir(tuple_in_loop, "*i32,i32")
    phis = [ln for ln in ir.splitlines() if "= phi" in ln]
    assert sorted(p.rsplit(": ", 1)[1] for p in phis) == ["f32", "i32", "i32"]


@jit
def tuple_in_branches(x_ptr, n):
    if n > 0:
        t = (tl.load(x_ptr), 1)
    else:
        t = (0, 2)
    tl.store(x_ptr, t[0] + t[1])


def test_tuple_elements_become_tensors_where_branches_differ():
    ir = to_ir(tuple_in_branches, "*i32,i32")
    phis = [ln for ln in ir.splitlines() if "= phi" in ln]
    assert len(phis) == 2 and all(p.endswith(": i32") for p in phis)


@jit
def optional_output(x_ptr, out_ptr, extra):
    x = tl.load(x_ptr)
    if out_ptr is not None:
        tl.store(out_ptr, x)
    if extra is None:
        tl.store(x_ptr, x + 1)


def test_is_none_is_a_compile_time_test():
    both = to_ir(optional_output, "*i32,*i32", {"extra": None})
    assert count(both, r"^\s*store ") == 2 and "cond_br" not in both
    none = to_ir(optional_output, "*i32", {"out_ptr": None, "extra": 3})
    assert count(none, r"^\s*store ") == 0
