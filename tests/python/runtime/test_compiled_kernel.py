"""CompiledKernel as Triton's tutorials use it (02-fused-softmax): warmup,
_init_handles, n_regs/n_spills/metadata, then kernel[grid](every argument),
checked on the fake CUDA driver."""

import struct

import pytest

import tritium.language as tl
from tritium.runtime import driver
from tritium.runtime.driver import NoBackendError
from tritium.runtime.jit import jit

from runtime_helpers import FakeTensor
from test_launch_fake import cuda  # noqa: F401  (the fake driver's fixture)


@jit
def scale_rows(out_ptr, in_ptr, n, factor, BLOCK: tl.constexpr, STAGES: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out_ptr + offs, tl.load(in_ptr + offs, mask=offs < n) * factor, mask=offs < n)


def test_warmup_init_handles_and_launch_with_every_argument(cuda):  # noqa: F811
    cuda.backend.shared = 4096
    cuda.backend.attributes = {"regs": 38, "local": 8}
    out, x = FakeTensor(256), FakeTensor(256, offset_bytes=1024)
    kernel = scale_rows.warmup(out, x, 256, 2.0, BLOCK=128, STAGES=2, num_warps=8, num_stages=2,
                               grid=(1,))
    assert cuda.fake.launch_count() == 0
    kernel._init_handles()
    kernel._init_handles()  # loads once
    assert (kernel.n_regs, kernel.n_spills) == (38, 2)
    md = kernel.metadata
    assert (md.shared, md.num_warps, md.num_stages, md.name) == (4096, 8, 2, "scale_rows")

    kernel[(3, 1, 1)](out, x, 256, 2.0, 128, 2)  # as Triton's tutorials call it: constexprs too
    kernel[(2,)](out, x, 200, 0.5)               # or the runtime arguments alone
    first, second = cuda.fake.launches()
    assert first["grid"] == [3, 1, 1] and second["grid"] == [2, 1, 1]
    assert first["block"] == [256, 1, 1] and first["shared"] == 4096
    assert struct.unpack("<i", first["params"][2])[0] == 256
    assert struct.unpack("<f", second["params"][3])[0] == 0.5
    with pytest.raises(TypeError, match=r"takes the kernel's 6 arguments \(or its 4 non-constexpr ones\), got 5"):
        kernel[(1,)](out, x, 256, 2.0, 128)


def test_init_handles_without_a_gpu_says_so():
    driver.set_active(driver.NullDriver())
    kernel = scale_rows.warmup(FakeTensor(4), FakeTensor(4), 4, 1.0, BLOCK=4, STAGES=1, grid=(1,))
    with pytest.raises(NoBackendError, match="cannot launch"):
        kernel._init_handles()
