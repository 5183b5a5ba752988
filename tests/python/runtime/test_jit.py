"""@jit, kernel[grid](...), specialization, argument binding and the warm path."""

import time

import numpy as np
import pytest

import tritium
from tritium.runtime import driver
from tritium.runtime.jit import JITFunction, cdiv, jit, next_power_of_2
import tritium.language as tl

from runtime_helpers import CudaArray, FakeTensor, load_module


@jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr = 128):
    pid = tl.program_id(0)
    offs = pid * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask),
             mask=mask)


@jit(do_not_specialize=["n"], do_not_specialize_on_alignment=[1])
def nospec_kernel(x_ptr, y_ptr, n, m):
    pid = tl.program_id(0)
    tl.store(x_ptr + pid, tl.load(y_ptr + pid) + n + m)


@jit
def scalar_kernel(out_ptr, a, b, flag):
    if out_ptr is not None:
        tl.store(out_ptr, a + b)


@pytest.fixture(autouse=True)
def fresh_kernels():
    """Each test starts with empty in-memory caches."""
    for k in (add_kernel, nospec_kernel, scalar_kernel):
        k.device_caches.clear()


def tensors(n=64, dtype="float32"):
    return FakeTensor(n, dtype), FakeTensor(n, dtype), FakeTensor(n, dtype)


# -- the decorator and JITFunction's attributes --------------------------------

def test_attributes():
    assert isinstance(add_kernel, JITFunction)
    assert add_kernel.arg_names == ["x_ptr", "y_ptr", "out_ptr", "n", "BLOCK"]
    assert [p.is_constexpr for p in add_kernel.params] == [False] * 4 + [True]
    assert add_kernel.params[4].default == 128 and add_kernel.params[4].has_default
    assert not add_kernel.params[3].has_default
    assert add_kernel.constexprs == [4]
    assert add_kernel.fn.__name__ == "add_kernel" and add_kernel.__name__ == "add_kernel"
    assert add_kernel.src.startswith("def add_kernel(")  # the decorator is stripped
    assert list(add_kernel.signature.parameters) == add_kernel.arg_names
    assert isinstance(add_kernel.cache_key, str) and len(add_kernel.cache_key) == 64
    assert nospec_kernel.do_not_specialize == [2]
    assert [p.do_not_specialize for p in nospec_kernel.params] == [False, False, True, False]
    assert nospec_kernel.params[1].do_not_specialize_on_alignment


def test_jit_with_arguments_keeps_options():
    @jit(debug=True, noinline=True, repr=lambda sig: "custom")
    def helper(x):
        return x
    assert isinstance(helper, JITFunction) and helper.debug and helper.noinline
    assert helper.repr({}) == "custom"


def test_call_outside_kernel_raises():
    with pytest.raises(RuntimeError, match="Cannot call @triton.jit'd outside of the scope "
                                           "of a kernel"):
        add_kernel(1, 2, 3, 4)


def test_do_not_specialize_bad_name():
    with pytest.raises(ValueError, match="'nope' is not a parameter"):
        @jit(do_not_specialize=["nope"])
        def k(x):
            pass
    with pytest.raises(ValueError, match="index 5 is out of range"):
        @jit(do_not_specialize=[5])
        def k2(x):
            pass


def test_varargs_rejected():
    with pytest.raises(TypeError, match=r"cannot take \*args"):
        @jit
        def k(*args):
            pass


# -- specialization ------------------------------------------------------------

def specialize(frontend, kernel, *args, monkeypatch=None, **kwargs):
    """What the frontend is asked to compile for these arguments (bypassing
    both caches, so that it is always asked)."""
    from tritium import knobs
    kernel.device_caches.clear()
    knobs.compilation.always_compile = True
    try:
        kernel.warmup(*args, grid=(1,), **kwargs)
    finally:
        del knobs.compilation.always_compile
    name, sig, constexprs, attrs, options = frontend.last
    return sig, constexprs, attrs


def test_int_specialization(frontend):
    x, y, out = tensors()
    sig, cx, attrs = specialize(frontend, add_kernel, x, y, out, 1024)
    assert sig == {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32",
                   "BLOCK": "constexpr"}
    assert cx == {"BLOCK": 128}
    assert attrs == {0: {"divisibility": 16}, 1: {"divisibility": 16}, 2: {"divisibility": 16},
                     3: {"divisibility": 16}}
    _, _, attrs = specialize(frontend, add_kernel, x, y, out, 1)
    assert attrs[3] == {"equal_to_1": True}
    _, _, attrs = specialize(frontend, add_kernel, x, y, out, 17)
    assert 3 not in attrs
    _, _, attrs = specialize(frontend, add_kernel, x, y, out, 0)
    assert attrs[3] == {"divisibility": 16}


def test_int_types_by_value(frontend):
    out = FakeTensor(4)
    cases = [(2**31 - 1, "i32"), (-2**31, "i32"), (2**31, "i64"), (-2**31 - 1, "i64"),
             (2**63 - 1, "i64"), (2**63, "u64"), (2**64 - 1, "u64")]
    for value, ty in cases:
        sig, _, _ = specialize(frontend, scalar_kernel, out, value, 0, True)
        assert sig["a"] == ty, value
    # Triton's error and wording for an int beyond 64 bits.
    for value in (2**64, -2**63 - 1):
        with pytest.raises(OverflowError, match="argument 'a'.*integer to be specialized too large to "
                                                "represent.*does not fit in 64 bits"):
            scalar_kernel.warmup(out, value, 0, True, grid=(1,))


def test_float_bool_none(frontend):
    sig, cx, _ = specialize(frontend, scalar_kernel, FakeTensor(4), 1.5, 2, False)
    assert sig["a"] == "fp32" and sig["flag"] == "i1"
    sig, cx, _ = specialize(frontend, scalar_kernel, None, 1.5, 2, False)
    assert sig["out_ptr"] == "constexpr" and cx["out_ptr"] is None


def test_pointer_alignment_and_dtypes(frontend):
    aligned, misaligned = FakeTensor(4, "float16"), FakeTensor(4, "float16", offset_bytes=4)
    sig, _, attrs = specialize(frontend, add_kernel, aligned, misaligned, FakeTensor(4, "int8"), 17)
    assert sig["x_ptr"] == "*fp16" and sig["y_ptr"] == "*fp16" and sig["out_ptr"] == "*i8"
    assert attrs.get(0) == {"divisibility": 16} and 1 not in attrs


def test_const_pointer(frontend):
    @jit
    def k(src: tl.const, dst, n: tl.int64):
        tl.store(dst, tl.load(src) + n)
    sig, _, _ = specialize(frontend, k, FakeTensor(4), FakeTensor(4), 3)
    assert sig == {"src": "*kfp32", "dst": "*fp32", "n": "i64"}  # n's annotation wins


def test_cuda_array_interface(frontend):
    sig, _, attrs = specialize(frontend, add_kernel, CudaArray(0x1000), CudaArray(0x1004, "<i4"),
                               CudaArray(0x2000, "|u1"), 16)
    assert (sig["x_ptr"], sig["y_ptr"], sig["out_ptr"]) == ("*fp16", "*i32", "*u8")
    assert 0 in attrs and 1 not in attrs


def test_do_not_specialize(frontend):
    x, y = FakeTensor(4), FakeTensor(4, offset_bytes=8)
    _, _, attrs = specialize(frontend, nospec_kernel, x, y, 16, 16)
    assert 2 not in attrs                       # do_not_specialize: no divisibility
    assert attrs[3] == {"divisibility": 16}     # m is specialized
    assert 1 not in attrs
    _, _, attrs = specialize(frontend, nospec_kernel, x, y, 1, 1)
    assert 2 not in attrs and attrs[3] == {"equal_to_1": True}
    y2 = FakeTensor(4)                          # aligned, but not specialized on alignment
    _, _, attrs = specialize(frontend, nospec_kernel, x, y2, 1, 1)
    assert 1 not in attrs


def test_do_not_specialize_on_alignment_keeps_equal_to_1(frontend):
    @jit(do_not_specialize_on_alignment=["n"])
    def k(p, n):
        tl.store(p, n)
    _, _, attrs = specialize(frontend, k, FakeTensor(4), 1)
    assert attrs[1] == {"equal_to_1": True}
    _, _, attrs = specialize(frontend, k, FakeTensor(4), 32)
    assert 1 not in attrs


def test_constexpr_values_and_types_key_separately(frontend):
    @jit
    def k(p, n, SCALE: tl.constexpr):
        tl.store(p, n * SCALE)
    p = FakeTensor(4)
    k.warmup(p, 17, SCALE=2, grid=(1,))
    k.warmup(p, 17, SCALE=2, grid=(1,))
    assert frontend.count == 1
    k.warmup(p, 17, SCALE=2.0, grid=(1,))  # equal and same hash, but another type
    k.warmup(p, 17, SCALE=True, grid=(1,))
    assert frontend.count == 3
    assert frontend.last[2] == {"SCALE": True}


def test_options_reach_the_frontend_and_key(frontend):
    x, y, out = tensors()
    add_kernel.warmup(x, y, out, 17, grid=(1,), num_warps=8, num_stages=2)
    opts = frontend.last[4]
    assert opts.num_warps == 8 and opts["num_stages"] == 2 and opts.debug is False
    k = add_kernel.warmup(x, y, out, 17, grid=(1,), num_stages=2, num_warps=8)
    assert frontend.count == 1  # keyword order does not matter
    assert k.metadata.num_warps == 8 and k.metadata.num_stages == 2
    add_kernel.warmup(x, y, out, 17, grid=(1,), num_warps=4)
    assert frontend.count == 2


def test_debug_option_and_knob(frontend, monkeypatch):
    @jit(debug=True)
    def k(p):
        tl.store(p, 1)
    k.warmup(FakeTensor(4), grid=(1,))
    assert frontend.last[4].debug is True
    x, y, out = tensors()
    add_kernel.warmup(x, y, out, 3, grid=(1,))
    assert frontend.last[4].debug is False
    monkeypatch.setenv("TRITIUM_DEBUG", "1")
    add_kernel.warmup(x, y, out, 3, grid=(1,))
    assert frontend.last[4].debug is True


def test_bad_launch_options():
    x, y, out = tensors()
    with pytest.raises(ValueError, match="num_warps must be a power of 2"):
        add_kernel.warmup(x, y, out, 3, grid=(1,), num_warps=3)
    with pytest.raises(TypeError, match="unexpected keyword argument 'BLOK'"):
        add_kernel.warmup(x, y, out, 3, grid=(1,), BLOK=3)


# -- argument binding ----------------------------------------------------------

def test_binding_errors_name_the_parameter():
    x, y, out = tensors()
    with pytest.raises(TypeError, match="missing 1 required positional argument: 'n'"):
        add_kernel[(1,)](x, y, out)
    with pytest.raises(TypeError, match="add_kernel"):
        add_kernel[(1,)](x, y, out, 3, 128, 5)
    with pytest.raises(TypeError, match="multiple values for argument 'n'"):
        add_kernel[(1,)](x, y, out, 3, n=4)
    with pytest.raises(TypeError, match=r"argument 'y_ptr' \(parameter 1\).*type str"):
        add_kernel[(1,)](x, "oops", out, 3)
    with pytest.raises(TypeError, match="argument 'out_ptr'.*unsupported tensor dtype"):
        add_kernel[(1,)](x, y, FakeTensor(4, "complex64"), 3)


def test_keywords_and_defaults(frontend):
    x, y, out = tensors()
    add_kernel.warmup(out_ptr=out, y_ptr=y, x_ptr=x, n=16, grid=(1,))
    assert frontend.last[2] == {"BLOCK": 128}
    add_kernel.warmup(x, y, out, n=16, BLOCK=32, grid=(1,))
    assert frontend.last[2] == {"BLOCK": 32}


def test_parameter_names_that_shadow_internals(frontend):
    @jit
    def k(type, options, _tritium_x, BLOCK: tl.constexpr):
        pass
    k.warmup(FakeTensor(4), 3, 4, 16, grid=(1,))
    assert frontend.last[1] == {"type": "*fp32", "options": "i32", "_tritium_x": "i32",
                                "BLOCK": "constexpr"}


# -- warmup ----------------------------------------------------------------------

def test_warmup_with_type_strings(frontend):
    k = add_kernel.warmup("*fp16", "*fp16", "*fp32", "i32", BLOCK=256, grid=(1,))
    _, sig, cx, attrs, _ = frontend.last
    assert sig["x_ptr"] == "*fp16" and sig["out_ptr"] == "*fp32" and sig["n"] == "i32"
    assert attrs == {0: {"divisibility": 16}, 1: {"divisibility": 16}, 2: {"divisibility": 16}}
    assert cx == {"BLOCK": 256}
    assert "tir" in k.asm and k.name == "add_kernel"
    add_kernel.warmup("*fp16", "*fp16:1", "*fp32", "i32:16", BLOCK=256, grid=(1,))
    assert frontend.last[3] == {0: {"divisibility": 16}, 2: {"divisibility": 16},
                                3: {"divisibility": 16}}
    with pytest.raises(TypeError, match="argument 'n'.*unknown type string 'int'"):
        add_kernel.warmup("*fp16", "*fp16", "*fp32", "int", grid=(1,))


@jit
def tuple_constexprs(X, T: tl.constexpr, U: tl.constexpr):
    tl.store(X, T[0] + U[0])


def test_tuple_constexprs_are_not_read_as_pointer_facts(frontend):
    # The spec holds constexpr values as they are: a one-element tuple or
    # one of ints is not an argument's (type, tag) entry.
    k = tuple_constexprs.warmup("*i32", (4,), (1, 2), grid=(1,))
    assert k.metadata.int64_offsets is False


def test_warmup_mock_tensor(frontend):
    from tritium.runtime.jit import MockTensor
    add_kernel.warmup(MockTensor("bfloat16"), MockTensor("bfloat16"), MockTensor("bfloat16"), 8,
                      grid=(1,))
    assert frontend.last[1]["x_ptr"] == "*bf16"


# -- launching -------------------------------------------------------------------

def test_run_without_backend_raises_after_compiling(frontend):
    x, y, out = tensors()
    with pytest.raises(driver.NoBackendError, match="no GPU backend available") as info:
        add_kernel[(4,)](x, y, out, 64)
    assert isinstance(info.value, RuntimeError)
    assert "TRITIUM_INTERPRET=1" in str(info.value) and "warmup" in str(info.value)
    assert frontend.count == 1  # compiled first
    with pytest.raises(driver.NoBackendError):
        add_kernel[(4,)](x, y, out, 64)
    assert frontend.count == 1  # and cached


def test_grid_tuple_and_callable(fake_driver):
    x, y, out = tensors()
    seen = []

    def grid(meta):
        seen.append(dict(meta))
        return (cdiv(meta["n"], meta["BLOCK"]),)

    k = add_kernel[grid](x, y, out, 1000, BLOCK=256)
    assert seen == [{"x_ptr": x, "y_ptr": y, "out_ptr": out, "n": 1000, "BLOCK": 256}]
    assert fake_driver.launches[-1][0] == (4, 1, 1)
    assert fake_driver.launches[-1][1] == 7  # the driver's stream
    assert fake_driver.launches[-1][2] == (x, y, out, 1000)  # constexprs are not passed
    assert fake_driver.launches[-1][3] is k
    add_kernel[(2, 3)](x, y, out, 1000)
    assert fake_driver.launches[-1][0] == (2, 3, 1)
    add_kernel[lambda meta: (1, 2, 3)](x, y, out, 1000)
    assert fake_driver.launches[-1][0] == (1, 2, 3)
    with pytest.raises(ValueError, match="1 to 3 dimensions"):
        add_kernel[(1, 1, 1, 1)](x, y, out, 1000)
    assert k.n_regs == 32 and len(fake_driver.loaded) == 2  # BLOCK=256, then 128; once each


@pytest.mark.parametrize("grid", [(-1,), (1.5,), (2**31,), (1, 70000), (), 8, "abc", lambda meta: "abc"],
                         ids=["negative", "float", "2**31", "y-too-big", "empty", "bare-int", "str", "callable-str"])
def test_bad_grids_on_the_python_path(fake_driver, grid):
    """A first launch (the Python path) checks the grid with the warm
    path's own check, C++ readGrid: same errors, nothing launched."""
    x, y, out = tensors()
    g = grid({}) if callable(grid) else grid
    with pytest.raises((TypeError, ValueError)) as expected:
        tritium._C.runtime.read_grid(g, "add_kernel")
    with pytest.raises(expected.type) as e:
        add_kernel[grid](x, y, out, 1000)
    assert str(e.value) == str(expected.value) and not fake_driver.launches


def test_unhashable_constexprs_and_options_are_named(fake_driver):
    x, y, out = tensors()
    with pytest.raises(TypeError, match=r"^add_kernel\(\): constexpr argument 'BLOCK' is a ndarray, which "
                                        r"cannot key a compiled kernel: it must be hashable"):
        add_kernel[(1,)](x, y, out, 16, BLOCK=np.arange(4))
    with pytest.raises(TypeError, match=r"^add_kernel\(\): option 'extern_libs' is a dict, which cannot key"):
        add_kernel[(1,)](x, y, out, 16, extern_libs={"libdevice": np.arange(2)})
    assert not fake_driver.launches


def test_none_argument_is_not_passed(fake_driver):
    scalar_kernel[(1,)](None, 1.0, 2, True)
    assert fake_driver.launches[-1][2] == (1.0, 2, True)


def test_pre_run_hook_and_launch_hooks(fake_driver, monkeypatch):
    from tritium import knobs
    calls = []
    add_kernel.add_pre_run_hook(lambda *a, **k: calls.append("pre"))
    try:
        monkeypatch.setattr(knobs.runtime, "launch_enter_hook",
                            lambda info: calls.append(("enter", info["name"], info["grid"])))
        monkeypatch.setattr(knobs.runtime, "launch_exit_hook",
                            lambda info: calls.append(("exit", info["args"]["n"])))
        x, y, out = tensors()
        add_kernel[(2,)](x, y, out, 4)
        assert calls == ["pre", ("enter", "add_kernel", (2, 1, 1)), ("exit", 4)]
    finally:
        add_kernel.pre_run_hooks.clear()


def test_launch_metadata(fake_driver, monkeypatch):
    from tritium import knobs

    @jit(launch_metadata=lambda grid, kernel, args: {"bytes": 4 * args["n"]})
    def k(p, n):
        tl.store(p, n)
    seen = []
    monkeypatch.setattr(knobs.runtime, "launch_enter_hook", seen.append)
    k[(1,)](FakeTensor(4), 10)
    assert seen[0]["bytes"] == 40 and seen[0]["kernel"] is fake_driver.launches[-1][3]


def test_unhashable_constexpr_and_option(frontend):
    @jit
    def k(p, SHAPE: tl.constexpr):
        tl.store(p, 1)
    k.warmup(FakeTensor(4), [2, 3], grid=(1,))
    k.warmup(FakeTensor(4), [2, 3], grid=(1,))
    assert frontend.count == 1
    add_kernel.warmup(*tensors(), 16, grid=(1,), extern_libs={"libdevice": "/x.bc"})
    assert frontend.count == 2


def test_warm_path_skips_compilation(frontend, fake_driver, monkeypatch):
    from tritium.compiler import compiler
    compiles = []
    real = compiler.compile
    monkeypatch.setattr(compiler, "compile", lambda *a, **k: compiles.append(1) or real(*a, **k))
    x, y, out = tensors()
    for _ in range(5):
        add_kernel[(1,)](x, y, out, 64)
    assert len(compiles) == 1 and frontend.count == 1
    add_kernel[(1,)](x, y, out, 65)  # not divisible by 16: a new specialization
    add_kernel[(1,)](x, y, out, 1)   # equal to 1: another
    add_kernel[(1,)](x, y, out, 80)  # divisible again: cached
    assert len(compiles) == 3
    assert len(fake_driver.launches) == 8


def test_warm_launch_is_cheap(fake_driver):
    x, y, out = tensors()
    grid = (4,)
    add_kernel[grid](x, y, out, 64)
    n, per_launch = 500, float("inf")
    for _ in range(5):  # the best round: a busy machine only slows some of them
        t0 = time.perf_counter()
        for _ in range(n):
            add_kernel[grid](x, y, out, 64)
        per_launch = min(per_launch, (time.perf_counter() - t0) / n)
    # A loose bound that only a compile or a hash on the warm path would break.
    assert per_launch < 100e-6, f"{per_launch * 1e6:.1f} us per warm launch"


def test_changed_constexpr_global_raises(frontend, fake_driver, tmp_path):
    mod = load_module(tmp_path, "kmod_globals", KMOD)
    p = FakeTensor(4)
    mod.k[(1,)](p)
    mod.SCALE = tl.constexpr(2)  # a new object with the same value: fine
    mod.k[(1,)](p)
    mod.SCALE = tl.constexpr(3)
    with pytest.raises(RuntimeError, match="Global variable SCALE has changed since we compiled "
                                           "this kernel, from 2 to 3"):
        mod.k[(1,)](p)


def test_globals_recorded_in_triton_form(frontend, fake_driver, tmp_path, monkeypatch):
    """The code generator may record globals as Triton does, (value, ns)."""
    mod = load_module(tmp_path, "kmod_triton_form", KMOD)
    from tritium.compiler import compiler
    inner = compiler.ast_to_ir

    def recording(fn, *args, **kw):
        fn.used_global_vals[("SCALE", id(mod.__dict__))] = (mod.SCALE, mod.__dict__)
        return inner(fn, *args, **kw)
    monkeypatch.setattr(compiler, "ast_to_ir", recording)
    p = FakeTensor(4)
    mod.k[(1,)](p)
    mod.k[(1,)](p)
    mod.SCALE = tl.constexpr(5)
    with pytest.raises(RuntimeError, match="Global variable SCALE has changed"):
        mod.k[(1,)](p)


KMOD = """
import tritium.language as tl
from tritium.runtime.jit import jit

SCALE = tl.constexpr(2)


@jit
def k(p):
    tl.store(p, SCALE)
"""


def test_cdiv_next_power_of_2():
    assert cdiv(10, 4) == 3 and cdiv(8, 4) == 2 and cdiv(0, 4) == 0
    assert [next_power_of_2(n) for n in (0, 1, 2, 3, 5, 64, 65)] == [1, 1, 2, 4, 8, 64, 128]


def test_exports():
    for name in ("jit", "JITFunction", "autotune", "heuristics", "Config", "compile", "cdiv",
                 "next_power_of_2", "knobs", "testing", "CompilationError"):
        assert hasattr(tritium, name), name


def test_set_allocator_is_per_context():
    """tritium.set_allocator (Triton's): the allocator of the current
    context, NullAllocator (an error when asked) until one is set."""
    import contextvars

    import tritium
    from tritium.runtime import _allocation

    def body():
        assert isinstance(_allocation._allocator.get(), _allocation.NullAllocator)
        with pytest.raises(RuntimeError, match="set_allocator"):
            _allocation._allocator.get()(64, 16, None)
        calls = []
        tritium.set_allocator(lambda size, align, stream: calls.append((size, align, stream)))
        _allocation._allocator.get()(128, 64, 7)
        assert calls == [(128, 64, 7)]
        with pytest.raises(TypeError, match="callable"):
            tritium.set_allocator(42)

    contextvars.copy_context().run(body)
    assert isinstance(_allocation._allocator.get(), _allocation.NullAllocator)
    assert "set_allocator" in tritium.__all__ and tritium.tools.tensor_descriptor.TensorDescriptor


def test_repr_names_the_kernel_from_its_specialization(monkeypatch):
    """@jit(repr=fn): fn gets the specialization (its .signature and
    .constants, the ints specialized as 1 among them) and its answer is the
    kernel's name, as in Triton (test_value_specialization)."""
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:80")

    def name(spec):
        ones = "_".join(k for k, v in spec.constants.items() if v == 1)
        return f"kernel_{spec.signature['value']}_{ones}"

    @jit(repr=name)
    def named(value, is_one, X):
        pass

    for value, ty in ((-1, "i32"), (2**31, "i64"), (2**63, "u64")):
        k = named.warmup(value, 1, MockTensor("fp32"), grid=(1,))
        assert k.name == k.metadata.name == f"kernel_{ty}_is_one"
        assert f".entry kernel_{ty}_is_one(" in k.asm["ptx"]


def test_cache_key_found_once_across_threads():
    """Threads asking a new kernel's key at once (the autotuner compiles on
    threads) all get the real key, never the finder's recursion guard."""
    import sys
    import threading

    @jit
    def helper(x):
        return x * 2 + 1

    @jit
    def kernel(x_ptr, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, helper(tl.load(x_ptr + offs)))

    start = threading.Barrier(8)
    keys = []

    def ask():
        start.wait()
        keys.append(kernel.cache_key)

    threads = [threading.Thread(target=ask) for _ in range(8)]
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads often, inside the finder too
    try:
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        sys.setswitchinterval(interval)
    assert len(keys) == 8 and len(set(keys)) == 1 and len(keys[0]) == 64


@jit
def staged_dot(a_ptr, b_ptr, c_ptr, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm, rn, rk = tl.arange(0, BM), tl.arange(0, BN), tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * BN + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * BN + rn[None, :], acc)


def test_too_many_stages_for_shared_memory_compile_with_fewer(frontend):
    """Without a GPU the target's limit applies (sm_90: 227 KiB a block):
    8 stages of 128x128x64 fp16 tiles need 256 KiB, so the kernel is
    compiled again with 7 (224 KiB), with a warning."""
    args = ("*fp16", "*fp16", "*fp32", 4096)
    with pytest.warns(UserWarning, match=r"staged_dot: 262144 bytes of shared memory with num_stages=8 "
                                         r"exceed the 232448 a block may use; compiled with "
                                         r"num_stages=7 \(229376 bytes\)"):
        k = staged_dot.warmup(*args, BM=128, BN=128, BK=64, num_stages=8, grid=(1,))
    assert k.metadata.num_stages == 7 and frontend.count == 2


def test_type_canonicalisation_dict():
    """Triton's runtime.jit.type_canonicalisation_dict, which its test
    helpers read: every spelling to a canonical name that maps to itself and
    names a dtype (but AMD's fp8 variants, which Tritium's signatures do not
    take yet)."""
    from tritium.runtime.jit import type_canonicalisation_dict as canon
    assert (canon["bool"], canon["float16"], canon["int"], canon["float8_e4m3fn"]) == ("u1", "fp16", "i32", "fp8e4nv")
    for name in set(canon.values()):
        assert canon[name] == name
        if name not in ("fp8e4b8", "fp8e5b16"):
            assert tl.str_to_ty(name, None) is not None, name
