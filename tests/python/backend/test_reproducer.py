"""TRITIUM_REPRODUCER_PATH (TRITON_REPRODUCER_PATH; issue 15): each compile
writes <prefix>.tir.repro.tir and <prefix>.tgir.repro.tir, the IR of those
stages before their passes and the pipeline; replaying the tritium-opt line
in the file gives the stage's output exactly. Where a pass fails, the file
holds the IR right before that pass and a command that fails the same way."""

import os
import shlex
import subprocess

import pytest

import tritium
import tritium.language as tl
from tritium import _C
from tritium.compiler.compiler import ASTSource
from tritium.errors import CompilationError

REPO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
TOOLS = os.environ.get("TRITIUM_TOOLS_DIR") or os.path.join(REPO, "build", "bin")
needs_opt = pytest.mark.skipif(not os.access(os.path.join(TOOLS, "tritium-opt"), os.X_OK),
                               reason=f"tritium-opt is not built in {TOOLS}")


@tritium.jit
def softmax(out, x, n, BLOCK: tl.constexpr):
    cols = tl.arange(0, BLOCK)
    v = tl.load(x + tl.program_id(0) * n + cols, mask=cols < n, other=-float("inf"))
    e = tl.exp(v - tl.max(v, axis=0))
    tl.store(out + tl.program_id(0) * n + cols, e / tl.sum(e, axis=0), mask=cols < n)


def replay(path):
    """Runs the file's replay line; (exit code, stdout, stderr)."""
    line = next(ln for ln in open(path) if ln.startswith("; replay: "))
    argv = shlex.split(line[len("; replay: "):])
    assert argv[0] == "tritium-opt" and argv[1] == path
    argv[0] = os.path.join(TOOLS, "tritium-opt")
    out = subprocess.run(argv, capture_output=True, text=True, timeout=120)
    return out.returncode, out.stdout, out.stderr


@needs_opt
@pytest.mark.parametrize("variable,dump", [("TRITIUM_REPRODUCER_PATH", False),
                                           ("TRITON_REPRODUCER_PATH", False),
                                           ("TRITIUM_REPRODUCER_PATH", True)])
def test_each_stage_replays_to_its_output(tmp_path, monkeypatch, variable, dump):
    """With dumps and pass timings on too, each stage's passes still run as
    one pipeline: the reproducer holds the whole of it, not the last pass."""
    monkeypatch.setenv(variable, str(tmp_path / "repro"))
    if dump:
        monkeypatch.setenv("TRITIUM_DUMP_IR", "1")
        monkeypatch.setenv("TRITIUM_PASS_TIMING", "1")
        monkeypatch.setenv("TRITIUM_DUMP_PATH", str(tmp_path / "dump.txt"))
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    src = ASTSource(softmax, {"out": "*fp32", "x": "*fp32", "n": "i32"}, {"BLOCK": 256})
    kernel = tritium.compile(src, target="cuda:90a")
    for stage in ("tir", "tgir"):
        path = str(tmp_path / f"repro.{stage}.repro.tir")
        text = open(path).read()
        assert text.startswith("; Tritium reproducer: the module before the pipeline below.\n")
        assert 'loc("' in text  # locations kept: a replayed error names the Python line
        code, out, err = replay(path)
        assert code == 0, err
        assert out == kernel.asm[stage]
    assert "; pipeline: inline," in open(tmp_path / "repro.tir.repro.tir").read()
    assert "assign-layouts{num-warps=4,warp-size=32" in open(tmp_path / "repro.tgir.repro.tir").read()


UNREACHABLE = """kernel @k(%p: ptr<f32>) {
bb0:
  ret
bb1:
  ret
}
"""


@needs_opt
def test_a_failing_pass_leaves_the_module_before_it(tmp_path):
    path = str(tmp_path / "fail.tir")
    module = _C.ir.parse_module(UNREACHABLE)
    with pytest.raises(CompilationError, match="assign-layouts needs a function without unreachable"):
        module.run_passes("cse,assign-layouts{num-warps=4,warp-size=32}", reproducer=path)
    text = open(path).read()
    assert text.startswith("; Tritium reproducer: pass 'assign-layouts' failed on this module:\n"
                           ";   assign-layouts needs a function without unreachable blocks")
    assert "; pipeline: assign-layouts{num-warps=4,warp-size=32}\n" in text
    assert text.endswith(UNREACHABLE)
    code, _, err = replay(path)
    assert code == 1 and "assign-layouts needs a function without unreachable blocks" in err
