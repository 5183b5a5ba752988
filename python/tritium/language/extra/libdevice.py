"""``tl.extra.libdevice``: NVIDIA libdevice functions, one
``extern_elementwise`` call each.

The symbol follows the argument type: for float functions ``__nv_<name>f``
on fp32 and ``__nv_<name>`` on fp64 (libdevice has no fp16/bf16 variants:
convert with ``.to(tl.float32)`` first); integer functions pick the 32- or
64-bit symbol (``__nv_popc``/``__nv_popcll``...). Predicates (isnan, isinf,
isfinited, signbit) return int1.
"""

from .. import _types as _t
from .._extern import dispatch as _dispatch
from ..core import _generated_builtin

_F32, _F64 = _t.float32, _t.float64
_I32, _I64, _U32, _U64 = _t.int32, _t.int64, _t.uint32, _t.uint64


def _define(name, table, post=None):
    def fn(*args):
        r = _dispatch(list(args), table, True, name)
        return post(r) if post else r

    fn.__module__ = __name__
    doc = f"libdevice {name}: " + ", ".join(s for s, _ in table.values())
    globals()[name] = _generated_builtin(name, doc, fn, method=False)
    __all__.append(name)


__all__ = []


def _fd(n, arity=1, f32=None, f64=None, ret_f32=_F32, ret_f64=_F64):
    return {(_F32, ) * arity: (f32 or f"__nv_{n}f", ret_f32), (_F64, ) * arity: (f64 or f"__nv_{n}", ret_f64)}


# Float -> float, one argument.
for _n in ("acos", "acosh", "asin", "asinh", "atan", "atanh", "cbrt", "ceil", "cos", "cosh", "cospi", "erf", "erfc",
           "erfcinv", "erfcx", "erfinv", "exp", "exp10", "exp2", "expm1", "floor", "j0", "j1", "lgamma", "log",
           "log10", "log1p", "log2", "logb", "nearbyint", "normcdf", "normcdfinv", "rcbrt", "rint", "round", "rsqrt",
           "sin", "sinh", "sinpi", "sqrt", "tan", "tanh", "tgamma", "trunc", "y0", "y1"):
    _define(_n, _fd(_n))

# Float -> float, two or three arguments.
for _n in ("atan2", "copysign", "fdim", "fmax", "fmin", "fmod", "hypot", "nextafter", "pow", "remainder"):
    _define(_n, _fd(_n, 2))
_define("fma", _fd("fma", 3))

# Rounding-mode arithmetic: (name, arity, fp32 symbol, fp64 symbol), each with a _<mode> suffix.
_ROUNDED = (("div", 2, "fdiv", "ddiv"), ("add", 2, "fadd", "dadd"), ("sub", 2, "fsub", "dsub"),
            ("mul", 2, "fmul", "dmul"), ("sqrt", 1, "fsqrt", "dsqrt"), ("rcp", 1, "frcp", "drcp"),
            ("fma", 3, "fmaf", "fma"))
for _mode in ("rn", "rz", "rd", "ru"):
    for _n, _arity, _f32, _f64 in _ROUNDED:
        _define(f"{_n}_{_mode}", _fd("", _arity, f"__nv_{_f32}_{_mode}", f"__nv_{_f64}_{_mode}"))

# Mixed argument types.
for _n, _symbol in (("pow_int", "powi"), ("powi", "powi"), ("ldexp", "ldexp"), ("scalbn", "scalbn")):
    _define(_n, {(_F32, _I32): (f"__nv_{_symbol}f", _F32), (_F64, _I32): (f"__nv_{_symbol}", _F64)})
_define("ilogb", _fd("ilogb", 1, ret_f32=_I32, ret_f64=_I32))
_define("saturatef", {(_F32, ): ("__nv_saturatef", _F32)})

# Predicates: libdevice answers int32; the language gives int1.
for _n, _f32, _f64 in (("isnan", "__nv_isnanf", "__nv_isnand"), ("isinf", "__nv_isinff", "__nv_isinfd"),
                       ("isfinited", "__nv_finitef", "__nv_isfinited"),
                       ("signbit", "__nv_signbitf", "__nv_signbitd")):
    _define(_n, _fd(_n, 1, _f32, _f64, _I32, _I32), post=lambda r: r != 0)
finitef = isfinited  # noqa: F821 (defined by _define)

# abs: integers and floats.
_define("abs", {(_I32, ): ("__nv_abs", _I32), (_I64, ): ("__nv_llabs", _I64), (_F32, ): ("__nv_fabsf", _F32),
                (_F64, ): ("__nv_fabs", _F64)})
_define("fabs", _fd("fabs"))

# Fast approximations (fp32 only).
for _n in ("exp", "exp10", "log", "log2", "log10", "sin", "cos", "tan"):
    _define(f"fast_{_n}f", {(_F32, ): (f"__nv_fast_{_n}f", _F32)})
_define("fast_powf", {(_F32, _F32): ("__nv_fast_powf", _F32)})
_define("fast_dividef", {(_F32, _F32): ("__nv_fast_fdividef", _F32)})

# Integer functions.
for _n in ("popc", "clz"):  # a bit count, int32 for every width
    _define(_n, {(_I32, ): (f"__nv_{_n}", _I32), (_I64, ): (f"__nv_{_n}ll", _I32), (_U32, ): (f"__nv_{_n}", _I32),
                 (_U64, ): (f"__nv_{_n}ll", _I32)})
_define("ffs", {(_I32, ): ("__nv_ffs", _I32), (_I64, ): ("__nv_ffsll", _I32)})
_define("brev", {(_I32, ): ("__nv_brev", _I32), (_I64, ): ("__nv_brevll", _I64), (_U32, ): ("__nv_brev", _U32),
                 (_U64, ): ("__nv_brevll", _U64)})
_define("mulhi", {(_I32, _I32): ("__nv_mulhi", _I32), (_I64, _I64): ("__nv_mul64hi", _I64)})
_define("umulhi", {(_U32, _U32): ("__nv_umulhi", _U32), (_U64, _U64): ("__nv_umul64hi", _U64),
                   (_I32, _I32): ("__nv_umulhi", _I32), (_I64, _I64): ("__nv_umul64hi", _I64)})
for _n in ("min", "max"):
    _define(_n, {(_I32, _I32): (f"__nv_{_n}", _I32), (_U32, _U32): (f"__nv_u{_n}", _U32),
                 (_I64, _I64): (f"__nv_ll{_n}", _I64), (_U64, _U64): (f"__nv_ull{_n}", _U64),
                 (_F32, _F32): (f"__nv_f{_n}f", _F32), (_F64, _F64): (f"__nv_f{_n}", _F64)})
