"""pytest set-up for Tritium's Python tests.

Imports the in-tree package (python/tritium, where the build puts the
extension) ahead of any installed copy, and registers the ``gpu`` marker:
tests marked ``@pytest.mark.gpu`` run only where the CUDA driver (libcuda)
loads and reports a device, and are skipped elsewhere; ``multi_gpu`` ones
(marked ``gpu`` too) only where it reports two or more.
"""

import ctypes
import functools
import glob
import os
import sys

import pytest

# Every pass of the tir and tgir stages is followed by the verifier in the
# tests (knobs.compilation.verify_each): a pass that breaks the IR is named.
os.environ.setdefault("TRITIUM_VERIFY_EACH", "1")

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
_IN_TREE = os.path.join(REPO, "python")
if glob.glob(os.path.join(_IN_TREE, "tritium", "_C*.so")):
    sys.path.insert(0, _IN_TREE)


@functools.lru_cache(maxsize=None)
def cuda_device_count():
    """Devices the CUDA driver reports; 0 without a driver or a GPU."""
    try:
        cuda = ctypes.CDLL("libcuda.so.1")
    except OSError:
        return 0
    count = ctypes.c_int(0)
    if cuda.cuInit(0) != 0 or cuda.cuDeviceGetCount(ctypes.byref(count)) != 0:
        return 0
    return count.value


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "gpu: needs an NVIDIA GPU and its driver (skipped without them)")
    config.addinivalue_line("markers", "multi_gpu: needs two or more NVIDIA GPUs (skipped with fewer)")


def pytest_collection_modifyitems(config, items):
    devices = cuda_device_count()
    no_gpu = pytest.mark.skip(reason="no CUDA GPU or libcuda on this machine")
    one_gpu = pytest.mark.skip(reason=f"{devices} CUDA GPU(s) here: the test needs two")
    for item in items:
        if "gpu" in item.keywords and devices == 0:
            item.add_marker(no_gpu)
        elif "multi_gpu" in item.keywords and devices < 2:
            item.add_marker(one_gpu)


@pytest.fixture
def examples_dir():
    return os.path.join(REPO, "examples")


@pytest.fixture
def sass():
    """A cubin's SASS: ``sass(cubin)`` runs the toolkit's cuobjdump, or
    returns None where there is none (CI has ptxas only)."""
    import shutil
    import subprocess
    import tempfile

    def disassemble(cubin):
        tool = shutil.which("cuobjdump")
        if not tool:
            return None
        with tempfile.NamedTemporaryFile(suffix=".cubin") as f:
            f.write(cubin)
            f.flush()
            return subprocess.run([tool, "-sass", f.name], capture_output=True, text=True).stdout
    return disassemble
