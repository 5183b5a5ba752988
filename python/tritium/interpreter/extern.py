"""libdevice functions (``extern_elementwise`` symbols) on numpy arrays.

The symbol says the function and the precision: ``__nv_<name>f`` works in
fp32, ``__nv_<name>`` in fp64 (language/extra/libdevice.py picks them).
Values are computed in float64 and rounded to the result type; rounding-mode
variants (``_rz``, ``_ru``, ``_rd``) use round-to-nearest (a documented
difference of the interpreter).
"""

import math
import re

import numpy as np


def _vec(fn):
    return np.vectorize(fn, otypes=[np.float64])


def _safe(fn):
    def g(*a):
        try:
            return fn(*a)
        except (ValueError, OverflowError):
            return math.nan
    return g


def _erfinv(y):
    if y <= -1.0:
        return -math.inf if y == -1.0 else math.nan
    if y >= 1.0:
        return math.inf if y == 1.0 else math.nan
    # Newton on erf from a good start (Giles' approximation).
    w = -math.log((1.0 - y) * (1.0 + y))
    if w < 5.0:
        w -= 2.5
        p = 2.81022636e-08
        for c in (3.43273939e-07, -3.5233877e-06, -4.39150654e-06, 0.00021858087, -0.00125372503, -0.00417768164,
                  0.246640727, 1.50140941):
            p = c + p * w
    else:
        w = math.sqrt(w) - 3.0
        p = -0.000200214257
        for c in (0.000100950558, 0.00134934322, -0.00367342844, 0.00573950773, -0.0076224613, 0.00943887047,
                  1.00167406, 2.83297682):
            p = c + p * w
    x = p * y
    for _ in range(3):
        err = math.erf(x) - y
        x -= err / (2.0 / math.sqrt(math.pi) * math.exp(-x * x))
    return x


_UNARY = {
    "acos": np.arccos, "acosh": np.arccosh, "asin": np.arcsin, "asinh": np.arcsinh, "atan": np.arctan,
    "atanh": np.arctanh, "cbrt": np.cbrt, "ceil": np.ceil, "cos": np.cos, "cosh": np.cosh,
    "cospi": lambda x: np.cos(np.pi * x), "erf": _vec(math.erf), "erfc": _vec(math.erfc),
    "erfinv": _vec(_erfinv), "erfcinv": _vec(lambda y: _erfinv(1.0 - y)),
    "erfcx": _vec(lambda x: math.exp(x * x) * math.erfc(x) if x < 25 else 1.0 / (x * math.sqrt(math.pi))),
    "exp": np.exp, "exp10": lambda x: np.power(10.0, x), "exp2": np.exp2, "expm1": np.expm1, "floor": np.floor,
    "lgamma": _vec(_safe(math.lgamma)), "log": np.log, "log10": np.log10, "log1p": np.log1p, "log2": np.log2,
    "logb": lambda x: np.floor(np.log2(np.abs(x))), "nearbyint": np.rint, "rint": np.rint,
    "normcdf": _vec(lambda x: 0.5 * math.erfc(-x / math.sqrt(2.0))),
    "normcdfinv": _vec(lambda p: math.sqrt(2.0) * _erfinv(2.0 * p - 1.0)),
    "rcbrt": lambda x: 1.0 / np.cbrt(x), "round": lambda x: np.trunc(x + np.copysign(0.5, x)),
    "rsqrt": lambda x: 1.0 / np.sqrt(x), "sin": np.sin, "sinh": np.sinh, "sinpi": lambda x: np.sin(np.pi * x),
    "sqrt": np.sqrt, "tan": np.tan, "tanh": np.tanh, "tgamma": _vec(_safe(math.gamma)), "trunc": np.trunc,
    "fabs": np.abs, "saturate": lambda x: np.clip(x, 0.0, 1.0), "rcp": lambda x: 1.0 / x,
}
_BINARY = {
    "atan2": np.arctan2, "copysign": np.copysign, "fdim": lambda a, b: np.where(a > b, a - b, 0.0),
    "fmax": np.fmax, "fmin": np.fmin, "fmod": np.fmod, "hypot": np.hypot, "pow": np.power,
    "remainder": lambda a, b: a - b * np.rint(a / b), **dict.fromkeys(("fdiv", "ddiv", "div", "fdivide"), np.divide),
    **dict.fromkeys(("fadd", "dadd", "add"), np.add), **dict.fromkeys(("fsub", "dsub", "sub"), np.subtract),
    **dict.fromkeys(("fmul", "dmul", "mul"), np.multiply),
}


#: Integer functions on the operands as Python ints (held signed; ``m``
#: their mask, ``n`` their bits), named without ``ll`` and ``64``.
_INT = {
    "popc": lambda v, m, n: bin(v & m).count("1"), "clz": lambda v, m, n: n - (v & m).bit_length(),
    "ffs": lambda v, m, n: (v & -v & m).bit_length(), "abs": lambda v, m, n: abs(v),
    "brev": lambda v, m, n: int(format(v & m, f"0{n}b")[::-1], 2),
    "mulhi": lambda a, b, m, n: a * b >> n, "umulhi": lambda a, b, m, n: (a & m) * (b & m) >> n,
    "min": lambda a, b, m, n: min(a, b), "max": lambda a, b, m, n: max(a, b),
    "umin": lambda a, b, m, n: min(a & m, b & m), "umax": lambda a, b, m, n: max(a & m, b & m),
}


def int_function(name, arrays, bits):
    """``name`` of _INT on the integer ``arrays`` of ``bits`` bits, as int64 (None: not one)."""
    f = _INT.get(re.sub(r"^(u?)ll|ll$|64(?=hi$)", r"\1", name))
    if f is None:
        return None
    as_int64 = np.frompyfunc(lambda *a: (f(*a, (1 << bits) - 1, bits) + (1 << 63) & (1 << 64) - 1) - (1 << 63),
                             len(arrays), 1)
    return np.asarray(as_int64(*[a.astype(np.int64).astype(object) for a in arrays]), dtype=np.int64)


#: Functions named without the fp32 "f" and the f32/f64 variants, on the
#: arguments as float64 (integers as they are).
_SPECIAL = {
    **dict.fromkeys(("isnanf", "isnand", "isnan"), lambda a: np.isnan(a[0])),
    **dict.fromkeys(("isinff", "isinfd", "isinf"), lambda a: np.isinf(a[0])),
    **dict.fromkeys(("finitef", "isfinited"), lambda a: np.isfinite(a[0])),
    **dict.fromkeys(("signbitf", "signbitd"), lambda a: np.signbit(a[0])),
    **dict.fromkeys(("powif", "powi"), lambda a: np.power(a[0], a[1].astype(np.float64))),
    **dict.fromkeys(("ldexpf", "ldexp", "scalbnf", "scalbn"), lambda a: np.ldexp(a[0], a[1].astype(np.int64))),
    **dict.fromkeys(("ilogbf", "ilogb"), lambda a: np.floor(np.log2(np.abs(a[0])))),
    **dict.fromkeys(("fmaf", "fma"), lambda a: a[0] * a[1] + a[2]),
    **dict.fromkeys(("fsqrt", "dsqrt"), lambda a: np.sqrt(a[0])),
    **dict.fromkeys(("frcp", "drcp"), lambda a: 1.0 / a[0]),
}


def call_extern(symbol, arrays, infos, res):
    """The values of ``symbol(*arrays)``, converted to the result type."""
    name = symbol[5:] if symbol.startswith("__nv_") else symbol
    if all(i.is_int for i in infos):
        r = int_function(name, arrays, infos[0].bits)
        if r is not None:
            return _to_result(r, res)
    f64 = [a.astype(np.float64) if not i.is_int else a for a, i in zip(arrays, infos)]
    single = all(i.bits != 64 for i in infos if i.is_float)
    base = re.sub(r"^fast_|_r[nzdu]$", "", name)
    if base in _SPECIAL:
        return _to_result(_SPECIAL[base](f64), res)
    key = base[:-1] if single and base.endswith("f") and base[:-1] in {**_UNARY, **_BINARY} else base
    if key in _UNARY and len(f64) == 1:
        # fp32 functions compute from the fp32 value.
        return _to_result(_UNARY[key](f64[0].astype(np.float32).astype(np.float64) if single else f64[0]), res)
    if key in _BINARY and len(f64) == 2:
        return _to_result(_BINARY[key](f64[0], f64[1]), res)
    raise NotImplementedError(f"the interpreter has no implementation of the external function '{symbol}'")


def _to_result(r, res):
    r = np.asarray(r)
    if res.is_float:
        return r.astype(np.float64).astype(res.np)
    if res.bits == 1:
        return r != 0
    if r.dtype.kind == "u":
        return r.astype(np.uint64).view(np.int64).astype(res.np) if res.bits == 64 else r.astype(res.np)
    return r.astype(np.int64).astype(res.np)
