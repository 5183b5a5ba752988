"""Calls of device-library functions (libdevice) from the language: picks
the symbol for the argument types from a table and emits one
``extern_elementwise``."""

from .core import _sem, _unwrap, _wrap, tensor


def dispatch(args, table, is_pure=True, name=None):
    """``table`` maps a tuple of argument dtypes to (symbol, result dtype).
    The entry is chosen by the dtypes of the tensor arguments; Python
    numbers take the type the entry gives their position."""
    what = name or "extern function"
    args = [_unwrap(a) for a in args]
    for a in args:
        if not isinstance(a, (tensor, bool, int, float)):
            raise TypeError(f"{what}: unsupported argument {a!r}")
    tensor_types = [a.dtype if isinstance(a, tensor) else None for a in args]
    for key, value in table.items():
        key = tuple(_unwrap(k) for k in key)
        if len(key) == len(args) and all(t is None or t == k for t, k in zip(tensor_types, key)):
            break
    else:
        got = "(" + ", ".join("python " + type(a).__name__ if t is None else str(t)
                              for a, t in zip(args, tensor_types)) + ")"
        expected = ", ".join("(" + ", ".join(str(t) for t in k) + ")" for k in table)
        raise TypeError(f"{what}: no overload for argument types {got}; expected one of {expected}")
    symbol, ret = (_unwrap(v) for v in value)
    sem = _sem()
    operands = [a.handle if isinstance(a, tensor) else sem.constant(a, k) for a, k in zip(args, key)]
    return _wrap(sem.extern_elementwise(symbol, operands, ret, bool(is_pure)))
