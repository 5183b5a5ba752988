"""Knobs: read at use time, documented, and each one's effect."""

import os
import re
import shutil

import pytest

import tritium
from tritium import knobs
from tritium.compiler import compiler
from tritium.compiler.compiler import ASTSource
from tritium.runtime.jit import jit
import tritium.language as tl

from runtime_helpers import FakeTensor

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))


@jit
def knob_kernel(x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(x_ptr + offs, tl.load(x_ptr + offs) + 1, mask=offs < n)


def src():
    return ASTSource(knob_kernel, {"x_ptr": "*fp32", "n": "i32"}, constexprs={"BLOCK": 64})


def test_every_knob_is_documented():
    with open(os.path.join(REPO, "docs", "knobs.md")) as f:
        doc = f.read()
    rows = {v: row for row in doc.splitlines() if row.startswith("| `TRITIUM_")
            for v in re.findall(r"`(TRITIUM_[A-Z0-9_]+)`", row.split(" | ")[0])}
    for group, attr, env, default, text in knobs.all_knobs():
        assert f"`{env}`" in doc, env
        assert text
        # Its row: Triton's name (or none) and an example.
        triton = knobs.triton_name(env)
        assert env in rows and "Example: `" in rows[env], env
        if triton:
            assert f"`{triton}`" in rows[env].split(" | ")[1], env
    documented = set(re.findall(r"`(TRITIUM_[A-Z_]+)`", doc))
    assert documented <= {k[2] for k in knobs.all_knobs()}, "docs name an unknown knob"


def test_read_at_use_time(monkeypatch, tmp_path):
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path / "elsewhere"))
    assert knobs.cache.dir == str(tmp_path / "elsewhere")
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    assert knobs.compilation.always_compile is True
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "0")
    assert knobs.compilation.always_compile is False
    knobs.compilation.always_compile = True  # a Python override wins...
    assert knobs.compilation.always_compile is True
    del knobs.compilation.always_compile    # ... until deleted
    assert knobs.compilation.always_compile is False
    monkeypatch.delenv("TRITIUM_CACHE_DIR")
    monkeypatch.setenv("TRITIUM_HOME", str(tmp_path))
    assert knobs.cache.dir == os.path.join(str(tmp_path), ".tritium", "cache")
    monkeypatch.setenv("TRITIUM_DEBUG", "yes")
    assert knobs.runtime.debug and knobs.debug_enabled()
    monkeypatch.setenv("TRITIUM_DEBUG", "0")
    assert not knobs.runtime.debug and not knobs.debug_enabled()


def test_always_compile(monkeypatch, frontend):
    compiler.compile(src(), target="cuda:90")
    compiler.compile(src(), target="cuda:90")
    assert frontend.count == 1
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    compiler.compile(src(), target="cuda:90")
    compiler.compile(src(), target="cuda:90")
    assert frontend.count == 3


def test_dump_ir_before_and_after_each_pass(monkeypatch, capfd):
    monkeypatch.setenv("TRITIUM_DUMP_IR", "1")
    compiler.compile(src(), target="cuda:90")
    err = capfd.readouterr().err  # the C++ pass manager writes to file descriptor 2
    passes = compiler.tir_pipeline()
    assert passes, "the tir pipeline runs at least the verifier"
    for p in (p.split("{")[0] for p in passes):  # banners name passes without their options
        assert f"IR Dump Before {p} (knob_kernel)" in err
        assert f"IR Dump After {p} (knob_kernel)" in err
    assert "IR Dump Before assign-layouts (knob_kernel)" in err  # tgir's passes, the same way
    assert err.count("kernel @knob_kernel") == 2 * err.count("IR Dump Before ")
    # A name filter: other kernels stay quiet.
    monkeypatch.setenv("TRITIUM_DUMP_IR", "some_other_kernel")
    compiler.compile(src(), target="cuda:80")
    assert "IR Dump" not in capfd.readouterr().err


def test_kernel_dump_writes_every_stage(monkeypatch, private_dirs):
    monkeypatch.setenv("TRITIUM_KERNEL_DUMP", "1")
    k = compiler.compile(src(), target="cuda:90")
    d = private_dirs["dump"] / k.hash
    stages = set(k.asm)  # every stage the NVIDIA backend ran, and the source
    assert {"source", "tir", "tgir", "llir", "ptx"} <= stages
    ext = {"source": "py"}
    assert sorted(os.listdir(d)) == sorted(f"knob_kernel.{ext.get(s, s)}" for s in stages)
    assert (d / "knob_kernel.tir").read_text() == k.asm["tir"]


def test_override_round_trip(monkeypatch, private_dirs, frontend):
    original = compiler.compile(src(), target="cuda:90")
    monkeypatch.setenv("TRITIUM_KERNEL_DUMP", "1")
    k = compiler.compile(src(), target="cuda:90")
    assert k.hash == original.hash
    monkeypatch.delenv("TRITIUM_KERNEL_DUMP")
    # Copy the dump to the override directory and edit the tir stage: rename
    # the kernel and add stray blanks, which parsing and printing normalize.
    shutil.copytree(private_dirs["dump"] / k.hash, private_dirs["override"] / k.hash)
    tir = private_dirs["override"] / k.hash / "knob_kernel.tir"
    tir.write_text(tir.read_text().replace("kernel @knob_kernel", "kernel    @edited_kernel"))
    monkeypatch.setenv("TRITIUM_KERNEL_OVERRIDE", "1")
    edited = compiler.compile(src(), target="cuda:90")
    assert "kernel @edited_kernel" in edited.asm["tir"]  # parsed back, then printed
    assert "kernel @edited_kernel" in str(edited.module)
    # The override is never stored: without it, the original comes back.
    monkeypatch.delenv("TRITIUM_KERNEL_OVERRIDE")
    count = frontend.count
    again = compiler.compile(src(), target="cuda:90")
    assert again.asm["tir"] == original.asm["tir"] and frontend.count == count


def test_override_with_invalid_ir_reports_it(monkeypatch, private_dirs):
    import pytest
    from tritium.errors import CompilationError
    k = compiler.compile(src(), target="cuda:90")
    d = private_dirs["override"] / k.hash
    d.mkdir(parents=True)
    (d / "knob_kernel.tir").write_text("kernel @broken(\n")
    monkeypatch.setenv("TRITIUM_KERNEL_OVERRIDE", "1")
    # The edit's line and column, the line and a caret.
    with pytest.raises(CompilationError, match=r"<override>:1:16: error: expected an argument such as "
                                               r"%0\nkernel @broken\(\n +\^"):
        compiler.compile(src(), target="cuda:90")


def test_print_stage_times(monkeypatch, capsys):
    monkeypatch.setenv("TRITIUM_PRINT_STAGE_TIMES", "1")
    compiler.compile(src(), target="cuda:90")
    err = capsys.readouterr().err
    assert re.search(r"\[tritium\] compile knob_kernel \w+: key [\d.]+ ms, frontend [\d.]+ ms, "
                     r"passes [\d.]+ ms, tgir [\d.]+ ms, llir [\d.]+ ms, ptx [\d.]+ ms, "
                     r"(cubin [\d.]+ ms, )?store [\d.]+ ms, total [\d.]+ ms", err), err
    compiler.compile(src(), target="cuda:90")
    assert re.search(r"disk cache hit, key [\d.]+ ms, load [\d.]+ ms",
                     capsys.readouterr().err)


def test_default_backend(monkeypatch, frontend):
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "hip")
    k = knob_kernel.warmup(FakeTensor(4), 16, BLOCK=64, grid=(1,))
    assert k.metadata.target == compiler.parse_target("hip:gfx90a")
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:80")
    k = knob_kernel.warmup(FakeTensor(4), 16, BLOCK=64, grid=(1,))
    assert k.metadata.target == compiler.parse_target("cuda:80")


# -- Triton's structure: base_knobs, propagation, scope, copy/reset ----------------

def test_groups_are_base_knobs_with_their_variables():
    groups = {name: g for name, g in vars(knobs).items()
              if isinstance(g, knobs.base_knobs) and g is not knobs.base_knobs}
    assert set(groups) == {"cache", "compilation", "runtime", "language", "autotuning", "nvidia", "amd"}
    assert knobs.compilation.knob_descriptors["dump_ir"].key == "TRITIUM_KERNEL_DUMP"
    assert knobs.compilation.knob_descriptors["override"].key == "TRITIUM_KERNEL_OVERRIDE"
    assert knobs.cache.knob_descriptors["home_dir"].key == "TRITIUM_HOME"
    assert knobs.nvidia.knob_descriptors["ptxas"].key == "TRITIUM_PTXAS_PATH"
    assert knobs.runtime.knobs["debug"] is False


def test_setting_a_knob_sets_its_variable_until_deleted(monkeypatch):
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "0")
    knobs.compilation.always_compile = True
    assert os.environ["TRITIUM_ALWAYS_COMPILE"] == "1"
    del knobs.compilation.always_compile
    assert os.environ["TRITIUM_ALWAYS_COMPILE"] == "0" and knobs.compilation.always_compile is False
    monkeypatch.delenv("TRITIUM_CACHE_DIR")
    knobs.cache.dir = "/tmp/elsewhere"
    assert os.environ["TRITIUM_CACHE_DIR"] == "/tmp/elsewhere"
    del knobs.cache.dir
    assert "TRITIUM_CACHE_DIR" not in os.environ
    monkeypatch.setattr(knobs, "propagate_env", False)
    knobs.runtime.debug = True
    try:
        assert "TRITIUM_DEBUG" not in os.environ and knobs.debug_enabled()
    finally:
        del knobs.runtime.debug


def test_scope_restores_settings_and_variables(monkeypatch):
    monkeypatch.setenv("TRITIUM_PRINT_STAGE_TIMES", "0")
    with knobs.compilation.scope():
        knobs.compilation.print_stage_times = True
        knobs.compilation.dump_ir = True
        assert os.environ["TRITIUM_KERNEL_DUMP"] == "1"
    assert knobs.compilation.print_stage_times is False and knobs.compilation.dump_ir is False
    assert os.environ["TRITIUM_PRINT_STAGE_TIMES"] == "0" and "TRITIUM_KERNEL_DUMP" not in os.environ


def test_copy_and_reset_leave_the_original(monkeypatch):
    original = knobs.autotuning
    original.print = True
    try:
        fresh = original.copy().reset()
        assert type(fresh) is type(original) and fresh is not original
        assert fresh.print is False and original.__dict__["_override_print"] is True
    finally:
        del original.print


def test_tritons_names_take_effect(monkeypatch, private_dirs):
    knobs.compilation.dump_ir = True
    try:
        k = compiler.compile(src(), target="cuda:90")
    finally:
        del knobs.compilation.dump_ir
    assert (private_dirs["dump"] / k.hash / "knob_kernel.tir").exists()
    with knobs.runtime.scope(), knobs.language.scope():
        knobs.runtime.override_arch = "sm80"
        knobs.language.default_fp_fusion = False
        k = knob_kernel.warmup(FakeTensor(4), 16, BLOCK=64, grid=(1,))
    assert k.metadata.target == compiler.parse_target("cuda:80")
    assert k.metadata.enable_fp_fusion is False


def test_nvidia_tools_read_as_path_and_version(tmp_path):
    tool = tmp_path / "nvdisasm"
    tool.write_text("#!/bin/sh\necho 'nvdisasm: NVIDIA (R) CUDA disassembler'\n"
                    "echo 'Cuda compilation tools, release 12.8, V12.8.93'\n")
    tool.chmod(0o755)
    with knobs.nvidia.scope():
        knobs.nvidia.nvdisasm = str(tool)
        assert (knobs.nvidia.nvdisasm.path, knobs.nvidia.nvdisasm.version) == (str(tool), "12.8")
        knobs.nvidia.cuobjdump = str(tmp_path / "missing")
        with pytest.raises(RuntimeError, match="Cannot find cuobjdump"):
            knobs.nvidia.cuobjdump


def test_triton_spellings_of_the_variables(monkeypatch, tmp_path):
    """A TRITON_* variable of Triton's is read where its TRITIUM_* spelling is
    unset (a Triton setup works unchanged under the alias; docs/knobs.md has
    the table); the TRITIUM_* one wins; names Triton does not have are not
    read. The launch path's own reads (interpret, debug) follow it too."""
    import numpy as np
    for name in ("CACHE_DIR", "DEBUG", "INTERPRET", "LLVM_O3"):
        monkeypatch.delenv("TRITIUM_" + name, raising=False)
        monkeypatch.delenv("TRITON_" + name, raising=False)
    monkeypatch.setenv("TRITON_CACHE_DIR", str(tmp_path / "triton"))
    assert knobs.cache.dir == str(tmp_path / "triton")
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path / "tritium"))
    assert knobs.cache.dir == str(tmp_path / "tritium")
    monkeypatch.setenv("TRITON_LLVM_O3", "1")  # Triton has no such variable
    assert knobs.compilation.llvm_o3 is False
    assert not knobs.debug_enabled() and not knobs.interpret_enabled()
    monkeypatch.setenv("TRITON_DEBUG", "1")
    assert knobs.runtime.debug is True and knobs.debug_enabled()
    monkeypatch.setenv("TRITON_INTERPRET", "1")
    assert knobs.runtime.interpret is True and knobs.interpret_enabled()
    x = np.zeros(128, np.float32)
    knob_kernel[(2,)](x, 128, BLOCK=64)  # numpy arrays: only the interpreter runs this
    assert (x == 1).all()


@jit
def divides_by_zero(x_ptr, N: tl.constexpr):
    tl.store(x_ptr, N // 0)


def test_front_end_debugging_lets_the_error_through(monkeypatch):
    """An error of Python inside the frontend is a CompilationError at the
    kernel line; with TRITIUM_FRONT_END_DEBUGGING (TRITON_FRONT_END_DEBUGGING)
    it propagates as it is."""
    source = ASTSource(divides_by_zero, {"x_ptr": "*i32"}, constexprs={"N": 4})
    with pytest.raises(tritium.CompilationError) as info:
        compiler.compile(source, target="cuda:90")
    assert "division or modulo by zero" in str(info.value)
    monkeypatch.setenv("TRITON_FRONT_END_DEBUGGING", "1")
    with pytest.raises(ZeroDivisionError):
        compiler.compile(source, target="cuda:90")


def test_add_stages_inspection_hook(monkeypatch):
    """knobs.runtime.add_stages_inspection_hook, as Triton's: called with no
    arguments for a key that joins the cache key, then with (backend,
    stages, options, language, capability) to read and change the stages; a
    stage it puts in may take (src, metadata) as Triton's do."""
    seen = {}

    def hook(*args):
        if not args:
            return "inspected", "v1"
        backend, stages, options, language, capability = args
        seen.update(names=list(stages), language=language, capability=capability,
                    warps=options["num_warps"])
        tgir = stages["tgir"]
        stages["tgir"] = lambda src, metadata: tgir(src, metadata, options)  # Triton's arity
        llir = stages["llir"]
        stages["llir"] = lambda src, metadata: llir(src, metadata, options) + "\n; inspected\n"

    plain = compiler.compile(src(), target="cuda:90")
    monkeypatch.setattr(knobs.runtime, "add_stages_inspection_hook", hook)
    hooked = compiler.compile(src(), target="cuda:90")
    assert seen["names"][:3] == ["tir", "tgir", "llir"] and seen["language"] == "triton"
    assert seen["capability"] == 90 and seen["warps"] == 4
    assert hooked.asm["llir"].endswith("; inspected\n") and "; inspected" not in plain.asm["llir"]
    assert hooked.hash != plain.hash  # the hook's key is in the cache key


RATE = 3  # a plain global: a kernel may read it only with the knob


@jit
def reads_a_plain_global(x_ptr):
    tl.store(x_ptr, RATE)


def test_allow_non_constexpr_globals(monkeypatch):
    """A kernel reading a plain global is refused unless
    TRITIUM_ALLOW_NON_CONSTEXPR_GLOBALS (or Triton's spelling, or the knob set
    from Python) allows it, read by the knob's rules."""
    source = ASTSource(reads_a_plain_global, {"x_ptr": "*i32"})
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")  # the check is the frontend's
    with pytest.raises(tritium.CompilationError, match="RATE"):
        compiler.compile(source, target="cuda:90")
    monkeypatch.setenv("TRITON_ALLOW_NON_CONSTEXPR_GLOBALS", "1")
    compiler.compile(source, target="cuda:90")
    monkeypatch.setenv("TRITIUM_ALLOW_NON_CONSTEXPR_GLOBALS", "0")  # ours wins
    with pytest.raises(tritium.CompilationError, match="RATE"):
        compiler.compile(source, target="cuda:90")
    with knobs.compilation.scope():
        knobs.compilation.allow_non_constexpr_globals = True
        compiler.compile(source, target="cuda:90")
