"""Interpreter mode: ``kernel[grid](...)`` runs the kernel's Python code on
the host with numpy, each program in turn with the ``InterpreterSemantic``
current (docs/frontend.md, "Interpreter mode"). Errors the compiler would
report are ``InterpreterError`` at the kernel line; run-time failures keep
their types.
"""

import inspect
import itertools
import linecache
import sys
import threading
import types

import numpy as np

from .. import knobs
from ..compiler import codegen as _codegen, compiler as _compiler
from ..errors import CompilationError, recursion_limit_message
from ..language import core as _core
from ..interpreter import rewrite as _rw
from ..interpreter.memory import Memory, MisalignedAccessError, OutOfBoundsError, ReadOnlyMemoryError
from ..interpreter.evaluate import Desc
from ..interpreter.semantic import DeviceAssertionError, InterpreterSemantic, TensorHandle, constant
from .._C import frontend as _fe
from .. import language as tl
from . import driver as _driver, jit as _jit_module  # noqa: F401 (makes sure the submodule is loaded)
_jit = sys.modules[__package__ + ".jit"]

__all__ = ["InterpretedFunction", "InterpreterError", "OutOfBoundsError", "MisalignedAccessError",
           "ReadOnlyMemoryError", "DeviceAssertionError", "launch", "call_jit", "is_interpreting"]


class InterpreterError(CompilationError):
    """What the compiler would have reported, found while interpreting;
    ``file``/``line``/``col`` point at the kernel line."""


class InterpretedFunction(_jit.JITFunction):
    """What ``@jit`` returns under TRITIUM_INTERPRET=1 or ``interpret=True``."""

    def __init__(self, fn, **kwargs):
        super().__init__(fn, interpret=True, **kwargs)

    def run(self, *args, grid, warmup, **kwargs):
        return launch(self, args, kwargs, grid, warmup)

    def rewrite(self):
        """Triton's: rewrites the kernel now; ``rewriter.def_file_lineno`` is
        then the line of its ``def``."""
        _rw.rewritten(self)
        lines, first = inspect.getsourcelines(self.fn)
        offset = next((k for k, line in enumerate(lines) if line.lstrip().startswith(("def ", "async def "))), 0)
        self.rewriter = types.SimpleNamespace(def_file_lineno=first + offset)
        return self.rewriter


def is_interpreting():
    """Whether a kernel is being interpreted on this thread now."""
    stack = _core._builders()
    return bool(stack) and isinstance(stack[-1].semantic, InterpreterSemantic)


def call_jit(jit_fn, args, kwargs):
    """A call of a @jit function from an interpreted kernel: its own code
    runs; Python numbers returned become tensors (as compiled)."""
    if getattr(jit_fn, "noinline", False):
        names = list(getattr(jit_fn, "arg_names", ()))
        for name, v in list(zip(names, args)) + list(kwargs.items()):
            v = _core._unwrap(v)
            if isinstance(v, _core.tensor) and v.type.is_block():
                raise TypeError(f"Function {jit_fn.__name__} is marked noinline, but was called with non-scalar "
                                f"argument {name}:{v}")
    f = _rw.rewritten(jit_fn)
    # A call with the specialization of one under way recurses without end
    # when compiled. Keys are computed only for a function already running.
    stack = _calls.__dict__.setdefault("active", [])  # (function, args, kwargs) of the calls under way
    outer = [c for c in stack if c[0] is jit_fn]
    if outer and (key := _call_key(jit_fn, args, kwargs)) is not None and any(_call_key(*c) == key for c in outer):
        raise NotImplementedError(f"recursive call of {jit_fn.__name__} is not supported")
    stack.append((jit_fn, args, kwargs))
    try:
        return _codegen.decay(f(*args, **kwargs))
    finally:
        stack.pop()


_calls = threading.local()  # the @jit calls under way on this thread


def _call_key(jit_fn, args, kwargs):
    """The code generator's key of a call (None: the arguments do not bind)."""
    try:
        bound = (getattr(jit_fn, "signature", None) or inspect.signature(jit_fn.fn)).bind(*args, **kwargs)
        bound.apply_defaults()
        return _codegen.call_key(jit_fn, {n: _core._unwrap(v) for n, v in bound.arguments.items()})
    except (TypeError, ValueError):
        return None


class _Combiner:
    """What core asks of the "code generator": callables for combine and
    map_elementwise's scalar functions."""

    def build_combine_fn(self, fn, dtypes):
        fn = _core._unwrap(fn)
        if _codegen._is_jit(fn):
            return lambda *a: call_jit(fn, a, {})
        if callable(fn):
            return fn
        raise TypeError(f"the combine function must be a @jit function, got {fn!r}")

    def build_map_fn(self, fn, dtypes, pack):
        if not _codegen._is_jit(_core._unwrap(fn)):
            raise TypeError(f"map_elementwise's scalar function must be a @jit function, got {fn!r}")
        return self.build_combine_fn(fn, dtypes)


_TORCH_VIEW = {"bfloat16": "int16", "float8_e4m3fn": "uint8", "float8_e5m2": "uint8", "float8_e4m3fnuz": "uint8",
               "float8_e5m2fnuz": "uint8"}


class _Launch:
    """One launch's buffers, and the host copies of device tensors to write
    back."""

    def __init__(self):
        self.memory = Memory()
        self.writeback = []
        self._storages = {}

    def arg(self, p, v):
        """The kernel's value of argument ``v`` of parameter ``p`` (typed as a
        compiled launch types it)."""
        if p.is_constexpr:
            return v
        if _jit._is_descriptor(v):  # tensor_descriptor_typing: the compiled launch's rules
            base = self.pointer(p, v.base)
            rank = len(v.shape)
            ty = _fe.tensor_descriptor_typing(base.sty, rank, rank, list(v.block_shape), v.strides[-1])
            desc = Desc(int(base.data), [int(x) for x in v.shape], [int(x) for x in v.strides],
                        (ty.desc_element.bit_width + 7) // 8)
            return _core.tensor_descriptor(TensorHandle(desc, ty, ty), ty)
        h = self.pointer(p, v)
        if h is not None:
            return _core.tensor(h, h.sty)
        ty, tag = _typed(p, _jit._specialize, v)
        if ty == "constexpr":
            return tag
        if ty.startswith("*"):
            raise TypeError(f"argument {p.name!r} (parameter {p.num}): the interpreter cannot access the memory of "
                            f"{type(v).__name__} (pass a numpy array or a torch tensor)")
        dt = tl.str_to_ty(p.annotation_type or ty)
        if isinstance(v, np.generic):
            v = v.item()
        return _core.tensor(constant(v if not isinstance(v, bool) or dt.name == "int1" else int(v), dt), dt)

    def pointer(self, p, v):
        """A tensor argument as a pointer to its first element (None: not a
        tensor)."""
        host = self.host_array(v, p.name)
        if host is None:
            return None
        ty = ("k" if p.is_const else "") + _typed(p, _jit._dtype_to_str, host[1])
        addr = self.memory.register(host[0], p.name)
        return TensorHandle(np.array(addr, dtype=np.int64), tl.str_to_ty("*" + ty))

    def host_array(self, x, name):
        """(host array sharing a tensor's bytes, the dtype the kernel sees),
        or None."""
        if isinstance(x, _jit.TensorWrapper):
            base = self.host_array(x.base, name)
            return base and (base[0], x.dtype)
        if type(x).__module__.startswith("torch") and hasattr(x, "data_ptr") and hasattr(x, "dtype"):
            return self._torch_arg(x), x.dtype
        if not hasattr(x, "__array_interface__") or isinstance(x, np.generic):
            return None
        a = np.asarray(x)
        if a.dtype.byteorder not in ("=", "|") and a.dtype.itemsize > 1:
            raise TypeError(f"argument {name!r}: non-native byte order arrays are not supported")
        return a, a.dtype

    def _torch_arg(self, t):
        import torch
        t = t.detach()
        if t.device.type != "cpu":
            storage = t.untyped_storage()
            host_storage = self._storages.get(storage.data_ptr())
            if host_storage is None:
                host_storage = self._storages[storage.data_ptr()] = storage.cpu()
                self.writeback.append((storage, host_storage))
            t = torch.empty(0, dtype=t.dtype).set_(host_storage, t.storage_offset(), t.size(), t.stride())
        view = _TORCH_VIEW.get(str(t.dtype).replace("torch.", ""))
        return (t if view is None else t.view(getattr(torch, view))).numpy()

    def finish(self):
        for storage, host in self.writeback:
            storage.copy_(host)


def _typed(p, typing, v):
    """``typing(v)``, the compiled launch's, its errors naming ``p``."""
    try:
        return typing(v)
    except _jit._ArgError as e:
        raise TypeError(f"argument {p.name!r} (parameter {p.num}): {e}") from None


def _options(jit_fn, options):
    """The launch options the builtins read, checked as compiled."""
    opts = dict(options)
    if jit_fn.debug is not None and "debug" not in opts:
        opts["debug"] = jit_fn.debug
    _compiler.make_options(_driver.active.get_current_target(), opts, jit_fn.__name__)
    opts["debug"] = bool(knobs.debug_enabled() or opts.get("debug", False))
    return opts


_RUNTIME_ERRORS = (OutOfBoundsError, MisalignedAccessError, ReadOnlyMemoryError, DeviceAssertionError,
                   InterpreterError)


def _located(e):
    """``e`` as the code generator words it, at the innermost kernel line."""
    loc, tb = None, e.__traceback__
    while tb is not None:
        code = tb.tb_frame.f_code
        if code in _rw.KERNEL_CODES:
            try:
                col = (list(code.co_positions())[tb.tb_lasti // 2][2] or 0) + 1
            except (AttributeError, IndexError, TypeError):
                col = 0
            loc = (code.co_filename, tb.tb_lineno, col)
        tb = tb.tb_next
    if isinstance(e, CompilationError):
        msg = getattr(e, "message", None) or str(e)
    else:
        msg = recursion_limit_message() if isinstance(e, RecursionError) else _codegen._message_of(e)
    if loc is None:
        return InterpreterError(msg)
    source = linecache.getline(loc[0], loc[1]).rstrip("\n")
    return _codegen.error_at(msg, *loc, source or None, InterpreterError)


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
        kargs = [state.arg(p, v) for p, v in zip(jit_fn.params, values)]
        kernel = _rw.rewritten(jit_fn)
        sem = InterpreterSemantic(state.memory, (gx, gy, gz), _rw.location)
        with np.errstate(all="ignore"), _core.use_semantic(sem, _Combiner(), opts):
            try:
                for z, y, x in itertools.product(range(gz), range(gy), range(gx)):
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
