"""The tutorial kernels compile to IR that passes the verifier, for several
specializations each, and have the shape their algorithm needs."""

import re

import pytest

from tir_helpers import count, function, to_ir

import attention
import block_ptr_matmul
import dropout
import layer_norm
import matmul
import softmax
import vector_add

I32 = ",i32"


@pytest.mark.parametrize("dtype", ["fp32", "fp16", "bf16"])
@pytest.mark.parametrize("block", [128, 1024])
def test_vector_add(dtype, block):
    ir = to_ir(vector_add.add_kernel, f"*{dtype},*{dtype},*{dtype},i32", {"BLOCK": block})
    assert count(ir, r"= load ") == 2 and count(ir, r"^\s*store ") == 1
    assert re.search(rf"= fadd %\S+, %\S+ : <{block} x {dtype.replace('fp', 'f')}>", ir)


def test_vector_add_specializations():
    ir = to_ir(vector_add.add_kernel, "*fp32,*fp32,*fp32,i32", {"BLOCK": 256},
               attrs={0: {"divisibility": 16}, 1: {"divisibility": 16}, 2: {"divisibility": 16},
                      3: {"divisibility": 16}})
    assert count(ir.splitlines()[0], r"divisibility=16") == 4


@pytest.mark.parametrize("block,stages", [(128, 1), (1024, 3)])
def test_fused_softmax(block, stages):
    ir = to_ir(softmax.softmax_kernel, "*fp32,*fp32" + I32 * 4, {"BLOCK": block, "NUM_STAGES": stages})
    assert count(ir, r"cond_br ") == 1  # the persistent row loop
    assert "constant -inf" in ir
    assert re.search(r"reduce %\S+ \{axis=0, kind=fmax\} : f32", ir)
    assert re.search(r"reduce %\S+ \{axis=0, kind=fadd\} : f32", ir)
    assert re.search(rf"= exp %\S+ : <{block} x f32>", ir)


@pytest.mark.parametrize("activation", ["", "leaky_relu"])
def test_matmul_grouped(activation):
    consts = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32, "GROUP_M": 8, "ACTIVATION": activation}
    ir = to_ir(matmul.matmul_kernel, "*fp16,*fp16,*fp16" + I32 * 9, consts)
    body = ir[ir.index("for.header:"):]
    assert re.search(r"= dot %\S+, %\S+, %\S+ .*: <64 x 64 x f32>", body)
    assert re.search(r"= phi .* : <64 x 64 x f32>", ir)  # the accumulator
    assert count(ir, r"= phi .* : <(64 x 32|32 x 64) x ptr<f16>>") == 2  # the moving tile pointers
    assert re.search(r"fptrunc %\S+ : <64 x 64 x f16>", ir)
    assert ("call @leaky_relu" in ir) == (activation == "leaky_relu")
    assert re.search(r"= smin ", ir)  # min() of the group size


def test_matmul_fp32_inputs():
    consts = {"BLOCK_M": 32, "BLOCK_N": 32, "BLOCK_K": 16, "GROUP_M": 4, "ACTIVATION": ""}
    ir = to_ir(matmul.matmul_kernel, "*fp32,*fp32,*fp16" + I32 * 9, consts)
    assert re.search(r"= dot .*: <32 x 32 x f32>", ir)


def test_low_memory_dropout():
    ir = to_ir(dropout.seeded_dropout, "*fp32,*fp32,i32,fp32,i32", {"BLOCK": 1024})
    assert count(ir, r"= umulhi ") == 20  # Philox 4x32, 10 rounds
    assert re.search(r"fcmp ogt %\S+, %\S+ : <1024 x i1>", ir)
    assert re.search(r"= select .* : <1024 x f32>", ir)


@pytest.mark.parametrize("dtype", ["fp16", "fp32"])
def test_layer_norm_forward(dtype):
    ir = to_ir(layer_norm.layer_norm_fwd, f"*{dtype},*{dtype},*{dtype},*{dtype},*fp32,*fp32,i32,i32,fp32",
               {"BLOCK": 512})
    assert count(ir, r"cond_br ") == 3  # mean, variance, normalize
    assert count(ir, r"= rsqrt |= sqrt ") == 1


def test_layer_norm_backward_with_lock():
    ir = to_ir(layer_norm.layer_norm_bwd_dx, "*fp16,*fp16,*fp16,*fp16,*fp16,*fp16,*fp32,*fp32,*i32,i32,i32",
               {"GROUP": 64, "BLOCK": 1024})
    header = ir[ir.index("while.header:"):]
    assert re.search(r"atomic_cas %\S+, %\S+, %\S+ \{sem=acq_rel, scope=gpu\} : i32", header.split("loop.body:")[0])
    assert count(ir, r"atomic_rmw xchg") == 2
    assert count(ir, r"= phi .* : <1024 x f32>") == 2  # partial dw/db merged after the if
    ir2 = to_ir(layer_norm.layer_norm_bwd_dwdb, "*fp16,*fp16,*fp16,*fp16,i32,i32", {"BLOCK_M": 32, "BLOCK_N": 128})
    assert count(ir2, r"= phi .* : <32 x 128 x f32>") == 2


@pytest.mark.parametrize("stage", [1, 3])
def test_attention_forward(stage):
    consts = {"HEAD_DIM": 64, "BLOCK_M": 128, "BLOCK_N": 64, "STAGE": stage}
    ir = to_ir(attention.attn_fwd, "*fp16,*fp16,*fp16,fp32,*fp32,*fp16" + I32 * 18, consts)
    inners = re.findall(r"^func @(attn_inner\S*)\(", ir, re.M)
    assert len(inners) == (2 if stage == 3 else 1)
    inner = function(ir, inners[0])
    assert count(inner, r"= dot ") == 2 and count(inner, r"= exp2 ") == 2
    assert re.search(r"-> \(<128 x 64 x f32>, <128 x f32>, <128 x f32>\)", inner)
    assert re.search(r"fptrunc %\S+ : <128 x 64 x f16>", ir)  # the store converts to Out's type


def test_block_pointer_matmul():
    consts = {"BLOCK_M": 64, "BLOCK_N": 64, "BLOCK_K": 32}
    ir = to_ir(block_ptr_matmul.matmul_block_ptr, "*fp16,*fp16,*fp16" + I32 * 9, consts)
    body = ir[ir.index("loop.body:"):ir.index("loop.exit:")]
    # Block pointers are tensor descriptors whose loads check both dimensions
    # (boundary_check=(0, 1)); the advanced offsets are i32 phis.
    assert count(ir, r"= make_tensor_descriptor ") == 3
    assert count(body, r"= descriptor_load %\S+, %\S+, %\S+ \{boundary=\[0, 1\]\} "
                       r": <(64 x 32|32 x 64) x f16>") == 2
    assert re.search(r"= dot .*: <64 x 64 x f32>", body)
    assert count(ir, r"= phi .* : i32") >= 5  # four block offsets and the induction variable
    assert re.search(r"^ *descriptor_store %\S+, %\S+, %\S+, %\S+ \{boundary=\[0, 1\]\}$", ir, re.M)
