"""device_assert and device_print on the GPU.

A failed device assert leaves the CUDA context unusable for the rest of the
process (the driver's sticky "device-side assert"), so each case runs its
kernel in a child process and reads what it printed: the assertion message
(the device's own printf through __assertfail) and the error the host got.
"""

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.gpu

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))))

PROLOGUE = """
import torch
import tritium
import tritium.language as tl

@tritium.jit
def check_positive(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs, mask=offs < n, other=1)
    tl.device_assert(x > 0, "x must be positive")
    tl.store(x_ptr + offs, x * 2, mask=offs < n)

@tritium.jit
def show(x_ptr, BLOCK: tl.constexpr):
    x = tl.load(x_ptr + tl.arange(0, BLOCK))
    tl.device_print("x", x)

@tritium.jit
def show_unsigned(x_ptr):
    x = tl.load(x_ptr).to(tl.uint32)
    tl.device_print("u", x, x.to(tl.uint64) * 2, x.to(tl.int32))
"""


def _run(body, tmp_path):
    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "python"),
               TRITIUM_CACHE_DIR=str(tmp_path / "cache"))
    env.pop("TRITIUM_INTERPRET", None)
    script = tmp_path / "kernel_script.py"  # @jit reads the kernel's source file
    script.write_text(PROLOGUE + textwrap.dedent(body))
    return subprocess.run([sys.executable, str(script)], env=env, capture_output=True, text=True,
                          timeout=120)


def test_device_assert_fires_with_debug(tmp_path):
    r = _run("""
        x = torch.ones(300, device="cuda", dtype=torch.int32)
        x[257] = -5
        check_positive[(3,)](x, 300, BLOCK=128, debug=True)
        try:
            torch.cuda.synchronize()
            print("NO ERROR")
        except Exception as e:
            print("HOST ERROR:", type(e).__name__, e)
        """, tmp_path)
    out = r.stdout + r.stderr
    assert "NO ERROR" not in out, out
    assert "x must be positive" in out, out
    assert "HOST ERROR" in out and "assert" in out.lower(), out


def test_device_assert_is_compiled_out_without_debug(tmp_path):
    r = _run("""
        x = torch.ones(300, device="cuda", dtype=torch.int32)
        x[257] = -5
        check_positive[(3,)](x, 300, BLOCK=128)
        torch.cuda.synchronize()
        print("RESULT", x[0].item(), x[257].item(), x[299].item())
        """, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "RESULT 2 -10 2" in r.stdout, r.stdout + r.stderr
    assert "x must be positive" not in r.stdout + r.stderr


def test_device_print_prints_every_element_once(tmp_path):
    r = _run("""
        x = torch.arange(64, device="cuda", dtype=torch.int32) * 3
        show[(1,)](x, BLOCK=64)
        torch.cuda.synchronize()
        """, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    # Triton's spelling, as the interpreter prints it too.
    lines = [ln for ln in r.stdout.splitlines() if " x: " in ln]
    assert len(lines) == 64, r.stdout
    for i in (0, 17, 63):
        assert f"pid (0, 0, 0) idx ({i})  x: {3 * i}" in lines, lines[:4]


def test_device_print_unsigned(tmp_path):
    """Unsigned integers print as unsigned (the interpreter agrees)."""
    r = _run("""
        x = torch.tensor([3_000_000_000 - 2**32], device="cuda", dtype=torch.int32)
        show_unsigned[(1,)](x)
        torch.cuda.synchronize()
        """, tmp_path)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "pid (0, 0, 0)  u: 3000000000, 6000000000, -1294967296" in r.stdout, r.stdout
