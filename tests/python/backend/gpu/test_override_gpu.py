"""Kernel dump and override on the GPU (issue 15's done-when): every stage
dumped, the Tritium IR of one stage edited (its constant 1.0 made 2.0),
parsed back and verified, and the edited kernel run."""

import os
import shutil

import numpy as np
import pytest

import tritium
import tritium.language as tl

pytestmark = pytest.mark.gpu


@tritium.jit
def plus_one(x_ptr, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1.0)


def test_an_edited_stage_runs(dev, tmp_path, monkeypatch):
    dump, override = tmp_path / "dump", tmp_path / "override"
    monkeypatch.setenv("TRITIUM_DUMP_DIR", str(dump))
    monkeypatch.setenv("TRITIUM_OVERRIDE_DIR", str(override))
    monkeypatch.setenv("TRITIUM_KERNEL_DUMP", "1")
    x = dev.put(np.arange(128, dtype=np.float32), "fp32")
    k = plus_one[(1,)](x, BLOCK=128)
    np.testing.assert_array_equal(dev.get(x), np.arange(128) + 1)
    stages = sorted(os.listdir(dump / k.hash))
    assert {"plus_one.tir", "plus_one.tgir", "plus_one.llir", "plus_one.ptx", "plus_one.cubin"} <= set(stages)
    monkeypatch.delenv("TRITIUM_KERNEL_DUMP")
    shutil.copytree(dump / k.hash, override / k.hash)
    tir = override / k.hash / "plus_one.tir"
    assert "constant 1.0 : <128 x f32>" in tir.read_text()
    tir.write_text(tir.read_text().replace("constant 1.0 : <128 x f32>", "constant 2.0 : <128 x f32>"))
    for later in ("tgir", "llir", "ptx", "cubin"):  # rebuilt from the edited tir
        os.remove(override / k.hash / f"plus_one.{later}")
    monkeypatch.setenv("TRITIUM_KERNEL_OVERRIDE", "1")
    again = tritium.jit(plus_one.fn)  # the same kernel (same key), none of its launches remembered
    edited = again[(1,)](x, BLOCK=128)
    assert edited.hash == k.hash
    assert "constant 2.0" in edited.asm["tir"]
    np.testing.assert_array_equal(dev.get(x), np.arange(128) + 3)
