"""Tutorial 1: out = x + y, one block of BLOCK elements per program."""

import tritium.language as tl

from _jit import jit


@jit
def add_kernel(x_ptr, y_ptr, out_ptr, n_elements, BLOCK: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK + tl.arange(0, BLOCK)
    in_bounds = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=in_bounds)
    y = tl.load(y_ptr + offsets, mask=in_bounds)
    tl.store(out_ptr + offsets, x + y, mask=in_bounds)
