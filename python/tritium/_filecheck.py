"""``triton._filecheck``: LLVM's FileCheck run on text, for tests that check
emitted IR or assembly the way Triton's own tests do. It needs the FileCheck
binary (Debian's llvm-16-tools): in ``TRITIUM_TOOLS_DIR``, LLVM 16's bin
folder, or on PATH."""

import os
import shutil
import subprocess
import tempfile


def filecheck_path():
    """The FileCheck binary, or None."""
    for folder in (os.environ.get("TRITIUM_TOOLS_DIR"), "/usr/lib/llvm-16/bin"):
        if folder and os.access(os.path.join(folder, "FileCheck"), os.X_OK):
            return os.path.join(folder, "FileCheck")
    return shutil.which("FileCheck") or shutil.which("FileCheck-16")


def run_filecheck(name, module_str, check_template):
    """Checks ``module_str`` against the CHECK lines of ``check_template``;
    raises ValueError with FileCheck's report when they do not match."""
    exe = filecheck_path()
    if exe is None:
        raise RuntimeError("FileCheck not found: install LLVM 16's tools (llvm-16-tools) or set "
                           "TRITIUM_TOOLS_DIR to the folder that holds it")
    with tempfile.TemporaryDirectory() as tmp:
        checks = os.path.join(tmp, "checks")
        with open(checks, "w") as f:
            f.write(check_template)
        done = subprocess.run([exe, checks, "--dump-input=never"], input=module_str, text=True,
                              capture_output=True)
    if done.returncode != 0:
        raise ValueError(f"FileCheck failed for {name}:\n{done.stderr}")
