"""The pipeliner's register copies (AMDGPU's pipelining: loads one or more
iterations ahead into registers, stored into a ring of shared buffers after
the dot) run on the NVIDIA GPU, since no AMD GPU is lent here: a matmul is
compiled with one stage and dumped, its tir stage taken through the layout
pipeline with `pipeline{register-copies=1}` (mma.sync layouts), that tgir
put in place of the compiled one with the kernel override, and the kernel
run on a K that is not a multiple of the block's (masked last iteration)."""

import os
import shutil

import numpy as np
import pytest

import tritium
import tritium.language as tl
from tritium._C import ir

pytestmark = pytest.mark.gpu

PIPELINE = ("lower-tensor-descriptors,dce,assign-layouts{{num-warps=4,warp-size=32,mma=1}},"
            "remove-layout-conversions,licm,cse,stage-dot-operands{{mma=1}},"
            "pipeline{{num-stages={},register-copies=1,mma=1}},cse,dce,insert-barriers")


@tritium.jit
def matmul(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = a_ptr + rm[:, None] * K + rk[None, :]
    b = b_ptr + rk[:, None] * N + rn[None, :]
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, tl.cdiv(K, BK)):
        left = K - k * BK
        acc += tl.dot(tl.load(a, mask=(rm[:, None] < M) & (rk[None, :] < left), other=0.0),
                      tl.load(b, mask=(rk[:, None] < left) & (rn[None, :] < N), other=0.0))
        a += BK
        b += BK * N
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))


@pytest.mark.parametrize("stages", [2, 3])
def test_register_copies_compute_the_matmul(dev, tmp_path, monkeypatch, stages):
    dump, override = tmp_path / "dump", tmp_path / "override"
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(dump))
    monkeypatch.setenv("TRITIUM_OVERRIDE_DIR", str(override))
    monkeypatch.setenv("TRITIUM_KERNEL_DUMP", "1")
    # Compiled here whatever ran before (the other case, the disk cache): the dump is made.
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    M, N, K = 96, 80, 200  # ragged everywhere: 7 iterations of 32, the last one masked
    rng = np.random.default_rng(stages)
    a = rng.standard_normal((M, K)).astype(np.float16)
    b = rng.standard_normal((K, N)).astype(np.float16)
    ref = a.astype(np.float32) @ b.astype(np.float32)
    A, B = dev.put(a, "fp16"), dev.put(b, "fp16")
    C = dev.zeros((M, N), "fp32")
    grid = (2, 2)
    k = tritium.jit(matmul.fn)[grid](A, B, C, M, N, K, BM=64, BN=64, BK=32, num_stages=1)
    np.testing.assert_allclose(dev.get(C), ref, rtol=1e-2, atol=1e-1)

    m = ir.parse_module((dump / k.hash / "matmul.tir").read_text())
    m.run_passes(PIPELINE.format(stages), verify_each=True)
    tgir = str(m)
    assert tgir.count("local_store") == 2 * stages and "async_copy" not in tgir
    monkeypatch.delenv("TRITIUM_KERNEL_DUMP")
    shutil.copytree(dump / k.hash, override / k.hash)
    (override / k.hash / "matmul.tgir").write_text(tgir)
    for later in ("llir", "ptx", "cubin"):  # rebuilt from the pipelined tgir
        os.remove(override / k.hash / f"matmul.{later}")
    monkeypatch.setenv("TRITIUM_KERNEL_OVERRIDE", "1")
    again = tritium.jit(matmul.fn)  # the same key, none of its launches remembered
    C2 = dev.zeros((M, N), "fp32")
    piped = again[grid](A, B, C2, M, N, K, BM=64, BN=64, BK=32, num_stages=1)
    assert piped.hash == k.hash
    assert piped.asm["tgir"].count("local_store") == 2 * stages
    np.testing.assert_allclose(dev.get(C2), ref, rtol=1e-2, atol=1e-1)
