"""Tritium imported before, between or after torch, numpy and cupy.

On the H200 machine `import tritium; import torch` once ended in SIGSEGV
inside torch's import. Each order runs in a fresh interpreter that imports
the modules, then launches a kernel on a torch tensor (and on a cupy array
where cupy is installed) and checks the result.
"""

import importlib.util
import itertools
import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.gpu

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))))
MODULES = ["tritium", "torch", "numpy"] + (["cupy"] if importlib.util.find_spec("cupy") else [])

BODY = """
import tritium
import tritium.language as tl
import torch

@tritium.jit
def add_one(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs, mask=offs < n) + 1, mask=offs < n)

x = torch.arange(1000, device="cuda", dtype=torch.float32)
add_one[(8,)](x, 1000, BLOCK=128)
assert torch.equal(x.cpu(), torch.arange(1000, dtype=torch.float32) + 1), x
if "cupy" in sys.modules:
    import cupy
    y = cupy.arange(1000, dtype=cupy.float32)
    add_one[(8,)](y, 1000, BLOCK=128)
    assert bool((y == cupy.arange(1000, dtype=cupy.float32) + 1).all())
print("LAUNCHED")
"""


@pytest.mark.parametrize("order", list(itertools.permutations(MODULES)), ids="-".join)
def test_import_order(order, tmp_path):
    script = tmp_path / "import_order.py"  # @jit reads the kernel's source file
    script.write_text("import sys\n" + "".join(f"import {m}\n" for m in order) +
                      textwrap.dedent(BODY))
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"),
               TRITIUM_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("TRITIUM_INTERPRET", None)
    r = subprocess.run([sys.executable, "-X", "faulthandler", str(script)], env=env,
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 0 and "LAUNCHED" in r.stdout, (r.returncode, r.stdout + r.stderr)
