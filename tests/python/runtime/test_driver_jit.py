"""Small kernels compiled for this process's CUDA device leave the cubin to
the driver's JIT (backends/cuda.py, TRITIUM_DRIVER_JIT_BYTES): no ptxas
process, the PTX is what the driver loads, and asm["cubin"] runs ptxas only
when read. Checked with a fake driver that says it loads PTX."""

import pytest

import tritium
import tritium.language as tl
from tritium._C import nvptx
from tritium.compiler import compiler
from tritium.compiler.compiler import ASTSource

from runtime_helpers import FakeDriver

needs_ptxas = pytest.mark.skipif(not nvptx.find_ptxas(), reason="ptxas not found")


@tritium.jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


SIG = {"src_ptr": "*fp32", "dst_ptr": "*fp32", "n": "i32"}


class JitDriver(FakeDriver):
    jits_ptx = True


@pytest.fixture
def jit_driver(tmp_path, monkeypatch):
    from tritium.runtime import driver
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path / "cache"))
    drv = JitDriver("cuda:90a")
    driver.set_active(drv)
    yield drv
    driver.set_active(None)


def compile_copy(target="cuda:90a", **options):
    src = ASTSource(copy_kernel, SIG, constexprs={"BLOCK": 256})
    return compiler.compile(src, target=target, options=options)


@needs_ptxas
def test_a_small_kernel_leaves_its_cubin_to_the_driver(jit_driver):
    k = compile_copy()
    assert "cubin" not in k.asm and "cubin" not in k.metadata.stages
    assert k.asm.get("cubin") is None  # what the loader sees: the PTX
    assert "cubin" in k.compile_times  # the stage ran and declined
    # Read, the cubin is assembled then, and kept.
    cubin = k.asm["cubin"]
    assert cubin[:4] == b"\x7fELF" and k.asm["cubin"] is cubin and k.kernel is cubin
    # From the cache the same: PTX only, a cubin on demand.
    again = compile_copy()
    assert "cubin" not in again.metadata.stages and again.asm["ptx"] == k.asm["ptx"]
    assert again.asm["cubin"][:4] == b"\x7fELF"


@needs_ptxas
@pytest.mark.parametrize("first", [False, True])
@pytest.mark.parametrize("case", ["knob off", "other target", "sm_90", "no fp fusion", "ptxas options", "ptxas log", "kernel dump",
                                  "larger than the limit", "driver without a jit"])
def test_ptxas_runs_otherwise(jit_driver, monkeypatch, tmp_path, case, first):
    if first:
        compile_copy()  # the default's entry, PTX only, in the cache
    target, options = "cuda:90a", {}
    if case == "knob off":
        monkeypatch.setenv("TRITIUM_DRIVER_JIT_BYTES", "0")
    elif case == "other target":
        target = "cuda:80"  # not the device's: its cubin is ptxas's
    elif case == "sm_90":
        target = "cuda:90"  # the device's arch, not its target (sm_90a)
    elif case == "no fp fusion":
        options["enable_fp_fusion"] = False  # --fmad=false has no JIT option
    elif case == "ptxas options":
        monkeypatch.setenv("TRITIUM_PTXAS_OPTIONS", "-O2")
    elif case == "ptxas log":
        monkeypatch.setenv("TRITIUM_DUMP_PTXAS_LOG", "1")
        monkeypatch.setenv("TRITIUM_DUMP_PATH", str(tmp_path / "ptxas.log"))
    elif case == "kernel dump":
        monkeypatch.setenv("TRITIUM_KERNEL_DUMP", "1")  # every stage's file, the cubin too
        monkeypatch.setenv("TRITIUM_DUMP_DIR", str(tmp_path / "dump"))
    elif case == "larger than the limit":
        monkeypatch.setenv("TRITIUM_DRIVER_JIT_BYTES", "100")
    else:
        monkeypatch.setattr(JitDriver, "jits_ptx", False)
    k = compile_copy(target, **options)
    if first and case == "driver without a jit":
        # The key says nothing of the driver: the JIT's entry is served, and
        # its cubin is made when read.
        assert "cubin" not in k.metadata.stages and k.asm["cubin"][:4] == b"\x7fELF"
        return
    assert "cubin" in k.metadata.stages and k.asm.get("cubin")[:4] == b"\x7fELF"
    assert k.n_regs > 0  # from ptxas -v


def test_no_cubin_can_be_made_without_ptxas(jit_driver, monkeypatch):
    k = compile_copy()
    monkeypatch.setenv("TRITIUM_PTXAS_PATH", "/nonexistent/ptxas")
    if "cubin" not in k.asm:
        assert k.kernel is None
        with pytest.raises(KeyError, match="no ptxas"):
            k.asm["cubin"]
    with pytest.raises(KeyError):
        k.asm["hsaco"]  # not this target's binary


@needs_ptxas
def test_the_launch_loads_the_ptx(jit_driver):
    import numpy as np
    from tritium.runtime.cuda import CudaDriver
    x = np.zeros(256, np.float32)
    copy_kernel[(1,)](x, x, 256, BLOCK=256)
    (kernel,) = jit_driver.loaded
    assert "cubin" not in kernel.metadata.stages
    assert CudaDriver._image(None, kernel) == kernel.asm["ptx"]


@pytest.mark.gpu
def test_on_the_gpu_a_small_kernel_runs_from_its_ptx(tmp_path, monkeypatch):
    import torch
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path / "cache"))
    x = torch.arange(1000, device="cuda", dtype=torch.float32)
    y = torch.empty_like(x)
    k = copy_kernel[(4,)](x, y, 1000, BLOCK=256)
    torch.cuda.synchronize()
    assert torch.equal(x, y)
    assert "cubin" not in k.metadata.stages and k.n_regs > 0  # the JIT's registers, read at load
    # ptxas's cubin of the same PTX: the same registers.
    if nvptx.find_ptxas():
        res = nvptx.assemble_cubin(k.asm["ptx"], str(k.metadata.target), nvptx.find_ptxas())
        assert res["registers"] == k.n_regs
