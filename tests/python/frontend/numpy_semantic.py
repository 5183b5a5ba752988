"""A tiny semantic on numpy arrays, for checking the *numbers* of the tl
functions written in the language itself (sort, flip, philox, rand...).

docs/frontend.md lets any object with the semantic's methods run a kernel
body; this one implements the handful those functions use, with simplified
typing: an operation on two values of one dtype keeps it, a Python number
takes the type of the value it meets (a float meeting an int gives fp32),
comparisons give int1. It is not the interpreter and checks nothing else.
"""

import numpy as np

import tritium.language as tl

_NP = {
    "int1": np.bool_, "int8": np.int8, "int16": np.int16, "int32": np.int32, "int64": np.int64, "uint8": np.uint8,
    "uint16": np.uint16, "uint32": np.uint32, "uint64": np.uint64, "fp16": np.float16, "fp32": np.float32,
    "fp64": np.float64,
}


class Value:
    """A numpy array and its language type."""
    __slots__ = ("arr", "type")

    def __init__(self, arr, scalar):
        self.arr = np.asarray(arr, dtype=_NP[scalar.name])
        self.type = tl.block_type(scalar, list(self.arr.shape)) if self.arr.ndim else scalar


def tensor(arr, scalar):
    return tl.tensor(Value(arr, scalar), Value(arr, scalar).type)


def _scalar(v):
    return v.type.scalar if v.type.is_block() else v.type


def _literal_type(x):
    if isinstance(x, bool):
        return tl.int1
    if isinstance(x, int):
        return tl.int32 if -2**31 <= x < 2**31 else tl.uint32 if 0 <= x < 2**32 else \
            tl.int64 if -2**63 <= x < 2**63 else tl.uint64
    return tl.float32


def _wrap_int(x, ty):
    bits = ty.primitive_bitwidth
    x &= (1 << bits) - 1
    if ty.is_int_signed() and x >= 1 << (bits - 1):
        x -= 1 << bits
    return x


class NumpySemantic:

    def _pair(self, l, r):
        """(array, array, dtype) of two operands."""
        if isinstance(l, Value) and isinstance(r, Value):
            assert _scalar(l) == _scalar(r), f"mixed types {_scalar(l)} and {_scalar(r)}"
            return l.arr, r.arr, _scalar(l)
        if isinstance(l, Value) or isinstance(r, Value):
            v, lit = (l, r) if isinstance(l, Value) else (r, l)
            ty = _scalar(v)
            if isinstance(lit, float) and ty.is_int():
                ty = tl.float32
                v_arr = v.arr.astype(np.float32)
            else:
                v_arr = v.arr
            lit_arr = np.asarray(_wrap_int(lit, ty) if ty.is_int() and not isinstance(lit, float) else lit,
                                 dtype=_NP[ty.name])
            return (v_arr, lit_arr, ty) if v is l else (lit_arr, v_arr, ty)
        ty = _literal_type(l)
        return np.asarray(l, _NP[ty.name]), np.asarray(r, _NP[ty.name]), ty

    def constant(self, lit, ty=None):
        ty = ty or _literal_type(lit)
        return Value(_wrap_int(lit, ty) if ty.is_int() and not isinstance(lit, float) else lit, ty)

    def full(self, shape, value, ty):
        return Value(np.full(shape, value, dtype=_NP[ty.name]), ty)

    def arange(self, start, end):
        return Value(np.arange(start, end, dtype=np.int32), tl.int32)

    def binary(self, op, l, r):
        a, b, ty = self._pair(l, r)
        name = op.name
        with np.errstate(over="ignore"):
            if name == "UMulHi":
                bits = ty.primitive_bitwidth
                prod = a.astype(object) * b.astype(object) if bits == 64 else a.astype(np.uint64) * b.astype(np.uint64)
                hi = (prod >> bits) if bits == 64 else (prod >> np.uint64(bits))
                return Value(np.asarray(hi).astype(_NP[ty.name]), ty)
            if name == "TrueDiv":
                ty = ty if ty.is_floating() else tl.float32
                return Value(a.astype(_NP[ty.name]) / b.astype(_NP[ty.name]), ty)
            if name == "FloorDiv" and ty.is_int():
                q = np.trunc(a.astype(np.float64) / b.astype(np.float64))
                return Value(q.astype(_NP[ty.name]), ty)
            if name == "Mod" and ty.is_int():
                return Value(np.fmod(a, b), ty)
            fns = {"Add": np.add, "Sub": np.subtract, "Mul": np.multiply, "BitAnd": np.bitwise_and,
                   "BitOr": np.bitwise_or, "BitXor": np.bitwise_xor, "LogicalAnd": np.logical_and,
                   "LogicalOr": np.logical_or, "FDiv": np.divide, "DivRn": np.divide, "FloorDiv": np.floor_divide,
                   "Mod": np.fmod}
            if name in ("Shl", "Shr"):
                sh = b.astype(a.dtype)
                return Value(np.left_shift(a, sh) if name == "Shl" else np.right_shift(a, sh), ty)
            return Value(fns[name](a, b), ty)

    def compare(self, op, l, r):
        a, b, _ = self._pair(l, r)
        fns = {"EQ": np.equal, "NE": np.not_equal, "LT": np.less, "LE": np.less_equal, "GT": np.greater,
               "GE": np.greater_equal}
        return Value(fns[op.name](a, b), tl.int1)

    def unary(self, op, x):
        if not isinstance(x, Value):
            x = self.constant(x)
        a, ty = x.arr, _scalar(x)
        fns = {"Neg": np.negative, "Plus": lambda v: v, "Invert": np.invert, "Not": np.logical_not, "Exp": np.exp,
               "Exp2": np.exp2, "Log": np.log, "Log2": np.log2, "Sqrt": np.sqrt, "SqrtRn": np.sqrt,
               "Rsqrt": lambda v: 1 / np.sqrt(v), "Sin": np.sin, "Cos": np.cos, "Abs": np.abs, "Floor": np.floor,
               "Ceil": np.ceil}
        with np.errstate(over="ignore"):
            out = fns[op.name](a)
        return Value(out, tl.int1 if op.name == "Not" else ty)

    def cast(self, x, to, bitcast=False, rounding=None):
        if not isinstance(x, Value):
            x = self.constant(x)
        if bitcast:
            return Value(x.arr.view(_NP[to.name]), to)
        if to.is_int() and to.primitive_bitwidth == 1:
            return Value(x.arr != 0, to)
        with np.errstate(over="ignore"):
            return Value(x.arr.astype(_NP[to.name]), to)

    def where(self, c, x, y):
        a, b, ty = self._pair(x, y)
        return Value(np.where(c.arr, a, b), ty)

    def min_max(self, is_max, l, r, propagate_nan):
        a, b, ty = self._pair(l, r)
        fn = (np.maximum if propagate_nan else np.fmax) if is_max else (np.minimum if propagate_nan else np.fmin)
        return Value(fn(a, b), ty)

    def broadcast_to(self, x, shape):
        if not isinstance(x, Value):
            x = self.constant(x)
        return Value(np.broadcast_to(x.arr, shape).copy(), _scalar(x))

    def expand_dims(self, x, axis):
        return Value(np.expand_dims(x.arr, axis), _scalar(x))

    def permute(self, x, dims):
        return Value(np.transpose(x.arr, dims).copy(), _scalar(x))

    def trans(self, x):
        return Value(x.arr.T.copy(), _scalar(x))

    def reshape(self, x, shape, can_reorder=False):
        return Value(x.arr.reshape(shape), _scalar(x))

    def join(self, a, b):
        return Value(np.stack([a.arr, b.arr], axis=-1), _scalar(a))

    def split(self, x):
        return Value(x.arr[..., 0].copy(), _scalar(x)), Value(x.arr[..., 1].copy(), _scalar(x))
