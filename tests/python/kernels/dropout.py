"""Tutorial 4: dropout whose mask is never stored: each element's random
number comes from Philox of (seed, its offset), so the backward pass can
draw the same mask again."""

import tritium.language as tl

from _jit import jit


@jit
def seeded_dropout(x_ptr, out_ptr, n_elements, p, seed, BLOCK: tl.constexpr):
    offsets = tl.program_id(axis=0) * BLOCK + tl.arange(0, BLOCK)
    in_bounds = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=in_bounds)
    keep = tl.rand(seed, offsets) > p
    tl.store(out_ptr + offsets, tl.where(keep, x / (1 - p), 0.0), mask=in_bounds)
