"""Line info (issue 15): every instruction's Python line in the PTX (`.file`,
`.loc`) and, through ptxas -lineinfo, in the cubin's line table, which
nvdisasm -g, Nsight Compute and compute-sanitizer read; a @jit function of
another file is named by its own file. TRITIUM_DISABLE_LINE_INFO=1 leaves
them out, and the machine code is the same either way."""

import inspect
import os
import re

import pytest

import tritium
import tritium.language as tl
from tritium._C import nvptx
from tritium.backends.compiler import GPUTarget
from tritium.compiler.compiler import ASTSource, get_backend

import matmul
from _jit import jit


@jit
def k_lines(X, Y, N, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < N)
    y = matmul.leaky_relu(x)
    tl.store(Y + offs, y, mask=offs < N)


SIG = {"X": "*fp32", "Y": "*fp32", "N": "i32"}
ATTRS = {"X": {"divisibility": 16}, "Y": {"divisibility": 16}}


def _compile(monkeypatch, disabled):
    monkeypatch.setenv("TRITIUM_DISABLE_LINE_INFO", "1" if disabled else "0")
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    return tritium.compile(ASTSource(k_lines, SIG, {"BLOCK": 256}, ATTRS), target="cuda:90a")


def _line(text, fn=k_lines):
    """The line of fn's source that contains text."""
    fn = getattr(fn, "fn", fn)
    src, first = inspect.getsourcelines(fn)
    return first + next(i for i, s in enumerate(src) if text in s)


def test_ptx_names_the_python_lines(monkeypatch):
    ptx = _compile(monkeypatch, False).asm["ptx"]
    files = dict(re.findall(r'\.file\s+(\d+) "([^"]+)"', ptx))
    here = next(n for n, f in files.items() if f == os.path.abspath(__file__))
    other = next(n for n, f in files.items() if f.endswith("kernels/matmul.py"))
    lines = {(f, int(n)) for f, n in re.findall(r"\.loc\s+(\d+) (\d+) \d+", ptx)}
    for text in ("tl.program_id", "tl.load", "tl.store"):
        assert (here, _line(text)) in lines, (text, sorted(lines))
    # leaky_relu's tl.where, at its line of matmul.py.
    assert (other, _line("tl.where", matmul.leaky_relu)) in lines, sorted(lines)


def test_cubin_keeps_the_lines_and_the_same_code(monkeypatch):
    ptxas = tritium.knobs.nvidia.ptxas_path or nvptx.find_ptxas()
    if not ptxas:
        pytest.skip("ptxas not found")
    on = _compile(monkeypatch, False)
    off = _compile(monkeypatch, True)
    assert ".loc" not in off.asm["ptx"] and ".file" not in off.asm["ptx"]
    # The section names are in the ELF's string table.
    assert b".debug_line" in on.asm["cubin"] and b".debug_line" not in off.asm["cubin"]
    assert on.n_regs == off.n_regs
    # Without the lines, the PTX is the same instructions.
    strip = lambda p: [s for s in p.splitlines() if s.strip() and not re.match(  # noqa: E731
        r"\s*(\.loc|\.file|\$L__(func_begin|tmp|func_end)\d+:|\.section|\}|\{)", s)]
    assert [s for s in strip(on.asm["ptx"]) if "debug" not in s] == \
           [s for s in strip(off.asm["ptx"]) if "debug" not in s]


def test_the_knob_joins_the_cache_key(monkeypatch):
    backend = get_backend(GPUTarget("cuda", 90, 32))
    monkeypatch.setenv("TRITIUM_DISABLE_LINE_INFO", "0")
    with_lines = backend.version
    monkeypatch.setenv("TRITIUM_DISABLE_LINE_INFO", "1")
    assert backend.version != with_lines


def test_amdgcn_and_the_code_object_name_the_lines(monkeypatch):
    """The same on AMD: `.loc` in the AMDGCN assembly, and the code object's
    .debug_line (which rocgdb and the profilers read); the kernel's
    instructions are the same without."""
    def compile_hip(disabled):
        monkeypatch.setenv("TRITIUM_DISABLE_LINE_INFO", "1" if disabled else "0")
        monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
        return tritium.compile(ASTSource(k_lines, SIG, {"BLOCK": 256}, ATTRS), target="hip:gfx90a")
    on, off = compile_hip(False), compile_hip(True)
    files = {n: os.path.join(d, f)
             for n, d, f in re.findall(r'\.file\s+(\d+) "([^"]+)" "([^"]+)"', on.asm["amdgcn"])}
    here = next(n for n, f in files.items() if f == os.path.abspath(__file__))
    lines = {int(n) for f, n in re.findall(r"\.loc\s+(\d+) (\d+) \d+", on.asm["amdgcn"]) if f == here}
    for text in ("tl.program_id", "tl.load", "tl.store"):
        assert _line(text) in lines, (text, sorted(lines))
    assert b".debug_line" in on.asm["hsaco"] and b".debug_line" not in off.asm["hsaco"]
    code = lambda asm: [s for s in asm.splitlines() if re.match(r"\s+[sv]_", s)]  # noqa: E731
    assert code(on.asm["amdgcn"]) == code(off.asm["amdgcn"])
    monkeypatch.setenv("TRITIUM_DISABLE_LINE_INFO", "0")
    with_lines = get_backend(GPUTarget("hip", "gfx90a", 64)).version
    monkeypatch.setenv("TRITIUM_DISABLE_LINE_INFO", "1")
    assert get_backend(GPUTarget("hip", "gfx90a", 64)).version != with_lines
