"""Host-side tensor descriptors (``triton.tools.tensor_descriptor``).

    from tritium.tools.tensor_descriptor import TensorDescriptor
    a_desc = TensorDescriptor.from_tensor(a, block_shape=[BLOCK_M, BLOCK_K])
    kernel[grid](a_desc, ...)        # in the kernel: a_desc.load([m, k])

A kernel parameter that receives one is a tensor descriptor in the kernel
(docs/language.md): its type is ``tensordesc<fp16[BLOCK_M, BLOCK_K]>`` in
the signature, and the launch passes the base pointer, the shape and the
strides but the last (which is 1) as ordinary arguments.
"""

from dataclasses import dataclass
from typing import Any, List


@dataclass
class TensorDescriptor:
    """A strided tensor (``base``: a tensor whose ``data_ptr()`` is element
    0; ``shape`` and ``strides`` in elements, the last stride 1) read and
    written by blocks of ``block_shape``."""

    base: Any
    shape: List[int]
    strides: List[int]
    block_shape: List[int]
    padding: str = "zero"

    def __post_init__(self):
        rank = len(self.shape)
        if not 1 <= rank <= 5:
            raise ValueError(f"a tensor descriptor has 1 to 5 dimensions, got {rank}")
        if len(self.strides) != rank or len(self.block_shape) != rank:
            raise ValueError(f"shape, strides and block_shape must have one length, got {rank}, "
                             f"{len(self.strides)} and {len(self.block_shape)}")
        if self.strides[-1] != 1:
            raise ValueError(f"Last dimension must be contiguous (stride 1), got stride {self.strides[-1]}")
        if self.padding not in ("zero", "nan"):
            raise ValueError(f"padding must be 'zero' or 'nan', got {self.padding!r}")
        if self.padding != "zero":
            raise NotImplementedError("padding='nan' is not supported yet (use 'zero')")
        self.shape = [int(s) for s in self.shape]
        self.strides = [int(s) for s in self.strides]
        self.block_shape = [int(b) for b in self.block_shape]

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        """The descriptor of all of ``tensor`` (its shape and strides; a
        numpy array's byte strides in elements)."""
        if callable(getattr(tensor, "stride", None)):
            strides = list(tensor.stride())
        else:
            strides = [s // tensor.itemsize for s in tensor.strides]
        return TensorDescriptor(tensor, list(tensor.shape), strides, list(block_shape), padding)

    def expand(self):
        """What the launch passes for it: the base, the shape, the strides
        but the last."""
        return (self.base, *self.shape, *self.strides[:-1])


def is_descriptor(x):
    """Whether ``x`` is a TensorDescriptor: of this module's class, or of a
    copy of the module imported under another name (``triton.tools...``
    when ``triton`` is an alias of ``tritium``)."""
    t = type(x)
    return t is TensorDescriptor or (t.__name__ == "TensorDescriptor" and callable(getattr(x, "expand", None)))


def parameters(type_string):
    """The kernel parameters a host-side descriptor of signature type
    ``type_string`` ("tensordesc<fp16[64, 64]>") becomes, as (name suffix,
    type string) pairs: what ``TensorDescriptor.expand`` passes."""
    from ..language._types import str_to_ty
    from ..runtime.jit import _dtype_to_str
    dt = str_to_ty(type_string)
    rank = len(dt.shape)
    return ([("_base", "*" + _dtype_to_str(dt.desc_element))] + [(f"_shape{i}", "i32") for i in range(rank)]
            + [(f"_stride{i}", "i64") for i in range(rank - 1)])
