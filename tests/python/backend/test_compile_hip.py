"""Compile-only tests of the AMDGPU backend (no AMD GPU exists here, nor in
CI): every case of test_compile_cuda.py (the tutorial kernels in their
specializations) goes through ``tritium.compile`` for hip:gfx90a (MI200) and
hip:gfx940 (MI300A): tir -> tgir -> llir -> amdgcn -> hsaco. The code object
is checked as the HIP runtime would read it: an AMDGPU ELF with the kernel's
descriptor symbol ``<name>.kd`` and metadata notes (64-lane wavefronts, the
LDS the llir stage reported, no scratch, the kernel-argument size), and the
assembly for what the kernel needs (LDS traffic and barriers where it shares
memory, lane shuffles for reductions, vector accesses where the
specialization allows them, atomics for the layer-norm lock, MFMA for the
fp16 and bf16 dots that take mma.sync on NVIDIA). Where
``llvm-readelf`` is installed the notes are read a second time by it.
"""

import re
import shutil
import subprocess

import pytest

import tritium
from tritium._C import amdgpu
from tritium.compiler.compiler import ASTSource

from test_compile_cuda import CASES, CP_ASYNC, ST_V4, V4, _signature

TARGETS = ["hip:gfx90a", "hip:gfx940"]
READELF = shutil.which("llvm-readelf-16") or shutil.which("llvm-readelf")
# Vector accesses: a wavefront of 64 lanes holds twice a warp's elements, so
# where a warp's thread gets 16 bytes a lane may get 8.
X4_LOAD = r"global_load_dwordx[24] "
X4_STORE = r"global_store_dwordx[24] "
#: The PTX a case requires -> what its AMDGPU assembly must show instead.
AMD_EQUIVALENT = {
    V4: X4_LOAD,
    # No asynchronous copies on AMD: what NVIDIA copies ahead, 16 bytes at
    # a time, AMD loads ahead into registers, 16 bytes at a time.
    CP_ASYNC[0]: X4_LOAD,
    ST_V4: X4_STORE,
    r"atom\.global(\.\w+)*\.cas\.b32": r"global_atomic_cmpswap ",
    r"atom\.global(\.\w+)*\.exch\.b32": r"global_atomic_swap ",
    r"shfl\.sync\.bfly": r"ds_bpermute_b32 ",
    r"bar\.sync": r"s_barrier",
    # mma.sync's counterparts on CDNA: MFMA, and 16-byte LDS reads a lane.
    r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32": r"v_mfma_f32_(32x32x8|16x16x16)_?f16 ",
    r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32":
        r"v_mfma_f32_(32x32x8|16x16x16)_?bf16",
    r"ldmatrix\.sync\.aligned\.m8n8\.x4\.shared": r"ds_read_b128 ",
}

needs_device_libs = pytest.mark.skipif(
    not amdgpu.find_device_libs(),
    reason="the ROCm device libraries (Debian rocm-device-libs) are not installed")


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    import os
    for name in list(os.environ):
        if name.startswith(("TRITIUM_", "TRITON_")) and name not in ("TRITIUM_HOME", "TRITON_HOME"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _readelf_notes(hsaco, tmp_path):
    path = tmp_path / "kernel.hsaco"
    path.write_bytes(hsaco)
    out = subprocess.run([READELF, "--notes", "--symbols", "--file-header", str(path)],
                         capture_output=True, text=True, check=True).stdout
    return out


@needs_device_libs
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_compile(case, target, tmp_path):
    signature = _signature(case.kernel, case.signature, case.constexprs)
    src = ASTSource(case.kernel, signature, case.constexprs, case.attrs)
    k = tritium.compile(src, target=target, options={"num_warps": case.num_warps})
    gfx = target.split(":")[1]
    name = case.kernel.__name__

    for stage in ("tir", "tgir", "llir", "amdgcn", "hsaco"):
        assert stage in k.asm, f"no {stage} stage"
    assert "layout=<" in k.asm["tgir"]
    assert f"define amdgpu_kernel void @{name}(" in k.asm["llir"]
    asm = k.asm["amdgcn"]
    assert f'.amdgcn_target "amdgcn-amd-amdhsa--{gfx}' in asm
    assert re.search(rf"^{name}:$", asm, re.M)
    # fp8 dots stay on FMA on AMD (the NVIDIA path upcasts them to f16 for
    # mma.sync; MFMA has no such path here yet).
    fp8 = "fp8" in case.id
    for pattern in case.ptx:
        amd = AMD_EQUIVALENT.get(pattern)
        if amd and not fp8:
            assert re.search(amd, asm), f"the assembly of {case.id} has no {amd!r}"
    if any(p in (V4, ST_V4) for p in case.no_ptx):
        assert not re.search(X4_LOAD, asm)

    md = k.metadata
    assert md.target.arch == gfx and md.warp_size == 64
    assert isinstance(md.shared, int) and 0 <= md.shared <= 64 * 1024
    if case.shared is True:
        assert md.shared > 0 and re.search(r"ds_(write|read|store|load)", asm)
        assert "s_barrier" in asm
    elif case.shared is False:
        assert md.shared == 0 and not re.search(r"\bds_(write|read)", asm)
    assert k.n_max_threads == case.num_warps * 64
    assert 0 < k.n_regs <= 512 and md.scratch == 0 and k.n_spills == 0

    hsaco = k.asm["hsaco"]
    assert isinstance(hsaco, bytes) and hsaco[:4] == b"\x7fELF"
    assert int.from_bytes(hsaco[18:20], "little") == 224  # e_machine: EM_AMDGPU
    assert k.kernel == hsaco
    if READELF:
        notes = _readelf_notes(hsaco, tmp_path)
        assert re.search(rf"\b{name}\.kd\b", notes)
        assert ".wavefront_size: 64" in notes
        assert f".group_segment_fixed_size: {md.shared}\n" in notes
        assert ".private_segment_fixed_size: 0\n" in notes
        assert f".vgpr_count:     {k.n_regs}\n" in notes


@needs_device_libs
def test_wave32_target_compiles():
    """RDNA (gfx1030) runs 32-lane wavefronts: the layouts and the
    descriptor follow the target's warp size."""
    case = next(c for c in CASES if c.id == "softmax-fp32-1024-3")
    signature = _signature(case.kernel, case.signature, case.constexprs)
    k = tritium.compile(ASTSource(case.kernel, signature, case.constexprs, case.attrs),
                        target="hip:gfx1030", options={"num_warps": 4})
    assert k.metadata.warp_size == 32 and k.n_max_threads == 128
    assert k.asm["hsaco"][:4] == b"\x7fELF"
    assert '.amdgcn_target "amdgcn-amd-amdhsa--gfx1030' in k.asm["amdgcn"]


def test_hip_options_are_checked():
    case = CASES[0]
    signature = _signature(case.kernel, case.signature, case.constexprs)
    src = ASTSource(case.kernel, signature, case.constexprs)
    with pytest.raises(ValueError, match="maxnreg is for cuda targets"):
        tritium.compile(src, target="hip:gfx90a", options={"maxnreg": 64})
    with pytest.raises(ValueError, match="waves_per_eu must be"):
        tritium.compile(src, target="hip:gfx90a", options={"waves_per_eu": -1})
    with pytest.raises(ValueError, match="LLVM 16 has no gfx941 or gfx942"):
        tritium.compile(src, target="hip:gfx942")


@needs_device_libs
def test_too_much_lds_is_out_of_resources():
    """A kernel needing more LDS than a workgroup has raises OutOfResources
    at compile time (the LDS is static), which the autotuner skips, as
    Triton does; tritium-translate gets LLVM's limit as an error."""
    case = next(c for c in CASES if c.id == "matmul-fp32-inputs")
    consts = {**case.constexprs, "BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 64}
    src = ASTSource(case.kernel, _signature(case.kernel, case.signature, consts), consts)
    with pytest.raises(tritium.OutOfResources) as e:
        tritium.compile(src, target="hip:gfx90a")
    assert e.value.name == "shared memory" and e.value.limit == 65536
    assert e.value.required > 65536
    assert "out of resource: shared memory in kernel 'matmul_kernel'" in str(e.value)
    assert amdgpu.max_shared_bytes("hip:gfx940") == 65536


def test_llvm_errors_are_compile_errors():
    """LLVM reports some errors through its context (here AMDGPU's LDS
    limit); they become CompilationErrors, the process goes on."""
    ir = """@g = internal addrspace(3) global [100000 x i8] undef, align 16
define amdgpu_kernel void @k(ptr addrspace(1) %p) {
  %a = getelementptr [100000 x i8], ptr addrspace(3) @g, i32 0, i32 99999
  store volatile i8 1, ptr addrspace(3) %a
  ret void
}
"""
    with pytest.raises(tritium.CompilationError,
                       match=r"LLVM cannot compile the kernel for gfx90a: local memory \(100000\) "
                             r"exceeds limit \(65536\) in function 'k'"):
        tritium._C.run_stage("amdgcn", ir, "hip:gfx90a")


def _kernel_calling_ocml():
    case = next(c for c in CASES if c.id == "softmax-fp32-1024-3")  # tl.exp: __ocml_exp_f32
    return ASTSource(case.kernel, _signature(case.kernel, case.signature, case.constexprs),
                     case.constexprs)


def test_missing_device_libs_are_named(tmp_path, monkeypatch):
    monkeypatch.setenv("TRITIUM_ROCM_DEVICE_LIBS_PATH", str(tmp_path))
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    if amdgpu.find_device_libs():
        # Another folder still has them: hide this one's ocml.bc instead.
        libs = amdgpu.find_device_libs()
        for name in ("ocml.bc", "ockl.bc"):
            (tmp_path / name).symlink_to(f"{libs}/{name}")
        with pytest.raises(tritium.CompilationError,
                           match=rf"the ROCm device libraries in {tmp_path} have no "
                                 r"oclc_isa_version_90a\.bc \(they predate gfx90a\): install a "
                                 r"newer rocm-device-libs or set TRITIUM_ROCM_DEVICE_LIBS_PATH"):
            tritium.compile(_kernel_calling_ocml(), target="hip:gfx90a")
    else:
        with pytest.raises(tritium.CompilationError, match=r"ROCm device libraries \(ocml\.bc\) "
                                                           r"were not found"):
            tritium.compile(_kernel_calling_ocml(), target="hip:gfx90a")


@needs_device_libs
def test_libdevice_functions_come_from_amds_libraries():
    """tl.extra.libdevice keeps NVIDIA's names; on a hip target the float
    functions are ocml's and the integer ones LLVM's: no __nv_ call is left,
    and the code object links."""
    import tritium.language as tl
    from tritium.language.extra import hip as tl_hip, libdevice

    assert tl_hip.libdevice is libdevice

    @tritium.jit
    def uses_libdevice(x, y, n, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        i = tl.load(n + offs)
        f = libdevice.exp(v) + libdevice.pow(v, v) + libdevice.erfinv(v) + libdevice.fast_expf(v)
        f = tl.where(libdevice.isnan(f), 0.0, f)
        j = libdevice.popc(i) + libdevice.clz(i) + libdevice.mulhi(i, i + 3) + libdevice.max(i, i * 5)
        tl.store(y + offs, f + j.to(tl.float32))

    src = ASTSource(uses_libdevice, {"x": "*fp32", "y": "*fp32", "n": "*i32"}, {"BLOCK": 64})
    k = tritium.compile(src, target="hip:gfx90a")
    llir = k.asm["llir"]
    assert "@__nv_" not in llir and "@__ocml_" not in llir  # replaced, linked and inlined
    for op in ("@llvm.ctpop.i32", "@llvm.ctlz.i32", "@llvm.smax.i32", "mul nsw i64"):
        assert op in llir, op
    assert k.asm["hsaco"][:4] == b"\x7fELF"

    @tritium.jit
    def rounding_mode(x, BLOCK: tl.constexpr):
        offs = tl.arange(0, BLOCK)
        v = tl.load(x + offs)
        tl.store(x + offs, libdevice.div_rn(v, v))

    src = ASTSource(rounding_mode, {"x": "*fp32"}, {"BLOCK": 64})
    with pytest.raises(tritium.CompilationError,
                       match=r"libdevice's __nv_fdiv_rn has no AMD equivalent"):
        tritium.compile(src, target="hip:gfx90a")


@needs_device_libs
@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("num_stages", [1, 2])
@pytest.mark.parametrize("stage", [1, 3])
def test_attention_on_mfma_keeps_p_in_registers(stage, target, num_stages):
    """Tutorial 6 on MFMA with 4 waves: both dots take every wave along M,
    the first one's transposed accumulator is the second's A operand (one
    instruction's K a lane) by renaming registers, so only Q, K and V pass
    through LDS (Q once: the causal kernel's two loops share it); no
    scratch. With 2 stages (hip's default) each loop's K and V go through
    a ring of two LDS buffers, loaded one iteration ahead."""
    from test_compile_cuda import ATT_SIG, attention
    consts = {"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "STAGE": stage}
    sig = _signature(attention.attn_fwd, ATT_SIG, consts)
    attrs = {n: {"divisibility": 16} for n, t in sig.items() if t.startswith("*")}
    k = tritium.compile(ASTSource(attention.attn_fwd, sig, consts, attrs), target=target,
                        options={"num_warps": 4, "num_stages": num_stages})
    allocs = re.findall(r"= local_alloc %\S+ : memdesc<(\d+ x \d+) x f16", k.asm["tgir"])
    rings = re.findall(r"= local_alloc : memdesc<2 x (\d+ x \d+) x f16", k.asm["tgir"])
    loops = 2 if stage == 3 else 1
    if num_stages == 1:
        assert allocs == ["128 x 64"] + ["64 x 64", "64 x 64"] * loops, allocs
        assert rings == []
    else:
        assert allocs == ["128 x 64"], allocs
        assert rings == ["64 x 64", "64 x 64"] * loops, rings
        assert "async_copy" not in k.asm["tgir"]
    mfma = re.findall(r"v_mfma_f32_32x32x8_?f16 ", k.asm["amdgcn"])
    assert len(mfma) == 32 * loops
    assert k.metadata.scratch == 0 and k.n_spills == 0


@needs_device_libs
@pytest.mark.parametrize("target", TARGETS)
def test_matmul_loop_is_pipelined_through_registers(target):
    """num_stages as Triton's AMD stream pipeliner: with 2 (hip's default)
    the tutorial matmul's A and B tiles go through rings of two LDS buffers;
    the loop loads the next iteration's tiles before this iteration's MFMAs
    and stores them into LDS after them (no asynchronous copies on AMD).
    With 1 stage the loop loads and stores its own tiles."""
    from test_compile_cuda import MM_CONSTS, MM_SIG, _loop_blocks, matmul
    consts = {**MM_CONSTS, "ACTIVATION": ""}
    sig = _signature(matmul.matmul_kernel, MM_SIG.format("fp16"), consts)
    attrs = {n: {"divisibility": 16} for n, t in sig.items() if t.startswith("*")}
    src = ASTSource(matmul.matmul_kernel, sig, consts, attrs)
    piped = tritium.compile(src, target=target, options={"num_warps": 4})
    plain = tritium.compile(src, target=target, options={"num_warps": 4, "num_stages": 1})
    assert re.findall(r"= local_alloc : memdesc<2 x \d+ x \d+ x f16", piped.asm["tgir"]), \
        "no LDS rings"
    assert "async_copy" not in piped.asm["tgir"]
    [body] = _loop_blocks(piped.asm["tgir"])
    lines = body.splitlines()
    at = lambda op: [i for i, line in enumerate(lines) if re.search(op, line)]
    assert len(at(r"= load ")) == 2 and len(at(r"^\s*local_store ")) == 2
    assert max(at(r"= load ")) < min(at(r"= dot ")) < min(at(r"^\s*local_store "))
    assert "local_store" not in "".join(_loop_blocks(plain.asm["tgir"]))
    # The assembly: as many MFMAs, more LDS (the rings), no scratch.
    assert len(re.findall(r"v_mfma", piped.asm["amdgcn"])) == \
        len(re.findall(r"v_mfma", plain.asm["amdgcn"]))
    assert piped.metadata.shared > plain.metadata.shared
    assert piped.metadata.scratch == 0 and plain.metadata.scratch == 0
