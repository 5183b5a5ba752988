"""The bounds-checking mode on the GPU (issue 16): an off-by-one store into a
view of a larger torch allocation, which compute-sanitizer cannot see, is
reported with its line, argument, offset and extent, and is not made."""

import pytest

import tritium
import tritium.language as tl

pytestmark = pytest.mark.gpu


@tritium.jit(bounds_check=True)
def copy_off_by_one(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n, other=-1.0), mask=offs <= n)  # the bug


@tritium.jit(bounds_check=True)
def copy(src, dst, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + offs, tl.load(src + offs, mask=offs < n), mask=offs < n)


def test_an_off_by_one_store_inside_a_larger_allocation(dev):
    torch = dev.torch
    pool = torch.zeros(4096, device="cuda")
    src, dst = torch.arange(1000, device="cuda", dtype=torch.float32), pool[:1000]
    with pytest.raises(tritium.BoundsError) as info:
        copy_off_by_one[(8,)](src, dst, 1000, BLOCK=128)
    e = info.value
    line = copy_off_by_one.fn.__code__.co_firstlineno + 3
    assert (e.kind, e.argument, e.line, e.offset, e.extent) == ("store", "dst", line, 4000, 4000)
    assert e.program == (7, 0, 0) and f":{line}:" in str(e)
    assert torch.equal(pool[:1000], src) and pool[1000].item() == 0.0  # the bad lane stored nothing


def test_in_bounds_launches_pass(dev):
    torch = dev.torch
    src = torch.arange(1000, device="cuda", dtype=torch.float32)
    dst = torch.empty_like(src)
    for _ in range(3):
        copy[(8,)](src, dst, 1000, BLOCK=128)
    assert torch.equal(dst, src)
