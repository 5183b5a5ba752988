"""@tritium.jit: JITFunction, kernel[grid](...), specialization, warmup.

A warm launch is one call into C++: ``kernel[grid]`` is a C method whose
result hands (grid, args, kwargs) to the kernel's dispatcher
(``_C.runtime.Dispatcher``, python/src/Dispatcher.h). When it cannot (a new
specialization, an argument type it does not key on, hooks, a changed
global) it returns None and ``_run`` below takes the Python path: the
kernel's generated *binder* binds the arguments and specializes them, one
dict lookup finds the compiled kernel (or compiles it), the grid is checked
and the active driver's launcher runs; then the dispatcher records the
kernel for the next launch. docs/runtime.md, "A launch", tells both paths
and the specialization rules step by step.
"""

import ast
import functools
import inspect
import operator
import re
import sys
import textwrap
import threading
import warnings

from .. import _C, knobs
from ..errors import CompilationError, OutOfResources, recursion_limit_message
from . import driver as _driver
from ..compiler.cache import stable_repr
from ..language import _types
from ..compiler.descriptors import (expand_descriptors as _expand_descriptors, is_descriptor as _is_descriptor,
                                    launch_parameters as _launch_parameters)

__all__ = ["jit", "JITFunction", "KernelInterface", "KernelParam", "MockTensor",
           "cdiv", "next_power_of_2", "TensorWrapper", "reinterpret"]


#: Triton's table of the dtype spellings a signature accepts, each to its
#: canonical type string (booleans to "u1", as Triton's); its tests'
#: helpers read it.
type_canonicalisation_dict = {**_types.DTYPE_NAMES, "int": "i32", "void": "void",
                              **dict.fromkeys(("bool", "int1", "uint1", "i1", "u1"), "u1")}


def cdiv(x, y):
    """Ceiling division: ``cdiv(10, 4) == 3``."""
    return (x + y - 1) // y


def next_power_of_2(n):
    """The smallest power of two >= n (1 for n <= 1)."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


# -- Argument types ----------------------------------------------------------

_SCALAR_TYPES = frozenset(_types.DTYPE_NAMES.values())


class _ArgError(TypeError):
    """An argument that cannot be typed; run() re-raises it naming the parameter."""


class _ArgOverflow(_ArgError):
    """An int beyond 64 bits: run() re-raises it as an OverflowError, as Triton does."""


def _dtype_to_str(dtype):
    """Any dtype object (torch.float32, np.dtype('float32'), tl.float32, the
    string 'fp32') -> Triton's type string, e.g. 'fp32'."""
    ty = _types.dtype_to_str(dtype)
    if ty is None:
        raise _ArgError(f"unsupported tensor dtype {dtype!r}")
    return ty


#: One argument -> its specialization entry: (type string, tag) with tag "1"
#: (== 1), "D" (divisible by 16 / 16-byte aligned) or "", and "L" after it
#: for a tensor of 2^31 elements or more; ("constexpr", value) for values
#: that are baked in; a descriptor's ("tensordesc<fp16[64, 64]>", "DD-").
#: ``_specialize(x, value=True, align=True)`` is C++ (python/src/Dispatcher.cpp,
#: "Specialization"): the code whose words the dispatcher's key is made of.
_specialize = _C.runtime.specialize


def _specialize_other(x, value, align):
    """The entry of what only Python recognizes (the C++ _specialize asks
    here last): a warmup placeholder, a descriptor, a @jit function, a
    constexpr, a dtype, a scalar with a dtype; else _ArgError."""
    if isinstance(x, _TypedArg):
        return x.entry
    if _is_descriptor(x):
        return _descriptor_spec(x, value, align)
    if isinstance(x, (JITFunction, KernelInterface)):
        return ("constexpr", x)
    if type(x).__name__ == "constexpr" and hasattr(x, "value"):
        return ("constexpr", x.value)
    if type(x).__module__.startswith(("tritium", "triton")) and type(x).__name__ in ("dtype", "DType"):
        return ("constexpr", x)
    np_dtype = getattr(x, "dtype", None)
    if np_dtype is not None and getattr(x, "shape", None) == ():  # (numpy's scalars are arrays)
        kind = getattr(np_dtype, "kind", "")
        if kind in "iu" or kind in ("f", "b"):  # typed as the int, a float, a bool
            return _specialize(int(x) if kind in "iu" else 0.0 if kind == "f" else False, value, align)
    raise _ArgError(f"cannot pass an object of type {type(x).__name__} to a kernel "
                    "(expected a tensor (data_ptr() and dtype, or __cuda_array_interface__), "
                    "an int, a float, a bool, None or a constexpr)")


def _descriptor_spec(d, value, align):
    """A host-side descriptor: its type string, and one fact per parameter
    it becomes (base, shapes, strides but the last): "D" where the base is
    16-byte aligned or the integer divisible by 16 (their own "D"), else
    "-"; so that its loads vectorize as a pointer kernel's do."""
    base = _specialize(d.base, value, align)
    if not base[0].startswith("*"):
        raise _ArgError(f"a TensorDescriptor's base must be a tensor, got {type(d.base).__name__}")
    ty = f"tensordesc<{base[0].lstrip('*').lstrip('k')}[{', '.join(map(str, d.block_shape))}]>"
    ints = [_specialize(operator.index(x), value, align) for x in [*d.shape, *d.strides[:-1]]]
    return (ty, "".join("D" if tag.startswith("D") else "-" for _, tag in [base, *ints]))


_C.runtime.set_specialize_hooks(_dtype_to_str, _specialize_other, _ArgError, _ArgOverflow)


# -- warmup() placeholders ---------------------------------------------------

class MockTensor:
    """A stand-in tensor for warmup: a dtype and a 16-byte aligned pointer."""

    def __init__(self, dtype, shape=None):
        self.dtype = dtype
        self.shape = shape or [1]

    @staticmethod
    def wrap_dtype(arg):
        if type(arg).__name__ == "dtype" and type(arg).__module__ == "torch":
            return MockTensor(arg)
        return arg

    def data_ptr(self):
        return 0


class _TypedArg:
    """A type string given to warmup in place of a value: "*fp32" (an aligned
    pointer), "*fp32:1" (not aligned), "i32" (no value facts), "i32:16"
    (divisible by 16), "i32:1" (equal to 1)."""

    def __init__(self, text):
        ty, _, fact = text.strip().partition(":")
        ty = ty.strip()
        base = ty[1:].lstrip("k") if ty.startswith("*") else ty
        if base not in _SCALAR_TYPES:
            raise _ArgError(f"unknown type string {text!r}")
        if ty.startswith("*"):
            tag = "" if fact == "1" else "D"
        else:
            tag = {"": "", "16": "D", "1": "1"}.get(fact)
            if tag is None:
                raise _ArgError(f"bad specialization {fact!r} in {text!r} (use :16 or :1)")
        self.entry = (ty, tag)
        self.text = text


# -- JITFunction -------------------------------------------------------------

class KernelInterface:
    """``kernel[grid](*args, **kwargs)`` == ``kernel.run(*args, grid=grid,
    warmup=False, **kwargs)``; shared by JITFunction, Autotuner, Heuristics."""

    def __getitem__(self, grid):
        return functools.partial(self.run, grid=grid, warmup=False)


def _annotation_is(ann, word):
    """Whether a parameter's annotation is ``tl.<word>`` (constexpr, const)
    or a string naming it."""
    if isinstance(ann, str):
        return re.search(rf"\b{word}\b", ann) is not None
    return getattr(ann, "__name__", None) == word


def _annotation_type(ann):
    """A non-constexpr annotation naming a dtype (``n: tl.int64`` or "i64")
    -> its type string; None otherwise."""
    if ann is inspect.Parameter.empty or ann is None or _annotation_is(ann, "constexpr"):
        return None
    try:
        return _dtype_to_str(ann.split(".")[-1] if isinstance(ann, str) else ann)
    except TypeError:
        return None


class KernelParam:
    """A parameter of a @jit function, as Triton describes it."""

    def __init__(self, num, param, do_not_specialize, do_not_specialize_on_alignment):
        self.num = num
        self._param = param
        self.name = param.name
        self.annotation = param.annotation
        self.is_constexpr = _annotation_is(param.annotation, "constexpr")
        self.annotation_type = _annotation_type(param.annotation)
        self.do_not_specialize = do_not_specialize
        self.do_not_specialize_on_alignment = do_not_specialize_on_alignment
        self.has_default = param.default is not inspect.Parameter.empty
        self.default = param.default if self.has_default else None
        self.is_const = _annotation_is(param.annotation, "const")

    def __repr__(self):
        return f"KernelParam({self.num}, {self.name!r}, constexpr={self.is_constexpr})"


def _resolve_param_set(names_or_indices, arg_names, what):
    out = set()
    for x in names_or_indices or ():
        if isinstance(x, int):
            if not 0 <= x < len(arg_names):
                raise ValueError(f"{what}: index {x} is out of range for {len(arg_names)} "
                                 "parameters")
            out.add(x)
        elif x in arg_names:
            out.add(arg_names.index(x))
        else:
            raise ValueError(f"{what}: {x!r} is not a parameter ({', '.join(arg_names)})")
    return out


_MISSING = object()


def _freeze(x):
    """A hashable copy of ``x``: lists, dicts and sets become tuples."""
    if isinstance(x, (list, tuple)):
        return tuple(_freeze(v) for v in x)
    if isinstance(x, dict):
        return ("dict",) + tuple(sorted((k, _freeze(v)) for k, v in x.items()))
    if isinstance(x, (set, frozenset)):
        return ("set",) + tuple(sorted(_freeze(v) for v in x))
    hash(x)  # anything else must be hashable: let the TypeError name it
    return x


def _arg_picker(indices, n):
    """bound arguments -> the tuple the launcher gets (non-constexprs)."""
    if len(indices) == n:
        return lambda bound: bound
    if not indices:
        return lambda bound: ()
    if len(indices) == 1:
        i = indices[0]
        return lambda bound: (bound[i],)
    return operator.itemgetter(*indices)


def _then_on_change(method):
    def removing(self, *args):
        result = method(self, *args)
        self._on_change()
        return result
    return removing


class _InvalidatingDict(dict):
    """A dict that tells its owner when entries are removed (``clear``,
    ``del``, ``pop``...), so that the dispatcher forgets them too."""

    def __init__(self, on_change):
        super().__init__()
        self._on_change = on_change

    clear, __delitem__, pop, popitem = map(_then_on_change, (dict.clear, dict.__delitem__, dict.pop, dict.popitem))


_FINDING_KEYS = threading.RLock()


def _shared_memory_limit():
    """The shared memory a block of the current device may use, or None
    where no GPU driver can say (the interpreter, no GPU)."""
    try:
        return _driver.active.get().utils.get_device_properties()["max_shared_mem"]
    except (AttributeError, KeyError, _driver.NoBackendError):
        return None


def eval_grid(fn, grid, values):
    """(x, y, z) of a launch of ``fn`` on ``grid``: a tuple or list of 1 to 3
    ints, or what a callable returns when called with the bound arguments
    (``values``, in parameter order) by name. Checked by the C++ readGrid,
    the warm path's own check, so that every launch (warm, Python path,
    interpreter) takes the same grids and says the same about bad ones."""
    if callable(grid):
        grid = grid(dict(zip(fn.arg_names, values)))
    return _C.runtime.read_grid(grid, fn.__name__)


_KIND_CODES = {inspect.Parameter.POSITIONAL_ONLY: 1, inspect.Parameter.KEYWORD_ONLY: 2}


def _shown_value(fp):
    """The value a global's summary (stable_repr) stands for, for messages:
    "int:2" -> "2"."""
    return re.sub(r"^\w+:", "", fp)


def _stream_handle(stream):
    """The CUstream of a launch's `stream=` argument (None: the current one)."""
    if stream is None or isinstance(stream, int):
        return stream
    for attr in ("cuda_stream", "ptr"):
        handle = getattr(stream, attr, None)
        if isinstance(handle, int):
            return handle
    raise TypeError(f"stream= takes a CUstream handle (an int), a torch.cuda.Stream or a cupy "
                    f"stream, got {type(stream).__name__}")


class JITFunction(KernelInterface):
    """A @jit function: compiled per specialization on first launch."""

    def __init__(self, fn, version=None, do_not_specialize=None,
                 do_not_specialize_on_alignment=None, debug=None, noinline=None,
                 repr=None, launch_metadata=None, interpret=None, bounds_check=None):
        functools.update_wrapper(self, fn, updated=())  # __name__, __qualname__, __doc__...
        self.fn = fn
        self.module = fn.__module__
        self.version = version
        self.__globals__ = fn.__globals__
        self.signature = inspect.signature(fn)
        self.arg_names = list(self.signature.parameters)
        for p in self.signature.parameters.values():
            if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
                raise TypeError(f"@jit function {fn.__name__} cannot take *{p.name}: "
                                "kernels have a fixed parameter list")
        dns = _resolve_param_set(do_not_specialize, self.arg_names, "do_not_specialize")
        dnsa = _resolve_param_set(do_not_specialize_on_alignment, self.arg_names,
                                  "do_not_specialize_on_alignment")
        self.do_not_specialize = sorted(dns)
        self.do_not_specialize_on_alignment = sorted(dnsa)
        self.params = [KernelParam(i, p, i in dns, i in dnsa)
                       for i, p in enumerate(self.signature.parameters.values())]
        self.constexprs = [p.num for p in self.params if p.is_constexpr]
        self.debug = debug
        self.bounds_check = bounds_check
        self.noinline = bool(noinline)
        self.repr = (lambda _: fn.__name__) if repr is None else repr
        self.launch_metadata = launch_metadata
        # True: always interpreted; None: when TRITIUM_INTERPRET is set at launch.
        self.interpret = interpret
        self.pre_run_hooks = []
        self.device_caches = _InvalidatingDict(self._forget_launches)
        self._dispatcher = None   # _C.runtime.Dispatcher: the warm path
        self._fast_launch = None  # its launch(grid, args, kwargs)
        self._cache_key = None
        self.used_global_vals = {}

        try:
            lines, first = inspect.getsourcelines(fn)
        except OSError:
            # No source to read (a function made by exec() of a string):
            # the interpreter runs its code as it is; compiling needs the text.
            if not interpret:
                raise OSError(f"could not get the source code of {fn.__name__}: a function made by exec() of a "
                              "string runs only on the interpreter (TRITIUM_INTERPRET=1); to compile it, exec() "
                              "code compiled from a file, or put its text in linecache") from None
            self.src = None
            self.starting_line_number = fn.__code__.co_firstlineno
            self.file_name = fn.__code__.co_filename
        else:
            src = textwrap.dedent("".join(lines))
            m = re.search(r"^(async\s+)?def\s+\w+\s*\(", src, re.MULTILINE)
            self.starting_line_number = first + src[:m.start()].count("\n")
            self.src = src[m.start():]
            self.file_name = inspect.getsourcefile(fn) or "<unknown>"

    # -- identity -----------------------------------------------------------

    @property
    def cache_key(self):
        """A hash of the source, every @jit function and constexpr global it
        reaches (computed at first use, so callees may be defined later)."""
        if self._cache_key is None or self._cache_key == "computing":
            # One thread finds keys at a time: another thread would read the
            # recursion guard below as the key (the autotuner compiles on
            # threads; the lock is reentrant for mutual calls).
            with _FINDING_KEYS:
                if self._cache_key is None:
                    from .cache import DependenciesFinder
                    finder = DependenciesFinder(self)
                    self._cache_key = "computing"  # recursion guard for mutual calls
                    try:
                        key = finder.run()
                        if self.version is not None:
                            key = f"{key}-{self.version}"
                    except BaseException:
                        self._cache_key = None
                        raise
                    self.used_global_vals = finder.used_globals
                    self._cache_key = key
        return self._cache_key

    def parse(self):
        try:
            tree = ast.parse(self.src)
        except RecursionError:  # the ast module recurses as deep as expressions nest
            raise CompilationError(f"{self.__name__}: {recursion_limit_message()}", self.file_name,
                                   self.starting_line_number, 1) from None
        assert isinstance(tree, ast.Module) and len(tree.body) == 1 and \
            isinstance(tree.body[0], ast.FunctionDef), "expected a single function definition"
        return tree

    def __call__(self, *args, **kwargs):
        interp = sys.modules.get("tritium.runtime.interpreter")
        if interp is not None and interp.is_interpreting():
            return interp.call_jit(self, args, kwargs)
        raise RuntimeError("Cannot call @triton.jit'd outside of the scope of a kernel")

    def _interpreted(self):
        """Whether launches run on the interpreter: ``@jit(interpret=True)``,
        or TRITIUM_INTERPRET set now (read at every launch)."""
        if self.interpret is None:
            return knobs.interpret_enabled()
        return bool(self.interpret)

    def __repr__(self):
        return f"JITFunction({self.module}:{self.__qualname__})"

    def add_pre_run_hook(self, hook):
        """``hook(*args, **kwargs)`` runs before every launch of this kernel."""
        self.pre_run_hooks.append(hook)

    # -- launching ----------------------------------------------------------

    def _make_binder(self):
        """Generates ``binder(<the kernel's parameters>, **options) ->
        (args, specialization, options)``; see the module docstring."""
        # Internal names carry a prefix no kernel parameter is expected to use.
        ns = {"_tritium_spec": _specialize, "_tritium_type": type}
        params, spec = [], []
        seen_kwonly = False
        for p in self.params:
            kind = p._param.kind
            if kind is inspect.Parameter.KEYWORD_ONLY and not seen_kwonly:
                params.append("*")
                seen_kwonly = True
            text = p.name
            if p.has_default:
                ns[f"_tritium_default_{p.num}"] = p.default
                text += f"=_tritium_default_{p.num}"
            params.append(text)
            if p.is_constexpr:
                spec.append(f"{p.name}, _tritium_type({p.name})")
            else:
                spec.append(f"_tritium_spec({p.name}, {not p.do_not_specialize}, "
                            f"{not p.do_not_specialize_on_alignment})")
            if kind is inspect.Parameter.POSITIONAL_ONLY and (
                    p.num + 1 == len(self.params)
                    or self.params[p.num + 1]._param.kind is not inspect.Parameter.POSITIONAL_ONLY):
                params.append("/")
        names = ", ".join(p.name for p in self.params)
        src = (f"def {self.__name__}({', '.join(params + ['**_tritium_options'])}):\n"
               f"    return ({names}{',' if len(self.params) == 1 else ''}), "
               f"({', '.join(spec)}{',' if len(spec) == 1 else ''}), _tritium_options\n")
        exec(compile(src, f"<tritium binder of {self.__name__}>", "exec"), ns)
        return ns[self.__name__]

    def _device_cache(self, device, drv):
        entry = self.device_caches.get(device)
        if entry is None:
            target = drv.get_current_target()
            entry = (_InvalidatingDict(self._forget_launches), target, self._make_binder())
            # setdefault: a thread that made one at the same time keeps it.
            entry = self.device_caches.setdefault(device, entry)
        return entry

    def _forget_launches(self):
        """The in-memory caches lost entries: the dispatcher forgets all."""
        if self._dispatcher is not None:
            self._dispatcher.clear()

    def _dispatcher_for(self, drv):
        """The C++ dispatcher serving launches through ``drv`` (made anew when
        the active driver changes)."""
        disp = self._dispatcher
        if disp is not None and disp.driver is drv:
            return disp
        table = [(p.name, _KIND_CODES.get(p._param.kind, 0), p.has_default, p.default,
                  p.is_constexpr, p.do_not_specialize, p.do_not_specialize_on_alignment)
                 for p in self.params]
        # A driver with a native library (the CUDA driver) lets C++ find the
        # device and stream itself; any other is asked through Python.
        native = getattr(drv, "native_driver", None)
        disp = _C.runtime.Dispatcher(self.__name__, table, drv, vars(_driver.active), knobs.runtime,
                                     None if native is not None else drv.get_current_device,
                                     None if native is not None else drv.get_current_stream,
                                     native, interpret_knob=self.interpret is None)
        self._dispatcher = disp
        self._fast_launch = disp.launch
        return disp

    def _remember(self, drv, device, debug, args, kwargs, kernel, launcher):
        """Makes the next launch with arguments like these a C++ one."""
        disp = self._dispatcher_for(drv)
        if self.used_global_vals:
            disp.watch_globals([(v[1], v[0]) for v in self.used_global_vals.values()
                                if len(v) == 3])
        disp.insert(device, debug, args, kwargs, kernel, launcher, kernel._arg_indices)

    def _explain_bad_arg(self, args, kwargs, error):
        """Rebinds slowly to say which argument could not be typed."""
        try:
            bound = self.signature.bind_partial(*args, **{k: v for k, v in kwargs.items()
                                                          if k in self.arg_names})
        except TypeError:
            return error
        for p in self.params:
            if p.is_constexpr or p.name not in bound.arguments:
                continue
            try:
                _specialize(bound.arguments[p.name])
            except _ArgError as e:
                kind = OverflowError if isinstance(e, _ArgOverflow) else TypeError
                return kind(f"{self.__name__}(): argument {p.name!r} (parameter {p.num}): {e}")
        return error

    def _explain_unhashable(self, bound, options, error):
        """Says which constexpr or option cannot be part of the key."""
        named = [(f"constexpr argument {p.name!r}", v) for p, v in zip(self.params, bound) if p.is_constexpr]
        for what, v in named + [(f"option {k!r}", v) for k, v in options.items()]:
            try:
                _freeze(v)
            except TypeError:
                return TypeError(f"{self.__name__}(): {what} is a {type(v).__name__}, which cannot key a "
                                 "compiled kernel: it must be hashable (an int, float, bool, str, dtype, or a "
                                 "tuple, list or dict of them)")
        return error

    def run(self, *args, grid, warmup, **kwargs):
        # `stream=`: launch on that stream instead of the current one (a raw
        # CUstream int, or an object with `cuda_stream` (torch) or `ptr`
        # (cupy)), unless the kernel has a parameter of that name.
        stream = None
        if "stream" in kwargs and "stream" not in self.arg_names:
            stream = _stream_handle(kwargs.pop("stream"))
        if self.interpret is not False and self._interpreted():
            from .interpreter import launch
            return launch(self, args, kwargs, grid, warmup)
        if not warmup and not self.pre_run_hooks and stream is None:
            fast = self._fast_launch
            if fast is not None:
                kernel = fast(grid, args, kwargs)
                if kernel is not None:
                    return kernel
        return self._run(args, kwargs, grid, warmup, stream)

    def _run(self, args, kwargs, grid, warmup, stream=None):
        """The Python path of a launch (see the module docstring)."""
        for hook in self.pre_run_hooks:
            hook(*args, **kwargs)
        drv = _driver.active.get()
        if isinstance(drv, _driver.NullDriver):  # no GPU: CPU tensors run on the cpu target
            drv = _driver.host_driver([*args, *kwargs.values()]) or drv
        device = drv.get_current_device()
        kernel_cache, target, binder = self.device_caches.get(device) or self._device_cache(device, drv)
        try:
            bound, spec, options = binder(*args, **kwargs)
        except _ArgError as e:
            raise self._explain_bad_arg(args, kwargs, e) from None
        debug = knobs.debug_enabled()
        key = (spec, tuple(sorted(options.items())), debug) if options or debug else spec
        try:
            kernel = kernel_cache.get(key)
        except TypeError:  # a list constexpr, a dict option (extern_libs): freeze it
            try:
                key = _freeze(key)
            except TypeError as e:
                raise self._explain_unhashable(bound, options, e) from None
            kernel = kernel_cache.get(key)
        if kernel is None:
            kernel = self._compile(bound, spec, options, target)
            kernel_cache[key] = kernel
        if self.used_global_vals:
            self._check_globals()
        if warmup:
            return kernel

        gx, gy, gz = eval_grid(self, grid, bound)
        launcher = kernel.launcher or kernel.make_launcher(drv)
        if stream is None:
            stream = drv.get_current_stream(device)
        call_args = kernel._launch_args(bound)
        enter, exit_hook = knobs.runtime.launch_enter_hook, knobs.runtime.launch_exit_hook
        hooked = enter is not None or exit_hook is not None
        info = self._launch_info(kernel, (gx, gy, gz), stream, bound) if hooked else None
        if enter is not None:
            enter(info)
        launcher(gx, gy, gz, stream, call_args)
        if kernel._bounds is not None:
            kernel._bounds.check()  # each launch: never the warm path
        elif not hooked and not self.pre_run_hooks:
            self._remember(drv, device, debug, args, kwargs, kernel, launcher)
        if exit_hook is not None:
            exit_hook(info)
        return kernel

    def _launch_info(self, kernel, grid, stream, bound):
        """What the launch hooks (profilers) get: a dict with the kernel's
        name, the grid, the stream, the bound arguments, and whatever the
        ``launch_metadata(grid, kernel, args)`` given to @jit returns."""
        args = dict(zip(self.arg_names, bound))
        info = {"name": kernel.name, "function": self, "kernel": kernel, "grid": grid,
                "stream": stream, "args": args}
        if self.launch_metadata is not None:
            info.update(self.launch_metadata(grid, kernel, args) or {})
        return info

    def _check_globals(self):
        for (display, _), (name, namespace, fp) in self.used_global_vals.items():
            new = stable_repr(namespace.get(name, _MISSING), baked_only=True)
            if new != fp:
                new_v = _shown_value(new) if new else repr(namespace.get(name, "<deleted>"))
                raise RuntimeError(f"Global variable {display} has changed since we compiled "
                                   f"this kernel, from {_shown_value(fp)} to {new_v}")

    def _normalize_used_globals(self):
        """The code generator records the globals it reads in Triton's form,
        (name, id(ns)) -> (value, ns); keep them as (name, ns, stable_repr)
        so that the launch compares small summaries, not objects."""
        for k, v in list(self.used_global_vals.items()):
            if len(v) == 2:
                fp = stable_repr(v[0], baked_only=True)
                if fp is None:
                    del self.used_global_vals[k]
                else:
                    self.used_global_vals[k] = (k[0], v[1], fp)

    def _decode(self, bound, spec):
        """A specialization tuple -> (signature, constexprs, attrs, wide):
        wide where a tensor argument reaches 2^31 elements (its "L" fact),
        which the launch compiles with int64_offsets."""
        signature, constexprs, attrs = {}, {}, {}
        i, wide = 0, False
        for p in self.params:
            if p.is_constexpr:
                signature[p.name] = "constexpr"
                constexprs[p.name] = spec[i]
                i += 2
                continue
            ty, tag = spec[i]
            i += 1
            if ty == "constexpr":
                signature[p.name] = "constexpr"
                constexprs[p.name] = tag
                continue
            if p.annotation_type is not None and not ty.startswith("*"):
                ty = p.annotation_type
            if p.is_const and ty.startswith("*") and not ty.startswith("*k"):
                ty = "*k" + ty[1:]
            signature[p.name] = ty
            if ty.startswith("tensordesc<"):
                attrs[p.num] = {"descriptor_divisibility": tag}
                continue
            wide |= tag.endswith("L")
            if tag == "1":
                attrs[p.num] = {"equal_to_1": True}
            elif tag.startswith("D"):
                attrs[p.num] = {"divisibility": 16}
        return signature, constexprs, attrs, wide

    def _compile(self, bound, spec, options, target):
        from ..compiler import compiler as _compiler
        signature, constexprs, attrs, wide = self._decode(bound, spec)
        if self.debug is not None:  # @jit(debug=...), unless the launch says otherwise
            options = {"debug": self.debug, **options}
        if self.bounds_check is not None:
            options = {"bounds_check": self.bounds_check, **options}
        if wide:
            options = {"int64_offsets": True, **options}
        opts = _compiler.make_options(target, options, self.__name__)
        _ = self.cache_key  # fills used_global_vals before the check at launch
        src = _compiler.ASTSource(self, signature, constexprs, attrs)
        kernel = self._compile_fitting(_compiler, src, target, opts)
        self._normalize_used_globals()
        kernel._arg_indices = tuple(p.num for p in self.params
                                    if signature[p.name] != "constexpr")
        kernel._launch_args = _arg_picker(kernel._arg_indices, len(self.params))
        if any(t.startswith("tensordesc<") for t in signature.values()):
            pick = kernel._launch_args
            kernel._launch_args = lambda bound: _expand_descriptors(pick(bound))
        if opts["bounds_check"]:
            from .bounds import BoundsChecking
            params = _launch_parameters(signature)
            kernel._bounds = checking = BoundsChecking(kernel, [n for _, n, _ in params],
                                                       [t for _, _, t in params])
            unchecked = kernel._launch_args
            kernel._launch_args = lambda bound: checking.launch_args(unchecked(bound))
        hook = knobs.runtime.jit_post_compile_hook
        if hook is not None:
            hook(self, kernel)
        return kernel

    def _compile_fitting(self, compiler, src, target, opts):
        """Compiles; where the kernel needs more shared memory than its target
        or the device gives a block, compiles again with fewer pipeline
        stages until it fits, and warns with what changed. Where nothing
        fits, what the stages asked gave: the compile's OutOfResources, or a
        kernel whose loading raises it."""
        device_limit = _shared_memory_limit()
        asked = None  # where the stages asked did not fit: (bytes, limit, kernel or error)
        for stages in range(max(opts["num_stages"], 1), 0, -1):
            options = opts if asked is None else compiler.make_options(
                target, {**opts.to_dict(), "num_stages": stages}, self.__name__)
            try:
                kernel = compiler.compile(src, target=target, options=options)
            except OutOfResources as e:  # more than the target allows a block
                if e.name != "shared memory":
                    raise
                asked = asked or (e.required, e.limit, e)
                continue
            if device_limit and kernel.metadata.shared > device_limit:
                asked = asked or (kernel.metadata.shared, device_limit, kernel)
                continue
            if asked:
                warnings.warn(f"{self.__name__}: {asked[0]} bytes of shared memory with num_stages="
                              f"{opts['num_stages']} exceed the {asked[1]} a block may use; compiled "
                              f"with num_stages={stages} ({kernel.metadata.shared} bytes)", stacklevel=4)
            return kernel
        if isinstance(asked[2], OutOfResources):
            raise asked[2]
        return asked[2]

    def warmup(self, *args, grid=None, **kwargs):
        """Compiles for these arguments without launching; returns the
        CompiledKernel. Tensors, MockTensors, torch dtypes, or type strings
        ("*fp32", "i32", "i32:16") stand for arguments."""
        args = [self._placeholder(i, a) for i, a in enumerate(args)]
        kwargs = {k: self._placeholder(k, v) for k, v in kwargs.items()}
        return self.run(*args, grid=grid, warmup=True, **kwargs)

    def _placeholder(self, where, value):
        if isinstance(where, int):
            param = self.params[where] if where < len(self.params) else None
        else:
            param = next((p for p in self.params if p.name == where), None)
        if param is None or param.is_constexpr:
            return value
        if isinstance(value, str):
            try:
                return _TypedArg(value)
            except _ArgError as e:
                raise TypeError(f"{self.__name__}.warmup(): argument {param.name!r}: {e}") from None
        return MockTensor.wrap_dtype(value)

    def preload(self, specialization_data):
        raise NotImplementedError("preload is not supported yet")


#: ``kernel[grid]``, in C: what it returns hands a launch to the C++
#: dispatcher (which leaves it to ``run`` while TRITIUM_INTERPRET is set), else
#: calls ``kernel.run(*args, grid=grid, warmup=False, **kwargs)``.
JITFunction.__getitem__ = _C.runtime.grid_getitem(JITFunction)


# -- Viewing a tensor as another dtype ---------------------------------------

class TensorWrapper:
    """A tensor viewed as another dtype (Triton's ``TensorWrapper``, made by
    ``reinterpret``): kernels see ``dtype``; the memory is ``base``'s. This is
    also how a numpy array of uint16 or uint8 bits is passed as bf16 or fp8
    to the interpreter."""

    def __init__(self, base, dtype):
        self.base = base
        self.dtype = dtype
        self.shape = getattr(base, "shape", None)
        self.device = getattr(base, "device", None)

    def data_ptr(self):
        if hasattr(self.base, "data_ptr"):
            return self.base.data_ptr()
        return self.base.__array_interface__["data"][0]  # numpy (the cpu target's)

    def stride(self, *args):
        return self.base.stride(*args)

    def numel(self):
        n = getattr(self.base, "numel", None)
        return n() if callable(n) else getattr(self.base, "size", None)

    def element_size(self):
        return self.dtype.primitive_bitwidth // 8

    def __str__(self):
        return f"TensorWrapper[{self.dtype}]({self.base})"


def reinterpret(tensor, dtype):
    """``tensor`` seen as ``dtype`` (a tl dtype of the same width)."""
    if isinstance(tensor, TensorWrapper):
        if dtype == tensor.base.dtype:
            return tensor.base
        return TensorWrapper(tensor.base, dtype)
    if hasattr(tensor, "data_ptr") or hasattr(tensor, "__array_interface__"):
        return TensorWrapper(tensor, dtype)
    raise TypeError(f"cannot reinterpret a {type(tensor).__name__}")


def jit(fn=None, *, version=None, repr=None, launch_metadata=None, do_not_specialize=None,
        do_not_specialize_on_alignment=None, debug=None, noinline=None, interpret=None,
        bounds_check=None):
    """Decorates a kernel (or a helper it calls): ``@jit`` or ``@jit(...)``.

    With ``interpret=True``, or TRITIUM_INTERPRET=1 set when the function is
    decorated, the interpreter's ``tritium.runtime.interpreter.
    InterpretedFunction`` is returned instead (docs/frontend.md, "Interpreter
    mode"); a JITFunction also interprets its launches while TRITIUM_INTERPRET
    is set, unless decorated with ``interpret=False``.
    """

    options = dict(version=version, do_not_specialize=do_not_specialize,
                   do_not_specialize_on_alignment=do_not_specialize_on_alignment, debug=debug,
                   noinline=noinline, repr=repr, launch_metadata=launch_metadata)

    def decorator(fn):
        assert callable(fn), "@jit decorates functions"
        if interpret or (interpret is None and knobs.runtime.interpret):
            from .interpreter import InterpretedFunction
            return InterpretedFunction(fn, **options)  # it checks every access itself
        return JITFunction(fn, interpret=interpret, bounds_check=bounds_check, **options)

    return decorator if fn is None else decorator(fn)
