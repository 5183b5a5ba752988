"""Host-side tensor descriptors (``triton.tools.tensor_descriptor``).

    from tritium.tools.tensor_descriptor import TensorDescriptor
    a_desc = TensorDescriptor.from_tensor(a, block_shape=[BLOCK_M, BLOCK_K])
    kernel[grid](a_desc, ...)        # in the kernel: a_desc.load([m, k])

A kernel parameter that receives one is a tensor descriptor in the kernel,
``tensordesc<fp16[BLOCK_M, BLOCK_K]>`` in the signature; docs/language.md
says what the launch passes for it.
"""

import functools
from dataclasses import dataclass
from typing import Any, List

from ..compiler.descriptors import is_descriptor, tma_box  # noqa: F401 (is_descriptor: this module's API)
from ..runtime.jit import _specialize


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
        """What the launch passes for it, one value per parameter: the base,
        the shape, the strides but the last, and None for the tensor map
        when there is one (the launcher encodes it from the others)."""
        values = (self.base, *self.shape, *self.strides[:-1])
        has_map = _has_tensor_map(_element_type(self.base), tuple(self.block_shape))
        return values + (None,) if has_map else values


@functools.lru_cache(maxsize=None)  # expand() runs on every launch; tma_box parses a type string
def _has_tensor_map(element_type, block_shape):
    return tma_box(f"tensordesc<{element_type}[{', '.join(map(str, block_shape))}]>") is not None


def _element_type(base):
    """The type string of ``base``'s elements, as the signature spells it ("fp16")."""
    return _specialize(base, False, False)[0].lstrip("*")
