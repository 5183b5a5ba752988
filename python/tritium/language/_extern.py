"""Calls of device-library functions (libdevice) from the language: picks
the symbol for the argument types from a table and emits one
``extern_elementwise``."""

from .core import _sem, _unwrap, _wrap, tensor


def _fmt_key(key):
    return "(" + ", ".join(str(t) for t in key) + ")"


def dispatch(args, table, is_pure=True, name=None):
    """``table`` maps a tuple of argument dtypes to (symbol, result dtype).
    The entry is chosen by the dtypes of the tensor arguments; Python
    numbers take the type the entry gives their position."""
    args = [_unwrap(a) for a in args]
    for a in args:
        if not isinstance(a, (tensor, bool, int, float)):
            raise TypeError(f"{name or 'extern function'}: unsupported argument {a!r}")
    tensor_types = [a.dtype if isinstance(a, tensor) else None for a in args]
    choice = None
    for key, value in table.items():
        key = tuple(_unwrap(k) for k in key)
        if len(key) != len(args):
            continue
        if all(t is None or t == k for t, k in zip(tensor_types, key)):
            choice = (key, value)
            break
    if choice is None:
        got = "(" + ", ".join("python " + type(a).__name__ if t is None else str(t)
                              for a, t in zip(args, tensor_types)) + ")"
        expected = ", ".join(_fmt_key(k) for k in table)
        raise TypeError(f"{name or 'extern function'}: no overload for argument types {got}; "
                        f"expected one of {expected}")
    key, (symbol, ret) = choice
    symbol, ret = _unwrap(symbol), _unwrap(ret)
    sem = _sem()
    operands = [a.handle if isinstance(a, tensor) else sem.constant(a, k) for a, k in zip(args, key)]
    return _wrap(sem.extern_elementwise(symbol, operands, ret, bool(is_pure)))
