"""Global scratch memory for kernels (Triton's ``triton.set_allocator``).

A kernel that needs global scratch at launch (Triton's device-side TMA
descriptors) asks the allocator of the current context for it:
``allocator(size, alignment, stream)`` returns an object with
``data_ptr()`` (a torch tensor of int8, usually). Tritium's kernels need
none yet (its device-side descriptors are lowered to pointer accesses),
so the allocator is kept for the kernels that will; code written for
Triton that sets one runs unchanged.
"""

from contextvars import ContextVar


class NullAllocator:
    """The allocator before ``set_allocator``: any request is an error."""

    def __call__(self, size, alignment, stream):
        raise RuntimeError("this kernel needs global scratch memory at launch, and no allocator is set: "
                           "call tritium.set_allocator(fn) with fn(size, alignment, stream) returning a "
                           "buffer with data_ptr()")


_allocator = ContextVar("_allocator", default=NullAllocator())


def set_allocator(allocator):
    """Makes ``allocator`` (``fn(size, alignment, stream) -> buffer``) the
    one launches in this context ask for scratch memory."""
    if not callable(allocator):
        raise TypeError(f"an allocator is a callable fn(size, alignment, stream), got {type(allocator).__name__}")
    _allocator.set(allocator)
