"""tritium._filecheck (Triton's test helper) and the interpreter's
rewrite() that Triton's line-info test asks of a kernel."""

import inspect

import pytest

import tritium
import tritium.language as tl
from tritium import _filecheck


@pytest.mark.skipif(_filecheck.filecheck_path() is None, reason="FileCheck is not installed")
def test_run_filecheck_passes_and_fails():
    _filecheck.run_filecheck("ok", "kernel @k\n  %1 = add %0, %0\n", "// CHECK: kernel @k\n// CHECK: add\n")
    with pytest.raises(ValueError, match="FileCheck failed for bad"):
        _filecheck.run_filecheck("bad", "kernel @k\n", "// CHECK: mul\n")


@tritium.jit(interpret=True)
def _decorated(x):
    tl.store(x, 1)


def test_rewrite_reports_the_line_of_def():
    rewriter = _decorated.rewrite()
    first = inspect.getsourcelines(_decorated.fn)[1]
    assert rewriter.def_file_lineno == first + 1 == _decorated.rewriter.def_file_lineno
