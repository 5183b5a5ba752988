"""The language on the interpreter: control flow and constexprs as compiled,
calls, reductions, scans, sort, dot, atomics, shapes, arguments."""

import importlib.util
import inspect

import numpy as np
import pytest

import tritium
import tritium.language as tl
from tritium.language.extra import libdevice

jit = tritium.jit(interpret=True)


@jit
def _loops(out_ptr, n, K: tl.constexpr):
    acc = 0
    for i in range(n):  # a dynamic loop: i is an int32 tensor
        tl.static_assert(i.dtype == tl.int32)
        acc += i
    for j in tl.static_range(K):  # unrolled: j is a Python int
        tl.static_assert(isinstance(j, int))
        acc += j * 100
    for k in tl.range(0, n, 2, num_stages=2):
        acc += 1000
    w = 0
    while w < 5:
        w += 2
    tl.store(out_ptr, acc)
    tl.store(out_ptr + 1, w)
    big = 2**40
    for m in range(big, big + 3):
        tl.static_assert(m.dtype == tl.int64)
    tl.store(out_ptr + 2, m - big)


def test_loops_and_constexprs():
    out = np.zeros(3, np.int64)
    _loops[(1,)](out, 5, K=3)
    assert out.tolist() == [10 + 300 + 3000, 6, 2]


@jit
def _branches(x_ptr, out_ptr, MODE: tl.constexpr):
    x = tl.load(x_ptr)
    if x > 0 and x < 10:
        y = x * 2
    elif not x > -5:
        y = x - 100
    else:
        y = x
    if MODE == "neg":
        y = -y
    tl.store(out_ptr, y if x != 3 else 333)


@pytest.mark.parametrize("x,mode,expected", [(4, "", 8), (-7, "", -107), (-2, "", -2), (12, "neg", -12),
                                             (3, "", 333)])
def test_branches(x, mode, expected):
    out = np.zeros(1, np.int32)
    _branches[(1,)](np.array([x], np.int32), out, MODE=mode)
    assert out[0] == expected


@jit
def _helper(x, scale: tl.constexpr, offset=1):
    return x * scale + offset, scale


@jit
def _zero():
    return 0


@jit
def _calls(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    y, s = _helper(tl.load(x_ptr + i), 3)
    tl.static_assert(s.dtype == tl.int32)  # returned numbers decay to tensors, as compiled
    z = _zero()
    tl.static_assert(z.dtype == tl.int32)  # Python numbers returned become tensors
    tl.store(out_ptr + i, y + z)


def test_nested_jit_calls():
    out = np.zeros(4, np.int32)
    _calls[(1,)](np.arange(4, dtype=np.int32), out, N=4)
    assert out.tolist() == [1, 4, 7, 10]


@jit
def _grid_info(out_ptr):
    x, y, z = tl.program_id(0), tl.program_id(1), tl.program_id(2)
    nx, ny = tl.num_programs(0), tl.num_programs(1)
    tl.store(out_ptr + (z * ny + y) * nx + x, x + 10 * y + 100 * z)


def test_grid_iterates_over_every_program():
    out = np.full(2 * 3 * 4, -1, np.int32)
    _grid_info[(4, 3, 2)](out)
    ref = [x + 10 * y + 100 * z for z in range(2) for y in range(3) for x in range(4)]
    assert out.tolist() == ref
    calls = []
    out = np.zeros(8, np.int32)
    _grid_info[lambda meta: calls.append(sorted(meta)) or (8,)](out)
    assert calls == [["out_ptr"]] and out.tolist() == list(range(8))


# (2**31,), which ran for hours, is a case of tests/python/hostile (a hang fails one case there).
@pytest.mark.parametrize("grid", [(-1,), (1.5,), (1, 70000), (1, 1, 1, 1), (), 8, "abc", None,
                                  lambda meta: "abc", lambda meta: (-1,)],
                         ids=["negative", "float", "y-too-big", "4-d", "empty", "bare-int", "str",
                              "None", "callable-str", "callable-negative"])
def test_grids_are_checked_as_compiled_launches_check_them(grid):
    """One check for every launch: the C++ readGrid of compiled launches,
    with its type and message, after a callable grid is called."""
    g = grid({"out_ptr": None}) if callable(grid) else grid
    with pytest.raises((TypeError, ValueError)) as expected:
        tritium._C.runtime.read_grid(g, "_grid_info")
    out = np.zeros(8, np.int32)
    with pytest.raises(expected.type) as e:
        _grid_info[grid](out)
    assert str(e.value) == str(expected.value)
    assert (out == 0).all()


def test_grid_messages():
    out = np.zeros(8, np.int32)
    with pytest.raises(ValueError, match=r"_grid_info: grid dimension 0 is -1; CUDA allows 0 to 2147483647"):
        _grid_info[(-1,)](out)
    with pytest.raises(TypeError, match=r"_grid_info: grid dimension 0 must be an int, got 1.5"):
        _grid_info[(1.5,)](out)
    with pytest.raises(TypeError, match=r"_grid_info: the grid must be a tuple of 1 to 3 ints or a callable "
                                        r"returning one, got 'abc'"):
        _grid_info[lambda meta: "abc"](out)
    _grid_info[[2, np.int64(1)]](out)  # a list, and ints numpy gives, are grids
    assert out[:2].tolist() == [0, 1]


@jit
def _countdown(x, n: tl.constexpr):
    if n > 0:
        return _countdown(x, n - 1) + 1
    return x


@jit
def _forever(x, n):
    return _forever(x, n - 1)  # same types each time: no end


@jit
def _recursions(out_ptr, FOREVER: tl.constexpr):
    if FOREVER:
        tl.store(out_ptr, _forever(tl.load(out_ptr), tl.program_id(0)))
    else:
        tl.store(out_ptr, _countdown(tl.load(out_ptr), 3))


def test_recursive_calls_as_compiled():
    out = np.zeros(1, np.int32)
    _recursions[(1,)](out, FOREVER=False)  # a new specialization each level: fine, as compiled
    assert out[0] == 3
    with pytest.raises(tritium.CompilationError) as e:
        _recursions[(1,)](out, FOREVER=True)
    assert e.value.message == "recursive call of _forever is not supported"
    lines, start = inspect.getsourcelines(_forever.fn)
    i = next(i for i, ln in enumerate(lines) if "return _forever(" in ln)
    text = lines[i].rstrip("\n")
    assert (e.value.line, e.value.col) == (start + i, text.index("_forever(") + 1)
    assert str(e.value).splitlines()[1:] == [text, " " * text.index("_forever(") + "^"]


@jit
def _store_pointers(x_ptr):
    r = tl.arange(0, 4)
    tl.store(x_ptr + r, x_ptr + r)


def test_storing_pointers_into_a_float_tensor_is_an_error():
    x = np.zeros(4, np.float32)
    with pytest.raises(tritium.CompilationError) as e:
        _store_pointers[(1,)](x)
    assert e.value.message == "cannot cast pointer<fp32> to fp32"  # compiled mode's words
    assert (x == 0).all()


@jit
def _small_dot(a_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * K + tl.arange(0, K)[None, :])
    b = tl.load(a_ptr + tl.arange(0, K)[:, None] * N + tl.arange(0, N)[None, :])
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], tl.dot(a, b))


@pytest.mark.parametrize("dtype,M,N,K,min_k", [(np.float32, 8, 8, 8, 16), (np.float16, 16, 16, 8, 16),
                                               (np.int8, 16, 16, 16, 32)])
def test_dot_shapes_follow_triton(dtype, M, N, K, min_k):
    a = np.ones(max(M, N) * 64, dtype)
    c = np.zeros(M * N, np.int32 if dtype == np.int8 else np.float32)
    with pytest.raises(tritium.CompilationError) as e:
        _small_dot[(1,)](a, c, M=M, N=N, K=K)
    assert e.value.message == f"Input shapes should have M >= 1, N >= 1 and K >= {min_k}"  # Triton 3.6's
    _small_dot[(1,)](a, c, M=1 if dtype != np.int8 else 2, N=2, K=min_k)  # small M and N are fine
    assert c[0] == min_k


_DEEP = """
import tritium
import tritium.language as tl


@tritium.jit(interpret=True)
def deep(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, {expr})
"""


@pytest.mark.parametrize("expr,expected", [(" + ".join(["x"] * 2000), 4000.0), ("- " * 2001 + "x", -2.0),
                                           ("not " * 2000 + "(x > 0)", 1.0)], ids=["sum", "unary", "not"])
def test_expressions_deeper_than_the_recursion_limit(tmp_path, expr, expected):
    # Valid Python nested deeper than Python's recursion limit: the rewrite
    # of the kernel must not recurse along it.
    path = tmp_path / "deep_kernel.py"
    path.write_text(_DEEP.format(expr=expr))
    spec = importlib.util.spec_from_file_location("deep_kernel", path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    x = np.full(1, 2.0, np.float32)
    mod.deep[(1,)](x)
    assert x[0] == expected


@jit
def _reductions(x_ptr, out_ptr, i_ptr):
    offs = tl.arange(0, 4)[:, None] * 8 + tl.arange(0, 8)[None, :]
    x = tl.load(x_ptr + offs)
    tl.store(out_ptr + tl.arange(0, 4), tl.sum(x, axis=1))
    tl.store(out_ptr + 4 + tl.arange(0, 8), tl.max(x, axis=0))
    tl.store(out_ptr + 12, tl.min(x))
    tl.store(i_ptr + tl.arange(0, 4), tl.argmax(x, axis=1))
    tl.store(i_ptr + 4 + tl.arange(0, 8), tl.argmin(x, axis=0))
    tl.store(out_ptr + 13 + tl.arange(0, 8), tl.sum(x, axis=0, keep_dims=True).reshape(8))


def test_reductions():
    x = np.random.default_rng(3).integers(-50, 50, (4, 8)).astype(np.float32)
    x[1, 3] = 99
    x[1, 5] = 99  # a tie: the first index wins
    out = np.zeros(21, np.float32)
    idx = np.zeros(12, np.int32)
    _reductions[(1,)](x, out, idx)
    np.testing.assert_array_equal(out[:4], x.sum(1))
    np.testing.assert_array_equal(out[4:12], x.max(0))
    assert out[12] == x.min()
    np.testing.assert_array_equal(idx[:4], x.argmax(1))
    np.testing.assert_array_equal(idx[4:], x.argmin(0))
    np.testing.assert_array_equal(out[13:], x.sum(0))


@jit
def _int_sum(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    s = tl.sum(x, axis=0)
    tl.static_assert(s.dtype == tl.int32)  # int8 sums in int32
    tl.store(out_ptr, s)
    tl.store(out_ptr + 1, tl.xor_sum(x.to(tl.int32), axis=0))
    tl.store(out_ptr + 2, tl.sum(x, axis=0, dtype=tl.int8).to(tl.int32))


def test_integer_reductions():
    x = np.array([100, 100, 100, 1, 2, 3, -4, 7], np.int8)
    out = np.zeros(3, np.int32)
    _int_sum[(1,)](x, out)
    assert out[0] == int(x.astype(np.int32).sum())
    assert out[1] == np.bitwise_xor.reduce(x.astype(np.int32))
    assert out[2] == np.int8(np.sum(x.astype(np.int64)) & 0xFF) if False else out[2] == ((309 + 128) % 256) - 128


@jit
def _pair_max(a, ai, b, bi):
    take = a >= b
    return tl.where(take, a, b), tl.where(take, ai, bi)


@jit
def _add(a, b):
    return a + b


@jit
def _scans(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    tl.store(out_ptr + i, tl.cumsum(x, 0))
    tl.store(out_ptr + N + i, tl.cumsum(x, 0, reverse=True))
    tl.store(out_ptr + 2 * N + i, tl.associative_scan(x, 0, _add))
    v, k = tl.reduce((x, i), 0, _pair_max)
    tl.store(out_ptr + 3 * N, v)
    tl.store(out_ptr + 3 * N + 1, k)
    tl.store(out_ptr + 3 * N + 2 + i, tl.sort(x))
    tl.store(out_ptr + 4 * N + 2 + i, tl.sort(x, descending=True))
    tl.store(out_ptr + 5 * N + 2 + i, tl.flip(x))
    tl.store(out_ptr + 6 * N + 2 + i, tl.cumprod(x % 3 + 1, 0))


def test_scans_reduce_sort():
    N = 16
    x = np.random.default_rng(4).integers(-20, 20, N).astype(np.int32)
    out = np.zeros(7 * N + 2, np.int32)
    _scans[(1,)](x, out, N=N)
    np.testing.assert_array_equal(out[:N], np.cumsum(x))
    np.testing.assert_array_equal(out[N:2 * N], np.cumsum(x[::-1])[::-1])
    np.testing.assert_array_equal(out[2 * N:3 * N], np.cumsum(x))
    assert out[3 * N] == x.max() and x[out[3 * N + 1]] == x.max()
    np.testing.assert_array_equal(out[3 * N + 2:4 * N + 2], np.sort(x))
    np.testing.assert_array_equal(out[4 * N + 2:5 * N + 2], np.sort(x)[::-1])
    np.testing.assert_array_equal(out[5 * N + 2:6 * N + 2], x[::-1])
    np.testing.assert_array_equal(out[6 * N + 2:], np.cumprod((np.fmod(x, 3) + 1)).astype(np.int32))


@jit
def _branchy_combine(a, b):
    if a > b:  # a combine function that branches: called on scalars
        r = a
    else:
        r = b
    return r


@jit
def _reduce_branchy(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    tl.store(out_ptr, tl.reduce(x, 0, _branchy_combine))


def test_combine_function_with_a_branch():
    x = np.array([3, 9, -1, 4, 8, 2, 0, 7], np.int32)
    out = np.zeros(1, np.int32)
    _reduce_branchy[(1,)](x, out)
    assert out[0] == 9


@jit
def _dots(a_ptr, b_ptr, c_ptr, i_ptr, j_ptr, k_ptr):
    r = tl.arange(0, 16)
    offs = r[:, None] * 16 + r[None, :]
    a = tl.load(a_ptr + offs)
    b = tl.load(b_ptr + offs)
    c = tl.dot(a, b)
    tl.static_assert(c.dtype == tl.float32)
    tl.store(c_ptr + offs, c)
    r = tl.arange(0, 32)  # 8-bit operands need K >= 32
    offs = r[:, None] * 32 + r[None, :]
    i = tl.load(i_ptr + offs)
    j = tl.load(j_ptr + offs)
    k = tl.dot(i, j)
    tl.static_assert(k.dtype == tl.int32)
    tl.store(k_ptr + offs, tl.dot(i, j, k))


def test_dot():
    r = np.random.default_rng(5)
    a = r.standard_normal((16, 16)).astype(np.float16)
    b = r.standard_normal((16, 16)).astype(np.float16)
    c = np.zeros((16, 16), np.float32)
    i = r.integers(-128, 127, (32, 32)).astype(np.int8)
    j = r.integers(-128, 127, (32, 32)).astype(np.int8)
    k = np.zeros((32, 32), np.int32)
    _dots[(1,)](a, b, c, i, j, k)
    np.testing.assert_allclose(c, a.astype(np.float32) @ b.astype(np.float32), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(k, 2 * (i.astype(np.int32) @ j.astype(np.int32)))


@jit
def _atomics(counter_ptr, old_ptr, f_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    old = tl.atomic_add(counter_ptr + i * 0, 1)  # every element hits one address
    tl.store(old_ptr + tl.program_id(0) * N + i, old)
    tl.atomic_max(f_ptr + i % 2, tl.where(i % 2 == 0, -1.5, 2.5) * (i + 1).to(tl.float32))
    tl.atomic_min(f_ptr + 2 + i * 0, -(i.to(tl.float32)))
    prev = tl.atomic_cas(counter_ptr + 1, 0, 7)
    tl.atomic_xchg(counter_ptr + 2, prev + 1)


def test_atomics_are_sequential_and_return_old_values():
    counter = np.zeros(3, np.int32)
    old = np.zeros(8, np.int32)
    f = np.array([-100, -100, 0], np.float32)
    _atomics[(2,)](counter, old, f, N=4)
    assert counter[0] == 8
    assert sorted(old.tolist()) == list(range(8)) and old.tolist() == list(range(8))
    assert f[0] == -1.5 and f[1] == 10.0 and f[2] == -3.0
    assert counter[1] == 7 and counter[2] == 8  # the second program's cas saw 7


@jit
def _shapes(x_ptr, out_ptr):
    x = tl.load(x_ptr + tl.arange(0, 8))
    y = tl.reshape(x, (2, 4))
    t = tl.trans(y)
    tl.store(out_ptr + tl.arange(0, 8), tl.reshape(t, (8,)))
    a, b = tl.split(tl.reshape(x, (4, 2)))
    tl.store(out_ptr + 8 + tl.arange(0, 4), a)
    tl.store(out_ptr + 12 + tl.arange(0, 4), b)
    j = tl.join(a, b)
    tl.store(out_ptr + 16 + tl.arange(0, 8), tl.reshape(j, (8,)))
    p = tl.permute(tl.reshape(x, (2, 2, 2)), 2, 0, 1)
    tl.store(out_ptr + 24 + tl.arange(0, 8), tl.reshape(p, (8,)))
    c = tl.cat(a, b)
    tl.store(out_ptr + 32 + tl.arange(0, 8), c)
    e = tl.broadcast_to(x[None, :], (2, 8))
    tl.store(out_ptr + 40 + tl.arange(0, 8), tl.sum(e, axis=0))
    tl.store(out_ptr + 48 + tl.arange(0, 8), tl.interleave(a, b))


def test_shape_operations():
    x = np.arange(8, dtype=np.int32)
    out = np.zeros(56, np.int32)
    _shapes[(1,)](x, out)
    np.testing.assert_array_equal(out[:8], x.reshape(2, 4).T.reshape(8))
    np.testing.assert_array_equal(out[8:12], x.reshape(4, 2)[:, 0])
    np.testing.assert_array_equal(out[12:16], x.reshape(4, 2)[:, 1])
    np.testing.assert_array_equal(out[16:24], x)
    np.testing.assert_array_equal(out[24:32], np.transpose(x.reshape(2, 2, 2), (2, 0, 1)).reshape(8))
    np.testing.assert_array_equal(out[32:40], np.concatenate([x[0::2], x[1::2]]))
    np.testing.assert_array_equal(out[40:48], 2 * x)
    np.testing.assert_array_equal(out[48:], x)


@jit
def _elementwise(x_ptr, out_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(x_ptr + i)
    tl.store(out_ptr + i, tl.minimum(x, 0.5))
    tl.store(out_ptr + N + i, tl.maximum(x, 0.5, propagate_nan=tl.PropagateNan.ALL))
    tl.store(out_ptr + 2 * N + i, tl.clamp(x, -0.25, 0.25))
    tl.store(out_ptr + 3 * N + i, tl.where(x > 0, x, 0.0))
    tl.store(out_ptr + 4 * N + i, libdevice.tanh(x))
    tl.store(out_ptr + 5 * N + i, tl.fma(x, x, 1.0))
    tl.store(out_ptr + 6 * N + i, tl.exp(x))
    tl.store(out_ptr + 7 * N + i, tl.sqrt(tl.abs(x)))


def test_elementwise_math():
    x = np.array([-1.0, 0.25, 0.75, np.nan, 2.0, -0.5, 0.0, 3.0], np.float32)
    out = np.zeros(64, np.float32)
    _elementwise[(1,)](x, out, N=8)
    np.testing.assert_array_equal(out[:8], np.fmin(x, 0.5))
    np.testing.assert_array_equal(out[8:16], np.maximum(x, 0.5))
    np.testing.assert_array_equal(out[16:24], np.fmin(np.fmax(x, -0.25), 0.25))
    np.testing.assert_array_equal(out[24:32], np.where(x > 0, x, 0))
    np.testing.assert_allclose(out[32:40], np.tanh(x), rtol=1e-6)
    np.testing.assert_allclose(out[40:48], x * x + 1, rtol=1e-6)
    np.testing.assert_allclose(out[48:56], np.exp(x), rtol=1e-6)
    np.testing.assert_allclose(out[56:], np.sqrt(np.abs(x)), rtol=1e-6)


@jit
def _fast_divide(x_ptr, out_ptr):
    i = tl.arange(0, 4)
    x = tl.load(x_ptr + i)
    tl.store(out_ptr + i, libdevice.fast_dividef(x, x + 1.0))


def test_libdevice_fast_dividef():
    # __nv_fast_fdividef: its table entry was keyed "fast_fdivide", which the
    # lookup (that strips "fast_" first) never reached.
    x = np.array([0.5, 1.5, -2.0, 3.0], np.float32)
    out = np.zeros(4, np.float32)
    _fast_divide[(1,)](x, out)
    np.testing.assert_allclose(out, x / (x + 1), rtol=1e-6)


@jit
def _bit_functions_64(x_ptr, out_ptr):
    i = tl.arange(0, 4)
    x = tl.load(x_ptr + i)
    tl.store(out_ptr + i, libdevice.popc(x).to(tl.int64))
    tl.store(out_ptr + 4 + i, libdevice.clz(x).to(tl.int64))
    tl.store(out_ptr + 8 + i, libdevice.ffs(x).to(tl.int64))
    tl.store(out_ptr + 12 + i, libdevice.brev(x))
    tl.store(out_ptr + 16 + i, libdevice.umulhi(x, x))


def test_libdevice_bit_functions_on_int64():
    # The 64-bit symbols (__nv_popcll, __nv_clzll, __nv_ffsll, __nv_brevll,
    # __nv_umul64hi) are the 32-bit ones' with "ll"/"64" in the name.
    x = np.array([1, -1, 0x0F00, -(1 << 62)], np.int64)
    out = np.zeros(20, np.int64)
    _bit_functions_64[(1,)](x, out)
    u = [int(v) & (2**64 - 1) for v in x]
    as_i64 = [v - 2**64 if v >= 2**63 else v for v in (int(format(v, "064b")[::-1], 2) for v in u)]
    np.testing.assert_array_equal(out[:4], [bin(v).count("1") for v in u])
    np.testing.assert_array_equal(out[4:8], [64 - v.bit_length() for v in u])
    np.testing.assert_array_equal(out[8:12], [(v & -v).bit_length() for v in u])
    np.testing.assert_array_equal(out[12:16], as_i64)
    np.testing.assert_array_equal(out[16:20], [(v * v >> 64) - (2**64 if v * v >> 64 >= 2**63 else 0) for v in u])


@jit
def _scalar_args(out_ptr, i32, i64, u64, f, b, nothing, dt: tl.constexpr):
    tl.static_assert(i32.dtype == tl.int32)
    tl.static_assert(i64.dtype == tl.int64)
    tl.static_assert(u64.dtype == tl.uint64)
    tl.static_assert(f.dtype == tl.float32)
    tl.static_assert(b.dtype == tl.int1)
    tl.static_assert(nothing is None)
    tl.store(out_ptr, (i32 + i64 + b).to(dt) + f.to(dt))


def test_scalar_argument_types():
    out = np.zeros(1, np.float64)
    _scalar_args[(1,)](out, 5, 2**40, 2**63 + 1, 0.5, True, None, dt=tl.float64)
    assert out[0] == 5 + 2**40 + 0.5 + 1


@tritium.jit(interpret=True)
def _inplace(x_ptr, y_ptr, N: tl.constexpr):
    i = tl.arange(0, N)
    tl.store(y_ptr + i, tl.load(x_ptr + i) + 1)


def test_aliasing_and_views():
    x = np.arange(16, dtype=np.float32)
    _inplace[(1,)](x, x, N=16)  # the same buffer twice
    np.testing.assert_array_equal(x, np.arange(16) + 1)
    base = np.zeros(32, np.float32)
    _inplace[(1,)](base[:8], base[8:], N=8)  # two views of one array
    np.testing.assert_array_equal(base[8:16], np.ones(8))
    with pytest.raises(IndexError):
        _inplace[(1,)](base[:8], base[28:], N=8)


@jit
def _bools(x_ptr, out_ptr):
    b = tl.load(x_ptr + tl.arange(0, 4))
    tl.static_assert(b.dtype == tl.int1)
    tl.store(out_ptr + tl.arange(0, 4), ~b)


def test_bool_arrays():
    x = np.array([True, False, True, True])
    out = np.zeros(4, bool)
    _bools[(1,)](x, out)
    np.testing.assert_array_equal(out, ~x)


def test_the_knob_is_read_at_launch(monkeypatch):
    @tritium.jit
    def k(out_ptr):
        tl.store(out_ptr, 42)

    assert type(k) is tritium.JITFunction
    monkeypatch.setenv("TRITIUM_INTERPRET", "1")
    out = np.zeros(1, np.int32)
    k[(1,)](out)
    assert out[0] == 42


def test_decorated_under_the_knob(monkeypatch):
    monkeypatch.setenv("TRITIUM_INTERPRET", "1")

    @tritium.jit
    def k(out_ptr):
        tl.store(out_ptr, 7)

    from tritium.runtime.interpreter import InterpretedFunction
    assert isinstance(k, InterpretedFunction)
    monkeypatch.delenv("TRITIUM_INTERPRET")
    out = np.zeros(1, np.int32)
    k[(1,)](out)
    assert out[0] == 7


def test_errors_of_launches():
    out = np.zeros(1, np.int32)
    with pytest.raises(TypeError, match="unexpected keyword argument 'bogus'"):
        _inplace[(1,)](out, out, N=1, bogus=3)
    with pytest.raises(TypeError, match="missing a required argument"):
        _inplace[(1,)](out, N=1)


@pytest.mark.skipif(importlib.util.find_spec("torch") is None, reason="torch is not installed")
def test_torch_tensors():
    import torch
    x = torch.arange(16, dtype=torch.float32)
    y = torch.zeros(16, dtype=torch.float32)
    _inplace[(1,)](x, y, N=16)
    assert torch.equal(y, x + 1)
    xb = torch.arange(16, dtype=torch.bfloat16)
    yb = torch.zeros(16, dtype=torch.bfloat16)
    _inplace[(1,)](xb, yb, N=16)
    assert torch.equal(yb, xb + 1)
    if torch.cuda.is_available():
        xc = x.cuda()
        yc = torch.zeros_like(xc)
        _inplace[(1,)](xc, yc, N=16)
        assert torch.equal(yc.cpu(), x + 1)


@tritium.jit(noinline=True)
def _noinline_add(a, b):
    return a + b


@jit
def _call_noinline(x_ptr, BLOCK: tl.constexpr):
    s = _noinline_add(tl.load(x_ptr), 1)  # scalars: fine
    tl.store(x_ptr, s)
    if BLOCK > 1:
        v = _noinline_add(tl.load(x_ptr + tl.arange(0, BLOCK)), 1)
        tl.store(x_ptr + tl.arange(0, BLOCK), v)


def test_noinline_functions_take_scalars_only():
    x = np.zeros(4, np.int32)
    _call_noinline[(1,)](x, BLOCK=1)
    assert x[0] == 1
    with pytest.raises(tritium.CompilationError, match="marked noinline, but was called with non-scalar argument a"):
        _call_noinline[(1,)](x, BLOCK=4)


@jit
def _pdl_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.extra.cuda.gdc_wait()  # programs of the interpreter run after the previous launch
    x = tl.load(x_ptr + offs, mask=mask)
    tl.extra.cuda.gdc_launch_dependents()
    tl.store(out_ptr + offs, x + tl.load(y_ptr + offs, mask=mask), mask=mask)


def test_grid_dependency_control_and_launch_options():
    x, y = np.arange(100, dtype=np.float32), np.full(100, 0.5, np.float32)
    out = np.zeros(100, np.float32)
    _pdl_add[(4,)](x, y, out, 100, BLOCK=32, launch_pdl=True, launch_cooperative_grid=True)
    np.testing.assert_array_equal(out, x + y)
