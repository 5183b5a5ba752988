"""Shared helpers of the language conformance suite (tests/python/language).

Every test runs a kernel on a *backend* (the ``backend`` fixture of
conftest.py) and checks what it wrote against a reference computed with
numpy:

* ``interpreter``: ``@tritium.jit`` in interpreter mode; arrays are numpy
  arrays;
* ``cuda``: the compiled kernel on a GPU; arrays are torch CUDA tensors
  (these cases carry the ``gpu`` marker and are skipped without a GPU);
* ``cpu``: the kernel compiled for the host CPU (codegen/cpu/) and run on
  its threads by the cpu driver; arrays are numpy arrays;
* ``hip``: the compiled kernel on an AMD GPU, arrays torch (ROCm) tensors;
  in the default list only where the HIP driver sees a device (none ever
  has: no AMD GPU is available to this project);
* ``compile`` and ``compile-hip``: compile each kernel for the CUDA target
  (cuda:90) or the AMD one (hip:gfx90a) without running it, then skip the
  check - a quick way to see that every kernel of the suite compiles for
  that target. ``compile-hip`` is in the default list where no AMD GPU is
  (and the ROCm device libraries are installed); ``compile`` only when
  TRITIUM_LANG_BACKENDS names it.

Kernels are plain module-level functions; ``Backend.jit`` wraps one for its
backend (once), ``Backend.run`` launches it on numpy arrays and returns the
arrays as the kernel left them. Device helper functions that kernels call
are ordinary ``@tritium.jit`` functions.

dtypes are named as tl names them (``"int8"``, ``"bfloat16"``, ``"int1"``).
A kernel moves values through memory in an *I/O dtype* (``io_name``): the
dtype itself, except int1 (int8 in memory) and bfloat16 (float32 in memory,
numpy has no bfloat16); kernels convert with ``.to(T)`` after loading and
``.to(IO)`` before storing, which is exact for the values used.
"""

import inspect
import os

import numpy as np
import pytest

import tritium
import tritium.language as tl

# ---------------------------------------------------------------------------
# dtypes
# ---------------------------------------------------------------------------

SINT = ["int8", "int16", "int32", "int64"]
UINT = ["uint8", "uint16", "uint32", "uint64"]
INTS = SINT + UINT
FLOATS = ["float16", "bfloat16", "float32", "float64"]
NUMERIC = INTS + FLOATS
ALL = ["int1"] + NUMERIC

SHORT = {"int1": "i1", "int8": "i8", "int16": "i16", "int32": "i32", "int64": "i64", "uint8": "u8",
         "uint16": "u16", "uint32": "u32", "uint64": "u64", "float16": "fp16", "bfloat16": "bf16",
         "float32": "fp32", "float64": "fp64"}


def tlt(name):
    """The tl dtype of a name."""
    return getattr(tl, name)


def io_name(name):
    return {"int1": "int8", "bfloat16": "float32"}.get(name, name)


def np_io(name):
    return np.dtype(io_name(name))


def is_float(name):
    return name in FLOATS


def is_int(name):
    return name in INTS or name == "int1"


def is_unsigned(name):
    return name in UINT or name == "int1"


def bits(name):
    return {"int1": 1, "float16": 16, "bfloat16": 16, "float32": 32, "float64": 64}.get(name) or \
        int(name.lstrip("uint"))


def kind_rank(name):
    return 0 if name == "int1" else 1 if is_int(name) else 2


# ---------------------------------------------------------------------------
# Triton's typing rules, written out independently of the frontend
# ---------------------------------------------------------------------------


class TypingError(Exception):
    """The reference says the operation is a compile error."""


def literal_type(x):
    if isinstance(x, bool):
        return "int1"
    if isinstance(x, int):
        if -2**31 <= x < 2**31:
            return "int32"
        if 0 <= x < 2**32:
            return "uint32"
        if -2**63 <= x < 2**63:
            return "int64"
        return "uint64"
    return "float32"


def integer_promote(a, b):
    wa, wb = bits(a), bits(b)
    if is_unsigned(a) == is_unsigned(b):
        return a if wa > wb else b
    if is_unsigned(a):
        return a if wa >= wb else b
    return b if wb >= wa else a


def computation_type(a, b, div_or_mod=False, a_lit=False, b_lit=False):
    """The type an arithmetic operator computes in (Triton's
    computation_type_impl); a_lit/b_lit mark weak Python literals."""
    if a_lit != b_lit:
        lit, val = (a, b) if a_lit else (b, a)
        if kind_rank(lit) <= kind_rank(val):
            if div_or_mod and val in ("float16", "bfloat16"):
                return "float32"
            return val
    if "float64" in (a, b):
        return "float64"
    if "float32" in (a, b):
        return "float32"
    if "float16" in (a, b):
        return "float32" if div_or_mod else "float16"
    if a == b == "bfloat16":
        return "float32" if div_or_mod else "bfloat16"
    if "bfloat16" in (a, b):
        return "float32"
    if div_or_mod and is_unsigned(a) != is_unsigned(b):
        raise TypingError(f"/, // or % with {a} and {b} of different signedness")
    return integer_promote(a, b)


def int_range(name):
    if name == "int1":
        return 0, 1
    if is_unsigned(name):
        return 0, 2**bits(name) - 1
    return -2**(bits(name) - 1), 2**(bits(name) - 1) - 1


def binary_result(op, a, b, a_lit=None, b_lit=None):
    """(computation dtype, result dtype) of ``a op b``; a and b are dtype
    names, a_lit/b_lit the Python literal when that side is one. Raises
    TypingError where Triton rejects the operation."""
    la, lb = a_lit is not None, b_lit is not None
    div_or_mod = op in ("/", "//", "%")
    comp = computation_type(a, b, div_or_mod, la, lb)
    if op in ("&", "|", "^", "<<", ">>", "//") and not is_int(comp):
        raise TypingError(f"{op} on {comp}")
    if op in ("&", "|", "^", "<<", ">>") and not (is_int(a) and is_int(b)):
        raise TypingError(f"{op} on {a}, {b}")
    for lit in (a_lit, b_lit):
        if lit is None or isinstance(lit, float) or not is_int(comp):
            continue
        lo, hi = int_range(comp)
        if not lo <= int(lit) <= hi:
            raise TypingError(f"literal {lit} out of range for {comp}")
    if op == "/":
        res = "float32" if is_int(comp) else comp
        return res, res
    if op in ("==", "!=", "<", "<=", ">", ">="):
        return comp, "int1"
    return comp, comp


# ---------------------------------------------------------------------------
# Numbers: bf16 rounding, conversions, C-like integer arithmetic
# ---------------------------------------------------------------------------


def round_bf16(a):
    """float32 values rounded to bfloat16 (to nearest even), as float32."""
    a = np.asarray(a, dtype=np.float32)
    u = a.view(np.uint32).astype(np.uint64)
    r = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) << 16
    out = (r & 0xFFFFFFFF).astype(np.uint32).view(np.float32)
    return np.where(np.isnan(a), a, out)


def truncate_bf16(a):
    """float32 values rounded toward zero to bfloat16, as float32."""
    a = np.asarray(a, dtype=np.float32)
    return (a.view(np.uint32) & np.uint32(0xFFFF0000)).view(np.float32)


def np_value(a, name):
    """Numpy values of dtype ``name`` in its I/O representation: converts
    ``a`` as a cast to ``name`` would (C conversions; floats to ints by
    truncation, ints wrap, bool is != 0, bfloat16 rounds to nearest even)."""
    a = np.asarray(a)
    if name == "int1":
        return (a != 0).astype(np.int8)
    if name == "bfloat16":
        if a.dtype == np.float64:
            return round_bf16(a.astype(np.float32))  # inputs avoid double-rounding ties
        return round_bf16(a.astype(np.float32))
    t = np.dtype(name)
    if is_int(name) and a.dtype.kind == "f":
        return np.trunc(a).astype(t)
    with np.errstate(all="ignore"):
        return a.astype(t)


def c_div(a, b):
    """C integer division (truncation toward zero) of integer arrays."""
    with np.errstate(all="ignore"):
        q = a // b
        if a.dtype.kind == "i":
            fix = (a % b != 0) & ((a < 0) != (b < 0))
            q = q + fix.astype(q.dtype)
    return q.astype(a.dtype)


def c_mod(a, b):
    """C remainder (the sign of the dividend)."""
    with np.errstate(all="ignore"):
        return np.fmod(a, b).astype(a.dtype)


def ref_binary(op, x, y, comp, res, shr_signed=None):
    """``x op y`` of numpy operands already converted to the computation
    dtype ``comp`` (I/O representation), as the result dtype ``res``.
    ``>>`` is arithmetic when ``shr_signed`` (Triton decides by the tensor
    operand's own signedness, not the promoted type's)."""
    with np.errstate(all="ignore"):
        if comp == "int1" and op in ("+", "-", "*"):
            # i1 arithmetic wraps modulo 2.
            x, y = x.astype(np.int8), y.astype(np.int8)
            z = {"+": x + y, "-": x - y, "*": x * y}[op] & 1
        elif op == "+":
            z = x + y
        elif op == "-":
            z = x - y
        elif op == "*":
            z = x * y
        elif op == "/":
            if is_int(comp):
                z = x.astype(np.float32) / y.astype(np.float32)
            else:
                z = x / y
        elif op == "//":
            z = c_div(x, y)
        elif op == "%":
            z = c_mod(x, y) if is_int(comp) else np.fmod(x, y)
        elif op == "&":
            z = x & y
        elif op == "|":
            z = x | y
        elif op == "^":
            z = x ^ y
        elif op == "<<":
            z = np.left_shift(x, y)
        elif op == ">>":
            signed = (not is_unsigned(comp)) if shr_signed is None else shr_signed
            w = bits(comp)
            if signed and is_unsigned(comp):
                z = np.right_shift(x.view(np.dtype(f"int{w}")), y.astype(np.dtype(f"int{w}"))).view(x.dtype)
            elif not signed and not is_unsigned(comp):
                z = np.right_shift(x.view(np.dtype(f"uint{w}")), y.astype(np.dtype(f"uint{w}"))).view(x.dtype)
            else:
                z = np.right_shift(x, y)
        else:
            z = {"==": np.equal, "!=": np.not_equal, "<": np.less, "<=": np.less_equal, ">": np.greater,
                 ">=": np.greater_equal}[op](x, y)
    return np_value(z, res)


# ---------------------------------------------------------------------------
# Inputs
# ---------------------------------------------------------------------------


def rng(seed=0):
    return np.random.RandomState(seed)


def random_values(name, shape, rs, low=None, high=None, special=False):
    """Random values of dtype ``name`` (I/O representation). Integers span
    [low, high] (default: the whole range); floats are normal * 10 (or
    uniform in [low, high]). ``special`` puts edge values at the start:
    0, 1, -1, min, max for integers; 0, -0, inf, -inf, nan for floats."""
    shape = tuple(shape) if isinstance(shape, (tuple, list)) else (shape, )
    n = int(np.prod(shape))
    if name == "int1":
        out = rs.randint(0, 2, size=n).astype(np.int8)
    elif is_int(name):
        lo, hi = int_range(name)
        lo = lo if low is None else low
        hi = hi if high is None else high
        t = np.dtype(name)
        if t.kind == "u" and hi >= 2**63:
            out = (rs.randint(0, 2**32, size=n).astype(np.uint64) << np.uint64(32)) | \
                rs.randint(0, 2**32, size=n).astype(np.uint64)
            out = (out % np.uint64(hi - lo + 1) + np.uint64(lo)) if hi - lo + 1 < 2**64 else out
        elif hi - lo >= 2**63:
            out = (rs.randint(0, 2**32, size=n).astype(np.uint64) << np.uint64(32)) | \
                rs.randint(0, 2**32, size=n).astype(np.uint64)
            out = out.view(np.int64)
        else:
            out = rs.randint(lo, hi + 1, size=n, dtype=np.int64)
        out = np.asarray(out).astype(t)
        if special:
            edges = [v for v in (0, 1, -1, int_range(name)[0], int_range(name)[1], 7, -7)
                     if lo <= v <= hi][:n]
            out[:len(edges)] = np.array(edges, dtype=np.int64).astype(t) if t.kind != "u" else \
                np.array(edges, dtype=np.uint64).astype(t)
    else:
        if low is not None:
            v = rs.uniform(low, high, size=n)
        else:
            v = rs.randn(n) * 10
        if special:
            edges = [0.0, -0.0, np.inf, -np.inf, np.nan, 1.0, -1.5][:n]
            v[:len(edges)] = edges
        out = np_value(v, name)
    return out.reshape(shape)


# ---------------------------------------------------------------------------
# Comparisons
# ---------------------------------------------------------------------------

RTOL = {"float16": 1e-3, "bfloat16": 8e-3, "float32": 1.3e-6, "float64": 1e-12}


def assert_close(actual, expected, name=None, rtol=None, atol=0.0, err_msg=""):
    """Integers and bools exactly; floats within ``rtol``/``atol`` (the
    dtype's default rtol), NaN where NaN is expected and infinities equal."""
    actual = np.asarray(actual)
    expected = np.asarray(expected)
    assert actual.shape == expected.shape, f"shape {actual.shape} != expected {expected.shape} {err_msg}"
    if name is None:
        name = {"f": "float32" if expected.dtype == np.float32 else "float64" if expected.dtype == np.float64
                else "float16"}.get(expected.dtype.kind, "int32")
    if not is_float(name) and expected.dtype.kind != "f":
        np.testing.assert_array_equal(actual, expected, err_msg=err_msg)
        return
    if rtol is None:
        rtol = RTOL.get(name, 1e-6)
    a = actual.astype(np.float64)
    e = expected.astype(np.float64)
    np.testing.assert_allclose(a, e, rtol=rtol, atol=atol, equal_nan=True, err_msg=err_msg)


def expect_error(fn, *args, **kwargs):
    """``fn(*args)`` must fail as a compile (type) error of the language:
    the test fails on infrastructure errors that would hide a missing
    feature (NotImplementedError, AttributeError, ImportError ...)."""
    try:
        fn(*args, **kwargs)
    except (NotImplementedError, AttributeError, ImportError, NameError, AssertionError) as e:
        raise AssertionError(f"expected a language error, got {type(e).__name__}: {e}") from e
    except pytest.skip.Exception:
        raise
    except CompileOnly:
        raise AssertionError("expected a language error, the kernel compiled")
    except Exception as e:  # noqa: BLE001 - any language error is accepted
        return e
    raise AssertionError("expected an error, the kernel ran")


# ---------------------------------------------------------------------------
# Backends
# ---------------------------------------------------------------------------


def interpreter_available():
    import importlib.util
    try:
        return importlib.util.find_spec("tritium.runtime.interpreter") is not None
    except (ImportError, ValueError):
        return False


_UNSET = object()


def _interpreted(fn):
    """``fn`` (a function or a JITFunction) as an interpreted kernel."""
    raw = getattr(fn, "fn", fn)
    try:
        params = inspect.signature(tritium.jit).parameters
    except (TypeError, ValueError):
        params = {}
    if "interpret" in params:
        return tritium.jit(raw, interpret=True)
    knobs = tritium.knobs.runtime
    prev = knobs.__dict__.get("_override_interpret", _UNSET)
    knobs.interpret = True
    try:
        k = tritium.jit(raw)
    finally:
        if prev is _UNSET:
            del knobs.interpret
        else:
            knobs.interpret = prev
    if not getattr(k, "interpret", False):
        pytest.skip("tritium.runtime.interpreter is not available")
    return k


def _compiled(fn):
    return fn if isinstance(fn, tritium.JITFunction) else tritium.jit(fn)


class CompileOnly(BaseException):
    """Raised by the compile-only backend after compiling a kernel."""


class Backend:
    """A place to run kernels: wraps kernels, moves arrays, launches."""

    def __init__(self, name):
        self.name = name
        self._kernels = {}

    def __repr__(self):
        return f"Backend({self.name})"

    @property
    def is_interpreter(self):
        return self.name == "interpreter"

    def jit(self, fn):
        key = id(fn)
        k = self._kernels.get(key)
        if k is None:
            k = (_interpreted(fn) if self.is_interpreter
                 else tritium.jit(getattr(fn, "fn", fn)) if self.name == "cpu" else _compiled(fn))
            self._kernels[key] = (k, fn)
        else:
            k = k[0]
        return k

    # Arrays.
    @property
    def on_gpu(self):
        return self.name in ("cuda", "hip")

    def to_device(self, a):
        if self.on_gpu:  # ROCm torch names its devices "cuda" too
            import torch
            return torch.from_numpy(np.ascontiguousarray(a)).to("cuda")
        return np.array(a, copy=True)

    def to_numpy(self, x):
        if self.on_gpu:
            return x.cpu().numpy()
        return np.asarray(x)

    def synchronize(self):
        if self.on_gpu:
            import torch
            torch.cuda.synchronize()

    def launch(self, k, grid, args, kwargs):
        """``k[grid](*args, **kwargs)`` on this backend (its arrays already moved)."""
        if self.name == "cpu":
            _launch_on_cpu(k, grid, args, kwargs)
        else:
            k[grid](*args, **kwargs)

    def run(self, fn, grid, *args, **kwargs):
        """Launches ``fn[grid](*args, **kwargs)`` with numpy arrays moved to
        the backend; returns the arrays (numpy) as the kernel left them, in
        the order they were passed."""
        k = self.jit(fn)
        if isinstance(grid, int):
            grid = (grid, )
        if self.name in ("compile", "compile-hip"):
            import importlib
            _jit = importlib.import_module("tritium.runtime.jit")
            ph = [("*" + _jit._dtype_to_str(a.dtype)) if isinstance(a, np.ndarray) else a for a in args]
            target = "hip:gfx90a" if self.name == "compile-hip" else "cuda:90"
            saved = tritium.knobs.runtime.__dict__.get("_override_default_backend")
            tritium.knobs.runtime.default_backend = target  # the NullDriver's target
            try:
                k.warmup(*ph, grid=grid, **kwargs)
            finally:
                if saved is None:
                    del tritium.knobs.runtime.default_backend
                else:
                    tritium.knobs.runtime.default_backend = saved
            raise CompileOnly()
        dev = [self.to_device(a) if isinstance(a, np.ndarray) else a for a in args]
        self.launch(k, grid, dev, kwargs)
        self.synchronize()
        return [self.to_numpy(d) for a, d in zip(args, dev) if isinstance(a, np.ndarray)]


_CPU_DRIVER = []


def _launch_on_cpu(k, grid, args, kwargs):
    """``k[grid](*args)`` with the cpu driver active (the kernels' own
    JITFunctions: their caches keep cpu objects apart from GPU binaries)."""
    from tritium.runtime import CpuDriver
    from tritium.runtime import driver as _driver
    if not _CPU_DRIVER:
        _CPU_DRIVER.append(CpuDriver())
    prev = _driver.active.get()
    _driver.set_active(_CPU_DRIVER[0])
    try:
        k[grid](*args, **kwargs)
    finally:
        _driver.set_active(prev)


def backend_names():
    env = os.environ.get("TRITIUM_LANG_BACKENDS")
    if env:
        return [b.strip() for b in env.split(",") if b.strip()]
    names = ["interpreter", "cuda"]
    try:
        from tritium.runtime import HipDriver
        from tritium._C import amdgpu
        if HipDriver().is_active():
            names.append("hip")
        elif amdgpu.find_device_libs():
            names.append("compile-hip")  # no AMD GPU: every kernel at least compiles for one
    except Exception:  # a broken HIP runtime must not stop the suite
        pass
    return names


def backend_params():
    out = []
    for name in backend_names():
        marks = [pytest.mark.gpu] if name in ("cuda", "hip") else []
        out.append(pytest.param(name, marks=marks, id=name))
    return out
