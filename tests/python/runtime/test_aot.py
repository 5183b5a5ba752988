"""Ahead-of-time kernels (issue 16): python -m tritium.tools.compile, as
Triton's triton.tools.compile, writes C that embeds a kernel's binary and
launches it through the CUDA driver API. Here a C program built against the
fake driver (tests/fakecuda) launches it: the grid from the C expression,
the block from num_warps, the parameters' bytes; examples/aot/ is built
too, and run on a GPU."""

import json
import os
import shutil
import subprocess
import sys

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "fakecuda"))
import fakecuda  # noqa: E402

REPO = fakecuda.REPO
EXAMPLE = os.path.join(REPO, "examples", "aot")
CUDA_INCLUDE = "/usr/local/cuda/include"
CC = shutil.which("cc") or shutil.which("gcc")
needs_cc = pytest.mark.skipif(not CC or not os.path.exists(os.path.join(CUDA_INCLUDE, "cuda.h")),
                              reason="needs a C compiler and cuda.h")

SIGNATURE = "*fp32:16, *fp32:16, *fp32:16, i32, 1024"

LAUNCH_RECORD = r'''#include <stdio.h>
#include "add_1024.h"
int fakecuda_launch_record(int, char *, int);
int main(void) {
  CUdevice dev;
  CUcontext ctx;
  if (cuInit(0) || cuDeviceGet(&dev, 0) || cuDevicePrimaryCtxRetain(&ctx, dev) || cuCtxSetCurrent(ctx))
    return 2;
  CUresult r = add_1024(0, 0x10000, 0x20000, 0x30000, 5000);
  char record[4096];
  if (r != CUDA_SUCCESS || fakecuda_launch_record(0, record, sizeof record) < 0)
    return 1;
  printf("%s\n", record);
  return 0;
}
'''


def aot(tmp_path, *extra, signature=SIGNATURE):
    out = subprocess.run([sys.executable, "-m", "tritium.tools.compile", os.path.join(EXAMPLE, "add_kernel.py"),
                          "--kernel-name", "add_kernel", "--signature", signature,
                          "--grid", "(n + 1023) / 1024, 1, 1", "--out-name", "add_1024",
                          "--out-path", str(tmp_path / "add_1024"), *extra],
                         capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, PYTHONPATH=os.path.join(REPO, "python")))
    return out


def cc(*args):
    out = subprocess.run([CC, "-Wall", "-Wextra", "-Werror", f"-I{CUDA_INCLUDE}", *args],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    return out


@needs_cc
def test_the_launcher_launches_through_the_driver(tmp_path):
    fake = fakecuda.find_library()
    if fake is None:
        pytest.skip("the fake CUDA driver is not built")
    made = aot(tmp_path, "--image", "ptx", "--num-warps", "2")  # the fake reads PTX, not cubins
    assert made.returncode == 0, made.stderr
    header = (tmp_path / "add_1024.h").read_text()
    assert ("CUresult add_1024(CUstream stream, CUdeviceptr x_ptr, CUdeviceptr y_ptr, "
            "CUdeviceptr out_ptr, int32_t n);") in header
    (tmp_path / "main.c").write_text(LAUNCH_RECORD)
    cc(f"-I{tmp_path}", str(tmp_path / "main.c"), str(tmp_path / "add_1024.c"), fake, "-o", str(tmp_path / "main"))
    run = subprocess.run([str(tmp_path / "main")], capture_output=True, text=True, timeout=60,
                         env=dict(os.environ, LD_LIBRARY_PATH=os.path.dirname(fake)))
    assert run.returncode == 0, run.stderr
    launch = json.loads(run.stdout)
    assert launch["kernel"] == "add_kernel" and launch["grid"] == [5, 1, 1] and launch["block"] == [64, 1, 1]
    assert launch["params"] == ["0000010000000000", "0000020000000000", "0000030000000000",
                                (5000).to_bytes(4, "little").hex()]


@needs_cc
def test_the_example_builds_with_the_cubin(tmp_path):
    made = aot(tmp_path)
    if made.returncode != 0 and "is ptxas installed" in made.stderr:
        pytest.skip("ptxas not found")
    assert made.returncode == 0, made.stderr
    assert "0x7f, 0x45, 0x4c, 0x46" in (tmp_path / "add_1024.c").read_text()  # an ELF: the cubin
    cc(f"-I{tmp_path}", "-c", os.path.join(EXAMPLE, "main.c"), "-o", str(tmp_path / "main.o"))
    cc("-c", str(tmp_path / "add_1024.c"), "-o", str(tmp_path / "add_1024.o"))


def test_a_wrong_signature_is_refused(tmp_path):
    made = aot(tmp_path, signature="*fp32, i32")
    assert made.returncode != 0 and "--signature gives 2 parameters; add_kernel has 5" in made.stderr
    made = aot(tmp_path, signature="*fp32:8, *fp32, *fp32, i32, 1024")
    assert made.returncode != 0 and "parameter 'x_ptr': unknown hint ':8'" in made.stderr
    made = aot(tmp_path, signature="*fp32, *fp32, *fp32, i32, i32")
    assert made.returncode != 0 and "parameter 'BLOCK' is a constexpr: give its value, not 'i32'" in made.stderr


@pytest.mark.gpu
@needs_cc
def test_the_example_runs_on_the_gpu(tmp_path):
    made = aot(tmp_path, "--target", "cuda:90a")
    assert made.returncode == 0, made.stderr
    cc(f"-I{tmp_path}", os.path.join(EXAMPLE, "main.c"), str(tmp_path / "add_1024.c"), "-lcuda",
       "-L/usr/local/cuda/lib64/stubs", "-o", str(tmp_path / "add"))
    run = subprocess.run([str(tmp_path / "add")], capture_output=True, text=True, timeout=60)
    assert run.returncode == 0 and "ok: 5000 elements" in run.stdout, run.stdout + run.stderr
