"""``tl.math``: elementwise math on tensors (and Python numbers, which take
part as weakly typed literals)."""

from ._types import BinOp, UnaryOp
from .core import _binary, _binary_builtin, _generated_builtin, _opnd, _sem, _unwrap, _wrap, builtin


def _unary_builtin(name, op, doc):
    def unary(x):
        return _wrap(_sem().unary(op, _opnd(x)))
    return _generated_builtin(name, doc, unary)


exp = _unary_builtin("exp", UnaryOp.Exp, "e**x (fast, approximate).")
exp2 = _unary_builtin("exp2", UnaryOp.Exp2, "2**x.")
log = _unary_builtin("log", UnaryOp.Log, "The natural logarithm.")
log2 = _unary_builtin("log2", UnaryOp.Log2, "The base-2 logarithm.")
sqrt = _unary_builtin("sqrt", UnaryOp.Sqrt, "The square root (approximate).")
sqrt_rn = _unary_builtin("sqrt_rn", UnaryOp.SqrtRn, "The square root rounded to nearest (IEEE).")
rsqrt = _unary_builtin("rsqrt", UnaryOp.Rsqrt, "1 / sqrt(x).")
sin = _unary_builtin("sin", UnaryOp.Sin, "The sine.")
cos = _unary_builtin("cos", UnaryOp.Cos, "The cosine.")
abs = _unary_builtin("abs", UnaryOp.Abs, "The absolute value (ints and floats).")
floor = _unary_builtin("floor", UnaryOp.Floor, "Rounds toward negative infinity.")
ceil = _unary_builtin("ceil", UnaryOp.Ceil, "Rounds toward positive infinity.")
erf = _unary_builtin("erf", UnaryOp.Erf, "The error function.")


@builtin
def fma(x, y, z):
    """x * y + z, rounded once."""
    return _wrap(_sem().fma(_opnd(x), _opnd(y), _opnd(z)))


umulhi = _binary_builtin("umulhi", BinOp.UMulHi, "The high half of the product of two unsigned integers.")
div_rn = _binary_builtin("div_rn", BinOp.DivRn, "x / y rounded to nearest (IEEE).")


@builtin
def fdiv(x, y, ieee_rounding=False):
    """x / y for floats; approximate unless ``ieee_rounding``."""
    return _binary(BinOp.DivRn if _unwrap(ieee_rounding) else BinOp.FDiv, x, y)


from .core import clamp, maximum, minimum  # noqa: E402,F401
from .standard import cdiv, sigmoid, softmax  # noqa: E402,F401
