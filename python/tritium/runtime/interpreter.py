"""Interpreter mode: ``kernel[grid](...)`` runs the kernel's Python code on
the host with numpy, for ``TRITIUM_INTERPRET`` launches and
``@tritium.jit(interpret=True)`` kernels (docs/frontend.md, "Interpreter
mode": the programs, the arguments, the memory checks and the errors).
Every program of the grid runs in turn with the ``InterpreterSemantic``
current; errors the compiler would report are raised as
``InterpreterError`` at the kernel line, run-time failures keep their types.
"""

import inspect
import linecache
import sys
import threading
import types

import numpy as np

from .. import knobs
from ..compiler import codegen as _codegen
from ..errors import CompilationError, recursion_limit_message
from ..language import core as _core
from ..interpreter import rewrite as _rw
from ..interpreter.memory import Memory, MisalignedAccessError, OutOfBoundsError, ReadOnlyMemoryError
from ..interpreter.evaluate import Desc
from ..interpreter.semantic import DeviceAssertionError, InterpreterSemantic, TensorHandle, constant
from .._C import frontend as _fe
from .. import language as tl
from . import jit as _jit_module  # noqa: F401 (makes sure the submodule is loaded)
_jit = sys.modules[__package__ + ".jit"]

__all__ = ["InterpretedFunction", "InterpreterError", "OutOfBoundsError", "MisalignedAccessError",
           "ReadOnlyMemoryError", "DeviceAssertionError", "launch", "call_jit", "is_interpreting"]


class InterpreterError(CompilationError):
    """What the compiler would have reported, found while interpreting;
    ``file``/``line``/``col`` point at the kernel line."""


class InterpretedFunction(_jit.JITFunction):
    """A @jit function that always runs on the interpreter (what ``@jit``
    returns under TRITIUM_INTERPRET=1 or with ``interpret=True``)."""

    def __init__(self, fn, **kwargs):
        super().__init__(fn, interpret=True, **kwargs)

    def run(self, *args, grid, warmup, **kwargs):
        return launch(self, args, kwargs, grid, warmup)

    def rewrite(self):
        """Triton's InterpretedFunction.rewrite(): prepares the kernel's code
        for the interpreter now (interpreter/rewrite.py); ``rewriter.
        def_file_lineno`` is then the line of its ``def`` in its file."""
        _rw.rewritten(self)
        lines, first = inspect.getsourcelines(self.fn)
        offset = next((k for k, line in enumerate(lines) if line.lstrip().startswith(("def ", "async def "))), 0)
        self.rewriter = types.SimpleNamespace(def_file_lineno=first + offset)
        return self.rewriter


def is_interpreting():
    """Whether a kernel is being interpreted on this thread now."""
    stack = _core._builders()
    return bool(stack) and isinstance(stack[-1].semantic, InterpreterSemantic)


# ---------------------------------------------------------------------------
# Calls between @jit functions
# ---------------------------------------------------------------------------


def _decay(v):
    u = _core._unwrap(v)
    if isinstance(u, (tuple, list)):
        return tuple(_decay(x) for x in u)
    if isinstance(u, (bool, int, float)):
        return _core.to_tensor(u)
    return v


def call_jit(jit_fn, args, kwargs):
    """A call of a @jit function from an interpreted kernel: its own code
    runs; a tensor passed to a tl.constexpr parameter stays a tensor (as in
    Triton); Python numbers returned become tensors (as compiled)."""
    if getattr(jit_fn, "noinline", False):
        names = list(getattr(jit_fn, "arg_names", ()))
        for name, v in list(zip(names, args)) + list(kwargs.items()):
            v = _core._unwrap(v)
            if isinstance(v, _core.tensor) and v.type.is_block():
                raise TypeError(f"Function {jit_fn.__name__} is marked noinline, but was called with non-scalar "
                                f"argument {name}:{v}")
    f = _rw.rewritten(jit_fn)
    # A call with the specialization of one under way recurses without end
    # when compiled; say so as the code generator does. The keys are only
    # computed for a function that is already running (they cost).
    stack = _calls.active
    entry = [jit_fn, args, kwargs, None]
    for outer in stack:
        if outer[0] is jit_fn:
            if entry[3] is None:
                entry[3] = _call_key(jit_fn, args, kwargs)
            if outer[3] is None:
                outer[3] = _call_key(*outer[:3])
            if entry[3] is not None and outer[3] == entry[3]:
                raise NotImplementedError(f"recursive call of {jit_fn.__name__} is not supported")
    stack.append(entry)
    try:
        return _decay(f(*args, **kwargs))
    finally:
        stack.pop()


class _CallStack(threading.local):
    """The @jit calls under way on this thread: [function, args, kwargs,
    key or None (not computed yet)]."""

    def __init__(self):
        self.active = []


_calls = _CallStack()


def _call_key(jit_fn, args, kwargs):
    """The code generator's key of this call (None when the arguments do
    not bind: the call itself reports that)."""
    sig = getattr(jit_fn, "signature", None)
    try:
        bound = (sig or inspect.signature(jit_fn.fn)).bind(*args, **kwargs)
    except (TypeError, ValueError):
        return None
    bound.apply_defaults()
    return _codegen.call_key(jit_fn, {n: _core._unwrap(v) for n, v in bound.arguments.items()})


class _Combiner:
    """What core._combine_fn asks of the running "code generator": a
    callable for a reduce/scan combine function."""

    def build_combine_fn(self, fn, dtypes):
        fn = _core._unwrap(fn)
        if _is_jit(fn):
            return lambda *a: call_jit(fn, a, {})
        if callable(fn):
            return fn
        raise TypeError(f"the combine function must be a @jit function, got {fn!r}")

    def build_map_fn(self, fn, dtypes, pack):
        fn = _core._unwrap(fn)
        if not _is_jit(fn):
            raise TypeError(f"map_elementwise's scalar function must be a @jit function, got {fn!r}")
        return lambda *a: call_jit(fn, a, {})


def _is_jit(obj):
    return callable(getattr(obj, "fn", None)) and hasattr(obj, "arg_names")


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------

_TORCH_VIEW = {"bfloat16": "int16", "float8_e4m3fn": "uint8", "float8_e5m2": "uint8", "float8_e4m3fnuz": "uint8",
               "float8_e5m2fnuz": "uint8"}


class _Launch:
    """The state of one launch: buffers and copies to write back."""

    def __init__(self):
        self.memory = Memory()
        self.writeback = []
        self._storages = {}

    def tensor_arg(self, x, name):
        """(host numpy array sharing the argument's bytes, dtype object)."""
        if isinstance(x, _jit.TensorWrapper):
            arr, _ = self.tensor_arg(x.base, name)
            return arr, x.dtype
        if isinstance(x, np.ndarray):
            if x.dtype.byteorder not in ("=", "|") and x.dtype.itemsize > 1:
                raise TypeError(f"argument {name!r}: non-native byte order arrays are not supported")
            return x, x.dtype
        if type(x).__module__.startswith("torch"):
            return self._torch_arg(x, name), x.dtype
        if hasattr(x, "__array_interface__"):
            a = np.asarray(x)
            return a, a.dtype
        if hasattr(x, "__cuda_array_interface__"):
            raise TypeError(f"argument {name!r}: the interpreter cannot read device memory through "
                            "__cuda_array_interface__; pass a host array or a torch tensor")
        raise TypeError(f"argument {name!r}: the interpreter cannot access the memory of {type(x).__name__} "
                        "(pass a numpy array or a torch tensor)")

    def _torch_arg(self, t, name):
        import torch
        t = t.detach()
        if t.device.type != "cpu":
            storage = t.untyped_storage()
            key = storage.data_ptr()
            host_storage = self._storages.get(key)
            if host_storage is None:
                host_storage = storage.cpu()
                self._storages[key] = host_storage
                self.writeback.append((storage, host_storage))
            host = torch.empty(0, dtype=t.dtype).set_(host_storage, t.storage_offset(), t.size(), t.stride())
        else:
            host = t
        view = _TORCH_VIEW.get(str(host.dtype).replace("torch.", ""))
        if view is not None:
            host = host.view(getattr(torch, view))
        return host.numpy()

    def finish(self):
        for storage, host in self.writeback:
            storage.copy_(host)


def _is_tensor_arg(x):
    if isinstance(x, np.ndarray):
        return True
    if isinstance(x, _jit.TensorWrapper):
        return _is_tensor_arg(x.base)
    if type(x).__module__.startswith("torch") and hasattr(x, "data_ptr") and hasattr(x, "dtype"):
        return True
    return hasattr(x, "__array_interface__") and not isinstance(x, np.generic)


def _scalar_arg(p, v):
    """The value a non-constexpr, non-tensor argument has in the kernel."""
    try:
        ty, tag = _jit._specialize(v)
    except _jit._ArgError as e:
        raise TypeError(f"argument {p.name!r} (parameter {p.num}): {e}") from None
    if ty == "constexpr":
        return tag
    if ty.startswith("*"):
        raise TypeError(f"argument {p.name!r} (parameter {p.num}): the interpreter cannot access the memory of "
                        f"{type(v).__name__} (pass a numpy array or a torch tensor)")
    if p.annotation_type is not None:
        ty = p.annotation_type
    dt = tl.str_to_ty(ty)
    if isinstance(v, np.generic):
        v = v.item()
    return _core.tensor(constant(v if not isinstance(v, bool) or dt.name == "int1" else int(v), dt), dt)


def _pointer_arg(p, v, launch_state):
    """A tensor argument as the kernel's pointer to its first element."""
    arr, dtype = launch_state.tensor_arg(v, p.name)
    try:
        ty = _jit._dtype_to_str(dtype)
    except _jit._ArgError as e:
        raise TypeError(f"argument {p.name!r} (parameter {p.num}): {e}") from None
    if p.is_const:
        ty = "k" + ty
    pty = tl.str_to_ty("*" + ty)
    addr = launch_state.memory.register(arr, p.name)
    return TensorHandle(np.array(addr, dtype=np.int64), pty)


def _descriptor_arg(p, d, launch_state):
    """A host-side TensorDescriptor as the kernel's descriptor (the type
    rules of a compiled launch: tensor_descriptor_typing)."""
    base = _pointer_arg(p, d.base, launch_state)
    rank = len(d.shape)
    ty = _fe.tensor_descriptor_typing(base.sty, rank, rank, list(d.block_shape), d.strides[-1])
    desc = Desc(int(base.data), [int(x) for x in d.shape], [int(x) for x in d.strides],
                (ty.desc_element.bit_width + 7) // 8)
    return _core.tensor_descriptor(TensorHandle(desc, ty, ty), ty)


def _convert_args(jit_fn, values, launch_state):
    out = []
    for p, v in zip(jit_fn.params, values):
        if p.is_constexpr:
            out.append(v)
        elif _jit._is_descriptor(v):
            out.append(_descriptor_arg(p, v, launch_state))
        elif _is_tensor_arg(v):
            h = _pointer_arg(p, v, launch_state)
            out.append(_core.tensor(h, h.sty))
        else:
            out.append(_scalar_arg(p, v))
    return out


def _options(jit_fn, options):
    """The launch options as given (checked as compiled launches check
    them): a dict the builtins read (debug, default_dot_input_precision...)."""
    opts = dict(options)
    if jit_fn.debug is not None and "debug" not in opts:
        opts["debug"] = jit_fn.debug
    try:
        from ..compiler import compiler as _compiler
        from . import driver as _driver
        _compiler.make_options(_driver.active.get_current_target(), opts, jit_fn.__name__)
    except (ImportError, AttributeError):
        pass
    opts["debug"] = bool(knobs.debug_enabled() or opts.get("debug", False))
    return opts


# ---------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------

_RUNTIME_ERRORS = (OutOfBoundsError, MisalignedAccessError, ReadOnlyMemoryError, DeviceAssertionError,
                   InterpreterError)


def _message_of(e):
    if isinstance(e, CompilationError):
        return getattr(e, "message", None) or str(e)
    if isinstance(e, RecursionError):
        return recursion_limit_message()
    if isinstance(e, KeyError) and e.args:
        return f"KeyError: {e.args[0]!r}"
    if isinstance(e, (TypeError, ValueError, NameError, IndexError, NotImplementedError, ZeroDivisionError,
                      OverflowError, RuntimeError, AssertionError, AttributeError,
                      _core._StaticAssertionFailure)) and str(e):
        return str(e)
    return f"{type(e).__name__}: {e}"


def _located(e):
    """``e`` as an InterpreterError at the innermost kernel line of its
    traceback."""
    tb = e.__traceback__
    loc = None
    while tb is not None:
        code = tb.tb_frame.f_code
        if code in _rw.KERNEL_CODES:
            col = 0
            try:
                positions = list(code.co_positions())
                p = positions[tb.tb_lasti // 2]
                col = (p[2] or 0) + 1
            except (AttributeError, IndexError, TypeError):
                pass
            loc = (code.co_filename, tb.tb_lineno, col)
        tb = tb.tb_next
    msg = _message_of(e)
    if loc is None:
        return InterpreterError(msg)
    file, line, col = loc
    text = linecache.getline(file, line).rstrip("\n")
    detail = f"{file}:{line}:{col}: error: {msg}"
    if text:
        detail += "\n" + text + "\n" + "".join("\t" if c == "\t" else " " for c in text[:max(col - 1, 0)]) + "^"
    return InterpreterError(msg, file, line, col, detail)


# ---------------------------------------------------------------------------
# Launching
# ---------------------------------------------------------------------------


def launch(jit_fn, args, kwargs, grid, warmup=False):
    """Runs ``jit_fn[grid](*args, **kwargs)`` on the interpreter."""
    for hook in getattr(jit_fn, "pre_run_hooks", ()):
        hook(*args, **kwargs)
    names = jit_fn.arg_names
    arg_kwargs = {k: v for k, v in kwargs.items() if k in names}
    options = {k: v for k, v in kwargs.items() if k not in names}
    try:
        bound = jit_fn.signature.bind(*args, **arg_kwargs)
    except TypeError as e:
        raise TypeError(f"{jit_fn.__name__}(): {e}") from None
    bound.apply_defaults()
    values = [bound.arguments[n] for n in names]
    opts = _options(jit_fn, options)
    if warmup:
        return None
    gx, gy, gz = _jit.eval_grid(jit_fn, grid, values)  # as compiled launches check it
    state = _Launch()
    try:
        kargs = _convert_args(jit_fn, values, state)
        kernel = _rw.rewritten(jit_fn)
        sem = InterpreterSemantic(state.memory, (gx, gy, gz), _rw.location)
        with np.errstate(all="ignore"), _core.use_semantic(sem, _Combiner(), opts):
            try:
                for z in range(gz):
                    for y in range(gy):
                        for x in range(gx):
                            sem.pid = (x, y, z)
                            if kernel(*kargs) is not None:
                                raise TypeError("a kernel cannot return a value")
            except _RUNTIME_ERRORS:
                raise
            except Exception as e:
                raise _located(e) from e
    finally:
        state.finish()
    return None
