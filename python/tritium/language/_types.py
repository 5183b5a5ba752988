"""The language's types: ``tl.dtype`` is ``_C.frontend.DType`` (uniqued,
compared by identity) and ``tl.float32`` and friends are its instances.

This module also gives DType the names Triton users call on dtypes
(``x.dtype.is_floating()``, ``.primitive_bitwidth``, ``.element_ty``...)
and hands the rest of the language the enum arguments of the semantic
(binary operators, comparison predicates...): only this module imports _C.
"""

from .._C import frontend as _fe

dtype = _fe.DType

# -- The dtypes ---------------------------------------------------------------


def _named(name):
    t = dtype.from_name(name)
    if t is None:
        raise RuntimeError(f"the frontend does not know the type {name}")
    return t


void = dtype.get_void()
int1 = _named("int1")
int8 = _named("int8")
int16 = _named("int16")
int32 = _named("int32")
int64 = _named("int64")
uint8 = _named("uint8")
uint16 = _named("uint16")
uint32 = _named("uint32")
uint64 = _named("uint64")
float8e4nv = _named("fp8e4nv")
float8e5 = _named("fp8e5")
float8e4b15 = _named("fp8e4b15")
float16 = _named("fp16")
bfloat16 = _named("bf16")
float32 = _named("fp32")
float64 = _named("fp64")


def _plain(x):
    """``x`` without its constexpr wrappers (core imports this module)."""
    while type(x).__name__ == "constexpr":
        x = x.value
    return x


class _TypeKind(type):
    """Lets ``isinstance(t, tl.pointer_type)`` ask the DType's kind (the
    predicate the class names in ``_kind``)."""

    def __instancecheck__(cls, obj):
        return isinstance(obj, dtype) and getattr(obj, cls._kind)()


class pointer_type(metaclass=_TypeKind):
    """``tl.pointer_type(tl.float32)``: a pointer to ``element_ty`` (in
    global memory unless ``address_space`` says otherwise)."""
    _kind = "is_pointer"

    def __new__(cls, element_ty, address_space=1, const=False):
        element_ty = _plain(element_ty)
        if not isinstance(element_ty, dtype):
            raise TypeError(f"pointer_type's element type must be a tl.dtype, got {element_ty!r}")
        return dtype.get_pointer(element_ty, int(_plain(address_space)), bool(_plain(const)))


class block_type(metaclass=_TypeKind):
    """``tl.block_type(tl.float32, [128, 64])``: a block of scalars."""
    _kind = "is_block"

    def __new__(cls, element_ty, shape):
        from .core import _unwrap, _unwrap_shape
        return dtype.get_block(_unwrap(element_ty), _unwrap_shape(shape))


pi32_t = pointer_type(int32)


def get_int_dtype(bitwidth, signed):
    return _named(("int" if signed or bitwidth == 1 else "uint") + str(bitwidth))


class constexpr_type:
    """The type of a compile-time value (Triton's ``tl.core.constexpr_type``):
    equal when the values are."""

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, constexpr_type) and self.value == other.value

    def __hash__(self):
        return hash(self.value)

    def __repr__(self):
        return f"constexpr_type[{self.value}]"

    def mangle(self):
        return repr(self)


_SHORT_NAMES = {"i1": "int1", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64", "u1": "int1",
                "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64", "B": "int1"}


def str_to_ty(name, c=None):
    """The type of a signature string: ``*fp32`` (pointer), ``*kfp16``
    (const pointer), ``i32``, ``u64``, ``fp16``, ``i1``...,
    ``tensordesc<fp16[64, 64]>`` (a host-side tensor descriptor), or
    ``constexpr``, whose type is ``constexpr_type(c)`` (Triton's signature:
    ``c`` is the parameter's value)."""
    name = name.strip()
    if name.startswith("constexpr"):
        return constexpr_type(c)
    if name.startswith("tensordesc<") and name.endswith("]>") and "[" in name:
        elem, _, dims = name[len("tensordesc<"):-2].partition("[")
        try:
            block = [int(d) for d in dims.split(",")]
        except ValueError:
            raise ValueError(f"bad block shape in signature type {name!r}") from None
        return dtype.get_tensor_desc(str_to_ty(elem), block)
    if name.startswith("*"):
        const = name.startswith("*k")
        return pointer_type(str_to_ty(name[2:] if const else name[1:]), 1, const)
    t = dtype.from_name(_SHORT_NAMES.get(name, name))
    if t is None:
        raise ValueError(f"unknown type in signature: {name!r}")
    return t


#: dtype names (torch's, numpy's, tl's and Triton's strings) -> signature type string:
#: each signature type string names itself, and the names after it.
DTYPE_NAMES = {name: ty for ty, names in {
    "i1": "bool int1", "i8": "int8", "i16": "int16", "i32": "int32", "i64": "int64",
    "u8": "uint8", "u16": "uint16", "u32": "uint32", "u64": "uint64",
    "fp16": "float16 half", "bf16": "bfloat16", "fp32": "float32 float", "fp64": "float64 double",
    "fp8e4nv": "float8_e4m3fn float8e4nv", "fp8e5": "float8_e5m2 float8e5",
    "fp8e4b8": "float8_e4m3fnuz float8e4b8", "fp8e5b16": "float8_e5m2fnuz float8e5b16", "fp8e4b15": "float8e4b15",
}.items() for name in [ty, *names.split()]}


def dtype_to_str(dtype):
    """Any dtype object (torch.float32, np.dtype('float32'), tl.float32, the
    string 'fp32') -> its signature type string ('fp32'), or None."""
    name = str(dtype)
    for prefix in ("torch.", "triton.language.", "tritium.language.", "tl."):
        if name.startswith(prefix):
            name = name[len(prefix):]
    ty = DTYPE_NAMES.get(name)
    return ty if ty is not None else DTYPE_NAMES.get(getattr(dtype, "name", None))


# -- Triton's dtype methods ---------------------------------------------------


def _install(name, fn, prop=False):
    if not hasattr(dtype, name):
        setattr(dtype, name, property(fn) if prop else fn)


def _is_named(name):
    return lambda self: self.name == name


def _through_constexpr(compare):
    """A dtype compares with a tl.constexpr holding a dtype by its value, as
    in Triton (``x.dtype == tl.constexpr(tl.int32)``)."""
    def method(self, other):
        from .core import constexpr
        return compare(self, other.value if isinstance(other, constexpr) else other)
    return method


dtype.__eq__ = _through_constexpr(dtype.__eq__)
dtype.__ne__ = _through_constexpr(dtype.__ne__)

_install("to_ir", lambda self, builder=None: self)
_install("itemsize", lambda self: self.bit_width // 8, prop=True)


def _exponent_bias(self):
    if not self.is_float():
        raise AttributeError(f"{self} is not a floating-point type: it has no exponent bias")
    if self.scalar.name == "fp8e4b15":  # e4m3's encoding with a bias of its own
        return 15
    exponent_bits = self.bit_width - self.mantissa_width
    return (1 << (exponent_bits - 1)) - 1


_install("exponent_bias", _exponent_bias, prop=True)


def _int_limit(self, high):
    if not self.is_int():
        raise ValueError(f"{self} is not an integer type")
    bits = self.bit_width
    if self.is_signed() and bits > 1:
        return (1 << (bits - 1)) - 1 if high else -(1 << (bits - 1))
    return (1 << bits) - 1 if high else 0


_install("get_int_max_value", lambda self: _int_limit(self, True))
_install("get_int_min_value", lambda self: _int_limit(self, False))

# Triton's lists of dtype names, each as Tritium has them (Triton's FP_TYPES
# also names fp8e4b8 and fp8e5b16, which Tritium lacks).
dtype.SINT_TYPES = ["int8", "int16", "int32", "int64"]
dtype.UINT_TYPES = ["int1", "uint8", "uint16", "uint32", "uint64"]
dtype.FP_TYPES = ["fp8e4b15", "fp8e4nv", "fp8e5", "fp16", "bf16", "fp32", "fp64"]
dtype.STANDARD_FP_TYPES = ["fp16", "bf16", "fp32", "fp64"]
dtype.OTHER_TYPES = ["void"]
dtype.is_dtype = staticmethod(
    lambda type_str: type_str in dtype.SINT_TYPES + dtype.UINT_TYPES + dtype.FP_TYPES + dtype.OTHER_TYPES)
for _name in dtype.FP_TYPES + dtype.SINT_TYPES + dtype.UINT_TYPES:
    _install(f"is_{_name}", _is_named(_name))


class _DTypeClass(type(dtype)):
    """``tl.dtype("fp16")`` gives the uniqued dtype of that name, as Triton's
    constructor does (the binding's class has no constructor: dtypes are
    compared by identity, so none may be made twice)."""

    __slots__ = ()

    def __call__(cls, name):
        name = _plain(name)
        t = dtype.get_void() if name == "void" else dtype.from_name(name)
        if t is None or not dtype.is_dtype(name):
            raise ValueError(f"unknown dtype name {name!r}; known: "
                             f"{dtype.SINT_TYPES + dtype.UINT_TYPES + dtype.FP_TYPES + dtype.OTHER_TYPES}")
        return t


dtype.__class__ = _DTypeClass

# -- Enum arguments of the semantic -------------------------------------------


BinOp, CmpOp, UnaryOp, Hint = _fe.BinOp, _fe.CmpOp, _fe.UnaryOp, _fe.Hint

