"""``tl.math``: elementwise math on tensors (and Python numbers, which take
part as weakly typed literals)."""

from . import _types
from .core import _opnd, _sem, _tensor_member_fn, _wrap, builtin


def _unary(op, x):
    return _wrap(_sem().unary(_types.unaryop(op), _opnd(x)))


def _binary(op, x, y):
    return _wrap(_sem().binary(_types.binop(op), _opnd(x), _opnd(y)))


@builtin
@_tensor_member_fn
def exp(x):
    """e**x (fast, approximate)."""
    return _unary("Exp", x)


@builtin
@_tensor_member_fn
def exp2(x):
    """2**x."""
    return _unary("Exp2", x)


@builtin
@_tensor_member_fn
def log(x):
    """The natural logarithm."""
    return _unary("Log", x)


@builtin
@_tensor_member_fn
def log2(x):
    """The base-2 logarithm."""
    return _unary("Log2", x)


@builtin
@_tensor_member_fn
def sqrt(x):
    """The square root (approximate)."""
    return _unary("Sqrt", x)


@builtin
@_tensor_member_fn
def sqrt_rn(x):
    """The square root rounded to nearest (IEEE)."""
    return _unary("SqrtRn", x)


@builtin
@_tensor_member_fn
def rsqrt(x):
    """1 / sqrt(x)."""
    return _unary("Rsqrt", x)


@builtin
@_tensor_member_fn
def sin(x):
    """The sine."""
    return _unary("Sin", x)


@builtin
@_tensor_member_fn
def cos(x):
    """The cosine."""
    return _unary("Cos", x)


@builtin
@_tensor_member_fn
def abs(x):
    """The absolute value (ints and floats)."""
    return _unary("Abs", x)


@builtin
@_tensor_member_fn
def floor(x):
    """Rounds toward negative infinity."""
    return _unary("Floor", x)


@builtin
@_tensor_member_fn
def ceil(x):
    """Rounds toward positive infinity."""
    return _unary("Ceil", x)


@builtin
@_tensor_member_fn
def erf(x):
    """The error function."""
    return _unary("Erf", x)


@builtin
def fma(x, y, z):
    """x * y + z, rounded once."""
    return _wrap(_sem().fma(_opnd(x), _opnd(y), _opnd(z)))


@builtin
def umulhi(x, y):
    """The high half of the product of two unsigned integers."""
    return _binary("UMulHi", x, y)


@builtin
def div_rn(x, y):
    """x / y rounded to nearest (IEEE)."""
    return _binary("DivRn", x, y)


@builtin
def fdiv(x, y, ieee_rounding=False):
    """x / y for floats; approximate unless ``ieee_rounding``."""
    from .core import _unwrap
    return _binary("DivRn" if _unwrap(ieee_rounding) else "FDiv", x, y)


from .core import clamp, maximum, minimum  # noqa: E402,F401
from .standard import cdiv, sigmoid, softmax  # noqa: E402,F401
