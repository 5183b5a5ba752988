"""How a parameter that takes a host-side TensorDescriptor is compiled: the kernel
parameters it becomes (``parameters``) and the box of the CUtensorMap that
Hopper's TMA unit reads it through (``tma_box``), and what a launch passes
for it (``expand_descriptors``). The launcher (runtime/native.py) and
``TensorDescriptor.expand`` (tools/) follow them."""

from ..language._types import dtype_to_str, str_to_ty


def tma_box(type_string):
    """The box [rows, inner] of the CUtensorMap that a host-side descriptor
    of signature type ``type_string`` ("tensordesc<fp16[128, 64]>") gets, or
    None when it gets none. A block qualifies when it is 2-D, of 1-, 2- or
    4-byte elements, with rows a multiple of 8 up to 256 (TMA boxes have at
    most 256 rows) and whole 128-byte rows; the box is 128 bytes wide, the
    width of the 128-byte swizzle, and a wider block is several boxes side
    by side."""
    dt = str_to_ty(type_string)
    if len(dt.shape) != 2:
        return None
    rows, inner = dt.shape
    bits = dt.desc_element.primitive_bitwidth
    if bits not in (8, 16, 32):
        return None
    size = bits // 8
    if (inner * size) % 128 or rows % 8 or not 0 < rows <= 256:
        return None
    return [rows, 128 // size]


def parameters(type_string):
    """The kernel parameters a host-side descriptor of signature type
    ``type_string`` ("tensordesc<fp16[64, 64]>") becomes, as (name suffix,
    type string) pairs: what ``TensorDescriptor.expand`` passes. The last,
    for a block that ``tma_box`` accepts, is the tensor map
    ("tensormap<fp16[64, 64]>": the element type and the box), on every
    target; a kernel that cannot use it ignores it."""
    dt = str_to_ty(type_string)
    rank = len(dt.shape)
    element = dtype_to_str(dt.desc_element)
    out = ([("_base", "*" + element)] + [(f"_shape{i}", "i32") for i in range(rank)]
           + [(f"_stride{i}", "i64") for i in range(rank - 1)])
    box = tma_box(type_string)
    if box is not None:
        out.append(("_tma", f"tensormap<{element}[{box[0]}, {box[1]}]>"))
    return out


def launch_parameters(signature):
    """The kernel's parameters from a signature dict, in order, as (index of
    the signature's entry, name, type string): constexprs left out, each
    descriptor expanded into the parameters it becomes (what the launcher
    packs)."""
    out = []
    for index, (name, ty) in enumerate(signature.items()):
        if ty.startswith("tensordesc<"):
            out += [(index, name + suffix, part) for suffix, part in parameters(ty)]
        elif ty != "constexpr":
            out.append((index, name, ty))
    return out


def bounds_parameters(signature):
    """The hidden parameters the pass check-bounds adds to a kernel of this
    signature (bounds_check; runtime/bounds.py): one i64 extent per pointer
    parameter, then the report."""
    return [(f"{name}.extent", "i64") for _, name, ty in launch_parameters(signature)
            if ty.startswith("*")] + [("bounds.report", "*i64")]


def is_descriptor(x):
    """Whether ``x`` is a host-side TensorDescriptor (tools.tensor_descriptor):
    recognized by its class name and its expand(), so that a copy of that
    module imported under another name (``triton.tools...`` when ``triton``
    is an alias of ``tritium``) is one too."""
    return type(x).__name__ == "TensorDescriptor" and callable(getattr(x, "expand", None))


def expand_descriptors(args):
    """The launch arguments with each host-side descriptor replaced by what
    its kernel parameters receive (TensorDescriptor.expand)."""
    return tuple(x for a in args for x in (a.expand() if is_descriptor(a) else [a]))
