"""The IR of three tutorial kernels is pinned in tests/lit/golden/*.tir
(lit also runs those files through tritium-opt and FileCheck). This test
regenerates the IR and compares it with the checked-in text, so a change in
the frontend's output is seen and reviewed.

To accept a change, run with TRITIUM_UPDATE_GOLDEN=1: the IR part of each
file is rewritten and its leading comment (RUN and CHECK lines) kept.
"""

import os

import pytest

from tir_helpers import to_ir

import layer_norm
import softmax
import vector_add

GOLDEN_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "lit", "golden")

GOLDEN = {
    "vector_add.tir": (vector_add.add_kernel, "*fp32,*fp32,*fp32,i32", {"BLOCK": 1024}),
    "softmax.tir": (softmax.softmax_kernel, "*fp32,*fp32,i32,i32,i32,i32", {"BLOCK": 1024, "NUM_STAGES": 2}),
    "layer_norm_bwd.tir": (layer_norm.layer_norm_bwd_dx,
                           "*fp16,*fp16,*fp16,*fp16,*fp16,*fp16,*fp32,*fp32,*i32,i32,i32", {"GROUP": 32, "BLOCK": 256}),
}


def split_golden(text):
    """(header comment lines, IR text) of a golden file."""
    lines = text.splitlines(keepends=True)
    n = 0
    while n < len(lines) and (lines[n].startswith(";") or not lines[n].strip()):
        n += 1
    return "".join(lines[:n]), "".join(lines[n:])


@pytest.mark.parametrize("name", sorted(GOLDEN))
def test_golden_ir(name):
    kernel, signature, constexprs = GOLDEN[name]
    ir = to_ir(kernel, signature, constexprs)
    path = os.path.join(GOLDEN_DIR, name)
    with open(path) as f:
        header, golden = split_golden(f.read())
    if os.environ.get("TRITIUM_UPDATE_GOLDEN") == "1":
        with open(path, "w") as f:
            f.write(header + ir)
        return
    assert ir == golden, (f"the IR of {kernel.__name__} changed; review the difference and run with "
                          f"TRITIUM_UPDATE_GOLDEN=1 to update {path}")
