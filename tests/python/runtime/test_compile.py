"""tritium.compile: targets, sources, stages, CompiledKernel."""

import os
import sys

import pytest

from tritium.compiler import compiler
from tritium.compiler.compiler import ASTSource, CompiledKernel, GPUTarget, parse_target
from tritium.runtime.jit import jit
import tritium.language as tl

from runtime_helpers import load_module

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(
    __file__)))))
VECTOR_ADD = os.path.join(REPO, "examples", "vector_add.tir")


@jit
def copy_kernel(src_ptr, dst_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(dst_ptr + offs, tl.load(src_ptr + offs, mask=mask), mask=mask)


SIG = {"src_ptr": "*fp32", "dst_ptr": "*fp32", "n": "i32"}


def test_parse_target():
    assert parse_target("cuda:90") == GPUTarget("cuda", 90, 32)
    assert parse_target("cuda:sm_80") == GPUTarget("cuda", 80, 32)
    assert parse_target("hip:gfx90a") == GPUTarget("hip", "gfx90a", 64)
    assert parse_target("cuda") == GPUTarget("cuda", 90, 32)
    assert parse_target(("cuda", 80)) == GPUTarget("cuda", 80, 32)
    assert str(parse_target("hip:gfx90a")) == "hip:gfx90a"
    # sm_90a stays sm_90a: its instructions are not sm_90's.
    assert parse_target("cuda:90a") == GPUTarget("cuda", 90, 32, "sm_90a")
    assert parse_target("cuda:sm_90a") == parse_target("cuda:90a") != parse_target("cuda:90")
    assert str(parse_target("cuda:90a")) == "cuda:90a" and str(parse_target("cuda:sm_90")) == "cuda:90"
    with pytest.raises(ValueError, match="unsupported CUDA target 'cuda:91'"):
        parse_target("cuda:91")
    with pytest.raises(ValueError, match="unsupported CUDA target 'cuda:80a'"):
        parse_target("cuda:80a")
    # The architectures are the C++ target description's, and so is the message.
    with pytest.raises(ValueError, match=r"unsupported CUDA target 'cuda:12': unsupported CUDA "
                                         r"architecture '12': expected one of 70, 72, 75, 80, 86, 87, 89, "
                                         r"90, 90a \(written as 90, sm_90 or 90a\)"):
        parse_target("cuda:12")
    with pytest.raises(ValueError, match="unsupported CUDA architecture ''"):
        parse_target("cuda:")
    with pytest.raises(ValueError, match="unsupported HIP target 'hip:gfx942'"):
        parse_target("hip:gfx942")
    with pytest.raises(ValueError, match="unknown target 'metal:1'"):
        parse_target("metal:1")


@pytest.mark.parametrize("target", ["cuda:90", "cuda:80", "hip:gfx90a"])
def test_compile_ast_source(target, frontend):
    src = ASTSource(copy_kernel, SIG, constexprs={"BLOCK": 256}, attrs={0: {"divisibility": 16}})
    k = compiler.compile(src, target=target, options={"num_warps": 8})
    assert isinstance(k, CompiledKernel)
    if target.startswith("cuda"):
        # The NVIDIA stages; the cubin needs ptxas.
        stages = {"source", "tir", "tgir", "llir", "ptx"}
        assert stages <= set(k.asm) <= stages | {"cubin"}
        assert ".target sm_" + target.split(":")[1] in k.asm["ptx"]
        assert "layout=<" in k.asm["tgir"]
    else:
        # The AMD stages: the code object is linked in process.
        assert set(k.asm) == {"source", "tir", "tgir", "llir", "amdgcn", "hsaco"}
        assert '.amdgcn_target "amdgcn-amd-amdhsa--gfx90a' in k.asm["amdgcn"]
        assert k.asm["hsaco"][:4] == b"\x7fELF"
    assert "kernel @copy_kernel" in k.asm["tir"]
    assert k.asm["source"].startswith("def copy_kernel(")
    assert k.name == "copy_kernel" and k.metadata.name == "copy_kernel"
    assert k.metadata.target == parse_target(target)
    assert k.metadata.num_warps == 8
    assert k.metadata.num_stages == (2 if target.startswith("hip") else 3)
    assert k.metadata.shared == 0 and k.metadata.debug is False  # a copy needs no scratch
    assert k.metadata.warp_size == (64 if target.startswith("hip") else 32)
    assert k.hash == k.metadata.hash and len(k.hash) == 64
    if "cubin" in k.asm:
        assert k.n_regs > 0 and k.n_spills == 0  # from ptxas -v
    elif target.startswith("hip"):
        assert k.n_regs > 0 and k.n_spills == 0  # from the code object's metadata
    _, sig, cx, attrs, opts = frontend.last
    assert sig == {**SIG, "BLOCK": "constexpr"} and cx == {"BLOCK": 256}
    assert attrs == {0: {"divisibility": 16}}


def test_ast_source_accepts_triton_key_forms(frontend):
    src = ASTSource(copy_kernel, {0: "*fp16", 1: "*fp16", 2: "i32", 3: "constexpr"},
                    constexprs={(3,): 64}, attrs={(0,): [["tt.divisibility", 16]]})
    assert src.signature["src_ptr"] == "*fp16" and src.constexprs == {"BLOCK": 64}
    assert src.attrs == {0: {"divisibility": 16}}
    compiler.compile(src, target="cuda:90")
    # A dict of Triton's attribute names reads the same (one normalization
    # serves ASTSource and the code generator).
    src = ASTSource(copy_kernel, {0: "*fp16", 1: "*fp16", 2: "i32", 3: "constexpr"},
                    constexprs={"BLOCK": 64}, attrs={"n": {"tt.equal_to_1": True}})
    assert src.attrs == {2: {"equal_to_1": True}}
    assert "%n: i32 {equal_to_1}" in compiler.compile(src, target="cuda:90").asm["tir"]
    with pytest.raises(TypeError, match="no type for parameter 'n'"):
        ASTSource(copy_kernel, {"src_ptr": "*fp16", "dst_ptr": "*fp16"}, constexprs={"BLOCK": 4})
    with pytest.raises(TypeError, match="constexpr parameter 'BLOCK' has no value"):
        ASTSource(copy_kernel, {**SIG, "BLOCK": "constexpr"})


def test_targets_key_the_cache(frontend):
    src = ASTSource(copy_kernel, SIG, constexprs={"BLOCK": 256})
    hashes = {compiler.compile(src, target=t).hash for t in ("cuda:90", "cuda:80", "hip:gfx90a")}
    assert len(hashes) == 3 and frontend.count == 3
    assert compiler.compile(src, target="cuda:80").hash in hashes
    assert frontend.count == 3  # the disk cache answered


def test_compile_tir_file_and_text():
    k = compiler.compile(VECTOR_ADD, target="cuda:90")
    # A .tir input is the tir stage itself; the NVIDIA stages follow.
    assert k.name == "vector_add" and {"tir", "tgir", "llir", "ptx"} <= set(k.asm)
    assert "kernel @vector_add" in k.asm["tir"]
    with open(VECTOR_ADD) as f:
        text = f.read()
    k2 = compiler.compile(text, target="hip:gfx90a")
    assert k2.asm["tir"] == k.asm["tir"] and k2.metadata.target.backend == "hip"
    import pathlib
    assert compiler.compile(pathlib.Path(VECTOR_ADD), target="cuda:80").name == "vector_add"


def test_compile_bad_tir_raises_compilation_error():
    from tritium.errors import CompilationError
    with pytest.raises(CompilationError):
        compiler.compile("kernel @k() {\nentry:\n  bogus\n}\n", target="cuda:90")


def test_bad_options():
    src = VECTOR_ADD
    with pytest.raises(TypeError, match="unexpected keyword argument 'waves_per_eu'"):
        compiler.compile(src, target="cuda:90", options={"waves_per_eu": 2})
    k = compiler.compile(src, target="hip:gfx90a", options={"waves_per_eu": 2})
    assert k.metadata.waves_per_eu == 2


@pytest.mark.parametrize("name, value, message", [
    ("num_ctas", 0, "num_ctas must be a power of 2 between 1 and 16, got 0"),
    ("num_ctas", -1, "num_ctas must be a power of 2 between 1 and 16, got -1"),
    ("num_ctas", 3, "num_ctas must be a power of 2 between 1 and 16, got 3"),
    ("num_ctas", 1.0, "num_ctas must be a power of 2 between 1 and 16, got 1.0"),
    ("maxnreg", -1, "maxnreg must be None or an int between 1 and 255, got -1"),
    ("maxnreg", 0, "maxnreg must be None or an int between 1 and 255, got 0"),
    ("maxnreg", 256, "maxnreg must be None or an int between 1 and 255, got 256"),
    ("maxnreg", "64", "maxnreg must be None or an int between 1 and 255, got '64'"),
])
def test_option_values_are_checked(name, value, message):
    with pytest.raises(ValueError, match=message):
        compiler.compile(VECTOR_ADD, target="cuda:90", options={name: value})


def test_num_ctas_above_one_needs_hopper():
    """As Triton: clusters need sm_90 (and no AMD GPU has them); on sm_90
    each program runs as one CTA, with the same results."""
    with pytest.raises(ValueError, match=r"num_ctas > 1 requires NVIDIA SM90\+ \(Hopper\)"):
        compiler.compile(VECTOR_ADD, target="cuda:90", options={"num_ctas": 2, "arch": "sm80"})
    with pytest.raises(ValueError, match="num_ctas > 1 not supported"):
        compiler.compile(VECTOR_ADD, target="hip:gfx90a", options={"num_ctas": 2})
    k = compiler.compile(VECTOR_ADD, target="cuda:90", options={"num_ctas": 4})
    assert k.metadata.num_ctas == 4


def test_sm_90a_compiles_for_sm_90a():
    k = compiler.compile(VECTOR_ADD, target="cuda:90a")
    assert ".version 8.0\n.target sm_90a" in k.asm["ptx"]
    assert str(k.metadata.target) == "cuda:90a"
    assert ".target sm_90\n" in compiler.compile(VECTOR_ADD, target="cuda:90").asm["ptx"]


@pytest.mark.parametrize("maxnreg", [7, 64, 128])
def test_maxnreg_reaches_the_ptx(maxnreg):
    k = compiler.compile(VECTOR_ADD, target="cuda:90", options={"maxnreg": maxnreg})
    assert f".maxnreg {maxnreg}\n" in k.asm["ptx"]
    assert ".maxnreg" not in compiler.compile(VECTOR_ADD, target="cuda:90").asm["ptx"]


def test_a_module_without_a_kernel_does_not_compile():
    from tritium.errors import CompilationError
    with pytest.raises(CompilationError, match="the module has no kernel to compile"):
        compiler.compile("func @f() {\nbb0:\n  ret\n}\n", target="cuda:90")


DEEP = """
import tritium.language as tl
from tritium.runtime.jit import jit


@jit
def deep(x_ptr):
    x = tl.load(x_ptr)
    tl.store(x_ptr, {expr})
"""


def test_a_2000_term_sum_compiles(tmp_path):
    # Deeper than Python's recursion limit: the cache key's AST walk and the
    # code generator must not recurse along it.
    mod = load_module(tmp_path, "deep_sum", DEEP.format(expr=" + ".join(["x"] * 2000)))
    k = compiler.compile(ASTSource(mod.deep, {"x_ptr": "*fp32"}), target="cuda:90")
    assert ".entry deep" in k.asm["ptx"] and k.asm["tir"].count("add") >= 1


@pytest.mark.parametrize("expr", ["- " * 2000 + "x", " ** ".join(["x"] * 2000)], ids=["unary", "right-deep"])
def test_nesting_deeper_than_python_allows_is_a_compilation_error(tmp_path, expr):
    from tritium.errors import CompilationError
    mod = load_module(tmp_path, "deep_nest", DEEP.format(expr=expr))
    with pytest.raises(CompilationError) as e:
        compiler.compile(ASTSource(mod.deep, {"x_ptr": "*fp32"}), target="cuda:90")
    limit = sys.getrecursionlimit()
    assert f"the code is nested too deeply, or calls itself without end: Python's recursion limit ({limit}) " \
           "was reached" in e.value.message
    assert e.value.line == 9 and str(e.value).startswith(f"{e.value.file}:9:")  # the tl.store line


class FakeBackend:
    """Registers two text stages after tir, like a real backend would."""

    binary_ext = "bin"
    options = {"fake_opt": 0}

    def __init__(self):
        self.ran = []

    def add_stages(self, stages, options, target):
        def llir(module, metadata, opts):
            self.ran.append("llir")
            assert "kernel @" in str(module)
            return f"; llir for {metadata['name']} on {target}\n"

        def binary(text, metadata, opts):
            self.ran.append("bin")
            metadata["shared"] = 1024
            metadata["n_regs"] = 40
            return text.encode() + b"\x00BIN"
        stages["llir"] = llir
        stages["bin"] = binary


@pytest.fixture
def fake_backend(monkeypatch):
    backend = FakeBackend()
    monkeypatch.setitem(compiler._backends, "cuda", backend)
    monkeypatch.setattr(compiler, "BINARY_STAGES", compiler.BINARY_STAGES | {"bin"})
    return backend


def test_backend_registers_stages(fake_backend, frontend):
    src = ASTSource(copy_kernel, SIG, constexprs={"BLOCK": 64})
    k = compiler.compile(src, target="cuda:80", options={"fake_opt": 3})
    assert list(k.asm) == ["source", "tir", "llir", "bin"]
    assert k.asm["llir"] == "; llir for copy_kernel on cuda:80\n"
    assert k.asm["bin"].endswith(b"\x00BIN") and k.kernel == k.asm["bin"]
    assert k.metadata.shared == 1024 and k.n_regs == 40 and k.metadata.fake_opt == 3
    # ... and the disk cache restores them, bytes included.
    fake_backend.ran.clear()
    k2 = compiler.compile(src, target="cuda:80", options={"fake_opt": 3})
    assert fake_backend.ran == [] and k2.asm == k.asm and k2.metadata == k.metadata
    assert k2.module is None and k.module is not None
    assert set(os.path.basename(p) for p in k2.metadata_group.values()) == {
        "copy_kernel.py", "copy_kernel.tir", "copy_kernel.llir", "copy_kernel.bin",
        "copy_kernel.json"}


def test_num_warps_not_a_power_of_2_is_also_an_assertion_error():
    # Triton's option check asserts; Tritium's is a ValueError that is both.
    with pytest.raises(AssertionError, match="must be a power of 2"):
        compiler.make_options(compiler.parse_target("cuda:90"), {"num_warps": 3})
    with pytest.raises(ValueError, match="must be a power of 2"):
        compiler.make_options(compiler.parse_target("cuda:90"), {"num_warps": 6})


def test_verify_each_reaches_both_pipelines(monkeypatch):
    """knobs.compilation.verify_each (on in these tests, conftest.py) asks the
    tir stage and the target's tgir for the verifier after every pass."""
    import tritium
    from tritium.backends.cuda import CudaBackend
    seen = []

    class Recording:
        def __init__(self, module):
            self.module = module

        def run_stage_passes(self, stage, pipeline, verify_each, debug):
            seen.append(verify_each)
            return self.module.run_stage_passes(stage, pipeline, verify_each, debug)

    for on in (True, False):
        monkeypatch.setenv("TRITIUM_VERIFY_EACH", "1" if on else "0")
        options = compiler.make_options(parse_target("cuda:80"), {})
        stages = {"tir": compiler._make_tir_stage("k", {})}
        CudaBackend().add_stages(stages, options, parse_target("cuda:80"))
        assert stages["tgir"].args[2]["verify_each"] is on
        module = tritium._C.parse_module("kernel @k() {\nbb0:\n  ret\n}\n")
        stages["tir"](Recording(module), {}, options)
    assert seen == [True, False]
