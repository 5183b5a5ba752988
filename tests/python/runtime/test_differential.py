"""The interpreter and the cpu target agree on random kernels
(tests/fuzz/differential.py: elementwise arithmetic of every integer and float
type, casts, compares, reductions and scans, reshapes, sorts, gathers,
loops, calls, atomics, several programs): a fixed seed in the suite, more
seeds by hand. Both run the same C++ semantics and lowering up to the
evaluation, so a difference is a bug in one of them."""

import importlib.util
import os

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("differential",
                                              os.path.join(HERE, "..", "..", "fuzz", "differential.py"))
differential = importlib.util.module_from_spec(spec)
spec.loader.exec_module(differential)


@pytest.mark.parametrize("seed,big", [(7, False), (8, True)])
def test_interpreter_and_cpu_target_agree(tmp_path, monkeypatch, seed, big):
    monkeypatch.setenv("TRITIUM_DEFAULT_FP_FUSION", "0")  # the interpreter fuses no mul+add
    stats, findings = differential.run(seed, 12 if big else 40, str(tmp_path), big=big, log=lambda m: None)
    assert not findings, "\n\n".join(findings)
    assert stats["same"] >= (8 if big else 30)  # most kernels are valid programs
