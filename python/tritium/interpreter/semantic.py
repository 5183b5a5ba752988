"""The interpreter's semantic (docs/frontend.md, "the path of one tl.load").

A builtin's call such as ``binary(Add, x, 1)`` on ``TensorHandle`` values is
*traced*: the real ``_C.frontend.Semantic`` builds it into a scratch
function whose parameters stand for the handles, deciding types,
promotions, broadcasts and errors as for a compiled kernel, and each
instruction it emitted becomes a numpy function (evaluate.compile_step).
That *plan* is cached per operation, operand types and literal values, so a
loop asks the C++ side once. Combine functions (reduce, scan) and
map_elementwise's scalar function are Python code run on the blocks.
"""

import functools
import sys

import numpy as np

from .. import language as tl
from .._C import Module, frontend as _fe
from ..errors import CompilationError
from ..language import core as _core
from . import evaluate as E


class TensorHandle:
    """A value of the interpreted kernel: ``data``, a numpy array (0-d for a
    scalar) in evaluate.py's representation of its IR type, ``type`` (the
    language type, block or scalar) and ``sty`` (the scalar type)."""

    __slots__ = ("data", "type", "sty")

    def __init__(self, data, sty, type=None):
        self.data = data
        if type is None:
            type = sty if not data.shape else block_type(sty, data.shape)
        self.type, self.sty = type, sty

    def __repr__(self):
        return f"TensorHandle({self.type}, {self.data!r})"


def wrap(data, sty):
    """A tensor of the interpreted kernel holding ``data`` (of scalar type ``sty``)."""
    h = TensorHandle(np.asarray(data), sty)
    return _core.tensor(h, h.type)


@functools.lru_cache(maxsize=None)
def block_type(scalar, shape):
    """The DType of a block (cached); ``scalar`` itself for shape ()."""
    return tl.dtype.get_block(scalar, list(shape)) if shape else scalar


class _Scratch:
    """The module traced operations are built into (a new one now and then:
    nothing refers to a traced function once it is planned)."""

    module = sem = None
    count = 0

    @classmethod
    def begin(cls, params):
        if cls.sem is None or cls.count >= 1000:
            cls.module = Module("interpreter")
            cls.sem, cls.count = _fe.Semantic(cls.module), 0
        cls.count += 1
        return cls.sem.begin_function(f"op{cls.count}", params, [f"x{i}" for i in range(len(params))], False)


class Plan:
    """One traced operation: steps (fn, operand numbers, result count) over
    the handles' arrays, and the results' types and form."""

    __slots__ = ("steps", "outs", "types", "form", "params")

    def __init__(self, name, args, kwargs, handles):
        # Held, so the ids in the key name no other DType (pybind frees a
        # wrapper nothing holds, and a new one may take its address).
        self.params = [h.type for h in handles]
        fn = _Scratch.begin(self.params)
        sem = _Scratch.sem
        try:
            numbers = iter(range(len(handles)))

            def placeholder(x):
                if type(x) is TensorHandle:
                    return sem.get_arg(next(numbers))
                if type(x) in (list, tuple):
                    return [placeholder(y) for y in x]
                return x

            res = getattr(sem, name)(*[placeholder(a) for a in args],
                                     **{k: placeholder(v) for k, v in kwargs.items()})
            self.form = None if res is None else type(res) if type(res) in (list, tuple) else 1
            results = [] if res is None else list(res) if self.form in (list, tuple) else [res]
            steps, self.outs = _fe.describe_function(fn, results)
        finally:
            sem.end_function()
        self.types = [(r.type, r.type.scalar if r.type.is_block() else r.type) for r in results]
        self.steps = [(E.compile_step(s), s[1], len(s[3])) for s in steps]

    def run(self, ctx, handles):
        vals = [h.data for h in handles]
        for fn, ops, n in self.steps:
            r = fn(ctx, *[vals[i] for i in ops])
            if n == 1:
                vals.append(r)
            elif n:
                vals.extend(r)
        outs = [TensorHandle(vals[k], sty, ty) for k, (ty, sty) in zip(self.outs, self.types)]
        if self.form == 1:
            return outs[0]
        return None if self.form is None else self.form(outs)


_PLANS = {}


def _key(x, handles):
    """An argument's part of a plan's key (a handle by its type, collected)."""
    t = type(x)
    if t is TensorHandle:
        handles.append(x)
        return id(x.type)  # kept alive by the plan (Plan.params)
    if t is float:
        return (float, x.hex())
    if t is list or t is tuple:
        return ("[", *[_key(y, handles) for y in x])
    if x is None or t is str:
        return x
    return (t, x)


def run_traced(ctx, name, args, kwargs):
    handles = []
    key = (name, *[_key(a, handles) for a in args], *[(k, _key(v, handles)) for k, v in kwargs.items()])
    plan = _PLANS.get(key)
    if plan is None:
        plan = Plan(name, args, kwargs, handles)
        if len(_PLANS) < 100000:
            _PLANS[key] = plan
    return plan.run(ctx, handles)


def constant(value, dtype):
    """A Python scalar as a handle of ``dtype`` (converted as a literal)."""
    return run_traced(None, "constant", (value, dtype), {})


class InterpreterSemantic:
    """The semantic of one launch: ``pid`` the program run, ``memory`` the
    launch's buffers, ``location()`` the kernel's "file:line". Methods not
    defined here are the C++ Semantic's, traced (run_traced)."""

    def __init__(self, memory, grid, where):
        self.memory, self.grid, self.pid, self.location = memory, grid, (0, 0, 0), where

    def __getattr__(self, name):
        if name.startswith("_") or not hasattr(_fe.Semantic, name):
            raise AttributeError(name)

        def traced(*args, **kwargs):
            return run_traced(self, name, args, kwargs)
        setattr(self, name, traced)
        return traced

    def print_values(self, prefix, vals, elems, hex_, unsigned):
        shape = next((v.shape for v in vals if v.ndim), ())
        cols = [(E.bcast(v, shape).reshape(-1), e, k in unsigned) for k, (v, e) in enumerate(zip(vals, elems))]
        x, y, z = self.pid
        lines = []
        for k in range(int(np.prod(shape))):
            idx = " idx " + E.index_text(k, shape) if shape else ""
            values = ", ".join(_format(c[k], e, hex_, u) for c, e, u in cols)
            lines.append(f"pid ({x}, {y}, {z}){idx} {prefix}{values}")
        sys.stdout.write("\n".join(lines) + "\n")

    def check_assert(self, cond, msg):
        if np.all(cond):
            return
        bad = np.flatnonzero(~np.asarray(cond).reshape(-1))
        idx = " idx " + E.index_text(bad[0], cond.shape) if cond.shape else ""
        x, y, z = self.pid
        raise DeviceAssertionError(f"{self.location()}: pid ({x}, {y}, {z}){idx}: Assertion `{msg}` failed "
                                   f"({bad.size} element{'s' if bad.size != 1 else ''})")

    def host_value(self, t):
        """The value of scalar ``t`` in ``if t:``, ``range(t)`` of code with no
        source to rewrite."""
        h = t.handle
        if h.data.size != 1:  # a one-element block is its value, as in Triton
            raise BlockConditionError(f"a block ({t.type}) cannot be a condition; reduce it to a scalar first")
        v = h.data.item()
        unsigned = h.sty.is_int() and not h.sty.is_bool() and h.sty.is_unsigned()
        return v + (1 << h.sty.bit_width) if unsigned and v < 0 else v

    def iterate_range(self, r):
        """``for i in tl.range(...)`` in code with no source: as rewritten."""
        from .rewrite import _dynamic_range
        return _dynamic_range(r)

    def make_tensor_descriptor(self, base, shape, strides, block_shape):
        # A last stride of 1 is a constant when compiled (the launch
        # specializes integer arguments equal to 1).
        last = strides[-1] if strides else None
        if type(last) is TensorHandle and last.data.ndim == 0 and last.sty.is_int() and int(last.data) == 1:
            strides = [*strides[:-1], 1]
        return run_traced(self, "make_tensor_descriptor", (base, shape, strides, block_shape), {})

    def reduce(self, x, *args):
        """The Semantic's reduction, or ``(xs, axis, combine, keep_dims)``."""
        if not isinstance(x, (list, tuple)):
            return run_traced(self, "reduce", (x, *args), {})
        axis, combine, keep_dims = args
        out, a = self._combine(x, axis, combine, "reduce")
        res = [c[..., -1] for c in out]
        if keep_dims:
            res = [np.expand_dims(r, a) if axis is not None else np.reshape(r, (1,) * x[0].data.ndim) for r in res]
        return [TensorHandle(np.asarray(r, dtype=h.data.dtype), h.sty) for r, h in zip(res, x)]

    def scan(self, x, *args):
        """A built-in scan, or ``(xs, axis, combine, reverse)``."""
        if not isinstance(x, (list, tuple)):
            return run_traced(self, "scan", (x, *args), {})
        axis, combine, reverse = args
        out, a = self._combine(x, axis, combine, "associative_scan", reverse)
        return [TensorHandle(np.ascontiguousarray(np.moveaxis(c, -1, a), dtype=h.data.dtype), h.sty)
                for c, h in zip(out, x)]

    def _combine(self, xs, axis, combine, what, reverse=False):
        """The inclusive scan by ``combine`` along ``axis`` (None: flattened),
        moved last, and that axis. Hillis-Steele on whole blocks (its last
        element is a reduction's pairwise tree); element by element for a
        combine function that branches."""
        _fe.check_reduction_inputs([x.type for x in xs], what)
        dtypes, rank = [x.sty for x in xs], xs[0].data.ndim
        if axis is not None:
            _fe.check_axis(axis, rank)
        a = 0 if axis is None else axis % rank
        cur = [x.data.reshape(-1) if axis is None else np.moveaxis(x.data, a, -1) for x in xs]
        cur = [c[..., ::-1] for c in cur] if reverse else cur
        n = cur[0].shape[-1]
        try:
            d, pos, out = 1, np.arange(n), cur
            while d < n:  # element i combines element i - d into itself where i >= d
                shifted = [np.concatenate([c[..., :d], c[..., :-d]], axis=-1) for c in out]
                out = [np.where(pos >= d, r, c) for c, r in zip(out, self._call_combine(combine, shifted, out, dtypes))]
                d *= 2
        except BlockConditionError:
            out = self._scalarwise(combine, cur, dtypes)
        return [c[..., ::-1] if reverse else c for c in out], a

    def _call_combine(self, combine, lefts, rights, dtypes):
        res = combine(*[wrap(d, t) for d, t in zip(lefts + rights, dtypes + dtypes)])
        res = list(res) if isinstance(res, (tuple, list)) else [res]
        if len(res) != len(dtypes):
            raise TypeError(f"the combine function must return {len(dtypes)} value(s), got {len(res)}")
        out = []
        for r, t in zip(res, dtypes):
            h = _core.to_tensor(r).handle
            if h.sty != t:
                raise CompilationError(f"the combine function returned {h.sty.name} where the input is {t.name}")
            out.append(E.bcast(h.data, np.asarray(lefts[0]).shape))
        return out

    def _scalarwise(self, combine, cur, dtypes):
        """The scan along the last axis one element at a time."""
        res = [np.array(c) for c in cur]
        for idx in np.ndindex(*cur[0].shape[:-1]):
            acc = [c[idx + (0,)] for c in cur]
            for j in range(1, cur[0].shape[-1]):
                acc = self._call_combine(combine, acc, [c[idx + (j,)] for c in cur], dtypes)
                for r, v in zip(res, acc):
                    r[idx + (j,)] = v
        return res

    def map_elementwise(self, fn, args, pack):
        """``fn`` on each ``pack`` elements of the broadcast arguments (it may
        branch on them)."""
        shape = np.broadcast_shapes(*[a.data.shape for a in args])
        flats = [np.broadcast_to(a.data, shape).reshape(-1) for a in args]
        outs, types = None, None
        for g in range(0, int(np.prod(shape, dtype=np.int64)), pack):
            res = fn(*[wrap(f[g + j], a.sty) for f, a in zip(flats, args) for j in range(pack)])
            res = [_core.to_tensor(r).handle for r in (res if isinstance(res, (tuple, list)) else [res])]
            if outs is None:
                types = res[::pack]
                outs = [[] for _ in types]
            for k, h in enumerate(res):
                outs[k // pack].append(h.data)
        return [TensorHandle(np.asarray(o, dtype=t.data.dtype).reshape(shape), t.sty) for o, t in zip(outs, types)]


class DeviceAssertionError(AssertionError):
    """A failed tl.device_assert (or ``assert`` with debug) in a kernel."""


class BlockConditionError(TypeError):
    """A block used where a scalar condition is needed."""


def _format(v, e, hex_, is_unsigned):
    """One printed value, as the device printf formats it."""
    if e.is_float:
        return "%f" % float(v)
    if e.name == "ptr":
        return "0x%x" % (int(v) & 0xFFFFFFFFFFFFFFFF)
    iv = int(v)
    if hex_:
        return "0x%x" % (iv & ((1 << e.bits) - 1))
    return str(iv & ((1 << e.bits) - 1) if is_unsigned and e.bits > 1 else iv)
