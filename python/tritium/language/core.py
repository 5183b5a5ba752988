"""The core of ``tritium.language``: types, ``constexpr``, ``tensor`` and the
builtins.

Every builtin is a thin wrapper (docs/frontend.md, "the semantic protocol"):
it unwraps ``constexpr`` arguments, hands tensors' handles and Python
literals to the *current semantic* and wraps what comes back in a
``tensor``. The rules of the language (promotion, broadcasting, the messages
of type errors) live in the semantic, never here.

The current semantic is set by whoever runs a kernel body: the code
generator (``tritium.compiler.codegen``) sets a ``_C.frontend.Semantic``;
an interpreter may set a Python object with the same methods.
"""

import builtins as _py
import collections
import contextlib
import operator as _operator
import threading
from math import prod as _prod

from . import _types
from ._types import (BinOp, CmpOp, UnaryOp, Hint, dtype, void, int1, int8, int16, int32, int64, uint8, uint16,
                     uint32, uint64, float8e4nv, float8e5, float8e4b15, float16, bfloat16, float32, float64,
                     pointer_type, block_type, pi32_t, str_to_ty, get_int_dtype, constexpr_type)

# Triton's limit on the number of elements of a block.
TRITON_MAX_TENSOR_NUMEL = 1048576

# -- The current semantic -----------------------------------------------------


# What a running kernel body needs: the semantic, the code generator (which
# builds combine functions for reduce/associative_scan), and the compile
# options (debug, num_warps...).
_Builder = collections.namedtuple("_Builder", ["semantic", "codegen", "options"])


_local = threading.local()


def _builders():
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


@contextlib.contextmanager
def use_semantic(semantic, codegen=None, options=None):
    """Makes ``semantic`` current for the builtins while the block runs."""
    stack = _builders()
    stack.append(_Builder(semantic, codegen, options))
    try:
        yield stack[-1]
    finally:
        stack.pop()


def _builder():
    stack = _builders()
    if not stack:
        raise RuntimeError("tritium.language functions can only be called inside a @jit function "
                           "(while it is being compiled)")
    return stack[-1]


def _sem():
    return _builder().semantic


def _codegen(what):
    """The code generator, which ``what`` needs to build a @jit function it calls."""
    codegen = _builder().codegen
    if codegen is None:
        raise RuntimeError(f"{what} needs the code generator")
    return codegen


def _get_option(options, name, default=None):
    """The option ``name`` of compile options given as a dict or an object."""
    if options is None:
        return default
    if isinstance(options, dict):
        return options.get(name, default)
    return getattr(options, name, default)


def _option(name, default=None):
    """The option ``name`` of the running compilation."""
    return _get_option(_builder().options, name, default)


def builtin(fn):
    """Marks ``fn`` as a language builtin: the code generator calls it
    directly with the kernel's values."""
    fn.__tritium_builtin__ = True
    return fn


def is_builtin(fn):
    return getattr(fn, "__tritium_builtin__", False)


def _tensor_method(fn):
    """Marks ``fn`` as a builtin that is also a method of ``tensor`` (``x.sum(0)``)."""
    setattr(tensor, fn.__name__, fn)
    return builtin(fn)


def _generated_builtin(name, doc, fn, method=True):
    """``fn`` as the builtin ``name`` (and, with ``method``, the tensor
    method): for a family of builtins that differ only in the operation they
    ask for."""
    fn.__name__ = fn.__qualname__ = name
    fn.__doc__ = doc
    return _tensor_method(fn) if method else builtin(fn)


# -- constexpr ----------------------------------------------------------------


class constexpr:
    """A value known at compile time (and the annotation of compile-time
    parameters). Operators on constexprs fold in Python."""

    def __init__(self, value):
        while isinstance(value, constexpr):
            value = value.value
        self.value = value

    def __repr__(self):
        return f"constexpr[{self.value!r}]"

    def __hash__(self):
        return hash(self.value)

    def __call__(self, *args, **kwargs):
        return self.value(*args, **kwargs)

    def __getattr__(self, name):
        if name == "value":
            raise AttributeError(name)
        return getattr(self.value, name)

    def __getitem__(self, i):
        return self.value[_unwrap(i)]


def _make_const_binop(name):
    op = getattr(_operator, name)

    def forward(self, other):
        if isinstance(other, tensor):
            return NotImplemented
        return constexpr(op(self.value, _unwrap(other)))

    def reflected(self, other):
        if isinstance(other, tensor):
            return NotImplemented
        return constexpr(op(_unwrap(other), self.value))

    return forward, reflected


for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "lshift", "rshift", "and", "or", "xor"):
    _f, _r = _make_const_binop(_name if _name not in ("and", "or") else _name + "_")
    setattr(constexpr, f"__{_name}__", _f)
    setattr(constexpr, f"__r{_name}__", _r)

for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    _f, _ = _make_const_binop(_name)
    setattr(constexpr, f"__{_name}__", _f)


def _value_method(fn, fold):
    """A constexpr method: ``fn`` of the value, as a constexpr if ``fold``."""
    if fold:
        return lambda self: constexpr(fn(self.value))
    return lambda self: fn(self.value)


# Conversions, len() and iteration see the value; unary operators fold.
for _name, _fn in (("index", lambda v: v.__index__()), ("bool", bool), ("int", int), ("float", float),
                   ("iter", iter), ("len", len)):
    setattr(constexpr, f"__{_name}__", _value_method(_fn, fold=False))
for _name, _fn in (("neg", _operator.neg), ("pos", _operator.pos), ("invert", _operator.invert),
                   ("not", _operator.not_), ("abs", _py.abs)):
    setattr(constexpr, f"__{_name}__", _value_method(_fn, fold=True))
# Triton's: a compile-time value's type is constexpr_type(value).
constexpr.type = property(lambda self: constexpr_type(self.value))


def _unwrap(x):
    """The Python value of a constexpr (other values unchanged)."""
    while isinstance(x, constexpr):
        x = x.value
    return x


_unwrap_if_constexpr = _unwrap


def _seq(xs):
    """A list of ``xs``'s elements, or ``[xs]`` when it is not a sequence."""
    xs = _unwrap(xs)
    return list(xs) if isinstance(xs, (list, tuple)) else [xs]


def _unwrap_shape(shape):
    shape = [_unwrap(s) for s in _seq(shape)]
    for i, s in enumerate(shape):
        if isinstance(s, bool) or not isinstance(s, int):
            raise TypeError(f"Shape element {i} must have type `constexpr[int]`, got `{_type_name(s)}`")
    return shape


def _type_name(x):
    if isinstance(x, tensor):
        return f"tensor of {x.type}"
    return type(x).__name__


def _shape_args(shape):
    """Shapes may be given as a tuple or as varargs."""
    if len(shape) == 1 and isinstance(_unwrap(shape[0]), (list, tuple)):
        shape = _unwrap(shape[0])
    return _unwrap_shape(list(shape))


def _int_arg(x, what):
    x = _unwrap(x)
    if isinstance(x, tensor):
        raise TypeError(f"{what} must be of type tl.constexpr, got a tensor")
    if isinstance(x, bool) or not isinstance(x, int):
        raise TypeError(f"{what} must be an integer constexpr, got {x!r}")
    return x


class PropagateNan:
    """Whether tl.minimum/maximum/clamp return NaN when an operand is NaN."""
    NONE = 0
    ALL = 0xFFFF


# -- tensor -------------------------------------------------------------------


def _opnd(x):
    """What the semantic takes as an operand: a value handle or a literal."""
    x = _unwrap(x)
    if isinstance(x, tensor):
        return x.handle
    if isinstance(x, (bool, int, float)):
        return x
    raise TypeError(f"unsupported operand of type {_type_name(x)}")


def _opt_opnd(x):
    """``_opnd(x)``, or None for an argument left out (None)."""
    return None if _unwrap(x) is None else _opnd(x)


def _wrap(handle):
    """The tensor (or tensor descriptor) of a value the semantic returned."""
    ty = handle.type
    if ty.is_tensor_desc():
        return tensor_descriptor(handle, ty)
    return tensor(handle, ty)


def to_tensor(x):
    """``x`` as a tensor: Python literals become scalar constants of their
    own type (int32, uint32, int64, uint64, fp32, int1)."""
    x = _unwrap(x)
    if isinstance(x, tensor):
        return x
    if isinstance(x, (bool, int, float)):
        return _wrap(_sem().constant(x))
    raise TypeError(f"cannot convert {_type_name(x)} to a tensor")


def _host_value(t, why_not):
    """The Python value of the scalar tensor ``t`` where the running semantic
    knows it: the interpreter, running plain Python code (a function with no
    source to rewrite, docs/frontend.md) through ``if t:`` or ``range(t)``."""
    stack = _builders()
    value_of = getattr(stack[-1].semantic, "host_value", None) if stack else None
    if value_of is None:
        raise TypeError(why_not)
    return value_of(t)


def _to_tensor_handle(x):
    return to_tensor(x).handle


class tensor:
    """A value of the kernel: a scalar or a block. ``handle`` is the
    semantic's value, ``type`` its language type (block or scalar)."""

    def __init__(self, handle, type):
        self.handle = handle
        self.type = type

    # Types and shapes.
    @property
    def dtype(self):
        return self.type.scalar

    @property
    def shape(self):
        return list(self.type.shape)

    @property
    def numel(self):
        return _prod(self.shape)

    def __repr__(self):
        return f"tensor<{self.type}>"

    def __bool__(self):
        return bool(_host_value(self, "a tensor's value is not known at compile time; it cannot be used as a "
                                      "Python bool"))

    def __index__(self):
        v = _host_value(self, "'tensor' object cannot be interpreted as an integer")
        if not self.dtype.is_int():
            raise TypeError(f"a tensor of type {self.dtype} cannot be interpreted as an integer")
        return int(v)

    def __iter__(self):
        raise TypeError("a tensor cannot be iterated")

    __hash__ = object.__hash__

    def __pow__(self, o):
        raise TypeError("`**` is not supported on tensors; use tl.extra.libdevice.pow")

    __rpow__ = __pow__

    # Indexing: only None (a new axis), ':' and '...'.
    def __getitem__(self, slices):
        slices = _unwrap(slices)
        if not isinstance(slices, (tuple, list)):
            slices = [slices]
        slices = [_unwrap(s) for s in slices]
        n_real = _py.sum(1 for s in slices if s is not None and s is not Ellipsis)
        ret = self
        dim = 0
        for s in slices:
            if s is None:
                ret = expand_dims(ret, dim)
                dim += 1
            elif s is Ellipsis:
                dim += _py.max(len(self.shape) - n_real, 0)
            elif isinstance(s, slice) and s.start is None and s.stop is None and s.step is None:
                dim += 1  # a ':' past the last dimension changes nothing, as in Triton
            else:
                raise TypeError(f"unsupported tensor index: {s!r} (only None, ':' and '...' are allowed)")
        return ret

    @property
    def T(self):
        return trans(self)

    def to(self, dtype, fp_downcast_rounding=None, bitcast=False):
        return cast(self, dtype, fp_downcast_rounding=fp_downcast_rounding, bitcast=bitcast)

    def item(self):
        """The value of a one-element block, as a scalar."""
        return _wrap(_sem().reshape(self.handle, [], False))


def _binary_method(op, reflected=False):
    if reflected:
        return lambda self, other: _wrap(_sem().binary(op, _opnd(other), self.handle))
    return lambda self, other: _wrap(_sem().binary(op, self.handle, _opnd(other)))


def _compare_method(op):
    return lambda self, other: _wrap(_sem().compare(op, self.handle, _opnd(other)))


def _unary_method(op):
    return lambda self: _wrap(_sem().unary(op, self.handle))


# The operators of tensor: Python's name of each and the semantic's operation.
for _name, _op in (("add", BinOp.Add), ("sub", BinOp.Sub), ("mul", BinOp.Mul), ("truediv", BinOp.TrueDiv),
                   ("floordiv", BinOp.FloorDiv), ("mod", BinOp.Mod), ("and", BinOp.BitAnd), ("or", BinOp.BitOr),
                   ("xor", BinOp.BitXor), ("lshift", BinOp.Shl), ("rshift", BinOp.Shr)):
    setattr(tensor, f"__{_name}__", _binary_method(_op))
    setattr(tensor, f"__r{_name}__", _binary_method(_op, reflected=True))
tensor.logical_and = _binary_method(BinOp.LogicalAnd)
tensor.logical_or = _binary_method(BinOp.LogicalOr)
for _name in ("eq", "ne", "lt", "le", "gt", "ge"):
    setattr(tensor, f"__{_name}__", _compare_method(getattr(CmpOp, _name.upper())))
for _name, _op in (("neg", UnaryOp.Neg), ("pos", UnaryOp.Plus), ("invert", UnaryOp.Invert), ("not", UnaryOp.Not),
                   ("abs", UnaryOp.Abs)):
    setattr(tensor, f"__{_name}__", _unary_method(_op))


# -- Creation -----------------------------------------------------------------


@builtin
def program_id(axis=0):
    """The id of this program along ``axis`` (0, 1 or 2) of the launch grid."""
    return _wrap(_sem().program_id(_int_arg(axis, "program_id's axis")))


@builtin
def num_programs(axis=0):
    """The number of programs along ``axis`` of the launch grid."""
    return _wrap(_sem().num_programs(_int_arg(axis, "num_programs's axis")))


@builtin
def arange(start, end):
    """The int32 block [start, end); end - start must be a power of two."""
    start, end = _unwrap(start), _unwrap(end)
    if not isinstance(start, int) or not isinstance(end, int):
        raise TypeError("arange's arguments must be of type tl.constexpr")
    return _wrap(_sem().arange(start, end))


def _check_dtype(dt, what="dtype"):
    dt = _unwrap(dt)
    if not isinstance(dt, dtype):
        raise TypeError(f"{what} must be a tl.dtype, got {dt!r}")
    return dt


@builtin
def full(shape, value, dtype):
    """A block of ``shape`` filled with ``value`` converted to ``dtype``."""
    shape = _unwrap_shape(shape)
    dt = _check_dtype(dtype)
    if not shape:
        return _wrap(_sem().cast(_opnd(value), dt))
    return _wrap(_sem().full(shape, _opnd(value), dt))


@builtin
def zeros(shape, dtype):
    """A block of ``shape`` filled with zeros of ``dtype``."""
    return full(shape, 0, dtype)


@builtin
def zeros_like(input):
    """Zeros of the shape and element type of ``input``."""
    return full_like(input, 0)


@builtin
def full_like(input, value, dtype=None):
    """``value`` in the shape of ``input`` (and its element type unless given)."""
    input = to_tensor(input)
    return full(input.shape, value, input.dtype if _unwrap(dtype) is None else dtype)


@_tensor_method
def cast(input, dtype, fp_downcast_rounding=None, bitcast=False):
    """Converts ``input`` to ``dtype``; ``bitcast`` reinterprets the bits;
    ``fp_downcast_rounding`` is "rtne" or "rtz" for float narrowing."""
    dt = _check_dtype(dtype)
    bitcast = bool(_unwrap(bitcast))
    rounding = _unwrap(fp_downcast_rounding)  # the semantic checks it
    return _wrap(_sem().cast(_opnd(input), dt, bitcast, None if rounding is None else str(rounding)))


# -- Shapes -------------------------------------------------------------------


@_tensor_method
def broadcast_to(input, *shape):
    """``input`` broadcast (or a scalar splatted) to ``shape``."""
    return _wrap(_sem().broadcast_to(_opnd(input), _shape_args(shape)))


@builtin
def broadcast(input, other):
    """Both operands broadcast to their common shape."""
    a, b = _sem().broadcast(_opnd(input), _opnd(other))
    return _wrap(a), _wrap(b)


@_tensor_method
def reshape(input, *shape, can_reorder=False):
    """``input`` with a new shape of the same number of elements."""
    shape = _shape_args(shape)
    return _wrap(_sem().reshape(_to_tensor_handle(input), shape, bool(_unwrap(can_reorder))))


@_tensor_method
def view(input, *shape):
    """Like reshape, but the order of the elements may change."""
    return reshape(input, *shape, can_reorder=True)


@_tensor_method
def expand_dims(input, axis):
    """``input`` with new axes of size 1 at ``axis`` (an int or a sequence)."""
    input = to_tensor(input)
    axes = [_unwrap(a) for a in _seq(axis)]
    new_rank = len(input.shape) + len(axes)
    for a in axes:  # checked before wrapping: -3 on a 1-D block is no axis
        if not -new_rank <= a < new_rank:
            raise ValueError(f"invalid axis {a}. Expected {-new_rank} <= axis < {new_rank}")
    axes = sorted(a + new_rank if a < 0 else a for a in axes)
    if len(set(axes)) != len(axes):
        raise ValueError(f"expand_dims received duplicate axes, normalized axes = {axes}")
    ret = input
    for a in axes:
        ret = _wrap(_sem().expand_dims(ret.handle, a))
    return ret


@_tensor_method
def permute(input, *dims):
    """``input`` with its dimensions reordered: result dim i is input dim dims[i]."""
    dims = _shape_args(dims)
    return _wrap(_sem().permute(_to_tensor_handle(input), dims))


@_tensor_method
def trans(input, *dims):
    """``permute(input, dims)``; without dims the last two dimensions swap
    (a batched 2-D transpose), as in Triton."""
    if not dims:
        n = len(to_tensor(input).shape)
        if n < 2:
            raise ValueError("tl.trans invoked with a 0- or 1-dimensional tensor")
        dims = list(_py.range(n - 2)) + [n - 1, n - 2]
    return permute(input, *dims)


@_tensor_method
def join(a, b):
    """A block with a new last dimension of size 2 holding ``a`` and ``b``."""
    return _wrap(_sem().join(_opnd(a), _opnd(b)))


@_tensor_method
def split(a):
    """The two halves of a block whose last dimension has size 2."""
    lo, hi = _sem().split(_to_tensor_handle(a))
    return _wrap(lo), _wrap(hi)


@builtin
def cat(input, other, can_reorder=False):
    """The concatenation of two blocks (the order may change with can_reorder)."""
    return _wrap(_sem().cat(_to_tensor_handle(input), _to_tensor_handle(other), bool(_unwrap(can_reorder))))


@builtin
def map_elementwise(scalar_fn, *args, pack=1):
    """Runs the @jit function ``scalar_fn`` on each element of the broadcast
    ``args`` (scalars in, scalars out: control flow allowed), or on each
    ``pack`` elements: it then takes ``pack`` values of the first argument,
    ``pack`` of the next..., and returns ``pack`` values of each output."""
    xs = [to_tensor(a) for a in args]
    pack = int(_unwrap(pack))
    fn = _codegen("tl.map_elementwise").build_map_fn(_unwrap(scalar_fn), [x.dtype for x in xs], pack)
    outs = [_wrap(o) for o in _sem().map_elementwise(fn, [x.handle for x in xs], pack)]
    return tuple(outs) if len(outs) > 1 else outs[0]


@builtin
def gather(src, index, axis):
    """``src``'s elements along ``axis`` at the positions ``index`` holds: a
    block of ``index``'s shape, ``out[..., i, ...] = src[..., index[..., i,
    ...], ...]`` (``torch.gather``); src and index have one rank and the same
    extents but along ``axis``. An index out of range is undefined."""
    return _wrap(_sem().gather(_to_tensor_handle(src), _to_tensor_handle(index), int(_unwrap(axis))))


# -- Elementwise --------------------------------------------------------------


def _pn(propagate_nan):
    p = _unwrap(propagate_nan)
    return bool(p) and p != PropagateNan.NONE


@builtin
def where(condition, x, y):
    """``x`` where ``condition`` holds, else ``y`` (broadcast together)."""
    return _wrap(_sem().where(_opnd(condition), _opnd(x), _opnd(y)))


@builtin
def minimum(x, y, propagate_nan=PropagateNan.NONE):
    """The elementwise minimum."""
    return _wrap(_sem().min_max(False, _opnd(x), _opnd(y), _pn(propagate_nan)))


@builtin
def maximum(x, y, propagate_nan=PropagateNan.NONE):
    """The elementwise maximum."""
    return _wrap(_sem().min_max(True, _opnd(x), _opnd(y), _pn(propagate_nan)))


@builtin
def clamp(x, min, max, propagate_nan=PropagateNan.NONE):
    """``x`` clamped to [min, max]."""
    return _wrap(_sem().clamp(_opnd(x), _opnd(min), _opnd(max), _pn(propagate_nan)))


def _binary(op, x, y):
    return _wrap(_sem().binary(op, _opnd(x), _opnd(y)))


def _binary_builtin(name, op, doc=None, sanitize_overflow=False):
    """The builtin ``name``: the binary operation ``op`` (Triton's add, sub
    and mul also take sanitize_overflow, accepted)."""
    if sanitize_overflow:
        def fn(x, y, sanitize_overflow=True):
            return _binary(op, x, y)
    else:
        def fn(x, y):
            return _binary(op, x, y)
    return _generated_builtin(name, doc, fn, method=False)


add = _binary_builtin("add", BinOp.Add, sanitize_overflow=True)
sub = _binary_builtin("sub", BinOp.Sub, sanitize_overflow=True)
mul = _binary_builtin("mul", BinOp.Mul, sanitize_overflow=True)
truediv = _binary_builtin("truediv", BinOp.TrueDiv)
floordiv = _binary_builtin("floordiv", BinOp.FloorDiv)
logical_and = _binary_builtin("logical_and", BinOp.LogicalAnd)
logical_or = _binary_builtin("logical_or", BinOp.LogicalOr)


# -- Linear algebra -----------------------------------------------------------


@builtin
def dot(input, other, acc=None, input_precision=None, allow_tf32=None, max_num_imprecise_acc=None,
        out_dtype=float32):
    """The matrix product of two 2-D (or batched 3-D) blocks, plus ``acc``."""
    input_precision = _unwrap(input_precision)
    allow_tf32 = _unwrap(allow_tf32)
    if allow_tf32 is not None:
        if input_precision is not None:
            raise ValueError("only one of input_precision and allow_tf32 can be given")
        input_precision = "tf32" if allow_tf32 else "ieee"
    if input_precision is None:
        input_precision = _option("default_dot_input_precision", None) or ""
    if not isinstance(input_precision, str):
        raise TypeError(f"input_precision must be a string, got {input_precision!r}")
    a, b = to_tensor(input), to_tensor(other)
    if input_precision.lower() in ("bf16x3", "bf16x6"):
        if a.dtype == float32 and b.dtype == float32:
            return _dot_bf16_split(a, b, acc, input_precision.lower() == "bf16x6")
        input_precision = "ieee"  # as tf32, an option for fp32 operands only
    imprecise = _unwrap(max_num_imprecise_acc)
    if imprecise is None:  # -1: no limit, as Triton's default on Hopper
        imprecise = _option("max_num_imprecise_acc_default", None)
        imprecise = -1 if imprecise is None else imprecise
    acc = _unwrap(acc)
    out = _check_dtype(out_dtype, "out_dtype")
    batch = a.shape[:-2]
    if len(batch) >= 2 and len(b.shape) == len(a.shape) and b.shape[:-2] == batch:
        # Ranks 4 and up, as Triton: the batch dimensions folded into one.
        n = _prod(batch)
        res = dot(reshape(a, [n] + a.shape[-2:]), reshape(b, [n] + b.shape[-2:]),
                  None if acc is None else reshape(acc, [n, a.shape[-2], b.shape[-1]]), input_precision,
                  max_num_imprecise_acc=imprecise, out_dtype=out)
        return reshape(res, batch + [a.shape[-2], b.shape[-1]])
    acc_h = None if acc is None else to_tensor(acc).handle
    return _wrap(_sem().dot(a.handle, b.handle, acc_h, input_precision.lower(), int(imprecise), out))


def _bf16_parts(x, n):
    """fp32 ``x`` as ``n`` bf16 blocks whose sum approximates it, largest
    first (each the bf16 rounding of what the others left); an infinite or
    NaN element is all in the first part."""
    parts, rest = [], x
    for k in _py.range(n):
        p = rest.to(bfloat16)
        parts.append(p)
        if k + 1 < n:
            pf = p.to(float32)
            rest = where(pf - pf == 0.0, rest - pf, 0.0)
    return parts


def _dot_bf16_split(a, b, acc, six):
    """``input_precision="bf16x3"`` ("bf16x6"): fp32 operands split into two
    (three) bf16 parts and the products of the parts that matter summed with
    f32 accumulation, smallest first, as Triton's F32DotTC does: about 16
    (24) bits of mantissa on bf16 tensor cores."""
    n = 3 if six else 2
    pa, pb = _bf16_parts(a, n), _bf16_parts(b, n)
    terms = [(0, 1), (1, 0), (0, 0)] if not six else [(1, 1), (0, 2), (2, 0), (0, 1), (1, 0), (0, 0)]
    for i, j in terms:
        acc = dot(pa[i], pb[j], acc, input_precision="ieee")
    return acc


# -- Memory -------------------------------------------------------------------


class block_ptr:
    """A block pointer (``tl.make_block_ptr``): the tensor descriptor of a
    strided tensor (64-bit shapes, any strides) and the offsets of its
    block. ``load``/``store`` on it are the descriptor's, with the
    dimensions to bounds-check; ``advance`` moves the offsets."""

    def __init__(self, desc, offsets, order):
        self.desc = desc
        self.offsets = offsets
        self.order = order

    @property
    def block_shape(self):
        return self.desc.block_shape

    # The code generator flattens aggregates into their tensor leaves.
    def _fields(self):
        return [self.desc] + list(self.offsets)

    def _rebuild(self, leaves):
        return block_ptr(leaves[0], leaves[1:], self.order)

    def _static_key(self):
        return ("block_ptr", tuple(self.block_shape), tuple(self.order))

    @property
    def type(self):
        return block_ptr_type(pointer_type(self.desc.dtype), self.block_shape)

    @property
    def dtype(self):
        return self.type

    def advance(self, offsets):
        return advance(self, offsets)

    def __repr__(self):
        return f"block_ptr<{self.type.pointer}, {self.block_shape}>"


class block_ptr_type:
    """The type of a block pointer: the pointer type and the block shape."""

    def __init__(self, pointer, block_shape):
        self.pointer = pointer
        self.block_shape = list(block_shape)
        self.element_ty = pointer

    def __eq__(self, other):
        return isinstance(other, block_ptr_type) and other.pointer == self.pointer and \
            other.block_shape == self.block_shape

    def __hash__(self):
        return hash((str(self.pointer), tuple(self.block_shape)))

    def __repr__(self):
        return f"block_ptr<{self.pointer}, {self.block_shape}>"


@builtin
def make_block_ptr(base, shape, strides, offsets, block_shape, order):
    """A pointer to the ``block_shape`` block at ``offsets`` of the tensor
    with ``shape`` and ``strides`` starting at ``base``."""
    offsets = _seq(offsets)
    desc = _wrap(_sem().make_block_pointer(to_tensor(base).handle, _offsets(shape), _offsets(strides), len(offsets),
                                           _unwrap_shape(block_shape), _unwrap_shape(order)))
    return block_ptr(desc, [cast(o, int32) for o in _offsets_int(offsets, "the offsets")], _unwrap_shape(order))


def _offsets_int(xs, what):
    for x in xs:
        x = _unwrap(x)
        if not (isinstance(x, tensor) and x.dtype.is_int() or isinstance(x, int) and not isinstance(x, bool)):
            raise TypeError(f"{what} of a block pointer must be integers, got {x!r}")
    return xs


@builtin
def advance(base, offsets):
    """``base`` moved by ``offsets`` elements along each dimension."""
    if not isinstance(base, block_ptr):
        raise TypeError(f"advance expects a block pointer, got {_type_name(base)}")
    offsets = _offsets_int(_seq(offsets), "the offsets")
    if len(offsets) != len(base.block_shape):
        raise ValueError(f"advance: expected {len(base.block_shape)} offsets, got {len(offsets)}")
    return block_ptr(base.desc, [o + cast(d, int32) for o, d in zip(base.offsets, offsets)], base.order)


def _boundary(boundary_check):
    return [] if _unwrap(boundary_check) is None else [_unwrap(d) for d in _seq(boundary_check)]


def _str_opt(x, what):
    x = _unwrap(x)
    if x is None:
        return ""
    if not isinstance(x, str):
        raise TypeError(f"{what} must be a string, got {x!r}")
    return x


@builtin
def load(pointer, mask=None, other=None, boundary_check=(), padding_option="", cache_modifier="",
         eviction_policy="", volatile=False):
    """Loads the block (or scalar) ``pointer`` points to; elements where
    ``mask`` is false take ``other``. On a block pointer, ``boundary_check``
    masks the dimensions to bounds-check and ``padding_option`` ("zero",
    "nan") fills them."""
    cache = _str_opt(cache_modifier, "cache_modifier")
    evict = _str_opt(eviction_policy, "eviction_policy")
    volatile = bool(_unwrap(volatile))
    pointer = _unwrap(pointer)
    if isinstance(pointer, block_ptr):
        if _unwrap(mask) is not None or _unwrap(other) is not None:
            raise ValueError("`mask` and `other` arguments cannot be specified for loading block pointers")
        return _wrap(_sem().descriptor_load(pointer.desc.handle, _offsets(pointer.offsets), _boundary(boundary_check),
                                            _str_opt(padding_option, "padding_option"), cache, evict, volatile))
    if _unwrap(boundary_check) not in ((), [], None) or _unwrap(padding_option):
        raise ValueError("`boundary_check` and `padding_option` can only be used with block pointers")
    return _wrap(_sem().load(to_tensor(pointer).handle, _opt_opnd(mask), _opt_opnd(other), cache, evict,
                             volatile))


@_tensor_method
def store(pointer, value, mask=None, boundary_check=(), cache_modifier="", eviction_policy=""):
    """Stores ``value`` where ``pointer`` points, where ``mask`` holds."""
    cache = _str_opt(cache_modifier, "cache_modifier")
    evict = _str_opt(eviction_policy, "eviction_policy")
    pointer = _unwrap(pointer)
    if isinstance(pointer, block_ptr):
        if _unwrap(mask) is not None:
            raise ValueError("`mask` argument cannot be specified for storing to block pointers")
        _sem().descriptor_store(pointer.desc.handle, _offsets(pointer.offsets), _opnd(value),
                                _boundary(boundary_check), cache, evict)
        return None
    if _unwrap(boundary_check) not in ((), [], None):
        raise ValueError("`boundary_check` can only be used with block pointers")
    _sem().store(to_tensor(pointer).handle, _opnd(value), _opt_opnd(mask), cache, evict)


class tensor_descriptor(tensor):
    """A tensor descriptor (``tl.make_tensor_descriptor``): a strided tensor
    in global memory that ``load`` and ``store`` access a block of
    ``block_shape`` at a time (zeros read outside the tensor, nothing written
    there). Its value is one IR value (docs/language.md)."""

    @property
    def block_shape(self):
        return list(self.type.shape)

    @property
    def dtype(self):
        return self.type.desc_element

    @property
    def shape(self):
        return self.block_shape

    def __repr__(self):
        return str(self.type)

    @builtin
    def load(self, offsets):
        """The block at ``offsets`` (elements, one per dimension)."""
        return load_tensor_descriptor(self, offsets)

    @builtin
    def store(self, offsets, value):
        """Writes ``value`` (of ``block_shape``) at ``offsets``."""
        return store_tensor_descriptor(self, offsets, value)


def _offsets(offsets):
    return [_opnd(o) for o in _seq(offsets)]


@builtin
def make_tensor_descriptor(base, shape, strides, block_shape, padding_option="zero"):
    """A descriptor of the tensor of ``shape`` and ``strides`` (elements; the
    last stride 1) at ``base``, accessed by blocks of ``block_shape``."""
    if _unwrap(padding_option) != "zero":
        raise ValueError(f"padding_option {_unwrap(padding_option)!r} is not supported; use 'zero'")
    base = to_tensor(base)
    return _wrap(_sem().make_tensor_descriptor(base.handle, _offsets(shape), _offsets(strides),
                                               _unwrap_shape(block_shape)))


@builtin
def load_tensor_descriptor(desc, offsets):
    """``desc.load(offsets)`` (the semantic checks that ``desc`` is one)."""
    return _wrap(_sem().descriptor_load(to_tensor(desc).handle, _offsets(offsets)))


@builtin
def store_tensor_descriptor(desc, offsets, value):
    """``desc.store(offsets, value)``."""
    _sem().descriptor_store(to_tensor(desc).handle, _offsets(offsets), _opnd(value))


def _atomic_pointer(pointer, name):
    pointer = _unwrap(pointer)
    if isinstance(pointer, block_ptr):
        raise TypeError(f"{name} does not take block pointers")
    return to_tensor(pointer).handle


def _atomic_builtin(op, doc):
    def atomic(pointer, val, mask=None, sem=None, scope=None):
        return _wrap(_sem().atomic_rmw(op, _atomic_pointer(pointer, f"atomic_{op}"), _opnd(val), _opt_opnd(mask),
                                       _str_opt(sem, "sem"), _str_opt(scope, "scope")))
    return _generated_builtin(f"atomic_{op}", doc, atomic)


atomic_add = _atomic_builtin("add", "Atomically adds ``val`` at ``pointer``; returns the old value.")
atomic_max = _atomic_builtin("max", "Atomic maximum; returns the old value.")
atomic_min = _atomic_builtin("min", "Atomic minimum; returns the old value.")
atomic_and = _atomic_builtin("and", "Atomic bitwise and; returns the old value.")
atomic_or = _atomic_builtin("or", "Atomic bitwise or; returns the old value.")
atomic_xor = _atomic_builtin("xor", "Atomic bitwise xor; returns the old value.")
atomic_xchg = _atomic_builtin("xchg", "Atomic exchange; returns the old value.")


@_tensor_method
def atomic_cas(pointer, cmp, val, sem=None, scope=None):
    """Atomic compare-and-swap: stores ``val`` if the value at ``pointer``
    equals ``cmp``; returns the old value."""
    return _wrap(_sem().atomic_cas(_atomic_pointer(pointer, "atomic_cas"), _opnd(cmp), _opnd(val), _str_opt(sem, "sem"),
                                   _str_opt(scope, "scope")))


# -- Reductions and scans -----------------------------------------------------


def _axis(x, axis):
    """A normalized axis, or None for "all dimensions" (axis=None)."""
    axis = _unwrap(axis)
    if axis is None:
        return None
    rank = len(x.shape)
    if isinstance(axis, bool) or not isinstance(axis, int):
        raise TypeError(f"axis must be an integer constexpr or None, got {axis!r}")
    if not -rank <= axis < _py.max(rank, 1):
        raise ValueError(f"axis {axis} is out of range for a tensor of rank {rank}")
    return axis + rank if axis < 0 else axis


def _reduce_kind(input, kind, axis, keep_dims, dtype=None):
    x = to_tensor(input)
    dt = _unwrap(dtype)
    if dt is not None:
        dt = _check_dtype(dt)
    return _wrap(_sem().reduce(x.handle, kind, _axis(x, axis), bool(_unwrap(keep_dims)), dt))


def _combined(what, input, axis, combine_fn, flag):
    """``tl.reduce`` or ``tl.associative_scan`` (``what``) of ``input`` (a
    tensor or a tuple of tensors of one shape) along ``axis`` with the @jit
    function ``combine_fn``; ``flag`` is keep_dims or reverse."""
    input = _unwrap(input)
    is_tuple = isinstance(input, (tuple, list))
    xs = [to_tensor(x) for x in input] if is_tuple else [to_tensor(input)]
    axis = _axis(xs[0], axis)
    combine = _codegen(f"tl.{what} with a combine function").build_combine_fn(_unwrap(combine_fn), [x.dtype for x in xs])
    op = _sem().reduce if what == "reduce" else _sem().scan
    outs = tuple(_wrap(o) for o in op([x.handle for x in xs], axis, combine, bool(_unwrap(flag))))
    return outs if is_tuple else outs[0]


@_tensor_method
def reduce(input, axis, combine_fn, keep_dims=False):
    """Reduces ``input`` (a tensor or a tuple of tensors of one shape) along
    ``axis`` with the @jit function ``combine_fn(a..., b...)``."""
    return _combined("reduce", input, axis, combine_fn, keep_dims)


@_tensor_method
def associative_scan(input, axis, combine_fn, reverse=False):
    """The inclusive scan of ``input`` (a tensor or a tuple) along ``axis``
    with the @jit function ``combine_fn``."""
    return _combined("associative_scan", input, axis, combine_fn, reverse)


# -- Hints, debugging, iterators ----------------------------------------------


def _hint_builtin(name, op, doc):
    def hint(input, values):
        values = [_unwrap(v) for v in _seq(values)]
        for v in values:
            if isinstance(v, bool) or not isinstance(v, int):
                raise TypeError(f"{op.name} hints must be integer constexprs, got {v!r}")
        return _wrap(_sem().hint(op, _to_tensor_handle(input), values))
    return _generated_builtin(name, doc, hint, method=False)


multiple_of = _hint_builtin("multiple_of", Hint.MultipleOf,
                            "Tells the compiler that the elements of ``input`` are multiples of ``values``.")
max_contiguous = _hint_builtin("max_contiguous", Hint.MaxContiguous,
                               "Tells the compiler that runs of ``values`` elements of ``input`` are contiguous.")
max_constancy = _hint_builtin("max_constancy", Hint.MaxConstancy,
                              "Tells the compiler that runs of ``values`` elements of ``input`` are equal.")


@builtin
def assume(cond):
    """A fact the compiler may assume; Tritium does not use it yet."""
    return None


@builtin
def debug_barrier():
    """A barrier across the threads of the program."""
    _sem().debug_barrier()


class _StaticAssertionFailure(Exception):
    pass


@builtin
def static_assert(cond, msg=""):
    """Fails the compilation unless the constexpr ``cond`` holds."""
    c = _unwrap(cond)
    if isinstance(c, tensor):
        raise TypeError("static_assert's condition must be a constexpr (known at compile time)")
    if not c:
        m = _unwrap(msg)
        raise _StaticAssertionFailure(f"static_assert failed: {m}" if m else "static_assert failed")


@builtin
def static_print(*values, sep=" ", end="\n", file=None, flush=False):
    """Prints constexpr values at compile time."""
    def plain(v):
        v = _unwrap(v)
        return type(v)(plain(x) for x in v) if isinstance(v, (tuple, list)) else v

    print(*[plain(v) for v in values], sep=sep, end=end, file=file, flush=flush)


@builtin
def device_print(prefix, *args, hex=False):
    """Prints ``prefix`` and the values of ``args`` at run time."""
    prefix = _unwrap(prefix)
    if not isinstance(prefix, str):
        raise TypeError(f"device_print's prefix must be a string, got {prefix!r}")
    vals = [to_tensor(a).handle for a in args]
    _sem().device_print(prefix, vals, bool(_unwrap(hex)))


@builtin
def device_assert(cond, msg="", mask=None):
    """Checks ``cond`` at run time (only when compiled with debug=True)."""
    if not _option("debug", False):
        return None
    msg = _unwrap(msg)
    if not isinstance(msg, str):
        raise TypeError(f"device_assert's message must be a string, got {msg!r}")
    _sem().device_assert(_opnd(cond), msg, _opt_opnd(mask))


class static_range:
    """``for i in tl.static_range(...)``: the loop is unrolled at compile
    time and ``i`` is a constexpr."""

    def __init__(self, arg1, arg2=None, step=None):
        start, end = (0, arg1) if arg2 is None else (arg1, arg2)
        self.start = _int_arg(start, "static_range's start")
        self.end = _int_arg(end, "static_range's end")
        self.step = 1 if step is None else _int_arg(step, "static_range's step")
        if self.step == 0:
            raise ValueError("static_range's step must not be zero")

    def __iter__(self):
        return iter(_py.range(self.start, self.end, self.step))


class range:
    """``for i in tl.range(...)``: a loop of the kernel; the options are
    compiler hints: num_stages and disable_licm go on the loop's branch (for
    the pipeliner), the others are accepted and ignored."""

    def __init__(self, arg1, arg2=None, step=None, num_stages=None, loop_unroll_factor=None,
                 disallow_acc_multi_buffer=False, flatten=False, warp_specialize=False, disable_licm=False):
        self.start, self.end = (0, arg1) if arg2 is None else (arg1, arg2)
        self.step = 1 if step is None else step
        self.num_stages = _unwrap(num_stages)
        self.disable_licm = _unwrap(disable_licm)

    def bounds(self):
        """The loop's start, end and step as scalar tensors of the integer
        type the three promote to (as compiled), and the step as a Python
        int where it is one: the checks the code generator and the
        interpreter share."""
        start, end, step = _unwrap(self.start), _unwrap(self.end), _unwrap(self.step)
        for what, v in (("start", start), ("end", end), ("step", step)):
            if not isinstance(v, (tensor, int)):
                raise TypeError(f"for loop bounds and step must be integers, got {what} = {v!r}")
        if isinstance(step, int) and step == 0:
            raise ValueError("range() arg 3 must not be zero")
        lb, ub, st = to_tensor(start), to_tensor(end), to_tensor(step)
        for what, v in (("start", lb), ("end", ub), ("step", st)):
            if not v.dtype.is_int() or v.type.is_block():
                raise TypeError(f"for loop bounds and step must be integer scalars, got {what} of type {v.type}")
        if not (lb.dtype == ub.dtype == st.dtype):
            iv_type = ((lb + ub) + st).dtype
            lb, ub, st = (cast(v, iv_type) for v in (lb, ub, st))
        return lb, ub, st, step if isinstance(step, int) else None

    def __iter__(self):
        stack = _builders()
        iterate = getattr(stack[-1].semantic, "iterate_range", None) if stack else None
        if iterate is None:
            raise RuntimeError("tl.range can only be iterated in a @jit function")
        return iterate(self)


class condition:
    """``while tl.condition(c, disable_licm=...)``: the condition of a loop
    with compiler hints (accepted)."""

    def __init__(self, arg1, disable_licm=False):
        self.condition = arg1
        self.disable_licm = disable_licm


@builtin
def extern_elementwise(lib_name, lib_path, args, arg_type_symbol_dict, is_pure=True):
    """Triton's external-call entry point: ``arg_type_symbol_dict`` maps a
    tuple of argument dtypes to ``(symbol, result dtype)``."""
    from . import _extern
    return _extern.dispatch(list(args), arg_type_symbol_dict, _unwrap(is_pure))


@builtin
def inline_asm_elementwise(asm, constraints, args, dtype, is_pure, pack):
    """Runs the assembly ``asm`` once per element of the broadcast ``args``
    (LLVM inline-asm ``constraints``: outputs first, then one per argument,
    ``$0``, ``$1``... in the text); ``dtype`` is the result's type, or a
    tuple of them for several outputs. With ``pack`` > 1 it runs once per
    ``pack`` elements, narrow ones packed into 32-bit registers (docs/ir.md).
    Runs only in compiled kernels (PTX on NVIDIA, AMDGPU assembly on AMD)."""
    dt = _unwrap(dtype)
    several = isinstance(dt, (tuple, list))
    dts = [_check_dtype(d) for d in dt] if several else [_check_dtype(dt)]
    outs = _sem().inline_asm(_unwrap(asm), _unwrap(constraints), [_opnd(a) for a in _unwrap(args)], dts,
                             bool(_unwrap(is_pure)), int(_unwrap(pack)))
    outs = [_wrap(o) for o in outs]
    return tuple(outs) if several else outs[0]
