"""Line info on the GPU (issue 15): compute-sanitizer's report of an
out-of-bounds store names the kernel's Python file and line, which it reads
from the cubin's line table (ptxas -lineinfo over the PTX's .loc lines)."""

import os
import shutil
import subprocess
import sys

import pytest

pytestmark = pytest.mark.gpu

PYTHON_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "..", "python")

CHILD = '''import torch
import tritium
import tritium.language as tl


@tritium.jit
def far_store(out):
    offs = tl.arange(0, 32)
    tl.store(out + offs + (1 << 30), offs.to(tl.float32))  # 4 GiB past the tensor


far_store[(1,)](torch.zeros(32, device="cuda"))
torch.cuda.synchronize()
'''
STORE_LINE = 9  # of CHILD


def sanitizer():
    found = shutil.which("compute-sanitizer")
    for path in (found, "/usr/local/cuda/bin/compute-sanitizer"):
        if path and os.access(path, os.X_OK):
            return path
    return None


@pytest.mark.skipif(sanitizer() is None, reason="compute-sanitizer not found")
def test_sanitizer_names_the_python_line(tmp_path):
    child = tmp_path / "oob_kernel.py"
    child.write_text(CHILD)
    assert CHILD.splitlines()[STORE_LINE - 1].lstrip().startswith("tl.store")
    env = dict(os.environ, PYTHONPATH=PYTHON_DIR, TRITIUM_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("TRITIUM_DISABLE_LINE_INFO", None)
    out = subprocess.run([sanitizer(), "--tool", "memcheck", "--print-limit", "1", sys.executable,
                          str(child)], capture_output=True, text=True, timeout=300, env=env)
    report = out.stdout + out.stderr
    assert "Invalid __global__ write" in report, report[-3000:]
    assert f"oob_kernel.py:{STORE_LINE}" in report, report[-3000:]
