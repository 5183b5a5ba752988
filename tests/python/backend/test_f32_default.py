"""TRITIUM_F32_DEFAULT (TRITON_F32_DEFAULT) and the launch option
default_dot_input_precision (issue 15): the input_precision of a tl.dot on
fp32 operands that does not name one. tf32 by default (a tensor-core mma);
ieee keeps fp32 products (FMA); a dot that names its precision keeps it."""

import pytest

import tritium
import tritium.language as tl
from tritium.compiler.compiler import ASTSource, OptionError


@tritium.jit
def dot16(a, b, c, PRECISION: tl.constexpr):
    i = tl.arange(0, 16)
    x = tl.load(a + i[:, None] * 16 + i[None, :])
    y = tl.load(b + i[:, None] * 16 + i[None, :])
    if PRECISION == "":
        z = tl.dot(x, y)
    else:
        z = tl.dot(x, y, input_precision=PRECISION)
    tl.store(c + i[:, None] * 16 + i[None, :], z)


def _ptx(precision="", **options):
    src = ASTSource(dot16, {"a": "*fp32", "b": "*fp32", "c": "*fp32"}, {"PRECISION": precision})
    return tritium.compile(src, target="cuda:80", options=options).asm["ptx"]


def _uses_tf32(ptx):
    return "mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32" in ptx


def test_tf32_by_default():
    assert _uses_tf32(_ptx())


def test_the_option_and_the_knob_set_the_default(monkeypatch):
    assert not _uses_tf32(_ptx(default_dot_input_precision="ieee"))
    monkeypatch.setenv("TRITIUM_F32_DEFAULT", "ieee")
    assert not _uses_tf32(_ptx())
    assert _uses_tf32(_ptx(default_dot_input_precision="tf32"))  # the option wins
    assert _uses_tf32(_ptx("tf32"))  # and a dot's own precision over both
    monkeypatch.delenv("TRITIUM_F32_DEFAULT")
    monkeypatch.setenv("TRITON_F32_DEFAULT", "ieee")  # Triton's spelling
    assert not _uses_tf32(_ptx())


def test_a_bad_default_is_refused(monkeypatch):
    with pytest.raises(OptionError, match="default_dot_input_precision must be one of tf32, tf32x3, "
                                          "ieee, bf16x3, bf16x6, got 'fp64'"):
        _ptx(default_dot_input_precision="fp64")
    monkeypatch.setenv("TRITIUM_F32_DEFAULT", "tf64")
    with pytest.raises(OptionError, match="got 'tf64'"):
        _ptx()
