"""The shared libraries export only Tritium's own symbols.

Copies of std:: and llvm:: templates exported from libtritium_core.so or
tritium._C could be bound by, or bind to, the copies in torch's libraries
(built with another libstdc++ and LLVM) in one process; the import-order
crash with torch was of that family (tests/python/backend/gpu/
test_import_order_gpu.py launches in every order on a GPU). The version
scripts in cmake/ keep them local; this test reads the dynamic symbol tables.
"""

import glob
import os
import shutil
import subprocess

import pytest

import tritium

PACKAGE = os.path.dirname(tritium.__file__)
NM = shutil.which("nm")
pytestmark = pytest.mark.skipif(NM is None, reason="nm (binutils) is not installed")


def _exported(path):
    out = subprocess.run([NM, "-D", "-C", "--defined-only", path], capture_output=True,
                         text=True, check=True).stdout
    # "address type name": the linker's own markers are not definitions.
    names = [line.split(" ", 2)[2] for line in out.splitlines() if line.count(" ") >= 2]
    return [n for n in names if n not in ("_edata", "_end", "__bss_start")]


def test_the_extension_exports_its_init_function_only():
    (ext,) = glob.glob(os.path.join(PACKAGE, "_C*.so"))
    assert _exported(ext) == ["PyInit__C"]


def test_the_core_exports_tritium_symbols_only():
    core = os.path.join(PACKAGE, "libtritium_core.so")
    names = _exported(core)
    assert any(n.startswith("tritium::parseModule") for n in names)
    foreign = [n for n in names if "tritium::" not in n]
    assert not foreign, foreign[:20]
