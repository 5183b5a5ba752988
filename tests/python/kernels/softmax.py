"""Tutorial 2: the softmax of each row, one row at a time per program in a
persistent loop; the row is loaded once and never leaves the chip."""

import tritium.language as tl

from _jit import jit


@jit
def softmax_kernel(out_ptr, in_ptr, in_stride, out_stride, n_rows, n_cols, BLOCK: tl.constexpr,
                   NUM_STAGES: tl.constexpr):
    first = tl.program_id(0)
    step = tl.num_programs(0)
    for r in tl.range(first, n_rows, step, num_stages=NUM_STAGES):
        cols = tl.arange(0, BLOCK)
        valid = cols < n_cols
        row = tl.load(in_ptr + r * in_stride + cols, mask=valid, other=-float("inf"))
        shifted = row - tl.max(row, axis=0)
        e = tl.exp(shifted)
        result = e / tl.sum(e, axis=0)
        tl.store(out_ptr + r * out_stride + cols, result, mask=valid)
