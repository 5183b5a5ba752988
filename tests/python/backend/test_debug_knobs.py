"""The debugging knobs of issue 15 that reach the passes and the tools:
TRITIUM_DUMP_IR (tir and tgir), TRITIUM_DUMP_PATH, TRITIUM_LLVM_IR_DUMP,
TRITIUM_PASS_TIMING, TRITIUM_LLVM_TIMING, TRITIUM_DISABLE_LLVM_OPT,
TRITIUM_LLVM_DEBUG_ONLY, TRITIUM_PTXAS_OPTIONS, TRITIUM_DISABLE_PTXAS_OPT and
TRITIUM_DUMP_PTXAS_LOG."""

import os
import re
import subprocess
import sys

import pytest

import tritium
import tritium.language as tl
from tritium._C import nvptx
from tritium.compiler.compiler import ASTSource
from tritium.errors import CompilationError

HERE = os.path.dirname(os.path.abspath(__file__))


@tritium.jit
def scaled(x, out, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + offs, tl.exp(tl.load(x + offs, mask=offs < n)) * 2.0, mask=offs < n)


def compile_scaled(target="cuda:90a"):
    src = ASTSource(scaled, {"x": "*fp32", "out": "*fp32", "n": "i32"}, {"BLOCK": 128})
    return tritium.compile(src, target=target)


@pytest.fixture
def dump_file(tmp_path, monkeypatch):
    for name in list(os.environ):
        if name.startswith(("TRITIUM_", "TRITON_")) and name not in ("TRITIUM_HOME", "TRITIUM_VERIFY_EACH"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path / "cache"))
    path = tmp_path / "dump.txt"
    monkeypatch.setenv("TRITIUM_DUMP_PATH", str(path))
    return path


def test_dump_ir_covers_tir_and_tgir(dump_file, monkeypatch):
    monkeypatch.setenv("TRITIUM_DUMP_IR", "scaled")
    compile_scaled()
    text = dump_file.read_text()
    assert "// -----// IR Dump Before cse (scaled) //----- //" in text  # tir
    assert "// -----// IR Dump After cse (scaled) //----- //" in text
    assert "// -----// IR Dump Before assign-layouts (scaled) //----- //" in text  # tgir
    assert "// -----// IR Dump After insert-barriers (scaled) //----- //" in text
    # tir's dumps come first, in the order of the pipelines, in one file.
    assert text.index("Before cse (scaled)") < text.index("Before assign-layouts (scaled)")
    assert "kernel @scaled(" in text
    assert "layout=<" in text  # the tgir dumps hold the layouts the pipeline assigned


def test_pass_timing(dump_file, monkeypatch):
    monkeypatch.setenv("TRITIUM_PASS_TIMING", "1")
    compile_scaled()
    text = dump_file.read_text()
    assert re.search(r"// tir pass cse +\d+\.\d{3} ms\n", text)
    assert re.search(r"// tgir pass assign-layouts +\d+\.\d{3} ms\n", text)
    assert "IR Dump" not in text


@pytest.mark.parametrize("target", ["cuda:90a", "hip:gfx90a"])
def test_llvm_dump_and_timing(dump_file, monkeypatch, target):
    monkeypatch.setenv("TRITIUM_LLVM_IR_DUMP", "1")
    monkeypatch.setenv("TRITIUM_LLVM_TIMING", "1")
    compile_scaled(target)
    text = dump_file.read_text()
    assert "; *** IR Dump Before InstCombinePass ***" in text
    assert re.search(r"define [^\n]*@scaled\(", text)
    assert re.search(r"// llvm pass GVNPass +\d+\.\d{3} ms\n", text)
    assert "PassManager" not in text and "Adaptor" not in text


def test_disable_llvm_opt(dump_file, monkeypatch):
    optimized = compile_scaled()
    monkeypatch.setenv("TRITIUM_DISABLE_LLVM_OPT", "1")
    plain = compile_scaled()
    assert plain.hash != optimized.hash  # another cache entry
    # Without the pipeline the lowering's module stays as it was made (its
    # redundant address arithmetic and all); ptxas still assembles it.
    def instructions(llir):
        return len(re.findall(r"^  %\S+ = ", llir, re.M))
    assert instructions(plain.asm["llir"]) > instructions(optimized.asm["llir"])
    assert ("cubin" in plain.asm) == ("cubin" in optimized.asm)


# LLVM's flags belong to the process: each case runs in a child.
CHILD = r"""
import sys
sys.path.insert(0, {here!r})
from test_debug_knobs import compile_scaled
try:
    k = compile_scaled()
    print("OK", k.hash)
except Exception as e:
    print("ERR", type(e).__name__, str(e).splitlines()[0])
"""


def run_child(monkeypatch, tmp_path, **env):
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    out = subprocess.run([sys.executable, "-c", CHILD.format(here=HERE)], capture_output=True,
                         text=True, timeout=300, env=dict(os.environ, TRITIUM_CACHE_DIR=str(tmp_path / "c")))
    return out.stdout.strip().splitlines()[-1]


def test_llvm_flags(dump_file, monkeypatch, tmp_path):
    default = run_child(monkeypatch, tmp_path)
    no_lsr = run_child(monkeypatch, tmp_path, TRITIUM_DISABLE_LLVM_OPT="disable-lsr")
    assert default.startswith("OK") and no_lsr.startswith("OK") and default != no_lsr
    bogus = run_child(monkeypatch, tmp_path, TRITIUM_DISABLE_LLVM_OPT="-no-such-llvm-flag")
    assert bogus.startswith("ERR CompilationError") and "LLVM does not take the flags '-no-such-llvm-flag'" in bogus
    # Debian's LLVM 16 is a release build: no -debug-only, and the error says why.
    monkeypatch.delenv("TRITIUM_DISABLE_LLVM_OPT")
    debug_only = run_child(monkeypatch, tmp_path, TRITIUM_LLVM_DEBUG_ONLY="isel")
    assert "-debug-only=isel" in debug_only and "assertions" in debug_only


needs_ptxas = pytest.mark.skipif(not nvptx.find_ptxas(), reason="ptxas not found")


@needs_ptxas
def test_ptxas_log_options_and_no_opt(dump_file, monkeypatch):
    monkeypatch.setenv("TRITIUM_DUMP_PTXAS_LOG", "1")
    default = compile_scaled()
    log = dump_file.read_text()
    assert "Compiling entry function 'scaled' for 'sm_90a'" in log and f"Used {default.n_regs} registers" in log
    monkeypatch.setenv("TRITIUM_DISABLE_PTXAS_OPT", "1")
    o0 = compile_scaled()
    assert o0.hash != default.hash and o0.asm["cubin"] != default.asm["cubin"]
    monkeypatch.delenv("TRITIUM_DISABLE_PTXAS_OPT")
    monkeypatch.setenv("TRITIUM_PTXAS_OPTIONS", "-O0")  # Triton's PTXAS_OPTIONS
    assert compile_scaled().asm["cubin"] == o0.asm["cubin"]
    monkeypatch.setenv("TRITIUM_PTXAS_OPTIONS", "--no-such-ptxas-option")
    with pytest.raises(CompilationError, match=r"(?s)ptxas failed.*no-such-ptxas-option"):
        compile_scaled()
