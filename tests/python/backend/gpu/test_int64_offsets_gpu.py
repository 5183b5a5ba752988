"""Tensors of more than 2^31 elements (issue 16): the launch sees them and
compiles the offset arithmetic in i64, so `pid * BLOCK + arange` and
`row * stride + col` reach the far end instead of wrapping (Triton's i32
offsets write below the start there). 2 GiB int8 tensors."""

import pytest

import tritium
import tritium.language as tl

pytestmark = pytest.mark.gpu

N = (1 << 31) + 4096


@tritium.jit
def fill(out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, (offs % 101).to(tl.int8), mask=offs < n)


@tritium.jit
def fill_rows(out, stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    tl.store(out + row * stride + cols, (row % 7 + 1).to(tl.int8), mask=cols < n_cols)


def test_the_far_end_of_a_vector(dev):
    torch = dev.torch
    out = torch.zeros(N, dtype=torch.int8, device="cuda")
    k = fill[(tritium.cdiv(N, 1024),)](out, N, BLOCK=1024)
    assert k.metadata.int64_offsets is True
    # The addresses are i64; the value stored is still i32 arithmetic, which
    # wraps past 2^31 as Triton's does (widen-offsets widens only what
    # reaches an address): C's remainder of the wrapped index.
    idx = torch.arange(N - 8192, N, device="cuda", dtype=torch.int64)
    tail = torch.fmod((idx + 2**31) % 2**32 - 2**31, 101)
    assert torch.equal(out[-8192:], tail.to(torch.int8))
    assert torch.equal(out[:1024], (torch.arange(1024, device="cuda") % 101).to(torch.int8))
    small = torch.zeros(4096, dtype=torch.int8, device="cuda")
    assert fill[(4,)](small, 4096, BLOCK=1024).metadata.int64_offsets is False
    del out


def test_the_last_row_of_a_matrix(dev):
    torch = dev.torch
    rows, cols = (1 << 16) + 2, 1 << 15  # 2^31 + 2^16 elements; row * stride wraps in i32
    out = torch.zeros(rows, cols, dtype=torch.int8, device="cuda")
    fill_rows[(rows,)](out, out.stride(0), cols, BLOCK=cols)
    expect = (torch.arange(rows, device="cuda") % 7 + 1).to(torch.int8)
    assert torch.equal(out[:, 0], expect) and torch.equal(out[:, -1], expect)
    del out
