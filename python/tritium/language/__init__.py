"""``tritium.language`` ("tl"): the kernel language, Triton 3.6's names.

    import tritium.language as tl

    @tritium.jit
    def add(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)
"""

from . import core, extra, math, random, standard
from ._types import str_to_ty, get_int_dtype
from .core import (
    PropagateNan, TRITON_MAX_TENSOR_NUMEL, add, advance, arange, associative_scan, assume, atomic_add, atomic_and,
    atomic_cas, atomic_max, atomic_min, atomic_or, atomic_xchg, atomic_xor, bfloat16, block_type, broadcast,
    broadcast_to, cast, cat, condition, constexpr, debug_barrier, device_assert, device_print, dot, dtype,
    expand_dims, extern_elementwise, float16, float32, float64, float8e4b15, float8e4nv, float8e5, floordiv, full,
    full_like, gather, map_elementwise,
    inline_asm_elementwise, int1, int16, int32, int64, int8, join, load, logical_and, logical_or, make_block_ptr,
    max_constancy, max_contiguous, maximum, minimum, mul, multiple_of, num_programs, permute, pi32_t, pointer_type,
    program_id, range, reduce, reshape, split, static_assert, static_print, static_range, store, sub, tensor,
    to_tensor, trans, truediv, uint16, uint32, uint64, uint8, view, void, where, zeros, zeros_like, clamp,
    block_ptr, make_tensor_descriptor, load_tensor_descriptor, store_tensor_descriptor, tensor_descriptor)
from .math import (abs, ceil, cos, div_rn, erf, exp, exp2, fdiv, floor, fma, log, log2, rsqrt, sin, sqrt, sqrt_rn,
                   umulhi)
from .random import (pair_uniform_to_normal, philox, philox_impl, rand, rand4x, randint, randint4x, randn, randn4x,
                     uint_to_uniform_float)
from .standard import (argmax, argmin, cdiv, cumprod, cumsum, dot_scaled, flip, histogram, interleave, max, min,
                       ravel, reduce_or, sigmoid, softmax, sort, sum, swizzle2d, topk, xor_sum)


class const:
    """Annotation of a pointer parameter the kernel only reads
    (``x_ptr: tl.const``); the runtime passes it as a const pointer."""


slice = slice  # noqa: A001 (Triton exports the builtin)
tuple = tuple  # noqa: A001


# `from tritium.language import *`: every public name but these.
__all__ = sorted(_n for _n in dir() if not _n.startswith("_") and _n not in {
    "block_ptr", "core", "floordiv", "get_int_dtype", "logical_and", "logical_or", "random", "standard",
    "tensor_descriptor", "to_tensor", "truediv"})
