"""Compile-only tests of the NVIDIA backend (no GPU needed): every tutorial
kernel of tests/python/kernels, in the specializations test_kernels.py uses
plus fp16/bf16/fp32 variants where the kernel allows and the attributes the
runtime passes (``divisibility=16`` for 16-byte aligned pointers and ints
divisible by 16, ``equal_to_1`` for ints equal to 1), goes through
``tritium.compile`` for cuda:80 and cuda:90: tir -> tgir -> llir -> ptx ->
cubin. ptxas must accept the PTX (the cubin stage); the metadata must say
how much shared memory the kernel needs and how many registers it uses.
Where the specialization allows it, the PTX must use vector accesses.

Without ptxas the PTX is still checked and the test is then skipped, with
the reason.
"""

import dataclasses
import re
import time

import pytest

import tritium
import tritium.language as tl
from tritium._C import nvptx
from tritium.compiler.compiler import ASTSource

import attention
import block_ptr_matmul
import dropout
import layer_norm
import matmul
import softmax
import vector_add

TARGETS = ["cuda:80", "cuda:90"]
D16 = {"divisibility": 16}
ONE = {"equal_to_1": True}


@dataclasses.dataclass
class Case:
    id: str
    kernel: object
    signature: str  # the non-constexpr parameters' types, in order
    constexprs: dict
    attrs: dict = dataclasses.field(default_factory=dict)  # by parameter name
    num_warps: int = 4
    shared: bool = None  # True: needs shared memory; False: none; None: either
    ptx: tuple = ()  # regexes the PTX must match
    no_ptx: tuple = ()  # regexes it must not


def _signature(kernel, types, constexprs):
    names = [n for n in kernel.arg_names if n not in constexprs]
    types = [t.strip() for t in types.split(",")]
    assert len(names) == len(types), f"{kernel.__name__}: {names} vs {types}"
    return dict(zip(names, types))


def _runtime_attrs(kernel, signature, ints_div16=(), ints_one=()):
    """What the runtime passes for 16-byte aligned tensors and the given
    ints: every pointer divisibility=16, the ints as named."""
    attrs = {n: D16 for n, t in signature.items() if t.startswith("*")}
    attrs.update({n: D16 for n in ints_div16})
    attrs.update({n: ONE for n in ints_one})
    return attrs


I32 = ",i32"
V4 = r"ld\.global(\.\w+)*\.v4\.b32"
ST_V4 = r"st\.global(\.\w+)*\.v4\.b32"
# The pipeliner's copies (default num_stages 3: the steady state waits for
# all but the S - 2 = 1 most recent groups), 16 bytes each through L2.
CP_ASYNC = (r"cp\.async\.cg\.shared\.global \[%r\d+(\+\d+)?\], \[%rd\d+\], 16, %r\d+;",
            r"cp\.async\.wait_group 1;", r"cp\.async\.wait_group 0;")

VA_SIG = "*{0},*{0},*{0},i32"
SM_SIG = "*{0},*{0},i32,i32,i32,i32"
MM_SIG = "*{0},*{0},*fp16" + I32 * 9
DO_SIG = "*{0},*{0},i32,fp32,i32"
LNF_SIG = "*{0},*{0},*{0},*{0},*fp32,*fp32,i32,i32,fp32"
LNB_SIG = "*{0},*{0},*{0},*{0},*{0},*{0},*fp32,*fp32,*i32,i32,i32"
LNW_SIG = "*{0},*{0},*{1},*{1},i32,i32"
ATT_SIG = "*fp16,*fp16,*fp16,fp32,*fp32,*fp16" + I32 * 18
BP_SIG = "*{0},*{0},*fp16" + I32 * 9

MM_CONSTS = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8}
MM_RUNTIME = dict(ints_div16=("M", "N", "K", "stride_am", "stride_bk", "stride_cm"),
                  ints_one=("stride_ak", "stride_bn", "stride_cn"))
BP_RUNTIME = MM_RUNTIME


def _cases():
    c = []
    # Tutorial 1: vector add.
    for dt in ("fp32", "fp16", "bf16"):
        for block in (128, 1024):
            c.append(Case(f"vector_add-{dt}-{block}", vector_add.add_kernel, VA_SIG.format(dt),
                          {"BLOCK": block}, shared=False))
    sig = _signature(vector_add.add_kernel, VA_SIG.format("fp32"), {"BLOCK": 1024})
    c.append(Case("vector_add-fp32-1024-aligned", vector_add.add_kernel, VA_SIG.format("fp32"),
                  {"BLOCK": 1024}, _runtime_attrs(vector_add.add_kernel, sig, ("n_elements",)),
                  shared=False, ptx=(r"@%p\d+ " + V4, r"@%p\d+ " + ST_V4)))
    c.append(Case("vector_add-fp16-1024-aligned", vector_add.add_kernel, VA_SIG.format("fp16"),
                  {"BLOCK": 1024}, _runtime_attrs(vector_add.add_kernel, sig, ("n_elements",)),
                  shared=False, ptx=(V4, ST_V4)))
    # Aligned pointers but a ragged n: one predicated access per element.
    c.append(Case("vector_add-fp32-1024-ragged-n", vector_add.add_kernel, VA_SIG.format("fp32"),
                  {"BLOCK": 1024}, _runtime_attrs(vector_add.add_kernel, sig), shared=False,
                  ptx=(r"@%p\d+ ld\.global\.b32",), no_ptx=(r"\.v4\.",)))
    # Tutorial 2: fused softmax (tl.exp needs fp32 or fp64).
    c.append(Case("softmax-fp32-128-1", softmax.softmax_kernel, SM_SIG.format("fp32"),
                  {"BLOCK": 128, "NUM_STAGES": 1}))
    c.append(Case("softmax-fp32-1024-3", softmax.softmax_kernel, SM_SIG.format("fp32"),
                  {"BLOCK": 1024, "NUM_STAGES": 3}, shared=True, ptx=(r"bar\.sync", r"shfl\.sync\.bfly")))
    sig = _signature(softmax.softmax_kernel, SM_SIG.format("fp32"), {"BLOCK": 1024, "NUM_STAGES": 3})
    c.append(Case("softmax-fp32-1024-aligned-w8", softmax.softmax_kernel, SM_SIG.format("fp32"),
                  {"BLOCK": 1024, "NUM_STAGES": 3},
                  _runtime_attrs(softmax.softmax_kernel, sig, ("in_stride", "out_stride", "n_cols")),
                  num_warps=8, shared=True, ptx=(V4, ST_V4)))
    c.append(Case("softmax-fp64-256", softmax.softmax_kernel, SM_SIG.format("fp64"),
                  {"BLOCK": 256, "NUM_STAGES": 2}))
    # Tutorial 3: matmul (fp16 out), grouped programs, fused activation.
    for act in ("", "leaky_relu"):
        c.append(Case(f"matmul-fp16-{act or 'none'}", matmul.matmul_kernel, MM_SIG.format("fp16"),
                      {**MM_CONSTS, "ACTIVATION": act}, shared=True,
                      ptx=(r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32",
                           r"ldmatrix\.sync\.aligned\.m8n8\.x4\.shared",
                           r"ldmatrix\.sync\.aligned\.m8n8\.x4\.trans\.shared"),
                      no_ptx=(r"fma\.rn\.f32",)))
    # fp32 inputs take tl.dot's default tf32 precision: m16n8k8.
    c.append(Case("matmul-fp32-inputs", matmul.matmul_kernel, MM_SIG.format("fp32"),
                  {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 16, "GROUP_M": 4, "ACTIVATION": ""},
                  shared=True, ptx=(r"mma\.sync\.aligned\.m16n8k8\.row\.col\.f32\.tf32\.tf32\.f32",),
                  no_ptx=(r"fma\.rn\.f32",)))
    for dt in ("fp8e4nv", "fp8e5", "fp8e4b15"):
        c.append(Case(f"matmul-{dt}", matmul.matmul_kernel, MM_SIG.format(dt),
                      {**MM_CONSTS, "ACTIVATION": ""}, shared=True,
                      ptx=(r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32",)))
    c.append(Case("matmul-bf16", matmul.matmul_kernel, MM_SIG.format("bf16"),
                  {**MM_CONSTS, "ACTIVATION": ""}, shared=True,
                  ptx=(r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.bf16\.bf16\.f32",)))
    sig = _signature(matmul.matmul_kernel, MM_SIG.format("fp16"), {**MM_CONSTS, "ACTIVATION": ""})
    c.append(Case("matmul-fp16-contiguous", matmul.matmul_kernel, MM_SIG.format("fp16"),
                  {**MM_CONSTS, "ACTIVATION": ""}, _runtime_attrs(matmul.matmul_kernel, sig, **MM_RUNTIME),
                  shared=True, ptx=CP_ASYNC))
    c.append(Case("matmul-fp16-contiguous-w8", matmul.matmul_kernel, MM_SIG.format("fp16"),
                  {"BLOCK_M": 128, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8, "ACTIVATION": ""},
                  _runtime_attrs(matmul.matmul_kernel, sig, **MM_RUNTIME), num_warps=8, shared=True,
                  ptx=CP_ASYNC))
    # Tutorial 4: low-memory dropout (Philox).
    for dt in ("fp32", "fp16", "bf16"):
        c.append(Case(f"dropout-{dt}", dropout.seeded_dropout, DO_SIG.format(dt), {"BLOCK": 1024},
                      shared=False, ptx=(r"mul\.hi\.u32",)))
    sig = _signature(dropout.seeded_dropout, DO_SIG.format("fp32"), {"BLOCK": 1024})
    c.append(Case("dropout-fp32-aligned", dropout.seeded_dropout, DO_SIG.format("fp32"), {"BLOCK": 1024},
                  _runtime_attrs(dropout.seeded_dropout, sig, ("n_elements",)), shared=False,
                  ptx=(V4, ST_V4)))
    # Tutorial 5: layer norm forward, backward with the lock, dw/db sums.
    for dt in ("fp16", "fp32", "bf16"):
        c.append(Case(f"layer_norm_fwd-{dt}", layer_norm.layer_norm_fwd, LNF_SIG.format(dt),
                      {"BLOCK": 512}, shared=True))
    sig = _signature(layer_norm.layer_norm_fwd, LNF_SIG.format("fp16"), {"BLOCK": 1024})
    c.append(Case("layer_norm_fwd-fp16-aligned-w8", layer_norm.layer_norm_fwd, LNF_SIG.format("fp16"),
                  {"BLOCK": 1024}, _runtime_attrs(layer_norm.layer_norm_fwd, sig, ("stride", "N")),
                  num_warps=8, shared=True, ptx=(r"ld\.global(\.\w+)*\.v\d\.b32",)))
    lock = (r"atom\.global(\.\w+)*\.cas\.b32", r"atom\.global(\.\w+)*\.exch\.b32")
    for dt in ("fp16", "fp32", "bf16"):
        c.append(Case(f"layer_norm_bwd_dx-{dt}", layer_norm.layer_norm_bwd_dx, LNB_SIG.format(dt),
                      {"GROUP": 64, "BLOCK": 1024}, shared=True, ptx=lock))
    c.append(Case("layer_norm_bwd_dx-fp16-golden", layer_norm.layer_norm_bwd_dx, LNB_SIG.format("fp16"),
                  {"GROUP": 32, "BLOCK": 256}, shared=True, ptx=lock))
    sig = _signature(layer_norm.layer_norm_bwd_dx, LNB_SIG.format("fp16"), {"GROUP": 64, "BLOCK": 1024})
    c.append(Case("layer_norm_bwd_dx-fp16-aligned", layer_norm.layer_norm_bwd_dx, LNB_SIG.format("fp16"),
                  {"GROUP": 64, "BLOCK": 1024},
                  _runtime_attrs(layer_norm.layer_norm_bwd_dx, sig, ("stride", "N")), shared=True, ptx=lock))
    for a, b in (("fp16", "fp16"), ("fp32", "fp32"), ("fp32", "fp16")):
        c.append(Case(f"layer_norm_bwd_dwdb-{a}-{b}", layer_norm.layer_norm_bwd_dwdb, LNW_SIG.format(a, b),
                      {"BLOCK_M": 32, "BLOCK_N": 128}))
    # Tutorial 6: attention forward, non-causal (STAGE 1) and causal (3).
    for stage in (1, 3):
        c.append(Case(f"attention-stage{stage}", attention.attn_fwd, ATT_SIG,
                      {"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "STAGE": stage}, shared=True,
                      ptx=(r"ex2\.approx\.ftz\.f32", r"fma\.rn\.f32", r"cvt\.rn\.f16x2\.f32",
                           r"mma\.sync\.aligned\.m16n8k16\.row\.col\.f32\.f16\.f16\.f32")))
    # Block pointers.
    c.append(Case("block_ptr_matmul-fp16", block_ptr_matmul.matmul_block_ptr, BP_SIG.format("fp16"),
                  {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}, shared=True))
    c.append(Case("block_ptr_matmul-fp32", block_ptr_matmul.matmul_block_ptr, BP_SIG.format("fp32"),
                  {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 16}, shared=True))
    sig = _signature(block_ptr_matmul.matmul_block_ptr, BP_SIG.format("fp16"),
                     {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32})
    c.append(Case("block_ptr_matmul-fp16-contiguous", block_ptr_matmul.matmul_block_ptr,
                  BP_SIG.format("fp16"), {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32},
                  _runtime_attrs(block_ptr_matmul.matmul_block_ptr, sig, **BP_RUNTIME), shared=True))
    return c


CASES = _cases()


@pytest.fixture(autouse=True)
def private_cache(tmp_path_factory, monkeypatch):
    """A fresh compile cache (so that every test really compiles) and no
    inherited knobs that dump, override or change the compile."""
    import os
    for name in list(os.environ):
        if name.startswith(("TRITIUM_", "TRITON_")) and name not in ("TRITIUM_HOME", "TRITIUM_PTXAS_PATH",
                                                                 "TRITON_HOME", "TRITON_PTXAS_PATH"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("TRITIUM_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _ptxas():
    path = tritium.knobs.nvidia.ptxas_path
    return path or nvptx.find_ptxas()


@pytest.mark.parametrize("target", TARGETS)
@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_compile(case, target):
    signature = _signature(case.kernel, case.signature, case.constexprs)
    src = ASTSource(case.kernel, signature, case.constexprs, case.attrs)
    k = tritium.compile(src, target=target, options={"num_warps": case.num_warps})
    arch = target.split(":")[1]
    name = case.kernel.__name__

    # Every stage ran and left its text.
    for stage in ("tir", "tgir", "llir", "ptx"):
        assert stage in k.asm, f"no {stage} stage"
    assert "layout=<" in k.asm["tgir"]
    assert f"define void @{name}(" in k.asm["llir"]
    ptx = k.asm["ptx"]
    assert re.search(rf"^\.target sm_{arch}\b", ptx, re.M), ptx[:400]
    assert re.search(rf"^\.visible \.entry {name}\(", ptx, re.M)
    assert re.search(rf"\.maxntid {case.num_warps * 32}, 1, 1", ptx)
    for pattern in case.ptx:
        assert re.search(pattern, ptx), f"the PTX of {case.id} has no {pattern!r}"
    for pattern in case.no_ptx:
        assert not re.search(pattern, ptx), f"the PTX of {case.id} has {pattern!r}"

    # Metadata: shared memory from the llir stage, the block size.
    md = k.metadata
    assert md.target.arch == int(arch) and md.num_warps == case.num_warps
    assert isinstance(md.shared, int) and 0 <= md.shared <= 228 * 1024
    assert md.shared % 16 == 0
    if case.shared is True:
        assert md.shared > 0 and "global_smem" in ptx
    elif case.shared is False:
        assert md.shared == 0
    assert k.n_max_threads == case.num_warps * 32

    if not _ptxas():
        pytest.skip("ptxas not found (install the CUDA toolkit or set TRITIUM_PTXAS_PATH): "
                    "the PTX was checked, the cubin stage did not run")
    # ptxas accepted it: a cubin, and its register count.
    assert isinstance(k.asm.get("cubin"), bytes) and k.asm["cubin"][:4] == b"\x7fELF"
    assert k.kernel == k.asm["cubin"]
    assert isinstance(k.n_regs, int) and 0 < k.n_regs <= 255
    assert isinstance(k.n_spills, int) and k.n_spills >= 0


def test_llvm_o3_knob_switches_the_pipeline(monkeypatch):
    """TRITIUM_LLVM_O3 swaps the backend's short LLVM pipeline for O3: a
    different cache key, and still a kernel ptxas accepts."""
    case = next(c for c in CASES if c.kernel.__name__ == "softmax_kernel")
    signature = _signature(case.kernel, case.signature, case.constexprs)
    src = ASTSource(case.kernel, signature, case.constexprs, case.attrs)
    lean = tritium.compile(src, target="cuda:90")
    monkeypatch.setenv("TRITIUM_LLVM_O3", "1")
    o3 = tritium.compile(src, target="cuda:90")
    assert o3.hash != lean.hash
    assert "define void @softmax_kernel(" in o3.asm["llir"]
    if _ptxas():
        assert o3.asm["cubin"][:4] == b"\x7fELF"


def _blocks(tgir):
    """The blocks of a kernel's tgir text: (label, body)."""
    parts = re.split(r"^(\S+):\n", tgir, flags=re.M)
    return list(zip(parts[1::2], parts[2::2]))


def _loop_blocks(tgir):
    """The bodies of the blocks that branch back to a block defined before them."""
    blocks = _blocks(tgir)
    labels = [b[0] for b in blocks]
    loops = []
    for i, (_, body) in enumerate(blocks):
        targets = re.findall(r"\^?(\S+?)[,(\s]", body.strip().splitlines()[-1] + " ")
        if any(t in labels[:i + 1] for t in targets):
            loops.append(body)
    return loops


@pytest.mark.parametrize("stage", [1, 3])
def test_attention_keeps_p_in_registers_and_q_in_shared_memory(stage):
    """Tutorial 6 on mma.sync: both dots take warps along M, so that the
    first one's accumulator (P, after exp2 and the f16 cast, packed two at
    a time by cvt.rn.f16x2) is the second's A operand by renaming
    registers (no shared memory), m_i and l_i broadcast with no conversion,
    and Q goes to shared memory once, before the loops (the causal
    kernel's two loops share its buffer), and is read at each first dot a
    K step at a time, so that it holds no registers across the loop (as in
    Triton). K and V come through the pipeliner's rings (3 stages: 3
    buffers of 64x64 f16 each), with one barrier per iteration."""
    consts = {"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "STAGE": stage}
    sig = _signature(attention.attn_fwd, ATT_SIG, consts)
    attrs = {n: {"divisibility": 16} for n, t in sig.items() if t.startswith("*")}
    k = tritium.compile(ASTSource(attention.attn_fwd, sig, consts, attrs), target="cuda:90",
                        options={"num_warps": 4})
    tgir = k.asm["tgir"]
    loops = _loop_blocks(tgir)
    assert len(loops) == (2 if stage == 3 else 1), [b[:80] for b in loops]
    q = re.findall(r"(%\S+) = local_alloc %\S+ : memdesc<128 x 64 x f16", tgir)
    assert len(q) == 1, q
    for body in loops:
        assert body.count("= dot ") == 2
        # K (as the first dot's B) and V: 64x64 f16 slots of their rings,
        # copied ahead; no allocation of P, nothing allocated in the loop.
        assert "local_alloc" not in body
        slots = re.findall(r"= memdesc_index %\S+, %\S+ : memdesc<(\d+) x (\d+) x f16", body)
        assert slots == [("64", "64")] * 4, slots  # read and write slot of each
        assert body.count("async_copy ") == 2 and body.count("async_wait {num=1}") == 1
        assert body.count("barrier") == 1
        # Q is read right before the first dot, after K (no barrier between
        # Q's read and the dot, so that the dot reads it a K step at a time).
        lines = body.splitlines()
        first_dot = next(i for i, line in enumerate(lines) if "= dot " in line)
        assert f"= local_load {q[0]} " in lines[first_dot - 1], lines[first_dot - 2:first_dot]
        # Nothing converts through shared memory in the loop: P's conversion
        # renames registers (the lowering's registerMapping), m_i/l_i none.
        threads = lambda line: re.search(r"lane=.*?\]\], warp=.*?\]\]", line).group(0)  # noqa: E731
        for conv in re.findall(r"= convert_layout .*", body):
            assert "x f16>" in conv and "128 x 64" in conv, conv
            assert threads(conv) == threads(lines[first_dot]), (conv, lines[first_dot])
    # The two rings per loop nest and Q.
    assert len(re.findall(r"= local_alloc : memdesc<3 x 64 x 64 x f16", tgir)) == 2 * len(loops)
    assert tgir.count("local_alloc") == 2 * len(loops) + 1
    ptx = k.asm["ptx"]
    assert ptx.count("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32") == 128 * len(loops)
    # P: 128x64 per iteration over 128 threads, two per instruction.
    assert ptx.count("cvt.rn.f16x2.f32") == 32 * len(loops)


@pytest.mark.parametrize("block_m,block_n,num_warps", [(64, 64, 4), (128, 128, 8)])
def test_attention_d128_causal_does_not_spill(block_m, block_n, num_warps):
    """ptxas -O3 spills these two (8 and 32 bytes of stack, at 255
    registers) where its register-usage level 2 fits them (233 and 250
    registers): a kernel that spills is assembled again at that level and
    the cubin that spills less is kept (assembleCubin)."""
    if not _ptxas():
        pytest.skip("ptxas not found: nothing is assembled")
    consts = {"HEAD_DIM": 128, "BLOCK_M": block_m, "BLOCK_N": block_n, "STAGE": 3}
    sig = _signature(attention.attn_fwd, ATT_SIG, consts)
    # What a launch on contiguous (Z, H, N_CTX, 128) tensors passes.
    strides = [n for n in sig if n.startswith("stride_")]
    attrs = _runtime_attrs(attention.attn_fwd, sig, [n for n in strides if n[-1] != "k"] + ["n_ctx"],
                           [n for n in strides if n in ("stride_qk", "stride_kk", "stride_vk", "stride_on")])
    k = tritium.compile(ASTSource(attention.attn_fwd, sig, consts, attrs), target="cuda:90",
                        options={"num_warps": num_warps, "num_stages": 3})
    assert k.n_spills == 0 and 200 < k.n_regs <= 255, (k.n_regs, k.n_spills)


WGMMA_CONFIGS = [(128, 128, 64, 4), (128, 256, 64, 8), (64, 128, 64, 4), (128, 64, 128, 4)]


@pytest.mark.parametrize("dt", ["fp16", "bf16"])
@pytest.mark.parametrize("bm,bn,bk,warps", WGMMA_CONFIGS, ids=[f"{a}x{b}x{c}w{d}" for a, b, c, d in WGMMA_CONFIGS])
def test_matmul_on_wgmma(dt, bm, bn, bk, warps, sass):
    """cuda:90a: the tutorial matmul's dot is wgmma.mma_async m64nNk16, one
    per 64-row block of each warpgroup and K step of 16, its operands read
    through descriptors of NVMMA buffers (no ldmatrix), between
    wgmma.fence and commit_group + wait_group 0; no proxy fence after the
    copies' wait (only stores of registers get one); ptxas takes it
    without serializing."""
    consts = {"BLOCK_M": bm, "BLOCK_N": bn, "BLOCK_K": bk, "GROUP_M": 8, "ACTIVATION": ""}
    sig = _signature(matmul.matmul_kernel, MM_SIG.format(dt), consts)
    src = ASTSource(matmul.matmul_kernel, sig, consts, _runtime_attrs(matmul.matmul_kernel, sig, **MM_RUNTIME))
    k = tritium.compile(src, target="cuda:90a", options={"num_warps": warps, "num_stages": 3})
    ptx = k.asm["ptx"]
    assert re.search(r"^\.target sm_90a", ptx, re.M)
    ty = {"fp16": "f16", "bf16": "bf16"}[dt]
    want = f"wgmma.mma_async.sync.aligned.m64n{bn}k16.f32.{ty}.{ty}"
    assert ptx.count(want) == (bm // (16 * warps)) * (bk // 16), ptx.count("wgmma.mma_async")
    assert "mma.sync" not in ptx and "ldmatrix" not in ptx
    # The K loop's group stays in flight: the loop waits for the one
    # before it, the exit for the last one.
    body = ptx[ptx.index("wgmma.fence.sync.aligned"):]
    assert body.index("wgmma.commit_group.sync.aligned") < body.index("wgmma.wait_group.sync.aligned 1")
    assert body.index("wgmma.wait_group.sync.aligned 1") < body.index("wgmma.wait_group.sync.aligned 0")
    assert "fence.proxy.async" not in ptx and "global_smem" in ptx
    assert re.search(r"\.align 1024 \.b8 global_smem", ptx)
    # Several warpgroups: each one's index is read once, before the loop.
    loop = ptx[ptx.index("cp.async.wait_group"):]
    assert ("shfl.sync.idx" in ptx) == (warps > 4) and "shfl.sync" not in loop
    if not _ptxas():
        pytest.skip("ptxas not found: the PTX was checked")
    log = nvptx.assemble_cubin(ptx, "cuda:90a", _ptxas())["log"]
    assert "C7510" not in log and "serializ" not in log, log
    assert k.n_spills == 0
    _check_sass_hgmma(sass, k.asm["cubin"], f"HGMMA.64x{bn}x16.F32" + (".BF16" if dt == "bf16" else ""),
                      (bm // (16 * warps)) * (bk // 16))


def _check_sass_hgmma(sass, cubin, instr, count):
    """Where the CUDA toolkit has cuobjdump (not in CI): the SASS has
    count times instr (the tensor cores' own wgmma), nothing else."""
    text = sass(cubin)
    if text is not None:
        assert re.findall(r"HGMMA\.[\w.]+", text) == [instr] * count


@pytest.mark.parametrize("stage", [1, 3])
def test_attention_on_wgmma(stage, sass):
    """cuda:90a: both of attention's dots run on wgmma, Q·Kᵀ with both
    operands in NVMMA buffers, P·V with P (mma.sync's A fragment, which is
    wgmma's) from registers, packed by cvt.rn.f16x2; the first K step of
    Q·Kᵀ ignores its zero accumulator (scale-d 0); nothing spills and
    ptxas fences nothing on its own (C7519) nor waits (C7517, C7510)."""
    consts = {"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "STAGE": stage}
    sig = _signature(attention.attn_fwd, ATT_SIG, consts)
    strides = [n for n in sig if n.startswith("stride_")]
    attrs = _runtime_attrs(attention.attn_fwd, sig, [n for n in strides if n[-1] != "k"] + ["n_ctx"],
                           [n for n in strides if n in ("stride_qk", "stride_kk", "stride_vk", "stride_on")])
    k = tritium.compile(ASTSource(attention.attn_fwd, sig, consts, attrs), target="cuda:90a",
                        options={"num_warps": 4, "num_stages": 3})
    ptx = k.asm["ptx"]
    loops = 2 if stage == 3 else 1
    # Per loop: Q·Kᵀ 2 row blocks x 4 K steps of 64x64; P·V the same.
    assert ptx.count("wgmma.mma_async.sync.aligned.m64n64k16.f32.f16.f16") == 16 * loops
    assert len(re.findall(r"wgmma\.mma_async\S+ \{[^}]*\}, \{%r\d+, %r\d+, %r\d+, %r\d+\}", ptx)) == 8 * loops
    assert "mma.sync" not in ptx
    # P·V's accumulator is rescaled in the loop: its group is waited for
    # in its iteration (none stays in flight).
    assert "wgmma.wait_group.sync.aligned 1" not in ptx
    if not _ptxas():
        pytest.skip("ptxas not found: the PTX was checked")
    log = nvptx.assemble_cubin(ptx, "cuda:90a", _ptxas())["log"]
    assert not re.search(r"C75(10|17|19)", log), log
    assert k.n_spills == 0
    _check_sass_hgmma(sass, k.asm["cubin"], "HGMMA.64x64x16.F32", 16 * loops)


#: B K-major (strides of 1 along K): what puts 8-bit operands on wgmma.
K_MAJOR_B = dict(ints_div16=("M", "N", "K", "stride_am", "stride_bn", "stride_cm"),
                 ints_one=("stride_ak", "stride_bk", "stride_cn"))


def _fp8_matmul_sm90a(dt, runtime=K_MAJOR_B):
    """The tutorial matmul on 8-bit operands of type ``dt``, 128x128x128 on
    4 warps and 3 stages, compiled for cuda:90a."""
    consts = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 128, "GROUP_M": 8, "ACTIVATION": ""}
    sig = _signature(matmul.matmul_kernel, MM_SIG.format(dt), consts)
    return tritium.compile(ASTSource(matmul.matmul_kernel, sig, consts,
                                     _runtime_attrs(matmul.matmul_kernel, sig, **runtime)),
                           target="cuda:90a", options={"num_warps": 4, "num_stages": 3})


@pytest.mark.parametrize("dt", ["fp8e4nv", "fp8e5"])
def test_fp8_matmul_on_wgmma(dt):
    """fp8 (either kind) on cuda:90a: wgmma k32 when both operands are
    K-major (B passed transposed, as Triton's fp8 tutorial does), mma.sync
    (through f16) when B has N contiguous: wgmma has no transpose for
    8-bit inputs."""
    ty = {"fp8e4nv": "e4m3", "fp8e5": "e5m2"}[dt]
    k = _fp8_matmul_sm90a(dt)
    ptx = k.asm["ptx"]
    assert ptx.count(f"wgmma.mma_async.sync.aligned.m64n128k32.f32.{ty}.{ty}") == 2 * 4
    assert re.search(r"wgmma\.mma_async\S+ \{[^}]*\}, %rd\d+, %rd\d+, p, 1, 1;", ptx)
    assert "mma.sync" not in ptx and k.n_spills == 0
    k = _fp8_matmul_sm90a(dt, MM_RUNTIME)
    assert "wgmma" not in k.asm["ptx"] and "mma.sync.aligned.m16n8k16" in k.asm["ptx"]


def test_fp8e4b15_matmul_takes_mma_sync_on_sm90a():
    """wgmma has no e4b15: the K-major matmul that takes wgmma k32 for the
    other fp8 kinds (test_fp8_matmul_on_wgmma) takes mma.sync on f16, the
    operands upcast in registers, and ptxas takes it."""
    k = _fp8_matmul_sm90a("fp8e4b15")
    ptx = k.asm["ptx"]
    assert "wgmma" not in ptx and "mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32" in ptx
    if not _ptxas():
        pytest.skip("ptxas not found: the PTX was checked")
    assert k.asm.get("cubin", b"")[:4] == b"\x7fELF"


def test_wgmma_reads_rows_of_64_bytes_by_descriptor():
    """Rows of 64 bytes (BLOCK_K 32 of f16): A (K-major) takes wgmma's
    64-byte swizzle and goes by descriptor too (swizzle 2, stride byte
    offset 512, leading 16: 0x8000002000010000), B (128 N a row) the
    128-byte one; no ldmatrix.
    cuda:90 never uses wgmma."""
    consts = {"BLOCK_M": 128, "BLOCK_N": 128, "BLOCK_K": 32, "GROUP_M": 8, "ACTIVATION": ""}
    sig = _signature(matmul.matmul_kernel, MM_SIG.format("fp16"), consts)
    attrs = _runtime_attrs(matmul.matmul_kernel, sig, **MM_RUNTIME)
    k = tritium.compile(ASTSource(matmul.matmul_kernel, sig, consts, attrs), target="cuda:90a",
                        options={"num_warps": 4})
    ptx = k.asm["ptx"]
    assert len(re.findall(r"wgmma\.mma_async\S+ \{[^}]*\}, %rd\d+, %rd\d+, p, 1, 1, 0, 1;", ptx)) == 4
    # A's descriptors: + 2 (32 bytes) for the second K step, + 256 (64 rows
    # of 64 bytes) for the second 64-row block, both folded in by LLVM.
    for bits in (-9223371899415756800, -9223371899415756798, -9223371899415756544,
                 -9223371899415756542):
        assert re.search(rf"(or|add)\.[bs]64\s+%rd\d+, %rd\d+, {bits};", ptx), bits
    assert "ldmatrix" not in ptx and "mma.sync" not in ptx
    k = tritium.compile(ASTSource(matmul.matmul_kernel, sig, consts, attrs), target="cuda:90",
                        options={"num_warps": 4})
    assert "mma.sync.aligned.m16n8k16" in k.asm["ptx"] and "wgmma" not in k.asm["ptx"]
    consts["BLOCK_K"] = 64
    k = tritium.compile(ASTSource(matmul.matmul_kernel, sig, consts, attrs), target="cuda:90",
                        options={"num_warps": 4})
    assert "wgmma" not in k.asm["ptx"] and "fence.proxy" not in k.asm["ptx"]


def test_too_much_shared_memory_is_out_of_resources():
    """A kernel needing more shared memory than a block of the target may
    have raises OutOfResources (from the C++ lowering, naming the kernel) at
    compile time, before lowering and ptxas (the autotuner
    skips such a config, as Triton's does at load); the limit is the
    target's (227 KiB on sm_90, 163 KiB on sm_80)."""
    assert nvptx.max_shared_bytes("cuda:90") == 227 * 1024
    assert nvptx.max_shared_bytes("cuda:80") == 163 * 1024
    assert nvptx.max_shared_bytes("cuda:75") == 64 * 1024
    case = next(c for c in CASES if c.id == "matmul-fp32-inputs")
    # The FMA dot stages A and B: 256x128 and 128x256 f32, 256 KiB.
    consts = {**case.constexprs, "BLOCK_M": 256, "BLOCK_N": 256, "BLOCK_K": 128}
    src = ASTSource(case.kernel, _signature(case.kernel, case.signature, consts), consts)
    for target in ("cuda:90", "cuda:80"):
        with pytest.raises(tritium.OutOfResources) as e:
            tritium.compile(src, target=target)
        assert e.value.name == "shared memory"
        assert e.value.limit == nvptx.max_shared_bytes(target)
        assert e.value.required > e.value.limit
        assert "out of resource: shared memory in kernel 'matmul_kernel'" in str(e.value)


@tritium.jit
def gather_beside_vector(X, W, Y, n, per_channel, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs, mask=offs < n, other=0.0)
    w = tl.load(W + offs // per_channel, mask=offs < n)
    tl.store(Y + offs, x * w, mask=offs < n)


@pytest.mark.parametrize("target", TARGETS + ["cuda:90a"])
def test_gather_takes_the_vector_loads_layout(target):
    """Liger's group norm at 65,536 elements a block: W, gathered by
    channel, is loaded in X's layout (4 a thread, as Triton's coalescing
    widens it), so x * w needs no conversion. Converted, it needed 256 KiB of
    shared memory and was refused as out of resources."""
    sig = {"X": "*fp32", "W": "*fp32", "Y": "*fp32", "n": "i32", "per_channel": "i32"}
    attrs = {k: D16 for k in ("X", "W", "Y", "n", "per_channel")}
    src = ASTSource(gather_beside_vector, sig, {"BLOCK": 65536}, attrs)
    k = tritium.compile(src, target=target, options={"num_warps": 4})
    assert k.metadata.shared == 0
    assert "convert_layout" not in k.asm["tgir"]
    assert re.search(V4, k.asm["ptx"])


@tritium.jit
def thin_block(X, Y, N: tl.constexpr):
    offs = tl.arange(0, N)
    x = tl.load(X + offs)
    tl.store(Y + offs, x * 2 + tl.sum(x, axis=0))


@pytest.mark.parametrize("target,warps", [("cuda:80", 4), ("hip:gfx90a", 2)])
def test_block_spread_too_thin_is_out_of_resources(monkeypatch, target, warps):
    """2^20 f32 on 128 threads holds 8,192 elements in each: unrolled, that
    is 1.7 MB of PTX and five minutes of ptxas. It is refused before
    lowering as OutOfResources naming the compiler's limit (4,096 a
    thread), which the autotuner skips, in well under a second."""
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", target)
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    t0 = time.perf_counter()
    with pytest.raises(tritium.OutOfResources) as e:
        thin_block.warmup(MockTensor("fp32"), MockTensor("fp32"), N=1 << 20, grid=(1, ), num_warps=warps)
    assert time.perf_counter() - t0 < 10
    assert (e.value.name, e.value.required, e.value.limit) == ("elements of one block per thread", 8192, 4096)
    assert "Compiler limit: 4096" in str(e.value)


@tritium.jit
def unknown_libdevice(X):
    x = tl.load(X)
    tl.store(X, tl.extern_elementwise("libdevice", "", [x], {(tl.float32, ): ("__nv_nosuchfn", tl.float32)},
                                      is_pure=True))


def test_unknown_libdevice_function_is_located(monkeypatch):
    """libdevice has no __nv_nosuchfn: found when linking it into the
    lowered module, and reported at the kernel line that called it."""
    from tritium.runtime.jit import MockTensor
    monkeypatch.setenv("TRITIUM_DEFAULT_BACKEND", "cuda:80")
    monkeypatch.setenv("TRITIUM_ALWAYS_COMPILE", "1")
    with pytest.raises(tritium.CompilationError) as e:
        unknown_libdevice.warmup(MockTensor("fp32"), grid=(1, ))
    assert "undefined function '__nv_nosuchfn': libdevice has no such function" in str(e.value)
    assert e.value.line == unknown_libdevice.fn.__code__.co_firstlineno + 3


@tritium.jit
def gdc_add(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr, USE_GDC: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    if USE_GDC:
        tl.extra.cuda.gdc_wait()
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    if USE_GDC:
        tl.extra.cuda.gdc_launch_dependents()
    tl.store(out_ptr + offs, x + y, mask=mask)


@pytest.mark.parametrize("target", ["cuda:90", "cuda:90a", "cuda:80"])
def test_grid_dependency_control_is_griddepcontrol_on_sm90(target):
    """Programmatic dependent launch (tutorial 11): gdc_wait comes before
    the loads it guards, gdc_launch_dependents where the kernel put it, and
    ptxas takes them; before sm_90 there is no such launch and no code."""
    sig = {"x_ptr": "*fp32", "y_ptr": "*fp32", "out_ptr": "*fp32", "n": "i32"}
    attrs = {n: D16 for n in ("x_ptr", "y_ptr", "out_ptr")}
    k = tritium.compile(ASTSource(gdc_add, sig, {"BLOCK": 1024, "USE_GDC": True}, attrs),
                        target=target, options={"launch_pdl": True})
    ptx = k.asm["ptx"]
    assert k.metadata.launch_pdl is True
    if target == "cuda:80":
        assert "griddepcontrol" not in ptx
        return
    wait, launch = ptx.index("griddepcontrol.wait;"), ptx.index("griddepcontrol.launch_dependents;")
    loads = [m.start() for m in re.finditer(r"ld\.global", ptx)]
    assert loads and wait < min(loads) and max(loads) < launch < ptx.index("st.global")
    if _ptxas():
        assert k.asm.get("cubin"), "ptxas did not take griddepcontrol"
    plain = tritium.compile(ASTSource(gdc_add, sig, {"BLOCK": 1024, "USE_GDC": False}, attrs),
                            target=target)
    assert "griddepcontrol" not in plain.asm["ptx"]


@pytest.mark.parametrize("stages,warps", [(2, 4), (3, 8)])
def test_attention_with_transposed_descriptor_k_compiles_for_sm90a(stages, warps):
    """Tutorial 06's forward loop (K from a descriptor, transposed in
    registers, so only V is staged) crashed the sm_90a lowering: the
    pipeliner put V's copies after the first dot, before the slot they
    write was computed. Its numbers are checked by
    test_tensor_descriptors.py::test_attention_with_descriptors."""
    import importlib
    import os
    import sys
    sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
    k_attention_desc = importlib.import_module("language.test_tensor_descriptors").k_attention_desc
    sig = {"Q": "*fp16", "K": "*fp16", "V": "*fp16", "O": "*fp32", "N": "i32"}
    k = tritium.compile(ASTSource(tritium.jit(k_attention_desc), sig, {"BM": 128, "BN": 64, "D": 64}),
                        target="cuda:90a", options={"num_warps": warps, "num_stages": stages})
    ptx = k.asm["ptx"]
    assert "wgmma.mma_async" in ptx and "cp.async" in ptx
