"""The part of ``tl`` written in the language itself: reductions and scans
by name, softmax, sort (a bitonic network), flip, interleave and friends.
Each is a composition of the core builtins, so it needs nothing from the
semantic beyond what the core already uses."""

import builtins as _py

from . import _types
from . import math as _math
from .core import (_axis, _generated_builtin, _reduce_kind, _sem, _tensor_method, _unwrap, _wrap, arange,
                   broadcast_to, builtin, constexpr, dot, expand_dims, join, minimum, permute, reshape, split,
                   static_assert, tensor, to_tensor, trans, where)


@_tensor_method
def cdiv(x, div):
    """ceil(x / div) for integers."""
    if not isinstance(_unwrap(x), tensor) and not isinstance(_unwrap(div), tensor):
        x, div = _unwrap(x), _unwrap(div)
        return constexpr((x + div - 1) // div)
    return (x + div - 1) // div


@_tensor_method
def sigmoid(x):
    """1 / (1 + exp(-x))."""
    return 1 / (1 + _math.exp(-to_tensor(x)))


@_tensor_method
def softmax(x, dim=None, keep_dims=False, ieee_rounding=False):
    """exp(x - max) / sum(exp(x - max)) along ``dim`` (0 by default)."""
    x = to_tensor(x)
    d = 0 if _unwrap(dim) is None else _unwrap(dim)
    z = x - max(x, d, keep_dims=True)
    num = _math.exp(z)
    den = sum(num, d, keep_dims=True)
    return _math.fdiv(num, den, ieee_rounding)


@_tensor_method
def ravel(x, can_reorder=False):
    """``x`` as a 1-D block."""
    x = to_tensor(x)
    return reshape(x, [x.numel], can_reorder=can_reorder)


# -- Reductions and scans -----------------------------------------------------


@_tensor_method
def sum(input, axis=None, keep_dims=False, dtype=None):
    """The sum along ``axis`` (all dimensions if None); small integers are
    summed in 32 bits unless ``dtype`` says otherwise."""
    return _reduce_kind(input, "sum", axis, keep_dims, dtype)


def _arg_min_max(input, is_max, axis, tie_break_left, keep_dims):
    x = to_tensor(input)
    keep_dims = bool(_unwrap(keep_dims))
    if _unwrap(axis) is None:
        shape = x.shape
        if len(shape) > 1:
            x = reshape(x, [x.numel])
        r = _wrap(_sem().arg_min_max(x.handle, is_max, 0, bool(_unwrap(tie_break_left)), False))
        return reshape(r, [1] * len(shape)) if keep_dims and shape else r
    return _wrap(_sem().arg_min_max(x.handle, is_max, _axis(x, axis), bool(_unwrap(tie_break_left)), keep_dims))


def _extremum(name, is_max):
    def extremum(input, axis=None, return_indices=False, return_indices_tie_break_left=True, keep_dims=False):
        value = _reduce_kind(input, name, axis, keep_dims)
        if _unwrap(return_indices):
            return value, _arg_min_max(input, is_max, axis, return_indices_tie_break_left, keep_dims)
        return value

    def arg(input, axis, tie_break_left=True, keep_dims=False):
        return _arg_min_max(input, is_max, axis, tie_break_left, keep_dims)
    return (_generated_builtin(name, f"The {name}imum along ``axis``; with ``return_indices`` also its index.",
                               extremum),
            _generated_builtin(f"arg{name}", f"The index of the {name}imum along ``axis``.", arg))


max, argmax = _extremum("max", True)
min, argmin = _extremum("min", False)


@_tensor_method
def xor_sum(input, axis=None, keep_dims=False):
    """The bitwise xor of the elements along ``axis``."""
    return _reduce_kind(input, "xor_sum", axis, keep_dims)


@_tensor_method
def reduce_or(input, axis, keep_dims=False):
    """The bitwise or of the elements along ``axis``."""
    return _reduce_kind(input, "or", axis, keep_dims)


def _scan_builtin(name, kind, what):
    def scan(input, axis=0, reverse=False, dtype=None):
        x = to_tensor(input)
        return _wrap(_sem().scan(x.handle, kind, _axis(x, 0 if _unwrap(axis) is None else axis),
                                 bool(_unwrap(reverse)), _unwrap(dtype)))
    return _generated_builtin(name, f"The inclusive prefix {what} along ``axis``.", scan)


cumsum = _scan_builtin("cumsum", "sum", "sum")
cumprod = _scan_builtin("cumprod", "prod", "product")


# -- Sort and flip: networks of split/join on the binary digits of an index ---


def _log2(n):
    k = 0
    while (1 << k) < n:
        k += 1
    if (1 << k) != n:
        raise ValueError(f"{n} is not a power of two")
    return k


def _dim(x, dim):
    """``dim`` of ``x`` counted from 0 (a negative one from the end); None is the last."""
    d = _unwrap(dim)
    rank = len(x.shape)
    return rank - 1 if d is None else d + rank if d < 0 else d


def _swap_pairs(x, dist):
    """Splits ``x`` (its last dimension reshaped as [.., 2, dist]) into the
    pairs of elements ``dist`` apart; returns the reshaped pair axes."""
    outer = x.numel // (2 * dist)
    y = permute(reshape(x, [outer, 2, dist]), 0, 2, 1)
    return split(y)


def _compare_and_swap(x, flip, dist):
    """One column of the bitonic network: each pair (a, b) of elements
    ``dist`` apart is put in order (ascending where ``flip`` is 0)."""
    shape = x.shape
    left, right = _swap_pairs(x, dist)
    if isinstance(flip, tensor):
        f, _ = _swap_pairs(flip, dist)
        swap = (left > right) ^ (f != 0)
    else:
        swap = (left < right) if flip else (left > right)
    return reshape(permute(join(where(swap, right, left), where(swap, left, right)), 0, 2, 1), shape)


def _bitonic_merge(x, stage, order):
    """Merges bitonic runs of length 2**stage; ``order`` is 0 (ascending),
    1 (descending) or 2 (alternating every 2**stage elements)."""
    if order == 2:
        outer = x.numel >> stage
        pattern = broadcast_to(arange(0, 2)[None, :, None], [outer // 2, 2, 1 << stage])
        flip = reshape(pattern, x.shape)
    else:
        flip = order
    for i in _py.range(stage):
        x = _compare_and_swap(x, flip, 1 << (stage - 1 - i))
    return x


@_tensor_method
def sort(x, dim=None, descending=False):
    """``x`` sorted along its last dimension (a bitonic sorting network)."""
    x = to_tensor(x)
    d = _dim(x, dim)
    static_assert(d == len(x.shape) - 1, "only the last dimension can be sorted")
    n_dims = _log2(x.shape[d])
    descending = 1 if _unwrap(descending) else 0
    for stage in _py.range(1, n_dims + 1):
        x = _bitonic_merge(x, stage, 2 if stage < n_dims else descending)
    return x


@_tensor_method
def topk(x, k, dim=None):
    """The ``k`` largest elements of ``x`` along its last dimension, largest
    first. The row sorted largest first, cut in chunks of ``k``: element by
    element no chunk exceeds the first, so their maximum is the first."""
    x = to_tensor(x)
    k = _unwrap(k)
    n = x.shape[-1] if x.shape else 0
    static_assert(isinstance(k, int) and 0 < k <= n, f"topk's k must be in [1, {n}] (got {k})")
    _log2(k)
    ordered = sort(x, dim, descending=True)
    if k == n:
        return ordered
    return max(reshape(ordered, x.shape[:-1] + [n // k, k]), axis=len(x.shape) - 1)


@_tensor_method
def flip(x, dim=None):
    """``x`` reversed along ``dim`` (the last dimension by default)."""
    x = to_tensor(x)
    shape = x.shape
    d = _dim(x, dim)
    k = _log2(shape[d])
    if k == 0:
        return x
    # Reversing an axis of 2**k elements reverses each of its k binary digits.
    bits = shape[:d] + [2] * k + shape[d + 1:]
    y = reshape(x, bits)
    n = len(bits)
    for j in _py.range(d, d + k):
        order = [a for a in _py.range(n) if a != j] + [j]
        inverse = [order.index(a) for a in _py.range(n)]
        moved = order != list(_py.range(n))
        lo, hi = split(permute(y, *order) if moved else y)
        y = join(hi, lo)
        y = permute(y, *inverse) if moved else y
    return reshape(y, shape)


@builtin
def interleave(a, b):
    """The elements of ``a`` and ``b`` alternating along the last dimension."""
    c = join(a, b)
    shape = c.shape
    if len(shape) == 1:
        return c
    return reshape(c, shape[:-2] + [2 * shape[-2]])


@builtin
def swizzle2d(i, j, size_i, size_j, size_g):
    """Maps the row-major index (i, j) of a size_i x size_j grid to the
    column-major order within groups of size_g rows (grouped ordering)."""
    ij = i * size_j + j
    size_gj = size_g * size_j
    group_id = ij // size_gj
    off_i = group_id * size_g
    group_rows = minimum(size_i - off_i, size_g)
    ij = ij % size_gj
    return off_i + ij % group_rows, ij // group_rows


__all__ = ["argmax", "argmin", "cdiv", "cumprod", "cumsum", "flip", "interleave", "max", "min", "ravel",
           "reduce_or", "sigmoid", "softmax", "sort", "sum", "swizzle2d", "xor_sum"]


@_tensor_method
def histogram(input, num_bins, mask=None):
    """The counts (int32) of the values 0 .. ``num_bins`` - 1 in the 1-D
    integer block ``input``, where ``mask`` is true; values outside that
    range are not counted. A comparison of every element with every bin,
    summed (``num_bins`` a power of two; M × num_bins elements at once)."""
    x = to_tensor(input)
    if len(x.shape) != 1 or not x.dtype.is_int():
        raise TypeError(f"histogram: input must be a 1-D block of integers, got {x.type}")
    hit = expand_dims(x, 1) == expand_dims(arange(0, _unwrap(num_bins)), 0)
    if _unwrap(mask) is not None:
        hit = hit & expand_dims(to_tensor(mask), 1)
    return sum(hit.to(_types.int32), 0)


# -- Microscaled dots (OCP MX formats) ----------------------------------------
# Emulated as Triton does on GPUs without microscaling instructions (Hopper and older).

_MX_FORMATS = ("e2m1", "e4m3", "e5m2", "bf16", "fp16")


def _e2m1_bits(nibble, sign, to_m, to_bias, half):
    """The 16-bit pattern of an e2m1 value (3 bits `nibble` = e1 e0 m, the
    sign apart) in a type with `to_m` mantissa bits and bias `to_bias`."""
    x = (nibble.to(_types.uint16) << (to_m - 1)) | (sign.to(_types.uint16) << 15)
    x = where((nibble & 0x6) != 0, x + ((to_bias - 1) << to_m), x)  # normal: rebias
    return where(nibble == 1, half | (x & 0x8000), x)  # 0.5 (e2m1's one subnormal)


def _mx_upcast(v, scale, fmt, comp, k_axis, fast_math):
    """Operand `v` of format `fmt` as a block of `comp` (bf16 or fp16), its
    K along `k_axis`, times 2^(scale - 127) for each group of 32 along K."""
    v = to_tensor(v)
    if fmt == "e2m1":
        bf16 = comp == _types.bfloat16
        to_m, to_bias, half = (7, 127, 0x3F00) if bf16 else (10, 15, 0x3800)
        lo = _e2m1_bits(v & 0x7, (v >> 3) & 1, to_m, to_bias, half)
        hi = _e2m1_bits((v >> 4) & 0x7, (v >> 7) & 1, to_m, to_bias, half)
        # Two values a byte, the first in the low bits, along K.
        if k_axis == 1:
            up = interleave(lo, hi)
        else:
            pair = join(lo, hi)
            up = reshape(permute(pair, (0, 2, 1)), [2 * v.shape[0], v.shape[1]])
        up = up.to(comp, bitcast=True)
    elif fmt in ("e4m3", "e5m2"):
        f8 = _types.float8e4nv if fmt == "e4m3" else _types.float8e5
        up = (v if v.dtype == f8 else v.to(f8, bitcast=True)).to(comp)
    else:
        up = v.to(comp)
    if scale is None:
        return up
    scale = to_tensor(scale)
    if comp == _types.bfloat16:
        factor = (scale.to(_types.uint16) << 7).to(_types.bfloat16, bitcast=True)
    else:
        factor = (scale.to(_types.uint32) << 23).to(_types.float32, bitcast=True).to(comp)
    if not fast_math:  # a scale of 0xFF is NaN, and so is every value it scales
        factor = where(scale == 0xFF, float("nan"), factor)
    # [rows, K / 32] -> [rows, K], each scale repeated over its 32 elements.
    rows, groups = scale.shape
    factor = reshape(broadcast_to(expand_dims(factor, 2), [rows, groups, 32]), [rows, groups * 32])
    return up * (factor if k_axis == 1 else trans(factor))


@builtin
def dot_scaled(lhs, lhs_scale, lhs_format, rhs, rhs_scale, rhs_format, acc=None, fast_math=False, lhs_k_pack=True,
               rhs_k_pack=True, out_dtype=_types.float32):
    """The product of two blocks in microscaling formats (``e2m1`` packed two
    a byte along K, the first in the low bits; ``e4m3``, ``e5m2`` as uint8 or
    fp8; ``bf16``, ``fp16``), each with an optional ``uint8`` e8m0 scale per
    32 elements along K (``[M, K // 32]`` for lhs, ``[N, K // 32]`` for rhs),
    plus ``acc``. As Triton does on GPUs without microscaling instructions,
    both operands are upcast to bf16 (fp16 when either format is fp16),
    multiplied by their scales and given to ``tl.dot`` with f32
    accumulation."""
    lhs_format, rhs_format = _unwrap(lhs_format), _unwrap(rhs_format)
    for fmt in (lhs_format, rhs_format):
        if fmt not in _MX_FORMATS:
            raise ValueError(f"dot_scaled: format must be one of {', '.join(_MX_FORMATS)}, got {fmt!r}")
    if not (_unwrap(lhs_k_pack) and _unwrap(rhs_k_pack)):
        raise NotImplementedError("dot_scaled: operands packed along M or N (k_pack=False) are not supported yet")
    if _unwrap(out_dtype) != _types.float32:
        raise ValueError("dot_scaled: out_dtype must be float32")
    fast = bool(_unwrap(fast_math))
    comp = _types.float16 if "fp16" in (lhs_format, rhs_format) else _types.bfloat16
    a = _mx_upcast(lhs, _unwrap(lhs_scale), lhs_format, comp, 1, fast)
    b = _mx_upcast(rhs, _unwrap(rhs_scale), rhs_format, comp, 0, fast)
    return dot(a, b, acc, out_dtype=_types.float32)
