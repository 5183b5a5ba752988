"""Tritium IR instructions on numpy arrays: ``compile_step(step)`` turns an
instruction of ``_C.frontend.describe_function`` into ``fn(ctx, *operands)``
(``ctx``: the running InterpreterSemantic).

A value is a numpy array (0-d for a scalar) in its IR type's representation:
integers as signed numpy integers of their width (the instructions say how
to read them), i1 as bool, bf16 and fp8 as float32 values exact in the
format (floats.py), pointers as int64 addresses, a descriptor as a ``Desc``.
Numbers are the NVIDIA lowering's (docs/frontend.md, "Interpreter mode").
"""

import math
from collections import namedtuple

import numpy as np

from . import floats as F
from .extern import call_extern, int_function

Desc = namedtuple("Desc", "base shape strides elem_bytes")


UNSIGNED = {8: np.uint8, 16: np.uint16, 32: np.uint32, 64: np.uint64}


class Elem:
    """An IR element type; memory holds it as ``storage`` bit patterns."""

    __slots__ = ("name", "np", "bits", "is_float", "is_int", "carried", "storage")

    def __init__(self, name, np_type, bits, is_float, carried=None):
        self.name, self.np, self.bits, self.is_float = name, np.dtype(np_type), bits, is_float
        self.is_int = not is_float and name.startswith("i")
        self.carried = carried
        self.storage = np.dtype(UNSIGNED[max(bits, 8)]) if bits else None


ELEMS = {f"i{b}": Elem(f"i{b}", f"int{b}", b, False) for b in (8, 16, 32, 64)}
ELEMS.update({
    "i1": Elem("i1", np.bool_, 1, False),
    "f16": Elem("f16", np.float16, 16, True), "f32": Elem("f32", np.float32, 32, True),
    "f64": Elem("f64", np.float64, 64, True), "bf16": Elem("bf16", np.float32, 16, True, "bf16"),
    "f8e4m3": Elem("f8e4m3", np.float32, 8, True, "fp8e4nv"), "f8e5m2": Elem("f8e5m2", np.float32, 8, True, "fp8e5"),
    "f8e4b15": Elem("f8e4b15", np.float32, 8, True, "fp8e4b15"),
    "ptr": Elem("ptr", np.int64, 64, False), "desc": Elem("desc", object, 0, False),
})


def elem(t):
    return ELEMS[t[0]]


def bcast(a, shape):
    """``a`` broadcast to ``shape`` (scalars by np.full: cheaper)."""
    if a.shape == shape:
        return a
    if a.ndim == 0:
        return np.full(shape, a, dtype=a.dtype)
    return np.broadcast_to(a, shape)


def unsigned(a, e):
    """The bits of integers ``a`` (type ``e``) read as unsigned."""
    return a.astype(np.uint8) if e.bits == 1 else np.asarray(a).view(UNSIGNED[e.bits])


def rounded(r, e):
    """A float result computed wider, in the representation of ``e``."""
    if e.carried:
        return F.round_to(np.asarray(r, dtype=np.float32), e.carried)
    return np.asarray(r).astype(e.np, copy=False)


def to_bits(a, e):
    """Values of type ``e`` as their bit patterns (``e.storage``)."""
    return F.to_bits(a, e.carried) if e.carried else unsigned(np.asarray(a, order="C"), e)


def from_bits(bits, e):
    if e.carried:
        return F.from_bits(bits, e.carried)
    return np.asarray(bits, order="C").view(e.np) if e.bits > 1 else bits != 0


def constant_of(value, e):
    """A constant's attribute value in the representation of ``e``."""
    if e.is_float:
        if e.carried:
            return F.round_to(F.f64_to_f32_odd(float(value)), e.carried)
        return np.array(float(value), dtype=e.np)
    if e.bits == 1:
        return np.array(value != 0)
    return np.array(int(value) & ((1 << e.bits) - 1), dtype=UNSIGNED[e.bits]).view(e.np)


def _trunc_div(a, b):
    q = np.floor_divide(a, b)
    fix = (np.remainder(a, b) != 0) & ((a < 0) != (b < 0))
    return q + fix.astype(q.dtype) if np.any(fix) else q


def _shift(a, b, e, kind):
    """PTX shl/shr: amounts >= the width are clamped to it."""
    if e.bits == 1:
        return np.where(np.asarray(b), a if kind == "ashr" else False, a)
    ua, amt = unsigned(a, e), unsigned(b, e)
    s = np.minimum(amt, e.bits - 1).astype(ua.dtype)
    if kind == "ashr":  # clamped to width - 1, it fills with the sign as a wider shift would
        return np.right_shift(a, s.astype(e.np)).astype(e.np)
    r = np.left_shift(ua, s) if kind == "shl" else np.right_shift(ua, s)
    return np.where(amt >= e.bits, 0, r).astype(ua.dtype).view(e.np)


def _umulhi(a, b, e):
    if e.bits > 32:
        return int_function("umulhi", [a, b], e.bits)
    ua, ub = unsigned(a, e), unsigned(b, e)
    return (ua.astype(np.uint64) * ub.astype(np.uint64) >> np.uint64(e.bits)).astype(ua.dtype).view(e.np)


#: Integer instructions on the operands as held (signed), read as unsigned,
#: and on i1 (modulo 2: a true i1 is -1).
INT_BINARY = {"add": np.add, "sub": np.subtract, "mul": np.multiply, "and": np.bitwise_and, "or": np.bitwise_or,
              "xor": np.bitwise_xor, "sdiv": _trunc_div, "srem": np.fmod, "smin": np.minimum, "smax": np.maximum}
UNSIGNED_BINARY = {"udiv": np.floor_divide, "urem": np.remainder, "umin": np.minimum, "umax": np.maximum}
BOOL_BINARY = {"add": np.not_equal, "sub": np.not_equal, "mul": np.logical_and, "sdiv": np.logical_and,
               "udiv": np.logical_and, "srem": lambda a, b: np.zeros_like(a & b),
               "urem": lambda a, b: np.zeros_like(a & b)}
FLOAT_BINARY = {"fadd": np.add, "fsub": np.subtract, "fmul": np.multiply, "fdiv": np.divide, "frem": np.fmod,
                "fmin": np.fmin, "fmax": np.fmax, "fminimum": np.minimum, "fmaximum": np.maximum}
BINARY = {*INT_BINARY, *UNSIGNED_BINARY, *FLOAT_BINARY, "shl", "lshr", "ashr", "umulhi"}


def _binary(op, e):
    if op in FLOAT_BINARY:
        f = FLOAT_BINARY[op]
        return lambda ctx, a, b: rounded(f(a, b), e)
    if e.bits == 1 and op in BOOL_BINARY:
        f = BOOL_BINARY[op]
    elif op in UNSIGNED_BINARY:
        f = UNSIGNED_BINARY[op]
        return lambda ctx, a, b: np.asarray(f(unsigned(a, e), unsigned(b, e))).view(e.np)
    else:
        f = INT_BINARY.get(op) or (lambda a, b: _umulhi(a, b, e) if op == "umulhi" else _shift(a, b, e, op))
    return lambda ctx, a, b: np.asarray(f(a, b))


MATH = {"exp": np.exp, "exp2": np.exp2, "log": np.log, "log2": np.log2, "sqrt": np.sqrt, "sqrt_rn": np.sqrt,
        "sin": np.sin, "cos": np.cos, "floor": np.floor, "ceil": np.ceil,
        "erf": np.vectorize(math.erf, otypes=[np.float64]),
        "rsqrt": lambda x: 1.0 / np.sqrt(x.astype(np.float64))}


def _unary(op, e):
    if op in ("neg", "abs"):  # an i1 is its own negation and absolute value (modulo 2)
        f = np.negative if op == "neg" else np.abs
        return (lambda ctx, a: a) if e.bits == 1 else (lambda ctx, a: np.asarray(f(a)))
    f = MATH[op]
    return lambda ctx, a: rounded(f(a), e)


_ORDERED = {"eq": np.equal, "ne": np.not_equal, "lt": np.less, "le": np.less_equal, "gt": np.greater,
            "ge": np.greater_equal}


def _icmp(pred, e):
    f = _ORDERED[pred[1:] if pred[0] in "su" else pred]
    if pred[0] == "u":
        return lambda ctx, a, b: np.asarray(f(unsigned(a, e), unsigned(b, e)))
    if pred[0] == "s" and e.bits == 1:  # a true i1 is -1
        return lambda ctx, a, b: np.asarray(f(-a.astype(np.int8), -b.astype(np.int8)))
    return lambda ctx, a, b: np.asarray(f(a, b))


def _fcmp(pred):
    if pred in ("ord", "uno"):
        return lambda ctx, a, b: np.asarray((np.isnan(a) | np.isnan(b)) == (pred == "uno"))
    f = _ORDERED[pred[1:]]
    if pred in ("oeq", "olt", "ole", "ogt", "oge", "une"):  # numpy's comparisons, with a NaN too
        return lambda ctx, a, b: np.asarray(f(a, b))
    if pred == "one":
        return lambda ctx, a, b: np.asarray(f(a, b) & ~(np.isnan(a) | np.isnan(b)))
    return lambda ctx, a, b: np.asarray(f(a, b) | np.isnan(a) | np.isnan(b))


def float_to_int(x, e, is_signed):
    """fptosi/fptoui: truncation toward zero, saturating, NaN -> 0."""
    t = np.trunc(np.asarray(x, dtype=np.float64))
    lo, hi = (-2.0 ** (e.bits - 1), 2.0 ** (e.bits - 1)) if is_signed else (0.0, 2.0 ** e.bits)
    nan, big, small = t != t, t >= hi, t < lo
    target = e.np if is_signed else np.dtype(UNSIGNED[e.bits])
    safe = np.where(nan | big | small, 0.0, t)
    r = np.where(big, np.iinfo(target).max, np.where(small, np.iinfo(target).min, safe.astype(target)))
    return r.astype(target).view(e.np)


def _fp_to_fp(s, t, rtz):
    if t.bits > s.bits or (t.bits == s.bits and not t.carried):  # fpext: exact
        return lambda a: rounded(a, t)
    if t.carried:
        return lambda a: F.round_to(np.asarray(a, dtype=np.float32), t.carried, rtz)
    if rtz:
        return lambda a: F.round_toward_zero(a, t.np)
    # f64 -> f16 goes through f32, as the lowering converts it.
    return lambda a: np.asarray(a).astype(np.float32).astype(t.np, copy=False)


def _cast(op, s, t, rtz):
    if op == "trunc":
        return (lambda a: (a & 1) != 0) if t.bits == 1 else (lambda a: a.astype(t.np))
    if op in ("zext", "inttoptr"):
        return lambda a: unsigned(a, s).astype(t.np)
    if op == "sext":
        return (lambda a: -a.astype(t.np)) if s.bits == 1 else (lambda a: a.astype(t.np))
    if op in ("fptrunc", "fpext"):
        return _fp_to_fp(s, t, rtz)
    if op in ("fptosi", "fptoui"):
        if t.bits == 1:
            return lambda a: np.asarray(a) != 0
        return lambda a: float_to_int(a, t, op == "fptosi")
    if op in ("sitofp", "uitofp"):
        wide = (lambda a: -a.astype(np.int8)) if op == "sitofp" and s.bits == 1 else \
            (lambda a: unsigned(a, s)) if op == "uitofp" else (lambda a: a)
        if t.carried or (t.name == "f16" and s.bits == 64):
            return lambda a: rounded(wide(a).astype(np.float32), t)
        return lambda a: wide(a).astype(t.np)
    if op == "ptrtoint":
        return (lambda a: a != 0) if t.bits == 1 else (lambda a: a.astype(t.np))
    if s.name == "ptr" or t.name == "ptr":  # bitcast of pointers
        return lambda a: a
    return lambda a: from_bits(to_bits(a, s), t)


def index_text(flat, shape):
    """The position of element ``flat`` of a block of ``shape``: "(i, j)"."""
    return "(" + ", ".join(str(int(i)) for i in np.unravel_index(int(flat), shape)) + ")"


def positions(shape, selected):
    """Accessed element k -> its place in the block, for messages."""
    return lambda k: index_text(k if selected is None else selected[k], shape) if shape else "(scalar)"


def _accessed(mask, shape, *blocks):
    """The flat indices ``mask`` lets through (None: all), and each block
    broadcast to ``shape``, flattened, at them."""
    sel = None if mask is None or mask.all() else np.flatnonzero(bcast(mask, shape))
    flats = [bcast(b, shape).reshape(-1) for b in blocks]
    return sel, [f if sel is None else f[sel] for f in flats]


def _block(vals, sel, shape, e, fill=None):
    """The accessed values as a block of ``shape``, the others ``fill`` or 0."""
    if sel is None:
        return vals.reshape(shape)
    out = np.zeros(shape, dtype=e.np) if fill is None else np.array(bcast(fill, shape), dtype=e.np)
    out.reshape(-1)[sel] = vals
    return out


def load(ctx, e, ptr, mask=None, other=None):
    sel, (addrs,) = _accessed(mask, ptr.shape, ptr)
    bits = ctx.memory.read(addrs, e.storage, "load", ctx.location, positions(ptr.shape, sel))
    return _block(from_bits(bits, e), sel, ptr.shape, e, other)


def store(ctx, e, ptr, vals, mask=None):
    sel, (addrs, bits) = _accessed(mask, ptr.shape, ptr, to_bits(vals, e))
    ctx.memory.write(addrs, bits, e.storage, "store", ctx.location, positions(ptr.shape, sel))


def atomic(ctx, e, kind, ptr, vals, mask=None, cmp=None):
    """atomic_rmw (``kind``: a binary instruction, min, max, xchg) or
    atomic_cas (``cmp``), element after element; masked-off ones read 0."""
    sel, (addrs, vals) = _accessed(mask, ptr.shape, ptr, vals)
    if cmp is not None:
        cmp = bcast(cmp, ptr.shape).reshape(-1)
    op = None if cmp is not None or kind == "xchg" else _binary({"min": "smin", "max": "smax"}.get(kind, kind), e)

    def fn(old_bits, k):
        old = from_bits(old_bits, e)
        if cmp is not None:
            new = np.where(old == cmp[k], vals[k], old)
        else:
            new = vals[k] if op is None else op(ctx, old, vals[k])
        return to_bits(np.asarray(new, dtype=e.np), e)

    what = "atomic_cas" if cmp is not None else "atomic_" + kind.lstrip("fu")  # the tl name
    old = ctx.memory.rmw(addrs, e.storage, fn, what, ctx.location, positions(ptr.shape, sel))
    return _block(from_bits(old, e), sel, ptr.shape, e)


def descriptor_block(d, offsets, shape, boundary):
    """The block's addresses at ``offsets``, and which are inside the tensor
    along the dimensions checked (all, or ``boundary``)."""
    grids = np.meshgrid(*[np.arange(b, dtype=np.int64) + int(o) for b, o in zip(shape, offsets)], indexing="ij")
    addrs = np.full(shape, d.base, dtype=np.int64)
    inside = np.ones(shape, dtype=bool)
    for k, (g, extent, stride) in enumerate(zip(grids, d.shape, d.strides)):
        addrs = addrs + g * stride * d.elem_bytes
        if boundary is None or k in boundary:
            inside &= (g >= 0) & (g < extent)
    return addrs, inside


def dot(a, b, acc, e):
    if not e.is_float:
        return (np.matmul(a.astype(np.int64), b.astype(np.int64)) + acc).astype(e.np)
    wide = np.float64 if e.bits == 64 else np.float32
    return rounded(np.matmul(a.astype(wide), b.astype(wide)) + acc.astype(wide), e)


#: Reductions' and scans' combining functions, by kind.
COMBINE = {**INT_BINARY, **UNSIGNED_BINARY, **FLOAT_BINARY}


def reduce(x, kind, axis, e):
    f = COMBINE[kind]
    if kind in ("umin", "umax"):
        return np.asarray(f.reduce(unsigned(x, e), axis=axis)).view(e.np)
    if e.is_float and e.bits < 32:  # a pairwise tree, rounding every step as the GPU combines
        x = np.moveaxis(x, axis, -1)
        while x.shape[-1] > 1:
            x = rounded(f(x[..., 0::2], x[..., 1::2]), e)
        return x[..., 0]
    if e.bits == 1 and kind in ("add", "mul"):
        f = np.logical_xor if kind == "add" else np.logical_and
    return np.asarray(f.reduce(x, axis=axis, dtype=e.np if not e.bits == 1 else None))


def scan(x, kind, axis, reverse, e):
    x = np.flip(x, axis=axis) if reverse else x
    f = COMBINE[kind]
    if e.carried:  # rounded to the format at every step
        m = np.moveaxis(x, axis, -1)
        out = np.empty_like(m)
        cur = out[..., 0] = m[..., 0]
        for j in range(1, m.shape[-1]):
            cur = out[..., j] = rounded(f(cur, m[..., j]), e)
        x = np.moveaxis(out, -1, axis)
    else:
        x = f.accumulate(x, axis=axis, dtype=e.np)
    return np.ascontiguousarray(np.flip(x, axis=axis) if reverse else x, dtype=e.np)


def arg_min_max(x, is_max, axis, tie_left, e, is_unsigned):
    d = np.moveaxis(unsigned(x, e) if is_unsigned else x, axis, -1)
    if e.is_float:
        nan = d != d
        best = (np.fmax if is_max else np.fmin).reduce(d, axis=-1, keepdims=True)
        cand = np.where(nan.any(axis=-1, keepdims=True), nan, d == best)
    else:
        cand = d == (np.max if is_max else np.min)(d, axis=-1, keepdims=True)
    idx = np.argmax(cand, axis=-1) if tie_left else d.shape[-1] - 1 - np.argmax(cand[..., ::-1], axis=-1)
    return np.asarray(idx, dtype=np.int32)


CASTS = ("trunc", "zext", "sext", "fptrunc", "fpext", "fptoui", "fptosi", "uitofp", "sitofp", "bitcast",
         "ptrtoint", "inttoptr")

#: An instruction as MAKE reads it: ``r``/``o`` the Elem of its first
#: result/operand, ``shape`` the result's.
Instr = namedtuple("Instr", "op attrs r o shape axis otypes rtypes")


def _fixed(a):
    """A value computed once, shared by every run of the plan."""
    a = np.array(a)
    a.flags.writeable = False
    return lambda ctx: a


def _cast_step(i):
    f = _cast(i.op, i.o, i.r, i.attrs.get("rounding") == "rtz")
    return lambda ctx, a: np.asarray(f(a))


def _print_step(i):
    elems, unsigned_ops = [elem(t) for t in i.otypes], set(i.attrs.get("unsigned_operands", ()))
    return lambda ctx, *v: ctx.print_values(i.attrs.get("prefix", ""), v, elems, "hex" in i.attrs, unsigned_ops)


def _extern_step(i):
    elems = [elem(t) for t in i.otypes]
    return lambda ctx, *a: call_extern(i.attrs["symbol"], [bcast(x, i.shape) for x in a], elems, i.r)


def _descriptor_step(i):
    rank = (len(i.otypes) - 1) // 2
    return lambda ctx, base, *v: Desc(int(base), [int(x) for x in v[:rank]], [int(x) for x in v[rank:]],
                                      i.rtypes[0][2])


def _descriptor_load_step(i):
    fill = np.array(np.nan if i.attrs.get("padding") == "nan" else 0, dtype=i.r.np)
    return lambda ctx, d, *offsets: load(ctx, i.r, *descriptor_block(d, offsets, i.shape, i.attrs.get("boundary")),
                                         fill)


def _descriptor_store_step(i):
    def descriptor_store(ctx, d, *rest):
        addrs, inside = descriptor_block(d, rest[:-1], rest[-1].shape, i.attrs.get("boundary"))
        store(ctx, elem(i.otypes[-1]), addrs, rest[-1], inside)
    return descriptor_store


def _inline_asm(ctx, *a):  # as in Triton's interpreter: assembly runs only on a GPU
    raise NotImplementedError("inline_asm_elementwise runs only in compiled kernels, not in the interpreter")


#: ``MAKE[op](instr)`` is ``fn(ctx, *operands)`` (several results: a tuple).
MAKE = {
    **{op: lambda i: _binary(i.op, i.o) for op in BINARY},
    **{op: lambda i: _unary(i.op, i.o) for op in (*MATH, "neg", "abs")},
    **dict.fromkeys(CASTS, _cast_step),
    "select": lambda i: lambda ctx, c, a, b: np.asarray(np.where(c, a, b)),
    "join": lambda i: lambda ctx, a, b: np.stack([a, b], axis=-1),
    "split": lambda i: lambda ctx, a: (a[..., 0], a[..., 1]),
    "cat": lambda i: lambda ctx, a, b: np.concatenate([a, b], axis=0),
    **dict.fromkeys(("multiple_of", "max_contiguous", "max_constancy"), lambda i: lambda ctx, a: a),
    **dict.fromkeys(("barrier", "gdc_wait", "gdc_launch_dependents"), lambda i: lambda ctx: None),
    "constant": lambda i: _fixed(bcast(constant_of(i.attrs["value"], i.r), i.shape)),
    "make_range": lambda i: _fixed(np.arange(i.attrs["start"], i.attrs["end"], dtype=np.int32)),
    "icmp": lambda i: _icmp(i.attrs["ipredicate"], i.o),
    "fcmp": lambda i: _fcmp(i.attrs["fpredicate"]),
    "fma": lambda i: lambda ctx, a, b, c: rounded(a.astype(np.float64) * b + c, i.r),
    "getelementptr": lambda i: lambda ctx, p, off: np.asarray(p + np.multiply(off, i.otypes[0][2], dtype=np.int64)),
    "load": lambda i: lambda ctx, *a: load(ctx, i.r, *a),
    "store": lambda i: lambda ctx, *a: store(ctx, elem(i.otypes[1]), *a),
    "atomic_rmw": lambda i: lambda ctx, p, v, m=None: atomic(ctx, i.r, i.attrs["rmw_kind"], p, v, m),
    "atomic_cas": lambda i: lambda ctx, p, c, v: atomic(ctx, i.r, None, p, v, None, c),
    **dict.fromkeys(("splat", "broadcast"), lambda i: lambda ctx, a: bcast(a, i.shape)),
    "reshape": lambda i: lambda ctx, a: np.reshape(a, i.shape),
    "expand_dims": lambda i: lambda ctx, a: np.expand_dims(a, i.axis),
    "trans": lambda i: lambda ctx, a: np.transpose(a, i.attrs["order"]),
    "gather": lambda i: lambda ctx, s, x: np.take_along_axis(s, x.astype(np.int64), axis=i.axis),
    "dot": lambda i: lambda ctx, a, b, c: dot(a, b, c, i.r),
    "reduce": lambda i: lambda ctx, x: reduce(x, i.attrs["kind"], i.axis, i.o),
    "scan": lambda i: lambda ctx, x: scan(x, i.attrs["kind"], i.axis, "reverse" in i.attrs, i.o),
    **dict.fromkeys(("argmin", "argmax"), lambda i: lambda ctx, x: arg_min_max(
        x, i.op == "argmax", i.axis, "tie_break_left" in i.attrs, i.o, "unsigned" in i.attrs)),
    "get_program_id": lambda i: lambda ctx: np.array(ctx.pid[i.axis], dtype=np.int32),
    "get_num_programs": lambda i: lambda ctx: np.array(ctx.grid[i.axis], dtype=np.int32),
    "print": _print_step,
    "assert": lambda i: lambda ctx, c: ctx.check_assert(c, i.attrs.get("message", "")),
    "extern_elementwise": _extern_step,
    "make_tensor_descriptor": _descriptor_step,
    "descriptor_load": _descriptor_load_step,
    "descriptor_store": _descriptor_store_step,
    "inline_asm": lambda i: _inline_asm,
}


def compile_step(step):
    """``fn(ctx, *operands)`` computing one instruction of ``describe_function``."""
    op, _, attrs, rtypes, otypes = step
    if op not in MAKE:
        raise NotImplementedError(f"the interpreter cannot evaluate the instruction '{op}'")
    r, o = (elem(rtypes[0]) if rtypes else None), (elem(otypes[0]) if otypes else None)
    return MAKE[op](Instr(op, attrs, r, o, tuple(rtypes[0][1]) if rtypes else (), attrs.get("axis"), otypes, rtypes))
