"""Control flow and program structure: if/elif/else on run-time scalars
and on constexprs, for over range (run-time bounds, negative steps,
zero-trip loops, tl.range options), while, tl.static_range, nested @jit
functions with returns (early ones too), noinline calls, tuples,
constexpr specialization, tl.full/zeros/arange and their dtypes,
program_id/num_programs on 1-d, 2-d and 3-d grids."""

import numpy as np
import pytest

import tritium
import tritium.language as tl

from .helpers import ALL, assert_close, expect_error, io_name, is_float, np_value, random_values, rng, tlt


def k_if_chain(X, Z):
    v = tl.load(X)
    if v > 10:
        r = v * 2
    elif v > 0:
        r = v + 100
    else:
        r = -v
    tl.store(Z, r)


@pytest.mark.parametrize("v", [20, 5, 0, -7])
def test_if_elif_else_runtime(backend, v):
    x = np.array([v], dtype=np.int32)
    z = np.zeros(1, dtype=np.int32)
    _, out = backend.run(k_if_chain, 1, x, z)
    assert out[0] == (v * 2 if v > 10 else v + 100 if v > 0 else -v)


def k_if_block_values(X, Z, T, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    acc = tl.zeros((N, ), tl.float32)
    if T > 0:
        acc = acc + x
        if T > 5:
            acc = acc * 2
    else:
        acc = acc - x
    tl.store(Z + tl.arange(0, N), acc)


@pytest.mark.parametrize("t", [-1, 3, 9])
def test_nested_if_on_scalar_argument(backend, t):
    x = random_values("float32", 16, rng(120))
    z = np.zeros(16, dtype=np.float32)
    _, out = backend.run(k_if_block_values, 1, x, z, t, N=16)
    assert_close(out, x * 2 if t > 5 else x if t > 0 else -x)


def k_if_constexpr(Z, MODE: tl.constexpr):
    if MODE == "a":
        tl.store(Z, 1)
    elif MODE == "b":
        tl.store(Z, 2)
    else:
        tl.static_assert(MODE == "c", "only the taken branch of a constexpr if is compiled")
        tl.store(Z, 3)


@pytest.mark.parametrize("mode,exp", [("a", 1), ("b", 2), ("c", 3)])
def test_if_constexpr(backend, mode, exp):
    z = np.zeros(1, dtype=np.int32)
    (out, ) = backend.run(k_if_constexpr, 1, z, MODE=mode)
    assert out[0] == exp


def test_if_constexpr_untaken_error_branch(backend):
    z = np.zeros(1, dtype=np.int32)
    expect_error(backend.run, k_if_constexpr, 1, z, MODE="d")


def k_for_range(Z, START, STOP, STEP, USE_TL: tl.constexpr):
    acc = 0
    count = 0
    if USE_TL:
        for i in tl.range(START, STOP, STEP, num_stages=2):
            acc += i
            count += 1
    else:
        for i in range(START, STOP, STEP):
            acc += i
            count += 1
    tl.store(Z, acc)
    tl.store(Z + 1, count)


RANGES = [(0, 10, 1), (2, 17, 3), (10, 0, -1), (10, 0, -3), (5, 5, 1), (5, 0, 1), (-4, 4, 2), (7, -8, -5), (0, 1, 7)]


@pytest.mark.parametrize("use_tl", [False, True], ids=["range", "tl.range"])
@pytest.mark.parametrize("start,stop,step", RANGES)
def test_for_runtime_bounds(backend, start, stop, step, use_tl):
    z = np.zeros(2, dtype=np.int32)
    (out, ) = backend.run(k_for_range, 1, z, start, stop, step, USE_TL=use_tl)
    r = list(range(start, stop, step))
    assert out.tolist() == [sum(r), len(r)]


def k_for_const_neg(Z):
    acc = 0
    for i in range(10, -10, -4):
        acc = acc * 3 + i
    tl.store(Z, acc)


def test_for_constant_negative_step(backend):
    z = np.zeros(1, dtype=np.int32)
    (out, ) = backend.run(k_for_const_neg, 1, z)
    acc = 0
    for i in range(10, -10, -4):
        acc = acc * 3 + i
    assert out[0] == acc


def k_loop_carried_block(X, Z, ITERS, N: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    acc = tl.zeros((N, ), dtype=tl.float32)
    for k in range(ITERS):
        if k % 2 == 0:
            acc += x * k
        else:
            acc -= x
    tl.store(Z + tl.arange(0, N), acc)


@pytest.mark.parametrize("iters", [0, 1, 4, 7])
def test_loop_carried_block_with_if(backend, iters):
    x = random_values("float32", 32, rng(121), low=-2, high=2)
    z = np.zeros(32, dtype=np.float32)
    _, out = backend.run(k_loop_carried_block, 1, x, z, iters, N=32)
    ref = np.zeros(32)
    for k in range(iters):
        ref = ref + x * k if k % 2 == 0 else ref - x
    assert_close(out, ref.astype(np.float32), "float32", rtol=1e-6, atol=1e-6)


def k_while(X, Z):
    n = tl.load(X)
    steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    tl.store(Z, steps)


@pytest.mark.parametrize("n", [1, 6, 27, 97])
def test_while(backend, n):
    x = np.array([n], dtype=np.int32)
    z = np.zeros(1, dtype=np.int32)
    _, out = backend.run(k_while, 1, x, z)
    steps, m = 0, n
    while m != 1:
        m = m // 2 if m % 2 == 0 else 3 * m + 1
        steps += 1
    assert out[0] == steps


def k_nested_while(Z, A, B):
    i = 0
    total = 0
    while i < A:
        j = 0
        while j < B:
            total += i * j
            j += 1
        i += 1
    tl.store(Z, total)


@pytest.mark.parametrize("a,b", [(0, 3), (3, 0), (4, 5)])
def test_nested_while(backend, a, b):
    z = np.zeros(1, dtype=np.int32)
    (out, ) = backend.run(k_nested_while, 1, z, a, b)
    assert out[0] == sum(i * j for i in range(a) for j in range(b))


def k_static_range(X, Z, N: tl.constexpr, K: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    acc = tl.zeros((N, ), tl.float32)
    for i in tl.static_range(K):
        tl.static_assert(i < K)
        acc += x * (i + 1)
    for j in tl.static_range(2, 8, 3):
        acc += j
    tl.store(Z + tl.arange(0, N), acc)


@pytest.mark.parametrize("k", [1, 3, 5])
def test_static_range(backend, k):
    x = random_values("float32", 16, rng(122), low=-2, high=2)
    z = np.zeros(16, dtype=np.float32)
    _, out = backend.run(k_static_range, 1, x, z, N=16, K=k)
    assert_close(out, (x * sum(range(1, k + 1)) + (2 + 5)).astype(np.float32), "float32", rtol=1e-6)


# ---------------------------------------------------------------------------
# Calls
# ---------------------------------------------------------------------------


@tritium.jit
def _sign_and_abs(x):
    return tl.where(x < 0, -1, 1), tl.abs(x)


@tritium.jit
def _early_return(v):
    if v > 100:
        return v - 100
    return v * 2


@tritium.jit
def _nested(x, scale: tl.constexpr):
    s, a = _sign_and_abs(x)
    return s * _twice(a) * scale


@tritium.jit
def _twice(y):
    return y + y


@tritium.jit(noinline=True)
def _noinline_mul(a, b):
    return a * b


@tritium.jit
def _masked_add(x, offs: tl.constexpr, limit):
    # Tutorial 06 annotates offs_m tl.constexpr and passes a tensor: in Triton the
    # value, not the annotation, decides, so offs is a tensor here.
    return tl.where(offs < limit, x + offs, x)


def k_calls(X, Z, N: tl.constexpr, WHAT: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    if WHAT == "tuple":
        s, a = _sign_and_abs(x)
        r = s * 1000 + a
    elif WHAT == "early":
        r = x
        v = tl.load(X)
        r = r * 0 + _early_return(v)
    elif WHAT == "nested":
        r = _nested(x, 3)
    elif WHAT == "noinline":
        # A noinline callee takes scalars only (Triton's rule).
        v = tl.load(X)
        r = x * 0 + _noinline_mul(v, v + 1)
    elif WHAT == "tensor_for_constexpr":
        r = _masked_add(x, offs, 9)
    tl.store(Z + offs, r)


@pytest.mark.parametrize("what", ["tuple", "early", "nested", "noinline", "tensor_for_constexpr"])
@pytest.mark.parametrize("first", [5, 150])
def test_device_function_calls(backend, what, first):
    x = random_values("int32", 16, rng(123), low=-50, high=50)
    x[0] = first
    z = np.zeros(16, dtype=np.int32)
    _, out = backend.run(k_calls, 1, x, z, N=16, WHAT=what)
    sign = np.where(x < 0, -1, 1)
    ref = {"tuple": sign * 1000 + np.abs(x), "early": np.full(16, first - 100 if first > 100 else first * 2),
           "nested": sign * 2 * np.abs(x) * 3, "noinline": np.full(16, first * (first + 1)),
           "tensor_for_constexpr": np.where(np.arange(16) < 9, x + np.arange(16), x)}[what]
    assert_close(out, ref.astype(np.int32))


def k_early_return_kernel(Z, N: tl.constexpr):
    pid = tl.program_id(0)
    if pid % 2 == 1:
        return
    tl.store(Z + pid * N + tl.arange(0, N), pid + 1)


def test_early_return_in_kernel(backend):
    z = np.zeros(4 * 8, dtype=np.int32)
    (out, ) = backend.run(k_early_return_kernel, 4, z, N=8)
    assert out.reshape(4, 8)[:, 0].tolist() == [1, 0, 3, 0]


@tritium.jit
def _swap(t):
    return t[1], t[0]


def k_tuples(X, Z):
    a = tl.load(X)
    b = tl.load(X + 1)
    t = (a, b, 3)
    u = _swap(t)
    x, y = u
    c: tl.constexpr = t[2]
    tl.store(Z, x * 10 + y + c)
    tl.store(Z + 1, t[0] - t[1])


def test_tuples(backend):
    x = np.array([4, 9], dtype=np.int32)
    z = np.zeros(2, dtype=np.int32)
    _, out = backend.run(k_tuples, 1, x, z)
    assert out.tolist() == [9 * 10 + 4 + 3, 4 - 9]


def k_constexpr_spec(X, Z, N: tl.constexpr, C: tl.constexpr, F: tl.constexpr):
    x = tl.load(X + tl.arange(0, N))
    tl.store(Z + tl.arange(0, N), x * C + F)


@pytest.mark.parametrize("c,f", [(1, 0.0), (2, 0.5), (-3, 1.25), (7, -2.0)])
def test_constexpr_specialization(backend, c, f):
    """The same kernel with other constexpr values computes other results."""
    x = random_values("float32", 16, rng(124), low=-4, high=4)
    z = np.zeros(16, dtype=np.float32)
    _, out = backend.run(k_constexpr_spec, 1, x, z, N=16, C=c, F=f)
    assert_close(out, (x * c + f).astype(np.float32))


def k_scalar_arg_types(Z, I, F, B):
    tl.store(Z, I * 2 + F)
    tl.store(Z + 1, tl.where(B, 1.0, -1.0))


@pytest.mark.parametrize("i,f,b", [(3, 0.5, True), (-7, 2.25, False), (2**20, -1.0, True), (1, 0.0, False)])
def test_scalar_arguments(backend, i, f, b):
    z = np.zeros(2, dtype=np.float32)
    (out, ) = backend.run(k_scalar_arg_types, 1, z, i, f, b)
    assert_close(out, np.array([i * 2 + f, 1.0 if b else -1.0], dtype=np.float32))


def k_int64_arg(Z, V):
    tl.static_assert(V.dtype == tl.int64)
    tl.store(Z, V + 1)


def test_large_int_argument_is_int64(backend):
    z = np.zeros(1, dtype=np.int64)
    (out, ) = backend.run(k_int64_arg, 1, z, 2**40)
    assert out[0] == 2**40 + 1


# ---------------------------------------------------------------------------
# full, zeros, arange
# ---------------------------------------------------------------------------


def k_full(Z, N: tl.constexpr, V: tl.constexpr, T: tl.constexpr, ZIO: tl.constexpr, HOW: tl.constexpr):
    if HOW == "full":
        r = tl.full((N, ), V, T)
    elif HOW == "zeros":
        r = tl.zeros((N, ), dtype=T) + 0
        r = r.to(T)
    elif HOW == "zeros_like":
        r = tl.zeros_like(tl.full((N, ), V, T))
    elif HOW == "full_like":
        r = tl.full_like(tl.zeros((N, ), T), V)
    elif HOW == "full_2d":
        r = tl.reshape(tl.full((2, N // 2), V, T), (N, ))
    tl.static_assert(T == r.dtype)
    tl.store(Z + tl.arange(0, N), r.to(ZIO))


def _full_value(dtype):
    if dtype == "int1":
        return True
    if is_float(dtype):
        return -1.5
    return 100 if dtype.startswith("u") else -100


@pytest.mark.parametrize("how", ["full", "zeros", "zeros_like", "full_like", "full_2d"])
@pytest.mark.parametrize("dtype", ALL)
def test_full_zeros(backend, dtype, how):
    v = _full_value(dtype)
    z = np.full(16, 3, dtype=np.dtype(io_name(dtype)))
    (out, ) = backend.run(k_full, 1, z, N=16, V=v, T=tlt(dtype), ZIO=tlt(io_name(dtype)), HOW=how)
    val = 0 if how in ("zeros", "zeros_like") else v
    assert_close(out, np_value(np.full(16, val), dtype), dtype)


def k_arange(Z, START: tl.constexpr, END: tl.constexpr):
    r = tl.arange(START, END)
    tl.static_assert(r.dtype == tl.int32)
    tl.static_assert(r.shape[0] == END - START)
    tl.store(Z + tl.arange(0, END - START), r)


@pytest.mark.parametrize("start,end", [(-8, 8), (0, 12), (4, 4), (8, 0)])
def test_arange_errors(backend, start, end):
    """Triton: arange's bounds must fit in int32 (no negative start), and
    its range must be a positive power of two."""
    z = np.zeros(16, dtype=np.int32)
    expect_error(backend.run, k_arange, 1, z, START=start, END=end)


@pytest.mark.parametrize("start,end", [(0, 1), (0, 16), (5, 13), (1000, 1064)])
def test_arange(backend, start, end):
    z = np.zeros(end - start, dtype=np.int32)
    (out, ) = backend.run(k_arange, 1, z, START=start, END=end)
    assert out.tolist() == list(range(start, end))


def k_pid(Z, NX, NY):
    x = tl.program_id(0)
    y = tl.program_id(1)
    z = tl.program_id(axis=2)
    nx = tl.num_programs(0)
    ny = tl.num_programs(1)
    nz = tl.num_programs(2)
    lin = (z * ny + y) * nx + x
    k = tl.arange(0, 4)
    v = tl.where(k == 0, x, tl.where(k == 1, y, tl.where(k == 2, z, nx * 100 + ny * 10 + nz)))
    tl.store(Z + lin * 4 + k, v)


@pytest.mark.parametrize("grid", [(4, ), (3, 2), (2, 3, 2), (1, 1, 5), (5, 1)])
def test_program_id_num_programs(backend, grid):
    full = tuple(grid) + (1, ) * (3 - len(grid))
    n = int(np.prod(full))
    z = np.full(n * 4, -1, dtype=np.int32)
    (out, ) = backend.run(k_pid, tuple(grid), z, full[0], full[1])
    out = out.reshape(n, 4)
    for zi in range(full[2]):
        for yi in range(full[1]):
            for xi in range(full[0]):
                lin = (zi * full[1] + yi) * full[0] + xi
                assert out[lin].tolist() == [xi, yi, zi, full[0] * 100 + full[1] * 10 + full[2]]


def k_grid_lambda(Z, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(Z + offs, offs, mask=offs < N)


def test_grid_callable(backend):
    n = 100
    z = np.full(n, -1, dtype=np.int32)
    (out, ) = backend.run(k_grid_lambda, lambda meta: (triton_cdiv(meta["N"], meta["BLOCK"]), ), z, n, BLOCK=32)
    assert out.tolist() == list(range(n))


def triton_cdiv(a, b):
    return tritium.cdiv(a, b)


def k_pid_bad_axis(Z):
    tl.store(Z, tl.program_id(3))


def test_program_id_bad_axis_is_error(backend):
    z = np.zeros(1, dtype=np.int32)
    expect_error(backend.run, k_pid_bad_axis, 1, z)


def k_guarded_clamp(x):
    """Python's introspection of a kernel argument, short-circuited: only an
    int32 pointer is loaded and clamped."""
    if (x is not None) and hasattr(x, "dtype") and isinstance(x.dtype, tl.pointer_type) and \
            (x.dtype.element_ty == tl.int32) and (tl.load(x) > 42):
        tl.store(x, 42)


@pytest.mark.parametrize("value,dtype,expected", [(37, "int32", 37), (100000, "int32", 42), (100000, "int64", 100000),
                                                  (84.0, "float32", 84.0)])
def test_introspection_of_arguments(backend, value, dtype, expected):
    (x, ) = backend.run(k_guarded_clamp, 1, np.full(1, value, dtype=dtype), num_warps=1)
    assert x[0] == expected


def test_introspection_of_non_tensors(backend):
    backend.run(k_guarded_clamp, 1, None)
    backend.run(k_guarded_clamp, 1, 7)


def k_one_element_condition(x, ITEM: tl.constexpr):
    c = tl.load(x + tl.arange(0, 1)) > 42
    if ITEM:
        c = c.item()
    if c:  # a one-element block is its value, as in Triton
        tl.store(x, 42)


@pytest.mark.parametrize("item", [False, True], ids=["block", "item"])
@pytest.mark.parametrize("value", [41, 43])
def test_one_element_block_as_condition(backend, value, item):
    (x, ) = backend.run(k_one_element_condition, 1, np.full(1, value, dtype=np.int32), ITEM=item, num_warps=1)
    assert x[0] == min(value, 42)


def k_split_scalars(X, Z1, Z2):
    z1, z2 = tl.split(tl.load(X + tl.arange(0, 2)))
    tl.static_assert(isinstance(z1, tl.tensor) and z1.shape == [])
    tl.store(Z1, z1)
    tl.store(Z2, z2)


def test_split_into_scalars_are_tensors(backend):
    _, z1, z2 = backend.run(k_split_scalars, 1, np.array([5, 9], dtype=np.int32), np.zeros(1, np.int32),
                            np.zeros(1, np.int32))
    assert (z1[0], z2[0]) == (5, 9)


def k_conditional_store_expression(XT, XF, Ret):
    pid = tl.program_id(0)
    tl.store(Ret + pid, tl.load(XT)) if pid % 2 == 0 else tl.store(Ret + pid, tl.load(XF))


def test_conditional_expression_of_calls_without_value(backend):
    _, _, r = backend.run(k_conditional_store_expression, 4, np.array([1.0], np.float32), np.array([2.0], np.float32),
                          np.zeros(4, np.float32))
    assert r.tolist() == [1.0, 2.0, 1.0, 2.0]


def k_item_of_block(X, Y):
    tl.store(Y, tl.load(X + tl.arange(0, 4)).item())


def test_item_of_a_larger_block_is_an_error(backend):
    expect_error(backend.run, k_item_of_block, 1, np.zeros(4, np.float32), np.zeros(1, np.float32))


def k_licm_loops(X, Out, n, WHICH: tl.constexpr):
    acc = 0
    if WHICH == 0:
        i = 0
        while tl.condition(i < n, disable_licm=True):
            acc += tl.load(X) * 3
            i += 1
    elif WHICH == 1:
        for i in tl.range(0, n, disable_licm=True):
            acc += tl.load(X) * 3
    else:
        i = 0
        while tl.condition(i < n):
            acc += tl.load(X) * 3
            i += 1
    tl.store(Out, acc)


@pytest.mark.parametrize("which", [0, 1, 2])
def test_disable_licm_values(backend, which):
    """Triton's test_disable_licm: the loops compute the same either way."""
    *_, out = backend.run(k_licm_loops, 1, np.array([7], np.int32), np.zeros(1, np.int32), 5, WHICH=which)
    assert out[0] == 105


@pytest.mark.parametrize("which,kept", [(0, True), (1, True), (2, False)])
def test_disable_licm_llvm(monkeypatch, which, kept):
    """tl.condition(..., disable_licm=True) and tl.range(..., disable_licm=True)
    give the loop llvm.licm.disable (Triton's test reads the LLVM IR) and
    the attribute on its branch, which Tritium's licm honours (lit
    licm/disable-licm.tir)."""
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:90")
    k = tritium.jit(k_licm_loops).warmup(MockTensor("i32"), MockTensor("i32"), 5, WHICH=which, grid=(1, ))
    assert ("llvm.licm.disable" in k.asm["llir"]) == kept
    assert ("disable_licm" in k.asm["tir"]) == kept


def k_loop_changes_type(X, Z, n, HOW: tl.constexpr):
    offs = tl.arange(0, 8)
    if HOW == "for":
        acc = 0
        for i in range(n):
            acc += tl.load(X + offs)  # a Python int, then a block of int64
    elif HOW == "while":
        acc = tl.zeros([8], tl.int32)
        i = 0
        while i < n:
            acc = acc + tl.load(X + offs)  # int32 then int64
            i += 1
    elif HOW == "static":
        acc = 0
        for i in tl.static_range(3):  # unrolled: the type may change
            acc += tl.load(X + offs)
    else:
        acc = tl.zeros([8], tl.int64)
        for v in (1, 2):  # a tuple: unrolled too
            acc = acc + v
    tl.store(Z + offs, acc)


@pytest.mark.parametrize("how", ["for", "while"])
def test_loop_changing_a_carried_type_is_an_error(backend, how):
    """A loop that changes a carried variable's type is the same error on the
    interpreter as compiled (the interpreter's loops checked nothing and ran
    such kernels), at the loop's line."""
    x = np.ones(8, np.int64)
    e = expect_error(backend.run, k_loop_changes_type, 1, x, np.zeros(8, np.int64), 3, HOW=how)
    assert "Loop-carried variable acc has initial type" in str(e)
    assert "re-assigned to <8xint64> in loop!" in str(e)


def k_loop_reassigns_constexpr(X, Z, n, N: tl.constexpr):
    v = tl.load(X + tl.arange(0, N))
    for it in tl.static_range(3):  # it is a constexpr afterwards
        v = v + it
    for it in range(n):
        v = v * 2
    tl.store(Z + tl.arange(0, N), v)


def test_loop_reassigning_a_constexpr_is_an_error(backend):
    e = expect_error(backend.run, k_loop_reassigns_constexpr, 1, np.ones(8, np.int64), np.zeros(8, np.int64), 3,
                     N=8)
    assert "cannot reassign constexpr it in the loop" in str(e)


@pytest.mark.parametrize("how", ["static", "tuple"])
def test_unrolled_loops_may_change_types(backend, how):
    x = np.ones(8, np.int64)
    (_, z) = backend.run(k_loop_changes_type, 1, x, np.zeros(8, np.int64), 3, HOW=how)
    assert z.tolist() == [3] * 8


def k_python_minmax(X, Z, HOW: tl.constexpr):
    offs = tl.arange(0, 8)
    x = tl.load(X + offs)
    if HOW == "numbers":
        r = x + max(3, 5, 4) + min((2, 7)) + len((1, 2, 3)) + len(x)  # 5 + 2 + 3 + 8
    elif HOW == "tensors":
        r = max(x, 4) + min(x, x * 0 + 2, 5)
    elif HOW == "keyword":
        r = x + max(3, 5, key=None)
    else:
        r = x + min()
    tl.store(Z + offs, r)


@pytest.mark.parametrize("how", ["numbers", "tensors"])
def test_python_min_max_len(backend, how):
    """Python's min, max and len in a kernel, one function for the code
    generator and the interpreter (codegen.py_minmax, py_len)."""
    x = np.arange(8, dtype=np.int32)
    (_, z) = backend.run(k_python_minmax, 1, x, np.zeros(8, np.int32), HOW=how)
    ref = x + 18 if how == "numbers" else np.maximum(x, 4) + np.minimum(x, 2)
    assert z.tolist() == ref.tolist()


@pytest.mark.parametrize("how, message", [("keyword", "max() keyword arguments are not supported"),
                                          ("empty", "min() needs arguments")])
def test_python_min_max_errors(backend, how, message):
    """The same errors interpreted as compiled (the interpreter passed keywords
    to Python's max and let min() be Python's TypeError)."""
    e = expect_error(backend.run, k_python_minmax, 1, np.zeros(8, np.int32), np.zeros(8, np.int32), HOW=how)
    assert message in str(e)


def k_python_bool_ops(X, Z, FLAG: tl.constexpr):
    offs = tl.arange(0, 8)
    x = tl.load(X + offs)
    a = (x > 2) and (x < 6)  # tensors: logical and
    b = FLAG and (x > 4)  # a compile-time left operand: Python's rule
    c = (x < 1) or FLAG
    n = (3 and 5) + (0 or 7) + (0 and 9)  # 5 + 7 + 0
    tl.store(Z + offs, tl.where(a, 1, 0) + 10 * tl.where(b, 1, 0) + 100 * tl.where(c, 1, 0) + 1000 * n)


@pytest.mark.parametrize("flag", [False, True])
def test_python_and_or(backend, flag):
    """`and`/`or` in a kernel, one function for the code generator and the
    interpreter (codegen.py_boolop): logical operations on tensors, Python's
    short-circuit on compile-time values."""
    x = np.arange(8, dtype=np.int32)
    (_, z) = backend.run(k_python_bool_ops, 1, x, np.zeros(8, np.int32), FLAG=flag)
    b = (x > 4) if flag else np.zeros(8, bool)
    c = np.ones(8, bool) if flag else (x < 1)
    a = (x > 2) & (x < 6)
    assert z.tolist() == (a.astype(int) + 10 * b + 100 * c + 12000).tolist()


def k_if_on_a_string(X, Z):
    offs = tl.arange(0, 8)
    if "yes":
        tl.store(Z + offs, tl.load(X + offs))


def test_if_on_a_value_of_no_truth_type(backend):
    """`if` on a compile-time value other than bool, int, float or None is
    the same error interpreted as compiled (codegen.static_condition)."""
    e = expect_error(backend.run, k_if_on_a_string, 1, np.zeros(8, np.int32), np.zeros(8, np.int32))
    assert "`if` conditionals can only accept values of type {bool, int, float, NoneType}, not objects of " \
        "type str" in str(e)
