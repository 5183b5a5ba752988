"""`make run`'s job (examples/run.py) on this machine: the .tir examples
round-trip, the kernels of examples/kernels.py match numpy (on the
interpreter without a GPU, compiled on one), and without a GPU the vector
add is shown compiled for sm_90 as Tritium IR, LLVM IR and PTX, then for
hip:gfx90a as AMDGPU assembly with its code object's metadata, followed by
how to run on a GPU."""

import os
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_make_run_job():
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"))
    env.pop("TRITIUM_INTERPRET", None)
    r = subprocess.run([sys.executable, os.path.join(REPO, "examples", "run.py")], env=env,
                       capture_output=True, text=True, timeout=600, cwd=REPO)
    out = r.stdout
    assert r.returncode == 0, out + r.stderr
    for name in ("vector_add.tir", "softmax.tir"):
        assert f"examples/{name}: parsed, verified, printed and parsed back" in out
    for line in ("== vector add, 98432 elements: matches numpy", "== row softmax, 64x781: matches numpy",
                 "== matmul fp16 -> fp32, 96x72 @ 72x80: matches numpy"):
        assert line in out, out
    amd = out.index("== the same vector add compiled for hip:gfx90a (AMD MI200): AMDGPU assembly")
    hsaco = out.index("== LLD linked a ")
    assert amd < hsaco
    assert "add_kernel:" in out[amd:hsaco] and "global_load_dwordx4" in out[amd:hsaco]
    assert "s_endpgm" in out[amd:hsaco] and "global_store_dwordx4" in out[amd:hsaco]
    assert "wavefronts of 64" in out[hsaco:]
    if "== no GPU here" not in out:
        assert "== running the kernels on" in out
        return
    assert "running the kernels on the interpreter" in out
    tir = out.index("== vector add compiled for sm_90: Tritium IR (tir)")
    llir = out.index("== vector add compiled for sm_90: LLVM IR (llir)")
    ptx = out.index("== vector add compiled for sm_90: PTX (ptx)")
    assert tir < llir < ptx < amd
    assert "kernel @add_kernel(" in out[tir:llir]
    assert "define void @add_kernel(" in out[llir:ptx]
    assert ".target sm_90" in out[ptx:] and "ld.global.v4.b32" in out[ptx:]
    assert "To run on a GPU:" in out
