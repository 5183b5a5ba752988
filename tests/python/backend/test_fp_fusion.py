"""enable_fp_fusion (issue 15; Triton's launch option and
TRITIUM_DEFAULT_FP_FUSION): on, a*b+c is one fma; off, the product and the
sum are rounded on their own: mul.rn/add.rn in the PTX and ptxas run with
--fmad=false, v_mul/v_add on AMD. Before, the option was taken and dropped."""

import re

import pytest

import tritium
import tritium.language as tl
from tritium.compiler.compiler import ASTSource

FMA = re.compile(r"(mad|fma)\.r[nzmp]\.(ftz\.)?f32")


@tritium.jit
def mul_add(data):
    ptrs = data + tl.arange(0, 128)
    tl.store(ptrs, tl.load(ptrs) * 1.5 + 1.0)


def _compile(target, **options):
    return tritium.compile(ASTSource(mul_add, {"data": "*fp32"}, {}), target=target, options=options)


@pytest.mark.parametrize("fusion", [True, False])
def test_ptx_fuses_only_when_asked(fusion):
    ptx = _compile("cuda:90a", enable_fp_fusion=fusion).asm["ptx"]
    assert bool(FMA.search(ptx)) == fusion
    if not fusion:
        assert "mul.rn.f32" in ptx and "add.rn.f32" in ptx


@pytest.mark.parametrize("fusion", [True, False])
def test_amdgcn_fuses_only_when_asked(fusion):
    asm = _compile("hip:gfx90a", enable_fp_fusion=fusion).asm["amdgcn"]
    assert bool(re.search(r"\bv_(fma|fmac|mad)_f32", asm)) == fusion


def test_the_knob_sets_the_default(monkeypatch):
    monkeypatch.setenv("TRITIUM_DEFAULT_FP_FUSION", "0")
    assert not FMA.search(_compile("cuda:90a").asm["ptx"])
    monkeypatch.setenv("TRITIUM_DEFAULT_FP_FUSION", "1")
    assert FMA.search(_compile("cuda:90a").asm["ptx"])


# enable_reflect_ftz (issue 15), Triton's CUDA option, on by default: exp2 is
# ex2.approx.ftz (as libdevice's exp2f under __CUDA_FTZ=1) and libdevice's
# f32 functions take their flushing branches; off, neither flushes.

@tritium.jit
def exp2_erf(data):
    ptrs = data + tl.arange(0, 128)
    x = tl.load(ptrs)
    tl.store(ptrs, tl.math.exp2(x) + tl.math.erf(x))


@pytest.mark.parametrize("ftz", [None, True, False])
def test_reflect_ftz(ftz):
    options = {} if ftz is None else {"enable_reflect_ftz": ftz}
    src = ASTSource(exp2_erf, {"data": "*fp32"}, {})
    ptx = tritium.compile(src, target="cuda:90a", options=options).asm["ptx"]
    flushes = ftz is not False
    assert ("ex2.approx.f32" in ptx) != flushes  # exp2's (erff's own ex2 always flushes)
    erff = set(re.findall(r"\b[a-z0-9]+(?:\.[a-z0-9]+)*\.ftz\.f32", ptx)) - {"ex2.approx.ftz.f32"}
    assert bool(erff) == flushes, erff  # abs.ftz.f32, fma.rn.ftz.f32 in its flushing branch


def test_reflect_ftz_is_cuda_only():
    with pytest.raises(TypeError, match="enable_reflect_ftz"):
        tritium.compile(ASTSource(exp2_erf, {"data": "*fp32"}, {}), target="hip:gfx90a",
                        options={"enable_reflect_ftz": False})
