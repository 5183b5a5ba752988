"""The interpreter's semantic: the methods of ``_C.frontend.Semantic``
(docs/frontend.md, "the semantic protocol") on numpy arrays.

Every ``tl`` builtin calls the current semantic; under the interpreter that
is an ``InterpreterSemantic``, and a value's handle is a ``TensorHandle``: a
numpy array (0-d for scalars) and the value's language type. The rules of
each operation (types, promotions, shapes, errors) are asked of the C++
frontend through the binding (``_C.frontend.binary_typing``, ``dot_typing``,
``reduction_typing``, ``check_cast``, ``check_load``, ``check_*``: the same
functions the Semantic calls before it emits IR), once per combination of
types where that is safe, so that the interpreter and compiled code agree on
every dtype and message; this module evaluates the result on numpy arrays.
tests/python/test_diagnostics_once.py counts what is still restated here.

Numbers are those of the NVIDIA lowering (codegen/lowering/): integers wrap,
``//`` and ``%`` truncate like C, shifts by the width or more give 0 (or the
sign for ``>>`` of signed values) as PTX clamps them, fp16 rounds after every
operation, bf16 and fp8 are computed in fp32 and rounded back (floats.py),
float-to-int conversions saturate (NaN gives 0). Math functions are numpy's
(correctly rounded where the GPU uses approximations).
"""

import math
import sys

import numpy as np

from .. import language as tl
from .._C import frontend as _fe
from ..errors import CompilationError
from ..language import core as _core
from . import floats as F

BinOp, CmpOp, UnaryOp = _fe.BinOp, _fe.CmpOp, _fe.UnaryOp


# ---------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------


class _Info:
    """What the interpreter needs to know about a scalar type."""

    __slots__ = ("ty", "name", "np", "is_float", "is_int", "is_ptr", "signed", "bits", "carried", "storage",
                 "elem_size", "pointee", "const")

    def __init__(self, ty):
        self.ty = ty
        self.name = ty.name
        self.is_ptr = ty.is_pointer()
        self.is_float = ty.is_float()
        self.is_int = ty.is_int()
        self.signed = ty.is_signed() if self.is_int else False
        self.bits = ty.bit_width if not self.is_ptr else 64
        self.carried = self.name if self.name in F.CARRIED else None
        self.pointee = ty.pointee if self.is_ptr else None
        self.const = self.is_ptr and ty.is_const()
        if self.is_ptr:
            self.np = np.dtype(np.int64)
            pe = self.pointee
            self.elem_size = 1 if pe.bit_width == 1 else (pe.bit_width + 7) // 8 if not pe.is_pointer() else 8
        else:
            self.np = np.dtype(_NP_NAMES[self.name])
            self.elem_size = None
        # How memory holds it.
        if self.name == "int1":
            self.storage = np.dtype(np.uint8)
        elif self.carried:
            self.storage = np.dtype(np.uint16 if self.name == "bf16" else np.uint8)
        else:
            self.storage = self.np


_NP_NAMES = {
    "int1": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64,
    "uint8": np.uint8, "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64,
    "fp16": np.float16, "bf16": np.float32, "fp8e4nv": np.float32, "fp8e5": np.float32,
    "fp32": np.float32, "fp64": np.float64,
}

_INFO = {}


def info(ty):
    # DTypes are uniqued and immortal: their ids are keys (cheaper than
    # the binding's __hash__).
    i = _INFO.get(id(ty))
    if i is None:
        i = _INFO[id(ty)] = _Info(ty)
    return i


_BLOCK_TYPES = {}


def block_type(scalar, shape):
    """The DType of a block (cached); ``scalar`` itself for shape ()."""
    if not shape:
        return scalar
    key = (id(scalar), shape)
    t = _BLOCK_TYPES.get(key)
    if t is None:
        t = _BLOCK_TYPES[key] = tl.dtype.get_block(scalar, list(shape))
    return t


class TensorHandle:
    """A value of the interpreted kernel: ``data`` (a numpy array, 0-d for a
    scalar, in the type's numpy representation: bf16/fp8 as float32 values,
    pointers as int64 addresses), ``type`` (the language type, block or
    scalar) and ``sty`` (the scalar type)."""

    __slots__ = ("data", "type", "sty")

    def __init__(self, data, sty, shape=None):
        self.data = data
        self.sty = sty
        self.type = block_type(sty, data.shape if shape is None else shape)

    @property
    def dtype(self):
        return self.sty

    @property
    def shape(self):
        return list(self.data.shape)

    def __repr__(self):
        return f"TensorHandle({self.type}, {self.data!r})"


class DescHandle:
    """A tensor descriptor of the interpreted kernel: its type (tensordesc),
    the base pointer's handle and the shape and strides as Python ints."""

    __slots__ = ("type", "base", "shape", "strides")

    def __init__(self, type, base, shape, strides):
        self.type, self.base, self.shape, self.strides = type, base, shape, strides


def bcast(a, shape):
    """``a`` broadcast to ``shape`` (a fresh array for scalars: cheaper than
    np.broadcast_to)."""
    if a.shape == shape:
        return a
    if a.ndim == 0:
        return np.full(shape, a, dtype=a.dtype)
    return np.broadcast_to(a, shape)


def _h(data, sty):
    if type(data) is not np.ndarray:
        data = np.asarray(data)
    return TensorHandle(data, sty)


def error(msg):
    raise CompilationError(msg)


# -- literals ------------------------------------------------------------------

_I32_MIN, _I32_MAX = -2**31, 2**31 - 1
_F32_MIN_NORMAL = 2.0 ** -126
_F32_MAX = (2.0 - 2.0 ** -23) * 2.0 ** 127


def literal_type(x):
    """Operand::getLiteralType (frontend/Promotion.cpp)."""
    if isinstance(x, bool):
        return tl.int1
    if isinstance(x, int):
        if _I32_MIN <= x <= _I32_MAX:
            return tl.int32
        if 0 <= x < 2**32:
            return tl.uint32
        if -2**63 <= x < 2**63:
            return tl.int64
        if 0 <= x < 2**64:
            return tl.uint64
        raise ValueError(f"integer {x} is out of range: literals must lie in [-2**63, 2**64)")
    a = abs(x)
    if a == 0.0 or math.isinf(a) or math.isnan(a) or _F32_MIN_NORMAL <= a <= _F32_MAX:
        return tl.float32
    return tl.float64


def _is_lit(x):
    return isinstance(x, (bool, int, float))


def _lit_str(x):
    if isinstance(x, bool):
        return "True" if x else "False"
    if isinstance(x, float):
        if math.isnan(x):
            return "nan"
        if math.isinf(x):
            return "-inf" if x < 0 else "inf"
        return repr(x)
    return str(x)


def _wrap_int(v, bits, signed):
    if bits == 1:
        return 1 if v != 0 else 0
    v &= (1 << bits) - 1
    if signed and v >= 1 << (bits - 1):
        v -= 1 << bits
    return v


def _float_to_int(f, inf_):
    """frontend/Creation.cpp floatToInt: truncation, NaN -> 0, saturation."""
    if inf_.bits == 1:
        return 1 if f != 0.0 else 0
    if math.isnan(f):
        return 0
    r = math.trunc(f) if math.isfinite(f) else (2**70 if f > 0 else -2**70)
    if not inf_.signed:
        if r <= 0:
            return 0
        if r >= 2**64:
            return _wrap_int(-1, inf_.bits, False)
        return _wrap_int(r, inf_.bits, False)
    r = max(-2**63, min(2**63 - 1, r))
    return _wrap_int(r, inf_.bits, True)


_WEAK_OK = set()


def check_weak_literal(v, ty):
    """checkWeakLiteral: a Python int next to an integer computation."""
    if isinstance(v, float):
        return
    key = (v, id(ty))
    if key in _WEAK_OK:
        return
    if not _is_lit(v) or not ty.is_int():
        return
    _fe.check_weak_literal(v, ty)
    if len(_WEAK_OK) < 100000:
        _WEAK_OK.add(key)


_LIT_CACHE = {}


def lit_array(v, ty):
    """The literal ``v`` as a 0-d array of scalar type ``ty`` (converted as
    Semantic::literal does: ints wrapped, floats truncated, rounded once)."""
    if isinstance(v, float):
        key = None if v != v else (float, v, math.copysign(1.0, v), id(ty))
    else:
        key = (type(v), v, id(ty))
    if key is not None:
        a = _LIT_CACHE.get(key)
        if a is not None:
            return a
    i = info(ty)
    if i.is_int:
        iv = _float_to_int(v, i) if isinstance(v, float) else _wrap_int(int(v), i.bits, i.signed)
        a = np.array(bool(iv) if i.bits == 1 else iv, dtype=i.np)
    elif i.is_float:
        d = float(v)
        if i.carried:
            a = np.asarray(F.round_to(F.f64_to_f32_odd(d), i.carried))
        else:
            a = np.array(d, dtype=i.np)
    else:
        error(f"cannot make a constant of type {ty.name} from {_lit_str(v)}")
    a.flags.writeable = False
    if key is not None and len(_LIT_CACHE) < 100000:
        _LIT_CACHE[key] = a
    return a


# -- shapes -----------------------------------------------------------------------


def fmt_shape(s):
    return "[" + ", ".join(str(d) for d in s) + "]"


def broadcast_shapes(a, b):
    if a == b:
        return a
    if len(a) < len(b):
        a, b = b, a
    r = list(a)
    pad = len(a) - len(b)
    for i, y in enumerate(b):
        x = a[pad + i]
        if x == 1:
            r[pad + i] = y
        elif y != 1 and y != x:
            return None
    return tuple(r)


def common_shape(a, b, what):
    s = broadcast_shapes(a, b)
    if s is None or s not in _SHAPES_CHECKED:
        _fe.check_common_shape(list(a), list(b), what)  # incompatible, or too many elements
        _SHAPES_CHECKED.add(s)
    return s


def check_block_shape(dims):
    """checkBlockShape's message for ``dims``, or ""."""
    return _fe.block_shape_error(list(dims))


def wrap_axis(axis, rank):
    if axis < -rank or axis >= rank:
        return None
    return axis + rank if axis < 0 else axis


# -- typing (asked of the C++ core) --------------------------------------------------

# A literal of each literal type, to ask the binding about literals of that type.
_REPRESENTATIVE = {}


def _representative(ty):
    r = _REPRESENTATIVE.get(ty)
    if r is None:
        r = _REPRESENTATIVE[ty] = {"int1": True, "int32": 0, "uint32": 2**31, "int64": 2**40, "uint64": 2**63,
                                   "fp32": 1.0, "fp64": 1e300}[ty.name]
    return r


_TYPING = {}
_CASTS_CHECKED = set()
_SHAPES_CHECKED = set()
_ACCESSES_CHECKED = set()
_UNARY_CHECKED = set()  # (operator, type) pairs typeUnary accepted  # (check, pointer type, operand types) the C++ accepted  # broadcast results checkCommonShape accepted  # (source, dest, rounding) pairs the C++ checkCast accepted


def typing(kind, op, lt, llit, rt, rlit):
    """The binding's binary_typing / compare_typing / min_max_typing (op:
    is_max) / where_typing, cached per types."""
    key = (kind, id(op), id(lt), llit, id(rt), rlit)
    r = _TYPING.get(key)
    if r is None:
        a = _representative(lt) if llit else lt
        b = _representative(rt) if rlit else rt
        try:
            if kind == "binary":
                d = _fe.binary_typing(op, a, b)
            elif kind == "min_max":
                d = _fe.min_max_typing(op, a, b)
            elif kind == "where":
                d = _fe.where_typing(a, b)
            else:
                d = _fe.compare_typing(op, lt, rt)
            r = (d["computation"], d["lhs"], d["rhs"], d["result"], None)
        except CompilationError as e:
            r = (None, None, None, None, getattr(e, "message", None) or str(e))
        _TYPING[key] = r
    if r[4] is not None:
        error(r[4])
    return r


_SYMBOLS = {
    "Add": "+", "Sub": "-", "Mul": "*", "TrueDiv": "/", "FloorDiv": "//", "Mod": "%", "BitAnd": "&", "BitOr": "|",
    "BitXor": "^", "Shl": "<<", "Shr": ">>", "LogicalAnd": "and", "LogicalOr": "or", "FDiv": "fdiv",
    "DivRn": "div_rn", "UMulHi": "umulhi", "EQ": "==", "NE": "!=", "LT": "<", "LE": "<=", "GT": ">", "GE": ">=",
}

#: The binding's enum values by id (comparing pybind enums costs ~1 us).
OPNAME = {}
for _enum in (BinOp, CmpOp, UnaryOp):
    for _name, _value in _enum.__members__.items():
        OPNAME[id(_value)] = _name


def opname(op):
    n = OPNAME.get(id(op))
    if n is None:
        n = OPNAME[id(op)] = op.name
    return n


# ---------------------------------------------------------------------------
# Value conversions (Casts.cpp)
# ---------------------------------------------------------------------------

_UNSIGNED = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}
_SIGNED = {8: np.int8, 16: np.int16, 32: np.int32, 64: np.int64}


def to_bits(arr, i):
    """Values of type ``i`` -> their bit patterns (unsigned ints)."""
    if i.carried:
        return F.to_bits(arr, i.carried)
    if i.bits == 1:
        return arr.astype(np.uint8)
    return np.ascontiguousarray(arr).view(_UNSIGNED[i.bits])


def from_bits(bits, i):
    if i.carried:
        return F.from_bits(bits, i.carried)
    if i.bits == 1:
        return bits != 0
    return np.ascontiguousarray(bits).view(i.np)


def float_to_int(x, to):
    """fptosi/fptoui: truncation toward zero, saturating, NaN -> 0."""
    f = np.asarray(x, dtype=np.float64)
    with np.errstate(all="ignore"):
        t = np.trunc(f)
        if to.signed:
            lo, hi = -2.0 ** (to.bits - 1), 2.0 ** (to.bits - 1)
        else:
            lo, hi = 0.0, 2.0 ** to.bits
        nan = t != t
        big = t >= hi
        small = t < lo
        safe = np.where(nan | big | small, 0.0, t)
        if to.bits == 64:
            r = safe.astype(to.np)
        else:
            r = safe.astype(np.int64).astype(to.np)
        if big.any():
            r = np.where(big, np.array(np.iinfo(to.np).max, to.np), r)
        if small.any():
            r = np.where(small, np.array(np.iinfo(to.np).min, to.np), r)
    return r


def convert(arr, s, t, rounding=None):
    """The values ``arr`` of scalar type ``s`` (an _Info) converted to ``t``
    (Semantic::castTo without the checks)."""
    if s.ty == t.ty:
        return arr
    if s.is_float and t.is_float:
        if s.bits == t.bits:
            mid = info(tl.float16 if s.bits == 8 else tl.float32)
            return convert(convert(arr, s, mid), mid, t)
        rtz = rounding == "rtz"
        if t.bits > s.bits:  # FPExt: exact
            f = arr.astype(np.float64 if t.bits == 64 else np.float32)
            if t.carried:
                return F.round_to(f, t.carried)
            return f.astype(t.np)
        # FPTrunc.
        x = arr
        if s.name == "fp64" and t.name != "fp32":
            x = x.astype(np.float32)
            s = info(tl.float32)
        if t.carried:
            return F.round_to(x.astype(np.float32), t.carried, rtz)
        if t.name == "fp16":
            if rtz:
                return F.round_f16_rtz(x)
            return x.astype(np.float16)
        if rtz:
            return F.round_f32_rtz(x)
        return x.astype(t.np)
    if t.is_int and t.bits == 1 and not s.is_ptr:
        return arr != 0
    if s.is_int and t.is_int:
        return arr.astype(t.np)
    if s.is_float and t.is_int:
        return float_to_int(arr, t)
    if s.is_int and t.is_float:
        if t.carried:
            return F.round_to(arr.astype(np.float32), t.carried)
        if s.bits == 64 and t.name == "fp16":
            return arr.astype(np.float32).astype(np.float16)
        return arr.astype(t.np)
    if s.is_ptr and t.is_int:
        if t.bits == 1:
            return arr != 0
        return arr.astype(t.np)
    if s.is_int and t.is_ptr:
        if s.signed and s.bits < 64:
            arr = arr.astype(_UNSIGNED[s.bits]) if s.bits > 1 else arr
        return arr.astype(np.int64)
    return arr


# ---------------------------------------------------------------------------
# Arithmetic on arrays
# ---------------------------------------------------------------------------


def _trunc_div(a, b, i):
    if not i.signed:
        with np.errstate(all="ignore"):
            return np.floor_divide(a, b)
    with np.errstate(all="ignore"):
        q = np.floor_divide(a, b)
        r = np.remainder(a, b)
        fix = (r != 0) & ((a < 0) != (b < 0))
        if np.any(fix):
            q = q + fix.astype(q.dtype)
    return q


def _shift(a, b, i, kind):
    """PTX shl/shr: amounts >= the width are clamped to it."""
    bits = i.bits
    ua = a.view(_UNSIGNED[bits]) if bits > 1 else a.astype(np.uint8)
    amt = b.view(_UNSIGNED[bits]) if bits > 1 else b.astype(np.uint8)
    width = 1 if bits == 1 else bits
    big = amt >= width
    s = np.where(big, 0, amt).astype(ua.dtype)
    if kind == "shl":
        r = np.where(big, 0, np.left_shift(ua, s)).astype(ua.dtype)
    elif kind == "lshr":
        r = np.where(big, 0, np.right_shift(ua, s)).astype(ua.dtype)
    else:  # ashr on the bits as signed
        sa = ua.view(_SIGNED[bits]) if bits > 1 else ua.astype(np.int8) * -1
        r = np.where(big, np.where(sa < 0, -1, 0), np.right_shift(sa, s.astype(sa.dtype))).astype(sa.dtype)
        r = r.view(_UNSIGNED[bits]) if bits > 1 else (r & 1).astype(np.uint8)
    if bits == 1:
        return (r & 1) != 0
    return r.view(i.np)


def _umulhi(a, b, i):
    bits = i.bits
    ua = np.asarray(a).astype(_UNSIGNED[bits]) if bits < 64 else np.asarray(a).view(np.uint64)
    ub = np.asarray(b).astype(_UNSIGNED[bits]) if bits < 64 else np.asarray(b).view(np.uint64)
    if bits <= 32:
        p = ua.astype(np.uint64) * ub.astype(np.uint64)
        return (p >> np.uint64(bits)).astype(_UNSIGNED[bits]).view(i.np) if bits > 1 else p
    m = np.uint64(0xFFFFFFFF)
    s = np.uint64(32)
    al, ah = ua & m, ua >> s
    bl, bh = ub & m, ub >> s
    ll, lh, hl, hh = al * bl, al * bh, ah * bl, ah * bh
    mid = (ll >> s) + (lh & m) + (hl & m)
    hi = hh + (lh >> s) + (hl >> s) + (mid >> s)
    return hi.view(i.np)


_INT_UFUNCS = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "BitAnd": np.bitwise_and,
               "LogicalAnd": np.bitwise_and, "BitOr": np.bitwise_or, "LogicalOr": np.bitwise_or,
               "BitXor": np.bitwise_xor}
_FLOAT_UFUNCS = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "TrueDiv": np.divide, "FDiv": np.divide,
                 "DivRn": np.divide, "Mod": np.fmod}


def int_binary(op, a, b, i):
    """``a op b`` (op by name) on integer arrays of type ``i`` (wrapping)."""
    if i.bits == 1 and op not in ("BitAnd", "BitOr", "BitXor", "LogicalAnd", "LogicalOr", "Shl", "Shr"):
        ua, ub = np.asarray(a).astype(np.uint8), np.asarray(b).astype(np.uint8)
        if op in ("Add", "Sub"):
            r = ua ^ ub
        elif op == "Mul":
            r = ua & ub
        elif op == "FloorDiv":
            r = np.where(ub != 0, ua, 0)
        else:
            r = np.zeros(np.broadcast(ua, ub).shape, np.uint8)
        return (r & 1) != 0
    f = _INT_UFUNCS.get(op)
    if f is not None:
        return f(a, b)
    if op == "FloorDiv":
        return _trunc_div(a, b, i)
    if op == "Mod":
        return np.fmod(a, b) if i.signed else np.remainder(a, b)
    if op == "Shl":
        return _shift(np.asarray(a), np.asarray(b), i, "shl")
    if op == "UMulHi":
        return _umulhi(a, b, i)
    raise NotImplementedError(op)


def float_binary(op, a, b, i):
    r = _FLOAT_UFUNCS[op](a, b)
    if i.carried:
        return F.round_to(r, i.carried)
    return r


_CMP_UFUNCS = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal, "GT": np.greater,
               "GE": np.greater_equal}


def _all_ones(i):
    return np.array(True) if i.bits == 1 else np.array(-1).astype(i.np)


def _erf(x):
    return np.vectorize(math.erf, otypes=[np.float64])(x)


# ---------------------------------------------------------------------------
# The semantic
# ---------------------------------------------------------------------------


class InterpreterSemantic:
    """The semantic protocol on numpy arrays, for one launch: ``pid`` and
    ``grid`` are the program being run and the launch grid; ``memory`` is the
    launch's buffers; ``where()`` gives the kernel location for messages."""

    def __init__(self, memory, grid, where, stdout=None):
        self.memory = memory
        self.grid = grid
        self.pid = (0, 0, 0)
        self._loc = where
        self._stdout = stdout
        self._aranges = {}
        self._pid_cache = {}

    # -- helpers -------------------------------------------------------------

    def host_value(self, t):
        """The Python value of the scalar tensor ``t``: what plain Python code
        (a function with no source to rewrite) reads in ``if t:`` or
        ``range(t)``."""
        data = t.handle.data
        if data.size != 1:  # a one-element block is its value, as in Triton
            raise BlockConditionError(f"a block ({t.type}) cannot be a condition; reduce it to a scalar first")
        return data.item()

    def iterate_range(self, r):
        """``for i in tl.range(...)`` in plain Python code: the loop of the
        rewritten code (induction variable typed as compiled)."""
        from .rewrite import _dynamic_range
        return _dynamic_range(r)

    @staticmethod
    def _ty(o):
        """(scalar type, is literal) of an operand."""
        if type(o) is TensorHandle:
            return o.sty, False
        if isinstance(o, TensorHandle):
            return o.sty, False
        if _is_lit(o):
            return literal_type(o), True
        raise TypeError(f"unsupported operand of type {type(o).__name__}: expected a value, bool, int or float")

    @staticmethod
    def _shape(o):
        return o.data.shape if isinstance(o, TensorHandle) else ()

    def to_value(self, o):
        if isinstance(o, TensorHandle):
            return o
        ty = literal_type(o) if _is_lit(o) else self._ty(o)[0]
        return TensorHandle(lit_array(o, ty), ty)

    def _conform(self, o, ty, shape=None):
        """Operand -> array of type ``ty`` (None: its own); broadcast to
        ``shape`` if given (elementwise numpy operations broadcast by the
        same rules, so they need no shape). Values convert by cast_to, with
        its checks, as Semantic::conform casts by castTo (a pointer stored
        into a float tensor is an error, not its address as a float)."""
        if type(o) is TensorHandle:
            a = o.data
            if ty is not None and ty is not o.sty and ty != o.sty:
                a = self.cast_to(o, ty).data
        else:
            a = lit_array(o, ty if ty is not None else literal_type(o))
        if shape is not None and a.shape != shape:
            a = bcast(a, shape)
        return a

    def cast_to(self, h, ty, rounding=None):
        """Semantic::castTo: the checks are the C++ checkCast's."""
        s = h.sty
        if s == ty:
            return h
        key = (id(s), id(ty), bool(rounding))
        if key not in _CASTS_CHECKED:
            _fe.check_cast(h.type, ty, bool(rounding))
            _CASTS_CHECKED.add(key)
        return TensorHandle(np.asarray(convert(h.data, info(s), info(ty), rounding)), ty)

    def to_bool(self, h):
        return self.cast_to(h, tl.int1)

    # -- creation ---------------------------------------------------------------

    def constant(self, value, dtype=None):
        ty = dtype.scalar if dtype is not None else self._ty(value)[0]
        self._check_constant(value, ty)
        return TensorHandle(lit_array(value, ty), ty)

    @staticmethod
    def _check_constant(v, ty):
        if ty.is_int() or isinstance(v, TensorHandle):
            _fe.check_constant(v.sty if isinstance(v, TensorHandle) else v, ty)

    def full(self, shape, value, dtype):
        shape = tuple(int(d) for d in shape)
        if shape:
            err = check_block_shape(shape)
            if err:
                error(err)
        ty = dtype.scalar
        if not isinstance(value, TensorHandle):
            self._check_constant(value, ty)
            return TensorHandle(bcast(lit_array(value, ty), shape), ty)
        if value.data.ndim:
            _fe.check_full_value(value.type)
        v = self.cast_to(value, ty)
        return TensorHandle(bcast(v.data, shape), ty)

    def arange(self, start, end):
        key = (start, end)
        h = self._aranges.get(key)
        if h is not None:
            return h
        _fe.check_arange(start, end)
        a = np.arange(start, end, dtype=np.int32)
        a.flags.writeable = False
        h = self._aranges[key] = TensorHandle(a, tl.int32)
        return h

    def program_id(self, axis):
        if not 0 <= axis <= 2:
            _fe.check_program_axis("program_id", axis)
        return self._int32(self.pid[axis])

    def num_programs(self, axis):
        if not 0 <= axis <= 2:
            _fe.check_program_axis("num_programs", axis)
        return self._int32(self.grid[axis])

    def _int32(self, v):
        h = self._pid_cache.get(v)
        if h is None:
            a = np.array(v, dtype=np.int32)
            a.flags.writeable = False
            h = TensorHandle(a, tl.int32)
            if len(self._pid_cache) < 65536:
                self._pid_cache[v] = h
        return h

    # -- arithmetic ----------------------------------------------------------------

    def binary(self, op, lhs, rhs):
        lt, llit = self._ty(lhs)
        rt, rlit = self._ty(rhs)
        comp, lty, rty, res, _ = typing("binary", op, lt, llit, rt, rlit)
        if comp is not None:
            if llit:
                check_weak_literal(lhs, comp)
            if rlit:
                check_weak_literal(rhs, comp)
        name = opname(op)
        shape = common_shape(self._shape(lhs), self._shape(rhs), _SYMBOLS[name])
        ri = info(res)
        if ri.is_ptr and (name == "Add" or name == "Sub"):
            return self._gep(name, lhs, lt, rhs, rt, shape)
        x = self._conform(lhs, lty)
        y = self._conform(rhs, rty)
        ct = lty if lty is not None else lt
        ci = info(ct)
        if name == "Shr":
            decides = lt if not llit else rt if not rlit else ct
            kind = "ashr" if info(decides).signed else "lshr"
            r = _shift(np.asarray(x), np.asarray(y), ci, kind)
        elif ci.is_float:
            r = float_binary(name, x, y, ci)
        else:
            r = int_binary(name, x, y, ci)
        if r.dtype != ri.np:
            r = r.astype(ri.np)
        if type(r) is not np.ndarray:
            r = np.asarray(r)
        return TensorHandle(r, res, shape)

    def _gep(self, op, lhs, lt, rhs, rt, shape):
        if not lt.is_pointer():
            lhs, rhs, lt, rt = rhs, lhs, rt, lt
        pi = info(lt)
        off = self._conform(rhs, None)
        oi = info(rt)
        if oi.is_int and oi.bits == 1:
            off = off.astype(np.int64)
        elif not oi.signed and oi.bits < 64:
            off = off.astype(np.int64)
        base = self._conform(lhs, None)
        o = np.multiply(off, pi.elem_size, dtype=np.int64)
        if op == "Sub":
            r = np.asarray(np.subtract(base, o))
        elif type(o) is np.ndarray and o.ndim and o.shape == shape:
            r = np.add(o, base, out=o)
        else:
            r = np.add(o, base)
        if type(r) is not np.ndarray:
            r = np.asarray(r)
        return TensorHandle(r, lt, shape)

    def min_max(self, is_max, lhs, rhs, propagate_nan=False):
        lt, llit = self._ty(lhs)
        rt, rlit = self._ty(rhs)
        what = "maximum" if is_max else "minimum"
        comp = typing("min_max", bool(is_max), lt, llit, rt, rlit)[0]
        if llit:
            check_weak_literal(lhs, comp)
        if rlit:
            check_weak_literal(rhs, comp)
        shape = common_shape(self._shape(lhs), self._shape(rhs), what)
        x = self._conform(lhs, comp)
        y = self._conform(rhs, comp)
        ci = info(comp)
        if ci.is_float:
            fn = (np.maximum if is_max else np.minimum) if propagate_nan else (np.fmax if is_max else np.fmin)
        else:
            fn = np.maximum if is_max else np.minimum
        r = fn(x, y)
        return TensorHandle(np.asarray(r), comp, shape)

    def compare(self, op, lhs, rhs):
        lt, _ = self._ty(lhs)
        rt, _ = self._ty(rhs)
        comp, lty, rty, res, _ = typing("compare", op, lt, False, rt, False)
        shape = common_shape(self._shape(lhs), self._shape(rhs), _SYMBOLS[opname(op)])
        x = self._conform(lhs, lty)
        y = self._conform(rhs, rty)
        r = _CMP_UFUNCS[opname(op)](x, y)
        return TensorHandle(np.asarray(r), tl.int1, shape)

    _MATH = {"Exp": "exp", "Exp2": "exp2", "Log": "log", "Log2": "log2", "Sqrt": "sqrt", "SqrtRn": "sqrt_rn",
             "Rsqrt": "rsqrt", "Sin": "sin", "Cos": "cos", "Floor": "floor", "Ceil": "ceil", "Erf": "erf"}

    def unary(self, op, x):
        h = self.to_value(x)
        s = h.sty
        si = info(s)
        a = h.data
        op = opname(op)
        if op == "Plus":
            return h
        if (op, id(s)) not in _UNARY_CHECKED:
            _fe.unary_typing(UnaryOp.__members__[op], s)  # raises the C++ typeUnary's error
            _UNARY_CHECKED.add((op, id(s)))
        if op == "Neg":
            if si.bits == 1:
                return h
            with np.errstate(all="ignore"):
                return TensorHandle(np.asarray(np.negative(a)), s)
        if op == "Invert":
            return TensorHandle(np.asarray(np.bitwise_xor(a, _all_ones(si))), s)
        if op == "Not":
            if si.bits == 1 or si.is_ptr:
                c = self.to_bool(h)
                return TensorHandle(np.asarray(np.logical_not(c.data)), tl.int1)
            return TensorHandle(np.asarray(a == 0), tl.int1)
        if op == "Abs":
            if si.is_int and not si.signed:
                return h
            with np.errstate(all="ignore"):
                return TensorHandle(np.asarray(np.abs(a)), s)
        name = self._MATH[op]
        with np.errstate(all="ignore"):
            if name == "exp":
                r = np.exp(a)
            elif name == "exp2":
                r = np.exp2(a)
            elif name == "log":
                r = np.log(a)
            elif name == "log2":
                r = np.log2(a)
            elif name in ("sqrt", "sqrt_rn"):
                r = np.sqrt(a)
            elif name == "rsqrt":
                r = (1.0 / np.sqrt(a.astype(np.float64))).astype(si.np)
            elif name == "sin":
                r = np.sin(a)
            elif name == "cos":
                r = np.cos(a)
            elif name == "floor":
                r = np.floor(a)
            elif name == "ceil":
                r = np.ceil(a)
            else:
                r = _erf(a).astype(si.np)
        return TensorHandle(np.asarray(r, dtype=si.np), s)

    def fma(self, a, b, c):
        x, y, z = self.to_value(a), self.to_value(b), self.to_value(c)
        t = _fe.fma_typing(x.sty, y.sty, z.sty)
        shape = common_shape(x.data.shape, y.data.shape, "fma")
        shape = common_shape(shape, z.data.shape, "fma")
        xa, ya, za = (self._conform(v, t, shape) for v in (x, y, z))
        ti = info(t)
        with np.errstate(all="ignore"):
            if ti.name == "fp64":
                r = xa * ya + za
            else:
                r = xa.astype(np.float64) * ya.astype(np.float64) + za.astype(np.float64)
                r = r.astype(np.float32)
                if ti.carried:
                    r = F.round_to(r, ti.carried)
                elif ti.name == "fp16":
                    r = r.astype(np.float16)
        return TensorHandle(np.asarray(r, dtype=ti.np), t)

    def where(self, cond, x, y):
        c = self.to_bool(self.to_value(cond))
        xt, xl = self._ty(x)
        yt, yl = self._ty(y)
        t, lhs_t = typing("where", None, xt, xl, yt, yl)[:2]
        if t is None:  # two pointers of one type
            t = lhs_t
        else:
            if xl:
                check_weak_literal(x, t)
            if yl:
                check_weak_literal(y, t)
        s = common_shape(self._shape(x), self._shape(y), "where")
        s = common_shape(c.data.shape, s, "where")
        xa = self._conform(x, t)
        ya = self._conform(y, t)
        return TensorHandle(np.asarray(np.where(c.data, xa, ya)), t, s)

    def clamp(self, x, lo, hi, propagate_nan=False):
        lot, lol = self._ty(lo)
        hit, hil = self._ty(hi)
        xt, xl = self._ty(x)
        t = _fe.clamp_typing(*(_representative(ty) if lit else ty for ty, lit in ((xt, xl), (lot, lol), (hit, hil))))
        s = common_shape(self._shape(lo), self._shape(hi), "clamp")
        s = common_shape(self._shape(x), s, "clamp")
        v, l, h = (self._conform(o, t, s) for o in (x, lo, hi))
        with np.errstate(all="ignore"):
            if propagate_nan:
                r = np.minimum(np.maximum(v, l), h)
            else:
                r = np.fmin(np.fmax(v, l), h)
        return TensorHandle(np.asarray(r), t)

    def cast(self, x, dtype, bitcast=False, fp_downcast_rounding=None):
        h = self.to_value(x)
        to = dtype.scalar
        if to.is_void():
            _fe.check_cast(h.type, to)
        if fp_downcast_rounding not in (None, "", "rtne", "rtz"):
            error(f"Invalid rounding mode: {fp_downcast_rounding}. Supported rounding modes are 'rtne' and 'rtz'.")
        if bitcast:
            return self._bitcast(h, to)
        return self.cast_to(h, to, fp_downcast_rounding or None)

    def _bitcast(self, h, to):
        s = h.sty
        if s == to:
            return h
        if s.is_pointer() or to.is_pointer():
            return self.cast_to(h, to)
        _fe.check_cast(h.type, to, bitcast=True)
        return TensorHandle(np.asarray(from_bits(to_bits(h.data, info(s)), info(to))), to)

    # -- memory ---------------------------------------------------------------------

    @staticmethod
    def _check_hints(cache, evict, is_load):
        if cache or evict:
            _fe.check_memory_hints(cache, evict, is_load)

    @staticmethod
    def _check_access(check, ptr, *operands):
        """checkLoad / checkStore of the C++ frontend, asked once per
        combination of operand types (each time where one is a literal)."""
        ops = [o.type if type(o) is TensorHandle else o for o in operands]
        if any(o is not None and type(o) is not _fe.DType for o in ops):
            check(ptr.type, *ops)
            return
        key = (check, id(ptr.type), *map(id, ops))
        if key not in _ACCESSES_CHECKED:
            check(ptr.type, *ops)
            _ACCESSES_CHECKED.add(key)

    def _positions(self, shape, selected):
        """Maps an index into the accessed (masked) elements to the
        element's position in the block."""
        def pos(k):
            if not shape:
                return "(scalar)"
            flat = int(selected[k]) if selected is not None else k
            return "(" + ", ".join(str(int(i)) for i in np.unravel_index(flat, shape)) + ")"
        return pos

    def load(self, ptr, mask=None, other=None, cache="", evict="", volatile=False):
        if cache or evict:
            self._check_hints(cache, evict, True)
        self._check_access(_fe.check_load, ptr, mask, other)
        pi = info(ptr.sty)
        shape = ptr.data.shape
        if mask is not None:
            shape = common_shape(shape, self._shape(mask), "load")
        if other is not None:
            shape = common_shape(shape, self._shape(other), "load")
        elem = pi.pointee
        ei = info(elem)
        addrs = ptr.data if ptr.data.shape == shape else bcast(ptr.data, shape)
        flat = addrs.reshape(-1)
        if mask is None:
            raw = self.memory.read(flat, ei.storage, "load", self._loc, self._positions(shape, None))
            vals = self._from_storage(raw, ei).reshape(shape)
            return TensorHandle(vals, elem)
        m = self._conform(mask, None, shape).reshape(-1)
        if m.all():
            raw = self.memory.read(flat, ei.storage, "load", self._loc, self._positions(shape, None))
            vals = self._from_storage(raw, ei).reshape(shape)
            return TensorHandle(vals, elem)
        sel = np.flatnonzero(m)
        raw = self.memory.read(flat[sel], ei.storage, "load", self._loc, self._positions(shape, sel))
        if other is not None:
            base = self._conform(other, elem if elem.name != "int1" else tl.int8, shape)
            base = convert(base, info(tl.int8), ei) if elem.name == "int1" else base
            out = np.array(base, dtype=ei.np).reshape(-1)
        else:
            out = np.zeros(flat.shape, dtype=ei.np)
        out[sel] = self._from_storage(raw, ei)
        return TensorHandle(out.reshape(shape), elem)

    @staticmethod
    def _from_storage(raw, ei):
        if ei.bits == 1 and ei.is_int:
            return raw != 0
        if ei.carried:
            return F.from_bits(raw, ei.carried)
        return raw

    @staticmethod
    def _to_storage(vals, ei):
        if ei.bits == 1 and ei.is_int:
            return vals.astype(np.uint8)
        if ei.carried:
            return F.to_bits(vals, ei.carried)
        return vals

    def store(self, ptr, value, mask=None, cache="", evict=""):
        if cache or evict:
            self._check_hints(cache, evict, False)
        self._check_access(_fe.check_store, ptr, value, mask)
        pi = info(ptr.sty)
        s = ps = ptr.data.shape
        elem = pi.pointee
        ei = info(elem)
        store_ty = tl.int8 if ei.name == "int1" else elem
        vals = self._conform(value, store_ty, s).reshape(-1)
        if ei.name == "int1":
            vals = vals.astype(np.uint8)
        elif ei.carried:
            vals = self._to_storage(vals, ei)
        flat = ptr.data.reshape(-1)
        if mask is not None:
            m = self._conform(mask, None, s).reshape(-1)
            if not m.all():
                sel = np.flatnonzero(m)
                self.memory.write(flat[sel], vals[sel], ei.storage, "store", self._loc, self._positions(s, sel))
                return
        self.memory.write(flat, vals, ei.storage, "store", self._loc, self._positions(s, None))

    # -- tensor descriptors (frontend/TensorDescriptors.cpp's rules, asked of
    # the core) ---------------------------------------------------------------

    def make_tensor_descriptor(self, base, shape, strides, block_shape):
        last = strides[-1] if strides else None
        if isinstance(last, TensorHandle):
            # A value: 1 is what a compiled kernel sees as a constant (the
            # launch specializes integer arguments equal to 1); any other
            # value is a runtime one there.
            known = last.data.ndim == 0 and info(last.sty).is_int and int(last.data) == 1
            last = 1 if known else None
        elif not (isinstance(last, int) and not isinstance(last, bool)):
            last = None
        ty = _fe.tensor_descriptor_typing(base.sty, len(shape), len(strides), list(block_shape), last)
        return DescHandle(ty, base, self._ints(shape, tl.int32, "tensor descriptor shapes"),
                          self._ints(strides, tl.int64, "tensor descriptor strides"))

    def make_block_pointer(self, base, shape, strides, num_offsets, block_shape, order):
        ty = _fe.block_pointer_typing(base.type if isinstance(base, TensorHandle) else self._ty(base)[0], len(shape), len(strides), num_offsets, list(block_shape),
                                      list(order))
        return DescHandle(ty, base, self._ints(shape, tl.int64, "the shape of a block pointer"),
                          self._ints(strides, tl.int64, "the strides of a block pointer"))

    def _ints(self, xs, to, what):
        """Integer operands as Python ints of type ``to`` (the semantic's
        castTo); ``what`` names them in the error for any other type."""
        out = []
        for x in xs:
            xt = self._ty(x)[0]
            if not xt.is_int():
                _fe.check_integers(what, xt)
            out.append(int(self._conform(x, to)))
        return out

    def _descriptor_block(self, desc, offsets, value=None, boundary=None, padding=""):
        """The addresses of the block at ``offsets`` and the mask of those
        inside the tensor along the dimensions checked (all, or a block
        pointer's ``boundary``: LowerTensorDescriptors.cpp's arithmetic)."""
        stored = None
        if value is not None:
            stored = value.type if isinstance(value, TensorHandle) else self._ty(value)[0]
        _fe.check_descriptor_access(desc.type, len(offsets), stored, boundary, padding)
        block = list(desc.type.shape)
        offs = self._ints(offsets, tl.int32, "descriptor offsets")
        grids = np.meshgrid(*[np.arange(b, dtype=np.int64) + o for b, o in zip(block, offs)], indexing="ij")
        elem = (desc.type.desc_element.bit_width + 7) // 8
        addrs = np.full(block, int(desc.base.data), dtype=np.int64)
        inside = np.ones(block, dtype=bool)
        for d, (g, extent, stride) in enumerate(zip(grids, desc.shape, desc.strides)):
            addrs = addrs + g * stride * elem
            if boundary is None or d in boundary:
                inside &= (g >= 0) & (g < extent)
        ptrs = TensorHandle(addrs, desc.base.sty)
        return ptrs, TensorHandle(inside, tl.int1)

    def descriptor_load(self, desc, offsets, boundary=None, padding="", cache="", evict="", volatile=False):
        ptrs, inside = self._descriptor_block(desc, offsets, None, boundary, padding)
        elem = desc.type.desc_element
        fill = np.nan if padding == "nan" else 0
        return self.load(ptrs, inside, TensorHandle(np.full(inside.data.shape, fill, dtype=info(elem).np), elem),
                         cache, evict, volatile)

    def descriptor_store(self, desc, offsets, value, boundary=None, cache="", evict=""):
        ptrs, inside = self._descriptor_block(desc, offsets, value, boundary)
        self.store(ptrs, value, inside, cache, evict)

    def _broadcast_to_shape(self, h, dims):
        """Semantic::broadcastToShape: no rank padding."""
        src = h.data.shape
        if src == dims:
            return h.data
        _fe.check_broadcast_to(list(src), bool(src), list(dims))
        return bcast(h.data, dims)

    def atomic_rmw(self, op, ptr, value, mask=None, sem="", scope=""):
        _fe.check_atomic_rmw(op, ptr.type, value.type if isinstance(value, TensorHandle) else value,
                             mask.type if isinstance(mask, TensorHandle) else mask, sem, scope)
        elem = ptr.sty.pointee
        ei = info(elem)
        ps = ptr.data.shape
        if isinstance(value, TensorHandle):
            v = self._broadcast_to_shape(self.cast_to(value, elem), ps)
        else:
            v = bcast(lit_array(value, elem), ps)
        flat = ptr.data.reshape(-1)
        vflat = np.asarray(v).reshape(-1)
        sel = None
        if mask is not None:
            m = self._broadcast_to_shape(self.to_value(mask), ps).reshape(-1)
            if not m.all():
                sel = np.flatnonzero(m)
        addrs = flat if sel is None else flat[sel]
        vals = vflat if sel is None else vflat[sel]
        fn = self._rmw_fn(op, ei, vals)
        old_raw = self.memory.rmw(addrs, ei.storage, fn, "atomic_" + op, self._loc, self._positions(ps, sel))
        old = self._from_storage(old_raw, ei)
        out = np.zeros(flat.shape, dtype=ei.np)
        if sel is None:
            out[:] = old
        else:
            out[sel] = old
        return TensorHandle(out.reshape(ps), elem)

    def _rmw_fn(self, op, ei, vals):
        """new storage = fn(old storage, positions) for an atomic."""
        st = ei.storage

        def values(old_raw):
            return self._from_storage(old_raw, ei)

        def back(v):
            return self._to_storage(np.asarray(v, dtype=ei.np), ei).astype(st)

        if op == "xchg":
            return lambda old, k: back(vals[k])
        if op == "add":
            if ei.is_float:
                def add(old, k):
                    with np.errstate(all="ignore"):
                        r = values(old).astype(np.float64 if ei.bits == 64 else np.float32) + vals[k]
                    r = r.astype(np.float64 if ei.bits == 64 else np.float32)
                    return back(F.round_to(r, ei.carried) if ei.carried else r.astype(ei.np))
                return add
            return lambda old, k: back(np.add(values(old), vals[k]))
        if op in ("and", "or", "xor"):
            f = {"and": np.bitwise_and, "or": np.bitwise_or, "xor": np.bitwise_xor}[op]
            return lambda old, k: back(f(values(old), vals[k]))
        is_max = op == "max"
        if ei.is_int:
            f = np.maximum if is_max else np.minimum
            return lambda old, k: back(f(values(old), vals[k]))
        # Floats: as compiled, a signed max/min of the bits where the value is
        # >= 0 and an unsigned min/max where it is < 0 (frontend/Memory.cpp).
        bits = ei.bits
        sgn, uns = _SIGNED[bits], _UNSIGNED[bits]

        def fminmax(old, k):
            vb = np.ascontiguousarray(vals[k]).view(uns)
            ob = np.ascontiguousarray(old).view(uns)
            vs, os_ = vb.view(sgn), ob.view(sgn)
            pos = vs >= 0
            if is_max:
                r = np.where(pos, np.maximum(os_, vs).view(uns), np.minimum(ob, vb))
            else:
                r = np.where(pos, np.minimum(os_, vs).view(uns), np.maximum(ob, vb))
            return r.astype(uns).view(st)
        return fminmax

    def atomic_cas(self, ptr, cmp, value, sem="", scope=""):
        _fe.check_atomic_cas(ptr.type, cmp.type if isinstance(cmp, TensorHandle) else cmp,
                             value.type if isinstance(value, TensorHandle) else value, sem, scope)
        elem = ptr.sty.pointee
        ei = info(elem)
        ps = ptr.data.shape

        def to_elem(o):
            if isinstance(o, TensorHandle):
                return np.asarray(self._broadcast_to_shape(self.cast_to(o, elem), ps))
            return bcast(lit_array(o, elem), ps)

        c = self._to_storage(to_elem(cmp).reshape(-1), ei)
        v = self._to_storage(to_elem(value).reshape(-1), ei)
        st = ei.storage

        def fn(old, k):
            return np.where(old == c[k].astype(st), v[k].astype(st), old).astype(st)

        flat = ptr.data.reshape(-1)
        old_raw = self.memory.rmw(flat, st, fn, "atomic_cas", self._loc, self._positions(ps, None))
        return TensorHandle(self._from_storage(old_raw, ei).reshape(ps), elem)

    # -- shapes -----------------------------------------------------------------------

    def broadcast_to(self, x, shape):
        shape = tuple(int(d) for d in shape)
        if shape:
            err = check_block_shape(shape)
            if err:
                error(err)
        h = self.to_value(x)
        return TensorHandle(self._broadcast_to_shape(h, shape), h.sty)

    def broadcast(self, a, b):
        x, y = self.to_value(a), self.to_value(b)
        s = common_shape(x.data.shape, y.data.shape, "broadcast")
        return (TensorHandle(bcast(x.data, s), x.sty), TensorHandle(bcast(y.data, s), y.sty))

    def reshape(self, x, shape, can_reorder=False):
        shape = tuple(int(d) for d in shape)
        _fe.check_reshape(x.type, list(shape))
        if not shape:  # x.item(): a one-element block's element
            return TensorHandle(x.data.reshape(()), x.sty)
        if x.data.shape == shape:
            return x
        return TensorHandle(np.reshape(x.data, shape), x.sty)

    def expand_dims(self, x, axis):
        a = wrap_axis(axis, x.data.ndim + 1)
        if a is None:
            _fe.check_axis(axis, x.data.ndim + 1)
        return TensorHandle(np.expand_dims(x.data, a), x.sty)

    def permute(self, x, dims):
        dims = [int(d) for d in dims]
        _fe.check_permute(x.type, dims)
        return TensorHandle(np.transpose(x.data, dims), x.sty)

    def join(self, a, b):
        x, y = self.to_value(a), self.to_value(b)
        _fe.check_join(x.type, y.type)
        s = broadcast_shapes(x.data.shape, y.data.shape)
        return TensorHandle(np.stack([bcast(x.data, s), bcast(y.data, s)], axis=-1), x.sty)

    def split(self, x):
        if not x.data.ndim or x.data.shape[-1] != 2:
            _fe.check_split(x.type)
        return TensorHandle(x.data[..., 0], x.sty), TensorHandle(x.data[..., 1], x.sty)

    def cat(self, a, b, can_reorder=False):
        _fe.check_cat(a.type, b.type)
        return TensorHandle(np.concatenate([a.data, b.data], axis=0), a.sty)

    def gather(self, src, index, axis):
        _fe.check_gather(src.type, index.type, axis)
        return TensorHandle(np.take_along_axis(src.data, index.data.astype(np.int64), axis=axis), src.sty)

    # -- block computations --------------------------------------------------------

    def dot(self, a, b, acc=None, input_precision="", max_num_imprecise_acc=-1, out_dtype=None):
        ret_ty = _fe.dot_typing(a.type, b.type, acc.type if acc is not None else None, input_precision or "",
                                max_num_imprecise_acc, out_dtype)
        ea, ret = a.sty, ret_ty.scalar
        ri = info(ret)
        if ea.is_int():
            prod = np.matmul(a.data.astype(np.int32), b.data.astype(np.int32))
            res = prod if acc is None else np.add(prod, acc.data)
        else:
            wide = np.float64 if ret.name == "fp64" else np.float32
            with np.errstate(all="ignore"):
                prod = np.matmul(a.data.astype(wide), b.data.astype(wide))
                res = prod if acc is None else prod + acc.data.astype(wide)
            if ri.carried:
                res = F.round_to(res, ri.carried)
        return TensorHandle(np.asarray(res, dtype=ri.np), ret)

    def _norm_axis(self, xs, axis, what):
        rank = xs[0].data.ndim
        if axis is None:
            return [x.data.reshape(-1) for x in xs], 0
        a = wrap_axis(axis, rank)
        if a is None:
            _fe.check_axis(axis, rank)
        return [x.data for x in xs], a

    @staticmethod
    def _keep(r, axis, a, rank):
        if axis is not None:
            return np.expand_dims(r, a)
        return np.reshape(r, (1,) * rank)

    @staticmethod
    def _check_blocks(xs, what):
        _fe.check_reduction_inputs([x.type for x in xs], what)

    def reduce(self, x, kind_or_axis=None, axis_or_combine=None, keep_dims=False, acc_dtype=None):
        if isinstance(x, (list, tuple)):
            return self._reduce_combine(list(x), kind_or_axis, axis_or_combine, keep_dims)
        kind, axis = kind_or_axis, axis_or_combine
        x = self.cast_to(x, _fe.reduction_typing(kind, False, x.type, acc_dtype))
        e = x.sty
        ei = info(e)
        rank = x.data.ndim
        (data,), a = self._norm_axis([x], axis, kind)
        with np.errstate(all="ignore"):
            if kind == "sum":
                r = self._float_tree(data, a, np.add, ei) if ei.is_float and ei.bits < 32 else \
                    np.add.reduce(data, axis=a, dtype=ei.np)
            elif kind == "prod":
                r = self._float_tree(data, a, np.multiply, ei) if ei.is_float and ei.bits < 32 else \
                    np.multiply.reduce(data, axis=a, dtype=ei.np)
            elif kind == "max":
                r = (np.fmax if ei.is_float else np.maximum).reduce(data, axis=a)
            elif kind == "min":
                r = (np.fmin if ei.is_float else np.minimum).reduce(data, axis=a)
            elif kind == "xor_sum":
                r = np.bitwise_xor.reduce(data, axis=a)
            elif kind == "and":
                r = np.bitwise_and.reduce(data, axis=a)
            else:
                r = np.bitwise_or.reduce(data, axis=a)
        r = np.asarray(r, dtype=ei.np)
        if keep_dims:
            r = self._keep(r, axis, a, rank)
        return TensorHandle(r, e)

    @staticmethod
    def _float_tree(data, a, fn, ei):
        """A pairwise tree along axis ``a``, rounding every step (fp16, bf16,
        fp8 computed in their own precision as the GPU combines them)."""
        x = np.moveaxis(data, a, -1)
        while x.shape[-1] > 1:
            r = fn(x[..., 0::2], x[..., 1::2])
            if ei.carried:
                r = F.round_to(r, ei.carried)
            x = r.astype(ei.np)
        return x[..., 0]

    def _call_combine(self, combine, lefts, rights, dtypes):
        args = [_core.tensor(TensorHandle(np.asarray(d), t), block_type(t, np.asarray(d).shape))
                for d, t in zip(lefts + rights, dtypes + dtypes)]
        res = combine(*args)
        res = list(res) if isinstance(res, (tuple, list)) else [res]
        if len(res) != len(dtypes):
            raise TypeError(f"the combine function must return {len(dtypes)} value(s), got {len(res)}")
        out = []
        shape = np.asarray(lefts[0]).shape
        for r, t in zip(res, dtypes):
            r = _core.to_tensor(r)
            h = r.handle
            if h.sty != t:
                error(f"the combine function returned {h.sty.name} where the input is {t.name}")
            out.append(bcast(h.data, shape))
        return out

    def map_elementwise(self, fn, args, pack):
        """The scalar function on each ``pack`` elements of the broadcast
        arguments, one call at a time (it may branch on its arguments)."""
        shape = np.broadcast_shapes(*[a.data.shape for a in args])
        flats = [np.broadcast_to(a.data, shape).reshape(-1) for a in args]
        outs, types = None, None
        for g in range(0, int(np.prod(shape, dtype=np.int64)), pack):
            res = fn(*[_core.tensor(TensorHandle(np.asarray(f[g + j]), a.sty), a.sty)
                       for f, a in zip(flats, args) for j in range(pack)])
            res = [_core.to_tensor(r).handle for r in (res if isinstance(res, (tuple, list)) else [res])]
            if outs is None:
                types = res[::pack]
                outs = [[] for _ in types]
            for k, h in enumerate(res):
                outs[k // pack].append(h.data)
        return [TensorHandle(np.asarray(o, dtype=info(t.sty).np).reshape(shape), t.sty) for o, t in zip(outs, types)]

    def _reduce_combine(self, xs, axis, combine, keep_dims):
        self._check_blocks(xs, "reduce")
        dtypes = [x.sty for x in xs]
        rank = xs[0].data.ndim
        datas, a = self._norm_axis(xs, axis, "reduce")
        cur = [np.moveaxis(d, a, -1) for d in datas]
        try:
            while cur[0].shape[-1] > 1:
                cur = self._call_combine(combine, [c[..., 0::2] for c in cur], [c[..., 1::2] for c in cur], dtypes)
            res = [c[..., 0] for c in cur]
        except BlockConditionError:
            res = self._reduce_scalarwise(combine, [np.moveaxis(d, a, -1) for d in datas], dtypes)
        out = []
        for r, t in zip(res, dtypes):
            r = np.asarray(r, dtype=info(t).np)
            if keep_dims:
                r = self._keep(r, axis, a, rank)
            out.append(TensorHandle(r, t))
        return out

    def _reduce_scalarwise(self, combine, datas, dtypes):
        """The combine function called on scalars (one output at a time),
        for combine functions that branch on their arguments."""
        outer = datas[0].shape[:-1]
        res = [np.empty(outer, dtype=info(t).np) for t in dtypes]
        for idx in np.ndindex(*outer):
            acc = [d[idx + (0,)] for d in datas]
            for j in range(1, datas[0].shape[-1]):
                acc = self._call_combine(combine, acc, [d[idx + (j,)] for d in datas], dtypes)
            for r, v in zip(res, acc):
                r[idx] = v
        return res

    def arg_min_max(self, x, is_max, axis, tie_break_left=True, keep_dims=False):
        _fe.reduction_typing("argmax" if is_max else "argmin", False, x.type)
        e = x.sty
        rank = x.data.ndim
        a = wrap_axis(axis, rank)
        if a is None:
            _fe.check_axis(axis, rank)
        d = np.moveaxis(x.data, a, -1)
        n = d.shape[-1]
        with np.errstate(all="ignore"):
            if e.is_float():
                nan = d != d
                if is_max:
                    best = np.fmax.reduce(d, axis=-1, keepdims=True)
                else:
                    best = np.fmin.reduce(d, axis=-1, keepdims=True)
                has_nan = nan.any(axis=-1, keepdims=True)
                cand = np.where(has_nan, nan, d == best)
            else:
                best = (np.max if is_max else np.min)(d, axis=-1, keepdims=True)
                cand = d == best
        if tie_break_left:
            idx = np.argmax(cand, axis=-1)
        else:
            idx = n - 1 - np.argmax(cand[..., ::-1], axis=-1)
        r = np.asarray(idx, dtype=np.int32)
        if keep_dims:
            r = np.expand_dims(r, a)
        return TensorHandle(r, tl.int32)

    def scan(self, x, kind_or_axis, axis_or_combine=None, reverse=False, acc_dtype=None):
        if isinstance(x, (list, tuple)):
            return self._scan_combine(list(x), kind_or_axis, axis_or_combine, reverse)
        kind, axis = kind_or_axis, axis_or_combine
        to = _fe.reduction_typing(kind, True, x.type, acc_dtype)
        if x.sty.name == "bf16":  # through fp32, as compiled
            x = self.cast_to(x, tl.float32)
        x = self.cast_to(x, to)
        e = x.sty
        ei = info(e)
        rank = x.data.ndim
        a = wrap_axis(axis, rank)
        if a is None:
            _fe.check_axis(axis, rank)
        d = x.data
        if reverse:
            d = np.flip(d, axis=a)
        with np.errstate(all="ignore"):
            if ei.carried:
                fn = np.add if kind == "sum" else np.multiply
                m = np.moveaxis(d, a, -1).astype(np.float32)
                out = np.empty_like(m)
                cur = m[..., 0]
                out[..., 0] = cur
                for j in range(1, m.shape[-1]):
                    cur = F.round_to(fn(cur, m[..., j]), ei.carried)
                    out[..., j] = cur
                r = np.moveaxis(out, -1, a)
            elif kind == "sum":
                r = np.cumsum(d, axis=a, dtype=ei.np)
            else:
                r = np.cumprod(d, axis=a, dtype=ei.np)
        if reverse:
            r = np.flip(r, axis=a)
        return TensorHandle(np.ascontiguousarray(r, dtype=ei.np), e)

    def _scan_combine(self, xs, axis, combine, reverse):
        self._check_blocks(xs, "associative_scan")
        dtypes = [x.sty for x in xs]
        rank = xs[0].data.ndim
        a = wrap_axis(axis, rank)
        if a is None:
            _fe.check_axis(axis, rank)
        cur = [np.moveaxis(x.data, a, -1) for x in xs]
        if reverse:
            cur = [c[..., ::-1] for c in cur]
        n = cur[0].shape[-1]
        try:
            d = 1
            pos = np.arange(n)
            while d < n:
                # Hillis-Steele on whole blocks (shapes stay powers of 2):
                # element i combines element i - d into itself where i >= d.
                shifted = [np.concatenate([c[..., :d], c[..., :-d]], axis=-1) for c in cur]
                comb = self._call_combine(combine, shifted, cur, dtypes)
                cur = [np.where(pos >= d, r, c) for c, r in zip(cur, comb)]
                d *= 2
        except BlockConditionError:
            cur = [np.moveaxis(x.data, a, -1) for x in xs]
            if reverse:
                cur = [c[..., ::-1] for c in cur]
            cur = self._scan_scalarwise(combine, cur, dtypes)
        out = []
        for c, t in zip(cur, dtypes):
            if reverse:
                c = c[..., ::-1]
            out.append(TensorHandle(np.ascontiguousarray(np.moveaxis(c, -1, a), dtype=info(t).np), t))
        return out

    def _scan_scalarwise(self, combine, datas, dtypes):
        res = [np.array(d, dtype=info(t).np) for d, t in zip(datas, dtypes)]
        outer = datas[0].shape[:-1]
        for idx in np.ndindex(*outer):
            acc = [d[idx + (0,)] for d in datas]
            for j in range(1, datas[0].shape[-1]):
                acc = self._call_combine(combine, acc, [d[idx + (j,)] for d in datas], dtypes)
                for r, v in zip(res, acc):
                    r[idx + (j,)] = v
        return res

    # -- hints, debugging, external functions --------------------------------------

    def hint(self, op, x, values):
        name = {_fe.Hint.MultipleOf: "multiple_of", _fe.Hint.MaxContiguous: "max_contiguous",
                _fe.Hint.MaxConstancy: "max_constancy"}.get(op, str(op))
        _fe.check_hint(name, x.type, [int(v) for v in values])
        return x

    def debug_barrier(self):
        return None

    # One program runs at a time, after the previous launch: nothing to wait for.
    def gdc_wait(self):
        return None

    def gdc_launch_dependents(self):
        return None

    @staticmethod
    def print_prefix(prefix, has_values):
        """Semantic::devicePrint's spelling of the prefix."""
        p = prefix
        if has_values:
            if not p or p[-1] != " ":
                p += " "
            if len(p) < 2 or p[-2:] != ": ":
                p = p[:-1] + ": "
        if len(p) > 2 and p[0] != " ":
            p = " " + p
        return p

    def device_print(self, prefix, values, hex=False):
        p = self.print_prefix(prefix, bool(values))
        vals = [self.to_value(v) for v in values]
        shape = ()
        for v in vals:
            if v.data.ndim:
                shape = v.data.shape
                break
        x, y, z = self.pid
        head = f"pid ({x}, {y}, {z})"
        cols = []
        for v in vals:
            d = bcast(v.data, shape) if shape and v.data.shape != shape else v.data
            cols.append((d.reshape(-1) if shape else d.reshape(1), info(v.sty)))
        out = self._stdout or sys.stdout
        lines = []
        n = int(np.prod(shape)) if shape else 1
        for k in range(n):
            line = head
            if shape:
                line += " idx (" + ", ".join(str(int(i)) for i in np.unravel_index(k, shape)) + ")"
            line += " " + p
            line += ", ".join(_format_value(c[k], i, hex) for c, i in cols)
            lines.append(line)
        out.write("\n".join(lines) + "\n")

    def device_assert(self, cond, msg, mask=None):
        c = self.to_bool(self.to_value(cond)).data
        if mask is not None:
            m = self.to_bool(self.to_value(mask)).data
            c = c | ~bcast(m, c.shape if c.ndim >= m.ndim else m.shape)
        if np.all(c):
            return None
        bad = np.flatnonzero(~np.asarray(c).reshape(-1))
        k = int(bad[0])
        shape = np.asarray(c).shape
        idx = ""
        if shape:
            idx = " idx (" + ", ".join(str(int(i)) for i in np.unravel_index(k, shape)) + ")"
        x, y, z = self.pid
        raise DeviceAssertionError(f"{self._loc()}: pid ({x}, {y}, {z}){idx}: Assertion `{msg}` failed "
                                   f"({bad.size} element{'s' if bad.size != 1 else ''})")

    def extern_elementwise(self, symbol, args, result, pure=True):
        from .extern import call_extern
        vs = [self.to_value(a) for a in args]
        _fe.check_extern_elementwise(symbol, [v.type for v in vs], result)
        s = ()
        for v in vs:
            s = broadcast_shapes(s, v.data.shape)
        res = result.scalar
        arrays = [bcast(v.data, s) for v in vs]
        r = call_extern(symbol, arrays, [info(v.sty) for v in vs], info(res))
        return TensorHandle(np.asarray(r, dtype=info(res).np).reshape(s), res)

    def inline_asm(self, asm, constraints, args, results, pure, pack):
        # As in Triton's interpreter: assembly runs only on a GPU.
        error("inline_asm_elementwise runs only in compiled kernels, not in the interpreter")


class DeviceAssertionError(AssertionError):
    """A failed tl.device_assert (or ``assert`` with debug) in a kernel."""


class BlockConditionError(TypeError):
    """A block used where a scalar condition is needed."""


def _format_value(v, i, hex_):
    """One printed value, as the device printf formats it."""
    if i.is_float:
        return "%f" % float(v)
    if i.is_ptr:
        return "0x%x" % (int(v) & 0xFFFFFFFFFFFFFFFF)
    iv = int(v)
    if hex_:
        return "0x%x" % (iv & ((1 << max(i.bits, 1)) - 1) if i.bits != 1 else iv)
    return str(iv)
